"""A computation's steps specialized to one key of argument shapes (Fast): made from a call
that ran every step (runner.CompiledEvaluator), run by its `_run_fast` while the key, the
pool's buffers and the memory limit stay those it was made for. What a spec holds: sizes
settled, output views over the pool's buffers, kernel argument arrays filled but for the
addresses written per call, values fixed for the key (folding.py) and lowerings of
settled shapes as special.py's NumPy calls; guards where sizes read values (a mismatch:
the rest of the call step by step), a loop body's pinned elements (loops.py) and values
kept per counter value (memo.py); runs of its native calls are made one call (native_chain.py).
"""

from __future__ import annotations

import math
from array import array

import numpy as np

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ..lowering import LOWERINGS
from . import conv
from .chains import fuse
from .folding import folded
from .joined import joined
from .loops import carried_update
from .memo import memoized
from .native_chain import chained
from .special import specialize
from .steps import (_BATCH_DOT, _DOT, _ELEMENT, _GUARD, _KERNEL, _KERNEL_IN_PLACE, _LOOP,
                    _LOWERING, _MEMO_LOAD, _MEMO_STORE, _MEMOIZED, _RESHAPE, _SPECIAL,
                    _SPECIAL_ONE, _SPECIAL_TWO, _TUPLE, _UFUNC, _UNPACK, Pool, blas_layout,
                    data_address, signature)


def _unpacked(ops: list, where: list, params: set) -> tuple[list, list]:
    """(ops, where) with the get-tuple-elements of parameters (_ELEMENT ops) made one
    _UNPACK op at the first one's place, for a spec whose key holds its arguments' shapes
    (a guarded one: CompiledEvaluator._walk), so the elements' shapes need no comparing.
    Taken early: an element depends on its parameter alone, and a step by step rest finds
    them made."""
    found = [n for n, op in enumerate(ops) if op[0] == _ELEMENT and op[2] in params]
    if len(found) < 2 or len({ops[n][2] for n in found}) != 1:
        return ops, where
    first, taken = found[0], frozenset(found)
    unpack = (_UNPACK, ops[first][1], ops[first][2], tuple((ops[n][1], ops[n][3]) for n in found))
    out_ops, out_where = [], []
    for n, op in enumerate(ops):
        if n == first:
            out_ops.append(unpack)
            out_where.append(where[n])
        elif n not in taken:
            out_ops.append(op)
            out_where.append(where[n])
    return out_ops, out_where


_CHAINING = True   # runs of native calls made one (native_chain.py); off: one op each
# movement chains as one step (chains.py): off, as movement steps that copy are strided
# copies inside runs of native calls (placement.py), which a fused chain (a Python step)
# would split: on, the specs of optax_adam_step have 14 ops to 20, hf_gpt2's 10 to 16
_FUSING = False
_FAST_KEYS = 8   # argument-shape keys whose specialized steps a pool keeps
_PLUMBING = frozenset({Opcode.GET_TUPLE_ELEMENT, Opcode.TUPLE})
# memo.memoized's view of the op kinds: what each op it may keep reads per call
_MEMO_KINDS = {"element": _ELEMENT, "load": _MEMO_LOAD, "store": _MEMO_STORE,
               "memoized": _MEMOIZED, "guard": _GUARD,
               "reads": {_KERNEL: lambda op: op[8].leaves, _KERNEL_IN_PLACE: lambda op: op[5].leaves,
                         _SPECIAL: lambda op: op[3], _SPECIAL_ONE: lambda op: (op[3],),
                         _SPECIAL_TWO: lambda op: (op[3], op[4]),
                         _RESHAPE: lambda op: (op[2],)}}
_DENSE_BYTES = 1 << 22   # the largest dense copy of a folded broadcast a spec holds
# folding.folded's view of the step kinds: the operands of those that make new arrays
_FOLD_KINDS = {"lowering": _LOWERING, "reshape": _RESHAPE,
               "new": {_KERNEL: lambda what: what.leaves,
                       _DOT: lambda what: (what.lhs, what.rhs),
                       _BATCH_DOT: lambda what: (what.lhs, what.rhs),
                       _UFUNC: lambda what: (what[1],)}}


def _remade(ctx, kind: int, inst, what, inputs: dict):
    """A step's value made again from `inputs` as a new array (folding.folded keeps it):
    a kernel (its native call, into a new array), a ufunc, a lowering or a reshape view
    (of a value made again); None for the other kinds."""
    if kind == _KERNEL:
        return what.run(ctx, inputs)
    if kind == _UFUNC:
        x = inputs[what[1]]
        with np.errstate(all="ignore"):
            return what[0](x) if x.__class__ is np.ndarray else None
    if kind == _RESHAPE:
        x, value = inputs[what[0]], inputs[inst]
        if x.__class__ is not np.ndarray or value.__class__ is not np.ndarray:
            return None
        again = x.reshape(value.shape)
        return again if again.strides == value.strides else None
    if kind == _LOWERING:
        ctx.inst = inst
        with np.errstate(all="ignore"):
            again = what(ctx, inst, [inputs.get(o) for o in inst.operands])
        return again if again.__class__ is np.ndarray else None
    return None


class Fast:
    """A computation's steps specialized to one key of argument shapes (when every size is
    a function of the entry arguments' shapes: the entry's dynamic parameters' shapes, or
    for a called computation all the entry arguments' shapes; CompiledEvaluator._walk):
    per step its sizes, its output view over its pool buffer, and for a kernel its argument
    array filled but for the addresses of values not in the spec's buffers (parameters,
    new arrays), written per call. Valid while the pool's buffers stay where they were
    (`gen`) and the memory limit is the one its sizes were checked against (`limit`)."""

    __slots__ = ("gen", "limit", "ops", "where", "done", "params", "folded", "start",
                 "dense", "checked")

    @staticmethod
    def of(ctx, params: list, steps: list, pool: Pool, values: dict, limit: int,
           checked: list, guards: frozenset | None = None,
           pinned: frozenset = frozenset()):
        """The spec made from a call that just ran every step (its values and sizes; `ctx`
        its context). `guards`: the (how, instruction) reads of sizes off values of this
        computation's steps (_guards): each not folded is compared after its step with
        what it was here (its shape for "result", its value for "value"). `pinned`: steps
        whose values the key holds (loops.pinned_elements): what is made of them is folded."""
        info, env = ctx.info, ctx.env
        fast = Fast()
        fast.gen, fast.limit = pool.gen, limit
        numbered = {number: inst for inst, number in params}
        # the dynamic parameters' shapes here (a called computation's are checked per call,
        # unless its key holds its arguments' shapes: a guarded one's, CompiledEvaluator._walk)
        fast.checked = [] if guards is not None else \
            [(inst, signature(values[inst])) for inst in checked]
        # the parameters in argument order when every argument has one
        fast.params = [numbered[k] for k in range(len(numbered))] \
            if set(numbered) == set(range(len(params))) else None
        dims = info.dims
        # values the same at every call of this key: held by the spec, their steps skipped
        fast.folded = folded(info, steps, values, _FOLD_KINDS, pinned,
                             lambda *step: _remade(ctx, *step))
        # values the spec's steps hold (their buffers' views, the folded arrays)
        fixed: dict = {inst: value for inst, value in fast.folded.items()
                       if value.__class__ is np.ndarray}
        # what a kernel reads of a folded value: a dense copy of a broadcast view (the same
        # elements; a zero stride keeps LLVM's loops from their vector forms: a causal mask
        # made from iotas ran 8x slower)
        dense = fast.dense = {   # held by the spec: its kernels' arguments hold addresses
            inst: np.ascontiguousarray(value) for inst, value in fixed.items()
            if 0 in value.strides and 1 < value.size and value.nbytes <= _DENSE_BYTES}

        def view(buf: int, shape: tuple, dtype):
            entry = pool[buf]
            if entry is None or entry[0].nbytes < math.prod(shape) * dtype.itemsize:
                return None
            return np.ndarray(shape, dtype, entry[0])

        # values a specialized step may hold: the folded ones, those later sizes read
        # (guarded: equal to these whenever the steps after their guards run) and the
        # elements whose values the key holds (a counted loop body's counter: the index of
        # its dynamic-update-slice)
        settled = dict(fast.folded)
        settled.update((read, values[read]) for how, read in guards or ()
                       if how == "value" and read in values)
        settled.update((held, values[held]) for held in pinned
                       if values.get(held).__class__ is np.ndarray)
        # views of held values (a reshape or transpose of a kernel's or matrix product's
        # buffer): the same array at every call, set before the first step (no step runs)
        views: dict = {}
        sized_by = {r for _, r in guards or ()}   # values later sizes read: kept as steps
        root = info.computation.root
        ops, where = [], []
        for index, (kind, inst, what, _, buf) in enumerate(steps):
            if inst in fast.folded:
                continue
            op = None
            value = values.get(inst)
            if kind == _LOWERING and inst.opcode in _PLUMBING and \
                    what is LOWERINGS[inst.opcode]:
                op = (_ELEMENT, inst, inst.operands[0], attrs.integer(inst, "index"),
                      signature(value)) if inst.opcode is Opcode.GET_TUPLE_ELEMENT else \
                    (_TUPLE, inst, inst.operands, None, signature(value))
            elif kind == _LOWERING and inst.opcode is Opcode.WHILE and \
                    hasattr(what, "planned"):   # (loops.compiled_while's)
                shapes = signature(value)
                run = what.planned(ctx, inst, shapes)
                if run is not None:   # (its step's signature first, as a _LOWERING op's)
                    op = (_LOOP, inst, shapes, run, inst.operands[0])
            elif dims.get(inst).__class__ is list or value.__class__ is not np.ndarray:
                pass
            elif kind == _KERNEL:
                shape = what.shape or env.sizes(what.dims)
                out = view(buf, shape, what.dtype) if buf >= 0 else None
                if buf < 0 or out is not None:
                    args = [0 if out is None else data_address(out)]
                    args += shape if what.domain is None else env.sizes(what.domain)
                    patches = []
                    for leaf in what.leaves:
                        known = dense.get(leaf)
                        if known is None:
                            known = fixed.get(leaf)
                        leaf_value = values[leaf] if known is None else known
                        if leaf_value.__class__ is not np.ndarray:
                            break
                        if known is None:
                            patches.append((len(args), leaf, leaf_value.strides))
                        args.append(0 if known is None else data_address(known))
                        args += leaf_value.shape
                        args += leaf_value.strides
                    else:
                        packed = array("q", args)
                        op = (_KERNEL, inst, what.fn, packed, packed.buffer_info()[0],
                              tuple(patches), out, shape, what) if patches or out is None \
                            else (_KERNEL_IN_PLACE, inst, what.fn, packed.buffer_info()[0],
                                  out, what, packed)
                        if out is not None:
                            fixed[inst] = out
            elif kind == _DOT:
                a, b = values[what.lhs], values[what.rhs]
                if a.__class__ is np.ndarray and b.__class__ is np.ndarray:
                    a = a.T if what.lhs_t else a
                    b = b.T if what.rhs_t else b
                    out = view(buf, value.shape, value.dtype) if buf >= 0 else None
                    if (buf < 0 or out is not None) and a.shape[1] == b.shape[0]:
                        fa, fb = fixed.get(what.lhs), fixed.get(what.rhs)
                        # (a folded operand may be a broadcast view: the layout the
                        # reference hands matmul, made once)
                        op = (_DOT, inst, what.lhs, what.rhs, what.lhs_t, what.rhs_t,
                              _held_operand(what.lhs, fa, what.lhs_t, settled),
                              _held_operand(what.rhs, fb, what.rhs_t, settled), out)
                        if out is not None:
                            fixed[inst] = out
            elif kind == _BATCH_DOT:
                a, b = values[what.lhs], values[what.rhs]
                out = view(buf, value.shape, value.dtype) if buf >= 0 else None
                if (buf < 0 or out is not None) and a.__class__ is np.ndarray and \
                        b.__class__ is np.ndarray and a.dtype == b.dtype == what.dtype:
                    fn = what.fn(a.shape, b.shape, out)
                    if fn is not None:
                        # (its held operands and buffer: what a run of native calls reads)
                        op = (_BATCH_DOT, inst, what.lhs, what.rhs, a.shape, b.shape, fn,
                              (what, fixed.get(what.lhs), fixed.get(what.rhs), out))
                        if out is not None:
                            fixed[inst] = out
            elif kind == _UFUNC:
                x = values[what[1]]
                out = view(buf, value.shape, value.dtype) if buf >= 0 else None
                if (buf < 0 or out is not None) and x.__class__ is np.ndarray and \
                        x.flags.c_contiguous:
                    op = (_UFUNC, inst, what[0], what[1], what[1] in fixed, out,
                          fixed.get(what[1]))   # (the held operand: native_chain.py)
                    if out is not None:
                        fixed[inst] = out
                elif x.__class__ is np.ndarray and x.shape == value.shape and \
                        x.dtype == value.dtype:
                    # (a transposed gather's value): the ufunc on it, a new array in its
                    # layout, as the reference's lowering (ops_elementwise.unary) calls it
                    op = (_UFUNC, inst, what[0], what[1], x.shape, None, None)
            elif kind == _LOWERING and (what is LOWERINGS.get(inst.opcode) or
                                        what is conv.lowering):
                special = specialize(
                    ctx, inst, what, values, settled,
                    pool if inst.opcode is Opcode.DYNAMIC_UPDATE_SLICE and
                    carried_update(info.computation, inst) else None)
                if special is not None:
                    fn, sources, shapes = special
                    held = None if inst in sized_by or inst is root else \
                        _held_view(inst, fn, sources, fixed, settled)
                    if held is not None:
                        fixed[inst] = views[inst] = held
                        continue
                    op = (_SPECIAL_ONE, inst, fn, sources[0], shapes[0]) if len(sources) == 1 \
                        else (_SPECIAL_TWO, inst, fn, *sources, *shapes) if len(sources) == 2 \
                        else (_SPECIAL, inst, fn, sources, list(shapes))
            elif kind == _RESHAPE:
                source = fixed.get(what[0])
                shape = value.shape
                reshaped = None
                if source is not None:
                    reshaped = source.reshape(shape)
                    if not np.shares_memory(reshaped, source):   # pragma: no cover
                        reshaped = None
                if reshaped is not None:
                    fixed[inst] = reshaped
                    if inst not in sized_by and inst is not root:
                        views[inst] = reshaped
                        continue
                op = (_RESHAPE, inst, what[0], shape, reshaped)
            # a step run as it is: its sizes are settled for the key, so the shape it had
            # here passes the size check (another is checked)
            ops.append(op or (_LOWERING, inst, signature(value)))
            where.append(index)
            for how, read in guards or ():
                if read is inst and inst not in pinned:   # (a pinned value is the key's)
                    # a mismatch reruns the steps after this one
                    ops.append((_GUARD, inst, how, signature(value) if how == "result"
                                else np.array(value, copy=True)))
                    where.append(index + 1)
        root = values.get(info.computation.root)
        ops, where = memoized(ops, where, values, fast.folded, pinned, [
            a for a in (root if isinstance(root, tuple) else (root,))
            if isinstance(a, np.ndarray)], _MEMO_KINDS)
        # chains of movement steps: one step each (chains.py)
        if _FUSING:
            ops, where = fuse(ops, where, steps, values, info.computation.instructions,
                              info.computation.root, frozenset(sized_by), fast.folded)
        if guards is not None:   # (after memoized: it finds the counters among the elements)
            ops, where = _unpacked(ops, where, {inst for inst, _ in params})
        # specialized steps that only hand a value on: one op each (joined.py)
        ops, where = joined(ops, where, info.computation, values)
        # per op: the steps before this index are done once it has run (a step handed to
        # _run_steps after it resumes there: the views set before the first step that
        # read a value it replaced are made again)
        # (a guard's, a memo's load's and store's index is the next step's already)
        # (a memoized guard's too)
        done = [k if op[0] in _NO_STEP or op[0] == _MEMOIZED and op[2][0] in _NO_STEP
                else k + 1 for op, k in zip(ops, where, strict=True)]
        # runs of native calls: one call each (after memoized: a kept op is no native call)
        fast.ops, fast.where, fast.done = \
            chained(ops, where, done, values, info.computation) if _CHAINING else \
            (ops, where, done)
        fast.start = {**fast.folded, **views}
        return fast


_NO_STEP = frozenset({_GUARD, _MEMO_LOAD, _MEMO_STORE})   # ops that run no step of their own
# the specialized lowerings whose value is a view of their operands' (special.py)
_VIEWS = frozenset({Opcode.DYNAMIC_RESHAPE, Opcode.TRANSPOSE, Opcode.SLICE, Opcode.BROADCAST,
                    Opcode.GATHER, Opcode.DYNAMIC_SLICE})


def _held_view(inst, fn, sources: tuple, fixed: dict, settled: dict):
    """The value of a specialized view step (_VIEWS) whose operands are all held by the spec,
    at least one in a buffer: `fn` of them, when it is a view of one (never a copy, which
    would not see the buffer's later contents); else None."""
    if inst.opcode not in _VIEWS or not sources or any(s not in fixed for s in sources) or \
            all(s in settled for s in sources):
        return None
    value = fn(*[fixed[s] for s in sources])
    if value.__class__ is not np.ndarray or \
            not any(np.may_share_memory(value, fixed[s]) for s in sources):
        return None
    return value


def _held_operand(inst, value, transposed: bool, settled: dict):
    """What np.matmul reads of a matrix product's operand the spec holds (`value`, None:
    read per call): blas_layout's, made once, when that is the held array itself or a copy
    of a value fixed for the key (a folded broadcast); a copy of a buffer's view would miss
    its later contents."""
    if value is None:
        return None
    a = value.T if transposed else value
    laid = blas_layout(a)
    return laid if laid is a or inst in settled else None
