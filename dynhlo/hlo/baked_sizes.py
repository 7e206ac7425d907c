"""Finding sizes baked into a module: a constant equal to a dynamic dimension's bound.

The mistake this catches: lower a JAX function at the bound (`jax.jit(f).lower(x)` with 64
rows), mark the parameter `f32[<=64,16]` by hand, and the mean still divides by
`constant(64)` (or multiplies by `0.015625` in XLA's optimized dumps): at 3 rows the answer
is silently wrong. A constant B (or 1/B) that an elementwise op combines with data that
passed through a dynamic dimension of bound B is reported; sizes the program reads at run
time (get-dimension-size) are what it should use instead, and do not count as data.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..errors import user_stacklevel
from . import attrs
from .ir import HloModule, Instruction
from .opcodes import Opcode

# Ops that pass a constant through unchanged in value (a splat stays a splat).
_TRANSPARENT = {Opcode.BROADCAST, Opcode.CONVERT, Opcode.RESHAPE, Opcode.COPY, Opcode.BITCAST,
                Opcode.TRANSPOSE}
_SKIP_BOUNDS_UP_TO = 2  # bounds 1 and 2 equal too many ordinary constants to mean anything


class DynHloWarning(UserWarning):
    """Base class of dynhlo's warnings."""


class BakedSizeWarning(DynHloWarning):
    """A module holds a constant equal to a dynamic dimension's bound (or its inverse)."""


def _splat(inst: Instruction) -> tuple[float, Instruction] | None:
    """(value, constant) of a one-valued constant reached through broadcasts and converts."""
    while inst.opcode in _TRANSPARENT and inst.operands:
        inst = inst.operands[0]
    if inst.opcode is not Opcode.CONSTANT or isinstance(inst.literal, tuple) \
            or inst.literal is None or inst.literal.size == 0:
        return None
    flat = np.asarray(inst.literal).reshape(-1)
    if flat.dtype.kind not in "iuf" and flat.dtype.kind != "V":
        return None
    flat = flat.astype(np.float64)
    return (float(flat[0]), inst) if np.all(flat == flat[0]) else None


def _own_bounds(inst: Instruction) -> set[int]:
    shape = inst.shape
    if shape.is_tuple:
        return set().union(*(_bounds_of_shape(s) for s in shape.elements)) \
            if shape.elements else set()
    return _bounds_of_shape(shape)


def _bounds_of_shape(shape) -> set[int]:
    if shape.is_tuple:
        return set().union(*(_bounds_of_shape(s) for s in shape.elements)) \
            if shape.elements else set()
    return {b for b, dyn in zip(shape.dims, shape.dynamic) if dyn and b > _SKIP_BOUNDS_UP_TO}


def _data_bounds(comp, seen: dict) -> dict:
    """Instruction -> bounds of the dynamic dims its data passed through (this computation)."""
    for inst in comp.post_order():
        if inst.opcode is Opcode.GET_DIMENSION_SIZE:
            seen[inst] = set()  # a size read at run time: the right way, not data
            continue
        acc = set(_own_bounds(inst))
        if inst.opcode is Opcode.GET_TUPLE_ELEMENT:
            # one element's data, not the whole tuple's: a loop state carries a size read
            # at run time beside data of that bound, and the size is no data of it
            tup, index = inst.operands[0], attrs.integer(inst, "index")
            if tup.opcode is Opcode.TUPLE and 0 <= index < len(tup.operands):
                acc |= seen.get(tup.operands[index], set())
            seen[inst] = acc
            continue
        for op in inst.operands:
            acc |= seen.get(op, set())
        seen[inst] = acc
    return seen


def _matches(value: float, bounds: set[int]) -> int | None:
    for b in bounds:
        if value == b or (value != 0 and abs(value * b - 1.0) < 1e-6):
            return b
    return None


def baked_sizes(module: HloModule) -> list[tuple[Instruction, Instruction, int]]:
    """(user, constant, bound) for every elementwise use of a constant equal to B or 1/B where
    the other operands carry data of a dynamic dimension of bound B."""
    if not any(any(i.shape.dynamic) for i in module.instructions()
               if not i.shape.is_tuple):
        return []
    found = []
    for comp in module.computations:
        seen = _data_bounds(comp, {})
        for inst in comp.instructions:
            if len(inst.operands) < 2 or inst.opcode in (Opcode.SET_DIMENSION_SIZE,
                                                         Opcode.DYNAMIC_RESHAPE):
                continue
            for k, op in enumerate(inst.operands):
                splat = _splat(op)
                if splat is None:
                    continue
                value, const = splat
                others = set().union(*(seen.get(o, set()) for j, o in enumerate(inst.operands)
                                       if j != k))
                bound = _matches(value, others)
                if bound is not None:
                    found.append((inst, const, bound))
    return found


def warn_baked_sizes(module: HloModule, stacklevel: int | None = None) -> list[str]:
    """Issue one BakedSizeWarning per baked size found; returns the messages.

    The warning points at the caller's line outside dynhlo (`stacklevel` None), whatever
    the path there: `dynhlo.compile` is wrapped by a contextlib decorator, and a jit
    function compiles inside its call; a fixed stacklevel showed contextlib.py as the place.
    """
    if getattr(module, "sizes_checked", False):
        return []   # from_jax's and from_tf's sizes are the producer's own
    if stacklevel is None:
        stacklevel = user_stacklevel()
    messages = []
    for user, const, bound in baked_sizes(module):
        messages.append(
            f"instruction '{user.name}' ({user.opcode.value}) uses the constant "
            f"'{const.name}' equal to {bound} (or 1/{bound}), the bound of a dynamic "
            f"dimension its other operand's data has: a size baked in at lowering? At a "
            f"smaller size the result will be wrong; lower with symbolic or dynamic "
            f"sizes (dynhlo.from_jax, from_tf or from_torch) or compute it with "
            f"get-dimension-size")
    for message in messages:
        warnings.warn(message, BakedSizeWarning, stacklevel=stacklevel)
    return messages

