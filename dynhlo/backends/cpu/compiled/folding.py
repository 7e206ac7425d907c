"""The values of a computation that are the same at every call of one argument-shape key.

A step specialized to a key of argument shapes (fast.Fast) knows every size; a value made
only of constants, iotas, dimension sizes and the sizes the host computes (a size operand no
step runs) through pure lowerings is then the same array at every call of that key: the
shape vectors JAX and torch write for every reshape (slices and concatenates of
get-dimension-size), position ids (iota), the rotary tables gathered by them, masks
compared from iotas. `folded` picks those out of a call that just ran, so the spec keeps
their values and later calls skip their steps (per call the HuggingFace models ran ~500
such lowerings, ~15 us each).

A value is kept only when nothing can change it after the call that made it: a lowering's
value (a new array, or a view of operands that are themselves kept), a reshape of a kept
value, or a kernel's, matrix product's or ufunc's result written to a new array (a
kernel's or ufunc's in a buffer that later steps reuse is made again into a new array when
the spec is made: `remake`); and never one whose memory the root's value may share (the caller
owns its results). Kept values are held as read-only views: a later call may still return
one (through a loop or branch that its values pick), and the caller then gets a copy. A spec holds at most 4 MiB per value and 64 MiB in all (larger masks
are computed per call).
"""

from __future__ import annotations

import numpy as np

from ....hlo.opcodes import OP_SPECS, Group, Opcode, Trait
from ....shapes.sizes import Sym, reads

# The value is a function of its operands' values and the sizes alone: no called
# computation whose own steps would run (a reducer is applied as a function: kept), no
# random numbers, side effects, collectives or custom calls.
IMPURE = frozenset({Opcode.CALL, Opcode.WHILE, Opcode.CONDITIONAL, Opcode.CUSTOM_CALL} | {
    op for op, spec in OP_SPECS.items()
    if spec.traits & (Trait.SIDE_EFFECT | Trait.RANDOM) or spec.group is Group.COLLECTIVE})


def folded(info, steps: list, values: dict, kinds: dict,
           pinned: frozenset = frozenset(), remake=None) -> dict:
    """See _folded; `remake(kind, inst, what, inputs)` makes a step's value again as a new
    array from the kept values `inputs` (None where it cannot): a kernel's or ufunc's result
    in a buffer that later steps reuse (the rotary tables, a causal mask) is kept as such a
    copy, and so is a view of it that would be kept. Where a step kept per call would read
    a view of such a buffer (its recorded value then a view of memory no step writes any
    more), that value is computed per call instead. `values` is updated with the new arrays
    (what the spec is made of)."""
    refused: set = set()
    while True:
        fresh: dict = {}
        keep, conflict = _folded(info, steps, values, kinds, pinned, remake, refused, fresh)
        if conflict is None:
            values.update(fresh)
            return keep
        refused.add(conflict)


def _folded(info, steps: list, values: dict, kinds: dict, pinned: frozenset, remake,
            refused: set, fresh: dict):
    """{instruction: value} of the steps whose values are the same at every call of the
    key `values` was computed at (see the module docstring). `steps`: the runner's
    (kind, inst, what, sized, buf) list; `kinds`: the runner's step kinds by role,
    {"lowering": k, "reshape": k, "new": {k: operands(what) -> instructions}}; `pinned`:
    steps whose values the key itself holds (they still run per call: their values may
    be returned; what is made of them may be kept)."""
    lowering, reshape, new = kinds["lowering"], kinds["reshape"], kinds["new"]
    # a value made again (fresh) -> the buffer view it replaces; what reads one of those
    # through a view (its recorded value sharing that memory) must be made again too
    stale: dict = {}
    made = {step[1] for step in steps}
    root = info.computation.root
    value = values.get(root)
    if pinned and root.opcode is Opcode.TUPLE and isinstance(value, tuple):
        # a pinned element the root passes on is the caller's (next iteration's) array,
        # not one the spec could hold: what shares its memory is kept as a copy (below)
        value = tuple(v for o, v in zip(root.operands, value, strict=True) if o not in pinned)
    returned = _returned_arrays(value)
    pinned_arrays = [values[p] for p in pinned if isinstance(values.get(p), np.ndarray)]
    keep: dict = {}
    used = 0

    def known(operand) -> bool:
        # a size operand no step runs (the host's) is a function of the key's shapes
        return operand in keep or operand in pinned or operand not in made and operand.opcode is not \
            Opcode.PARAMETER and values.get(operand) is None

    for kind, inst, what, _, buf in steps:
        value = values.get(inst)
        if inst is root or value is None or _may_be_returned(value, returned):
            continue
        # the stale buffer views this step's recorded value may be a view of
        viewed = [stale[o] for o in (inst.operands if kind != reshape else (what[0],))
                  if o in stale and _may_be_returned(value, [stale[o]])]
        if kind == lowering:
            ok = inst.opcode not in IMPURE and (
                inst.opcode is Opcode.GET_DIMENSION_SIZE or all(map(known, inst.operands)))
        elif kind == reshape:
            ok = known(what[0])
        elif kind in new:
            ok = all(map(known, new[kind](what)))
            if ok and buf >= 0:   # its buffer is reused later in the call: made again
                viewed = [value]
        else:
            ok = False
        if viewed:
            again = remake(kind, inst, what, {**values, **fresh, **keep}) \
                if ok and remake is not None and inst not in refused else None
            if again is None:
                if not ok or kind not in new or buf < 0:
                    # kept per call, but recorded as a view of a buffer no longer written:
                    # the value it views is computed per call instead
                    return keep, next(o for o in (inst.operands if kind != reshape
                                                  else (what[0],)) if o in stale)
                continue   # (computed per call, as before)
            stale[inst] = viewed[0]
            fresh[inst] = value = again
        if ok:
            held = _owned_bytes(value)
            if held <= _MAX_BYTES and used + held <= _BUDGET:
                if pinned_arrays and _may_be_returned(value, pinned_arrays):
                    if isinstance(value, np.ndarray):   # (a view of a pinned scalar: small)
                        value = np.array(value, copy=True)
                        used += held
                        keep[inst] = _read_only(value)
                else:
                    used += held
                    keep[inst] = _read_only(value)
            # (else computed per call, a mask at a large size: memory, not speed)
        if inst in stale and inst not in keep:   # made again, but computed per call
            if kind not in new:   # a view of a buffer no step writes any more
                return keep, next(o for o in (inst.operands if kind != reshape
                                              else (what[0],)) if o in stale)
            del stale[inst], fresh[inst]
    return keep, None


def _read_only(value):
    """`value` as the spec holds it: each array a read-only view. Whether a kept value
    reaches the root is decided per call (a while loop that runs no iteration returns its
    initial state, a conditional branch its parameter), so a later call may return it:
    read-only, the caller gets a copy (CpuProgram.run's _owned) and never the spec's own
    array, which a write would change for every later call of the key."""
    if isinstance(value, tuple):
        return tuple(_read_only(v) for v in value)
    if isinstance(value, np.ndarray) and value.flags.writeable:
        value = value.view()
        value.flags.writeable = False
    return value


_MAX_BYTES = 1 << 22   # the largest value a spec holds
_BUDGET = 1 << 26      # the most all of a spec's values hold


def _owned_bytes(value) -> int:
    """The memory `value` holds of its own (a view's is its base's, counted there)."""
    if isinstance(value, tuple):
        return sum(map(_owned_bytes, value))
    return value.nbytes if isinstance(value, np.ndarray) and value.base is None else 0


def _returned_arrays(value) -> list:
    """The arrays of a root value (a tuple's leaves)."""
    if isinstance(value, tuple):
        return [a for v in value for a in _returned_arrays(v)]
    return [value] if isinstance(value, np.ndarray) else []


def _may_be_returned(value, returned: list) -> bool:
    """Whether `value` may share memory with an array the root returned (then the caller
    owns it: it is not kept for later calls)."""
    if isinstance(value, tuple):
        return any(_may_be_returned(v, returned) for v in value)
    if not isinstance(value, np.ndarray):
        return False
    return any(np.may_share_memory(value, a) for a in returned)


def size_reads(dims, memo: dict) -> set:
    """What the sizes `dims` read at run time: {(how, instruction)}, `how` "result" for a
    value's dimension size (its shape), "value" for an integer value read as a size
    (sizes.deps, with how each is read)."""
    out: set = set()
    for dim in dims:
        if not isinstance(dim, Sym):
            continue
        size = dim.root().expr
        if size is None or not (size.reads or size.syms):
            continue
        found = memo.get(size)
        if found is None:
            found = memo[size] = _reads(size)
        out |= found
    return out


def _reads(size) -> set:
    return {("result" if how == "result" else "value", inst) for how, inst in reads(size)}
