"""Finding sizes baked into a module: a number that a dynamic dimension's bound gave when the
program was lowered at the bound and its parameters were marked `<=` by hand.

The mistakes this catches (`jax.jit(f).lower(x)` with 64 rows, `f32[<=64,8]` marked by hand;
at 3 rows each answer is silently wrong):
- a count of the bound B, or of B times other dimensions of a shape its data passed through
  (`x.mean()` over `<=64` x 8 divides by 512), or its inverse, that multiplies or divides
  data of that shape (`constant(64)`, `0.015625` in XLA's optimized dumps);
- its logarithm added to or subtracted from such data (`logsumexp(x) - log(n)`, log(64)
  computed by Python), and B itself added to integer data (a negative index wrapped by the
  size), unless a static dimension there is B too (the index may be of that one);
- a stride-1 slice from 0 of a `<=B` dimension that stops short of B by at most an eighth of it
  (`x[:-1]` lowered as `[0:63]`): XLA's slice keeps the operand's size there.
Only the bounds of dimensions marked on the entry parameters count (hand-marking marks
those; a module whose sizes are set in the program, tf2xla's tf.where, computes them).
Sizes the program reads at run time (get-dimension-size) are what it should use instead, and
do not count as data. Bounds of 1 and 2 equal too many ordinary constants to mean anything.
"""

from __future__ import annotations

import math
import warnings
from itertools import combinations

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
    """A module holds a number its marked bound gave at lowering (a count, its log, a slice
    limit short of it): see the module doc."""


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


_MULTIPLICATIVE = {Opcode.MULTIPLY, Opcode.DIVIDE}
_ADDITIVE = {Opcode.ADD, Opcode.SUBTRACT}
_MAX_RANK = 6   # the subsets of a shape's other dimensions: 2**5 counts at most


def _own_counts(shape, marked: set[int]) -> set[tuple[int, str]]:
    """(count, how it is made) of each dynamic dimension of `shape` whose bound B is one of
    `marked`: B times the product of any of the shape's other dimensions (`64`, `64 x 8`)."""
    if shape.is_tuple:
        return set().union(*(_own_counts(s, marked) for s in shape.elements)) \
            if shape.elements else set()
    out = set()
    for d, (bound, dynamic) in enumerate(zip(shape.dims, shape.dynamic, strict=True)):
        if not dynamic or bound not in marked:
            continue
        others = [n for k, n in enumerate(shape.dims) if k != d and n > 1][:_MAX_RANK - 1]
        for r in range(len(others) + 1):
            for chosen in combinations(others, r):
                out.add((bound * math.prod(chosen), " x ".join(map(str, (bound, *chosen)))))
    return out


def _bounds_of_shape(shape) -> set[int]:
    """The bounds (> 2) of the dynamic dimensions of `shape` (of each element of a tuple)."""
    if shape.is_tuple:
        return set().union(*(_bounds_of_shape(s) for s in shape.elements)) \
            if shape.elements else set()
    return {b for b, dyn in zip(shape.dims, shape.dynamic,
                                strict=True) if dyn and b > _SKIP_BOUNDS_UP_TO}


def _data_bounds(comp, seen: dict, marked: set[int]) -> dict:
    """Instruction -> the counts (_own_counts) of the dynamic shapes its data passed through
    (this computation)."""
    for inst in comp.post_order():
        if inst.opcode is Opcode.GET_DIMENSION_SIZE:
            seen[inst] = set()  # a size read at run time: the right way, not data
            continue
        acc = set(_own_counts(inst.shape, marked))
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


def _matches(value: float, counts: set, user: Instruction, k: int) -> str | None:
    """How `value` (operand k of `user`) is one of `counts`, as the module doc says, or
    None."""
    value = abs(value)
    if value == 0:
        return None
    for count, made in sorted(counts):
        if user.opcode in _MULTIPLICATIVE and (value == count or abs(value * count - 1) < 1e-6):
            return f"{made}{'' if value == count else ' (its inverse)'}"
        if user.opcode in _ADDITIVE and abs(value - math.log(count)) < 1e-6 * math.log(count):
            return f"the log of {made}"
        if user.opcode in _ADDITIVE and value == count and user.shape.element_type[0] in "su" \
                and not any(count in op.shape.dims for op in user.operands
                            if not op.shape.is_tuple):
            return made
    return None


def baked_sizes(module: HloModule) -> list[tuple[Instruction, Instruction, str]]:
    """(user, constant or sliced operand, how it is a size) for each size baked in as the
    module doc says."""
    marked = set().union(*(_bounds_of_shape(p.shape) for p in module.entry.parameters))
    if not marked:
        return []   # sizes set in the program (tf2xla's), none marked on its parameters
    found = []
    for comp in module.computations:
        seen = _data_bounds(comp, {}, marked)
        # a slice whose size is set after it (lowering_diff.cut_slices' x[:-1]) is sized
        cut = {i.operands[0] for i in comp.instructions
               if i.opcode is Opcode.SET_DIMENSION_SIZE and i.operands}
        for inst in comp.instructions:
            if inst.opcode is Opcode.SLICE and inst not in cut:
                short = _short_slice(inst, marked)
                if short:
                    found.append((inst, inst.operands[0], short))
                continue
            if inst.opcode not in _MULTIPLICATIVE | _ADDITIVE:
                continue
            for k, op in enumerate(inst.operands):
                splat = _splat(op)
                if splat is None:
                    continue
                value, const = splat
                others = set().union(*(seen.get(o, set()) for j, o in enumerate(inst.operands)
                                       if j != k))
                made = _matches(value, others, inst, k)
                if made is not None:
                    found.append((inst, const, made))
    return found


def _short_slice(inst: Instruction, marked: set[int]) -> str | None:
    """How a slice from 0 stops short of the bound B (one of `marked`) of a dynamic
    dimension of its operand by at most B / 8, stride 1 (`x[:-1]` lowered at 64 rows:
    `[0:63]`), or None. A slice from elsewhere picks rows by position (`x[2:3]`), which a
    size baked in at lowering does not explain."""
    shape = inst.operands[0].shape
    if shape.is_tuple:
        return None
    for d, ((start, limit, stride), bound, dynamic) in enumerate(zip(
            attrs.slices(inst), shape.dims, shape.dynamic, strict=True)):
        if dynamic and bound in marked and stride == 1 and start == 0 < limit and \
                0 < bound - limit <= max(1, bound // 8):
            return f"its limit {limit} along dimension {d} of {shape}"
    return None


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
    route = _route(module)
    for user, const, made in baked_sizes(module):
        if user.opcode is Opcode.SLICE:
            what = (f"instruction '{user.name}' (slice) of '{const.name}' stops short of a "
                    f"dynamic dimension's bound: {made} (x[:-1] lowered at the bound?). XLA's "
                    f"slice of a dynamic dimension keeps the operand's size, so at a smaller "
                    f"size it keeps rows the program dropped")
        else:
            what = (f"instruction '{user.name}' ({user.opcode.value}) uses the constant "
                    f"'{const.name}' equal to {made}, a count of a dynamic dimension its "
                    f"other operand's data has: a size baked in at lowering? At a smaller "
                    f"size the result will be wrong")
        messages.append(f"{what}; {route}")
    for message in messages:
        warnings.warn(message, BakedSizeWarning, stacklevel=stacklevel)
    return messages


def _route(module: HloModule) -> str:
    """What to do instead, for the producer the module's name tells (tf2xla names it
    `a_inference_<fn>_<n>__`, jax.jit `jit_<fn>`)."""
    if module.name.startswith("a_inference_"):
        return ("from TensorFlow, dynhlo.from_tf reads such sizes at run time (or run "
                "`dynhlo bound A.hlo B.hlo --bound N` on its HLO at two sizes)")
    if module.name.startswith(("jit_", "pjit_", "xla_computation_")):
        return ("from JAX, dynhlo.from_jax keeps sizes symbolic (or run `dynhlo bound A.hlo "
                "B.hlo --bound N` on the program dumped at two sizes)")
    return ("dynhlo.from_jax, from_torch or from_tf keep sizes symbolic, `dynhlo bound A.hlo "
            "B.hlo --bound N` makes one module of a program dumped at two sizes, and "
            "get-dimension-size reads a size at run time")
