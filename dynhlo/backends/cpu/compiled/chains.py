"""Chains of data-movement steps of a spec (fast.Fast) run as one step: which element of
which input each element of the chain's last value is, worked out once per value of the
chain's integer inputs, then one copy.

JAX writes small things as several movement steps: `x[i]` of a loop's input as a gather of
the row, a gather of its valid rows, a gather of its columns and a dynamic-reshape; the
loop's output written as a broadcast, set-dimension-size, pad, dynamic-update-slice,
set-dimension-size and slice. Each is one specialized step (special.py), each a copy or two
and ~2 us of Python per iteration. `fuse` finds such chains among a spec's specialized
steps: lowerings of _MOVES (gather, dynamic-slice, slice, dynamic-reshape, reshape,
broadcast, transpose, pad, set-dimension-size, dynamic-update-slice, concatenate) whose
every value but the last is read only by the chain, and replaces them with one _SPECIAL
step at the last one's place.

What the step computes is found by running the chain's own specialized functions (the
ones the spec would run) on the flat positions of its float inputs, counted from 1 (int64,
input j's after input j-1's), with its integer inputs (indices, starts, sizes: the "keys")
as given: the result says, per element, which input element it is (0: something else — a
pad value, a zero of a set-dimension-size — where the chain is not fused for those keys).
That placement is kept per key value (a loop's counter runs through the same few values);
a call then copies: an input of the result's shape kept in place with the others'
elements put in (`x` with its row i written), a single input's strided view (a broadcast)
or its positions taken, or each input's box (a row, a block) or positions into their
places. The same
elements as the steps' in the same places (copies are exact), C-ordered as the last step's
recorded value must be. Only chains whose last value is already a new array (not a view of
an input: the chain copied it) of at most _TRACED elements, from inputs of at most as many,
are fused: the step copies no more than the steps did, and the trace stays small. Folded
float operands (a held update, a table) and pad values other than 0 would enter the trace
as numbers, not positions: such chains are not fused.
A key value whose placement reads padding, or a call whose inputs are not of the recorded
shapes, runs the chain's steps (the op's last field, after the usual _SPECIAL or
_SPECIAL_ONE fields: runner._run_fast).
"""

from __future__ import annotations

import numpy as np

from ....hlo.opcodes import Opcode
from .special import _box
from .steps import _RESHAPE, _SPECIAL, _SPECIAL_ONE, _SPECIAL_TWO

# per opcode: the operand positions whose elements move (the others: integer keys)
_MOVES = {Opcode.GATHER: (0,), Opcode.DYNAMIC_SLICE: (0,), Opcode.SLICE: (0,),
          Opcode.DYNAMIC_RESHAPE: (0,), Opcode.RESHAPE: (0,), Opcode.BROADCAST: (0,),
          Opcode.TRANSPOSE: (0,), Opcode.PAD: (0,), Opcode.SET_DIMENSION_SIZE: (0,),
          Opcode.DYNAMIC_UPDATE_SLICE: (0, 1), Opcode.CONCATENATE: None}   # None: all
_KINDS = (_SPECIAL, _SPECIAL_ONE, _SPECIAL_TWO)
_KEPT = 64   # key values whose placement a fused step keeps (full: it starts over)
_TRACED = 1 << 16   # the most elements of a fused chain's inputs (traced) and its result


def _parts(op) -> tuple:
    """(fn, sources, shapes) of a specialized op."""
    if op[0] == _SPECIAL_ONE:
        return op[2], (op[3],), [op[4]]
    if op[0] == _SPECIAL_TWO:
        return op[2], (op[3], op[4]), [op[5], op[6]]
    return op[2], tuple(op[3]), list(op[4])


def _moving(inst, sources, values) -> dict | None:
    """{source: True (its elements move) / False (an integer key)} of a movement step, or
    None when it cannot be traced (a moving operand folded, a key not integer, a pad value
    other than 0 or read per call)."""
    positions = _MOVES.get(inst.opcode, ())
    roles = {}
    for k, operand in enumerate(inst.operands):
        moves = positions is None or k in positions
        if inst.opcode is Opcode.PAD and k == 1:
            fill = values.get(operand)
            # (a zero: not a position, so never fused where it shows; a complex zero
            # would be cast into the trace's int64 positions, a ComplexWarning per key)
            if operand in sources or fill is None or np.iscomplexobj(fill) or \
                    np.asarray(fill).item() != 0:
                return None
            continue
        if operand not in sources:
            if moves:
                return None   # a folded value moving: a number in the trace
            continue
        if roles.get(operand, moves) != moves:
            return None
        roles[operand] = moves
        if not moves and operand.shape.element_type[0] not in "su" and \
                operand.shape.element_type != "pred":
            return None
    return roles


# ops that never hand the rest of a call to the steps (a decline runs their own step)
_NO_REST = frozenset(_KINDS) | {_RESHAPE}


def _uninterrupted(ops: list, members: set) -> bool:
    """Whether every op between a chain's first and last member is a member or one of
    _NO_REST: a rest of the call handed to the steps there would start inside the chain,
    whose inner values the fused op never makes."""
    return all(n in members or ops[n][0] in _NO_REST
               for n in range(min(members), max(members) + 1))


def fuse(ops: list, where: list, steps: list, values: dict, instructions, root,
         keep: frozenset, folded: dict) -> tuple[list, list]:
    """(ops, where) with each chain of two or more movement steps (module docstring) made
    one _SPECIAL op `(kind, last, fn, sources, shapes, the chain's steps)`. `steps`: the
    computation's steps (where[n] indexes them); `values`: the call the spec was made
    from; `keep`: instructions that must stay steps of their own (sizes read them)."""
    users: dict = {}
    for inst in instructions:
        for operand in inst.operands:
            users.setdefault(operand, set()).add(inst)
    candidates = {}
    for n, op in enumerate(ops):
        inst = op[1]
        if op[0] in _KINDS and inst.opcode in _MOVES and inst not in keep and \
                values.get(inst).__class__ is np.ndarray:
            fn, sources, shapes = _parts(op)
            roles = _moving(inst, sources, values)
            if roles is not None:
                candidates[inst] = (n, fn, sources, roles)
    # a member feeds only members (and is not the root) — or steps the spec folded that
    # come before the chain's end (a size read off it: no step after the fused one reads
    # it, even when a call hands its rest to the steps); the tail feeds something else
    index = {step[1]: k for k, step in enumerate(steps)}
    order = {op[1]: where[n] for n, op in enumerate(ops)}

    def feeds_only_chain(inst) -> bool:
        readers = users.get(inst)
        if inst is root or not readers:
            return False
        last = max(order[r] for r in readers if r in candidates) \
            if readers & candidates.keys() else -1
        return all(r in candidates or (r in folded and index.get(r, -1) < last)
                   for r in readers)
    inner = {inst for inst in candidates if feeds_only_chain(inst)}
    chains = []
    for tail in candidates:
        if tail in inner:
            continue
        members, stack = set(), [tail]
        while stack:
            inst = stack.pop()
            if inst in members:
                continue
            members.add(inst)
            for source, moves in candidates[inst][3].items():
                if moves and source in inner:
                    stack.append(source)
        if len(members) > 1 and _uninterrupted(ops, {candidates[m][0] for m in members}):
            chains.append((tail, sorted(members, key=lambda i: candidates[i][0])))
    if not chains:
        return ops, where
    dropped, replaced, fused = set(), {}, {}
    for tail, members in chains:
        made = _chain(members, candidates, values, steps, where)
        if made is not None:
            replaced[candidates[tail][0]] = made
            fused[tail] = set(members)
            dropped.update(m for m in members if m is not tail)
    # chains may share members (a value two chains move on): a member stays a step of its
    # own where a reader runs as its own step, or is the tail of a chain without it
    # (one whose chain was not fused, or a shared member kept): it reads the value
    kept = True
    while kept:
        kept = False
        for member in list(dropped):
            if any(r in candidates and r not in dropped and member not in fused.get(r, ())
                   for r in users.get(member, ())):
                dropped.discard(member)
                kept = True
    dropped = {candidates[m][0] for m in dropped}
    out_ops, out_where = [], []
    for n, op in enumerate(ops):
        if n in dropped:
            continue
        out_ops.append(replaced.get(n, op))
        out_where.append(where[n])
    return out_ops, out_where


def _chain(members: list, candidates: dict, values: dict, steps: list, where: list):
    """The fused op of a chain (`members` in step order, the last its tail), or None."""
    member_set = set(members)
    inputs, keys = [], []   # external moving values, integer keys (first-seen order)
    for inst in members:
        for source, moves in candidates[inst][3].items():
            if source in member_set:
                continue
            (inputs if moves else keys).append(source)
    inputs, keys = list(dict.fromkeys(inputs)), list(dict.fromkeys(keys))
    if not inputs or set(inputs) & set(keys):
        return None
    datas = [values[i] for i in inputs]
    tail_value = values[members[-1]]
    if any(d.__class__ is not np.ndarray or d.dtype != tail_value.dtype for d in datas) or \
            not tail_value.flags.c_contiguous or \
            any(values[k].__class__ is not np.ndarray for k in keys):
        return None
    # small values whose chain already makes its result (not a view of an input, nor a
    # broadcast: one copy for another, never a larger one), the trace small too
    if sum(d.size for d in datas) > _TRACED or tail_value.size > _TRACED or \
            any(np.may_share_memory(tail_value, d) for d in datas):
        return None
    # the positions of each input, counted on from the previous one's
    traced, start = {}, 0
    for inst, d in zip(inputs, datas, strict=True):
        traced[inst] = np.arange(start + 1, start + d.size + 1, dtype=np.int64).reshape(d.shape)
        start += d.size
    bounds = np.cumsum([0] + [d.size for d in datas])
    shape = tail_value.shape
    # inputs of the tail's shape: "x with some elements replaced" where the placement
    # keeps x's in place
    same = [d.shape == shape for d in datas]
    order = [(candidates[m][1], candidates[m][2], m) for m in members]

    def place(key_values: list):
        """(the input copied whole as the result's start, or None: an empty result;
        per other input (j, where its elements go, which they are)), or None where the
        trace leaves padding."""
        known = dict(traced)
        known.update(zip(keys, key_values, strict=True))
        for fn, sources, inst in order:
            got = fn(*[known[s] for s in sources])
            if got.__class__ is not np.ndarray or got.dtype != np.int64:
                return None
            known[inst] = got
        read = known[members[-1]]
        if read.shape != shape or (read.size and int(read.min()) < 1):
            return None
        flat = read.reshape(-1)
        copy, puts = None, []
        for j in range(len(inputs)):
            at = np.flatnonzero((flat > bounds[j]) & (flat <= bounds[j + 1]))
            source = flat[at] - bounds[j] - 1
            if copy is None and same[j] and np.array_equal(source, at):
                copy = j   # this input in place, the others' elements put in
            elif len(at) == flat.size and len(inputs) == 1:
                # one input: taken at once, or (a broadcast, a strided window) copied
                # from its strided view
                return -1, [(0, _strided(source.reshape(shape), dtype.itemsize), source)]
            elif len(at):
                # a box of the result filled from a box of the input (a row, a column
                # block), element k of one being element k of the other in C order: a
                # strided copy; else the positions, taken
                into, out_of = _box(at, shape), _box(source, datas[j].shape)
                if into is not None and out_of is not None:
                    puts.append((j, into, (out_of, tuple(s.stop - s.start for s in into))))
                else:
                    puts.append((j, at, source))
        return copy, puts

    kept: dict = {}
    dtype, count = tail_value.dtype, len(inputs)

    def run(*parts):
        key = tuple([(p.dtype.char, p.tobytes()) for p in parts[count:]])
        plan = kept.get(key, kept)
        if plan is kept:
            plan = place(list(parts[count:]))
            if len(kept) >= _KEPT:
                kept.clear()
            kept[key] = plan
        return None if plan is None else copied(plan, parts)

    def copied(plan, parts):
        """The result of a placement (place's) of `parts`."""
        copy, puts = plan
        if copy == -1:   # (a new C-ordered array: take's, np.array's)
            _, view, source = puts[0]
            part = parts[0]
            if view is not None and part.flags.c_contiguous:
                return np.array(np.ndarray(shape, dtype, part, view[0], view[1]), order="C")
            return part.take(source).reshape(shape)
        out = np.empty(shape, dtype) if copy is None else \
            np.array(parts[copy], order="C", copy=True)
        flat = None
        for j, at, source in puts:
            if at.__class__ is tuple:
                out[at] = parts[j][source[0]].reshape(source[1])
            else:
                if flat is None:
                    flat = out.reshape(-1)   # (a view: out is C-ordered)
                flat[at] = parts[j].take(source)
        return out

    step = run
    if not keys and count == 1:   # (one placement: made here, a step of one operand)
        plan = place([])
        if plan is None:
            return None
        step = lambda part: copied(plan, (part,))   # noqa: E731
    recorded = step(*datas, *[values[k] for k in keys])
    if recorded is None or recorded.shape != tail_value.shape or \
            recorded.strides != tail_value.strides or \
            not np.array_equal(recorded, tail_value, equal_nan=True):
        return None
    chain_steps = [steps[where[candidates[m][0]]] for m in members]
    sources = (*inputs, *keys)
    shapes = [values[s].shape for s in sources]
    if len(sources) == 1:
        return (_SPECIAL_ONE, members[-1], step, sources[0], shapes[0], chain_steps)
    return (_SPECIAL, members[-1], step, sources, shapes, chain_steps)


def _strided(read: np.ndarray, itemsize: int):
    """(offset, strides) in bytes of a strided view of a C-ordered input (elements of
    `itemsize` bytes) whose elements, at the result's indices, are the flat positions
    `read` (offset + index . strides, strides of 0 for a broadcast dimension), or None."""
    if not read.size or read.ndim == 0:
        return None
    base = int(read.reshape(-1)[0])
    steps = []
    for d in range(read.ndim):
        if read.shape[d] == 1:
            steps.append(0)
            continue
        index = [0] * read.ndim
        index[d] = 1
        steps.append(int(read[tuple(index)]) - base)
    if min(steps) < 0:
        return None
    made = np.full(read.shape, base, np.int64)
    for d, step in enumerate(steps):
        made = made + (np.arange(read.shape[d], dtype=np.int64) * step).reshape(
            tuple(-1 if k == d else 1 for k in range(read.ndim)))
    if not np.array_equal(made, read):
        return None
    return base * itemsize, tuple(step * itemsize for step in steps)
