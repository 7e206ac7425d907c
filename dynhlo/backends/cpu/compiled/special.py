"""Reference lowerings specialized to one argument-shape key (runner.Fast): the data
movement whose every size and index is settled once the key's shapes and folded values
(folding.py) are known, as a NumPy call with its indices precomputed.

- gather and dynamic-slice whose indices are folded: which element of the operand each
  result element reads is fixed, so the lowering is run once on the operand's flat
  positions (int64, counted from 1) and a call is `np.take` of the operand at those
  positions, in the reference's memory layout. The same elements in the same places as the
  reference's, bit for bit. Not
  where the reference reads padding (a position 0: a zero, not an element) — that stays
  the lowering.
- slice (not reading padding): the NumPy view the lowering makes, its index precomputed.
- concatenate whose operands are at the result's sizes off the concatenated dimension:
  `np.concatenate` (the lowering's own call, without cutting each part).
- dynamic-reshape whose sizes are folded, transpose: the lowering's view.

A specialized step is `(fn, sources, shapes)`: `fn(*values of sources)` is the value when
each source's value is an ndarray of the recorded shape (runner._run_fast checks, and runs
the lowering otherwise); the specialization is made from a call that just ran the step, so
its errors were already raised there.
"""

from __future__ import annotations

import math

import numpy as np

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ....shapes.sizes import slice_reads_padding


def specialize(ctx, inst, lowering, values: dict, folded: dict):
    """`(fn, sources, shapes)` for the lowering step of `inst` (see the module docstring), or
    None. `values`: the call's values; `folded`: those fixed for the key."""
    opcode = inst.opcode
    data = [o for o in inst.operands if o not in folded]
    arrays = [values.get(o) for o in data]
    if not data or any(a.__class__ is not np.ndarray for a in arrays):
        return None
    shapes = tuple(a.shape for a in arrays)
    if opcode in (Opcode.GATHER, Opcode.DYNAMIC_SLICE) and data == [inst.operands[0]]:
        fn = _take(ctx, inst, lowering, arrays[0], values)
    elif opcode is Opcode.SLICE:
        fn = _slice(inst, arrays[0])
    elif opcode is Opcode.CONCATENATE and data == list(inst.operands):
        fn = _concatenate(inst, arrays, values[inst])
    elif opcode is Opcode.DYNAMIC_RESHAPE and data == [inst.operands[0]]:
        shape = values[inst].shape
        fn = (lambda x: x.reshape(shape)) if arrays[0].size == math.prod(shape) else None
    elif opcode is Opcode.TRANSPOSE:
        perm = tuple(attrs.ints(inst, "dimensions"))
        fn = lambda x: x.transpose(perm)   # noqa: E731 (np.transpose's view)
    else:
        fn = None
    return None if fn is None else (fn, tuple(data), shapes)


def _take(ctx, inst, lowering, x: np.ndarray, values: dict):
    """np.take of x at the flat positions the gather or dynamic-slice reads."""
    positions = np.arange(1, x.size + 1, dtype=np.int64).reshape(x.shape)
    ctx.inst = inst
    read = lowering(ctx, inst, [positions, *(values.get(o) for o in inst.operands[1:])])
    if read.__class__ is not np.ndarray or read.shape != values[inst].shape or \
            (read.size and int(read.min()) < 1):
        return None   # padding read somewhere: the lowering's zeros
    # in the reference's layout (its gather copies a transposed view, keeping its strides):
    # the positions in memory order, taken, then viewed back
    perm = tuple(sorted(range(read.ndim), key=lambda k: -read.strides[k]))
    flat = np.ascontiguousarray((read - 1).transpose(perm))
    back = tuple(np.argsort(perm))
    if np.take(x, flat).transpose(back).strides != values[inst].strides:
        return lambda x: np.take(x, flat.transpose(back))
    return lambda x: np.take(x, flat).transpose(back)


def _slice(inst, x: np.ndarray):
    spec = attrs.slices(inst)
    if slice_reads_padding(spec, x.shape) is not None:
        return None
    index = tuple(slice(s, limit, st) for s, limit, st in spec)
    return lambda x: x[index]


def _concatenate(inst, arrays: list, value):
    axis = attrs.ints(inst, "dimensions")[0]
    if value.__class__ is not np.ndarray:
        return None
    off = [n for k, n in enumerate(value.shape) if k != axis]
    if any([n for k, n in enumerate(a.shape) if k != axis] != off for a in arrays):
        return None
    return lambda *parts: np.concatenate(parts, axis=axis)
