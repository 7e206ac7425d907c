"""Reductions and literals in generated kernels: reducer kinds, identities, tile combines.

A reduce fuses when its to_apply is one binary op of its two parameters (sum, prod, max,
min, and, or); codegen.py accumulates it in the type `reducer_kind` names.
"""

from __future__ import annotations

import math

from ....hlo import patterns
from ....hlo.opcodes import Opcode
from ....hlo.types import FLOAT_TYPES, SIGNED_TYPES, UNSIGNED_TYPES
from .group import FusionError


def literal(value, element_type: str) -> str:
    """A Python literal Triton accepts for a scalar of `element_type`."""
    if element_type == "pred":
        return "1" if bool(value) else "0"
    if element_type in FLOAT_TYPES:
        v = float(value)
        if math.isnan(v):
            return 'float("nan")'
        if math.isinf(v):
            return 'float("inf")' if v > 0 else 'float("-inf")'
        return repr(v)
    return str(int(value))


# --- reductions ------------------------------------------------------------------------

_REDUCERS = {Opcode.ADD: "sum", Opcode.MAXIMUM: "max", Opcode.MINIMUM: "min",
             Opcode.MULTIPLY: "prod", Opcode.AND: "and", Opcode.OR: "or"}


def reducer_of(inst) -> str | None:
    """'sum'/'max'/... when a reduce's to_apply is one binary op of its two parameters."""
    comps = inst.called.get("to_apply") or []
    if len(inst.operands) != 2 or len(comps) != 1:
        return None
    return computation_reducer(comps[0])


def computation_reducer(comp) -> str | None:
    """'sum'/'max'/... when `comp` (a to_apply, a scatter's update) is one binary op."""
    op = patterns.binary_reducer(comp)
    return None if op is None else _REDUCERS[op]


def _acc_type(element_type: str) -> str:
    if element_type in ("f16", "bf16", "f32"):
        return "tl.float32"
    if element_type == "f64":
        return "tl.float64"
    if element_type == "pred":
        return "tl.int32"
    if element_type in SIGNED_TYPES:
        return "tl.int64" if element_type == "s64" else "tl.int32"
    return "tl.uint64" if element_type == "u64" else "tl.uint32"


def reducer_kind(inst) -> tuple[str, str]:
    kind = reducer_of(inst)
    if kind is None:
        raise FusionError(f"reduce '{inst.name}' has a reducer kernels do not generate")
    return kind, _acc_type(inst.operands[0].shape.element_type)


def identity(kind: str, element_type: str):
    """The value masked lanes take: neutral for the reducer. A float sum's is -0 (x + -0 is
    x for every x; +0 would turn a sum of -0s into +0)."""
    floating = element_type in FLOAT_TYPES
    if kind == "sum" and floating:
        return -0.0
    if kind == "sum" or kind == "or":
        return 0
    if kind == "prod":
        return 1
    if kind == "and":  # all ones of the accumulator (Triton refuses -1 next to unsigned)
        return 1 if element_type == "pred" else (1 << 64) - 1 if element_type == "u64" \
            else (1 << 32) - 1 if element_type in UNSIGNED_TYPES else -1
    big = float("inf") if floating else (1 << 31) - 1 if element_type in ("s32", "s8", "s16") \
        else (1 << 63) - 1 if element_type == "s64" else (1 << 64) - 1 \
        if element_type == "u64" else (1 << 32) - 1  # (u8/u16 accumulate as u32)
    small = float("-inf") if floating else -(1 << 31) if element_type in ("s32", "s8", "s16") \
        else -(1 << 63) if element_type == "s64" else 0
    return big if kind == "min" else small


# XLA's maximum and minimum of floats propagate NaN and order -0 < +0: tl.max/tl.min and
# tl.maximum/tl.minimum drop NaN unless asked, and the interpreter's keep a tie's first
# zero, so floats take kmath's (integers keep Triton's: it refuses the NaN option there).
_NAN_REDUCE = {"max": "M.max_nan", "min": "M.min_nan"}


def tile_reduce(kind: str, var: str, floating: bool, axis: int = 1,
                keep_dims: bool = True) -> str:
    """The reduction of a tile along `axis` (its columns): [BM, BN] -> [BM, 1] along axis 1;
    a staged kernel's [BN, BM] -> [BM] along axis 0 without `keep_dims`."""
    if floating and kind in _NAN_REDUCE:
        return f"{_NAN_REDUCE[kind]}({var}, {axis}, {keep_dims})"
    if floating and kind == "sum":  # the interpreter's tl.sum (np.sum) makes -0 sums +0
        return f"M.reduce_sum({var}, {axis}, {keep_dims})"
    fn = {"sum": "tl.sum", "max": "tl.max", "min": "tl.min", "prod": "M.reduce_prod",
          "and": "M.reduce_and", "or": "M.reduce_or"}[kind]
    if kind in ("sum", "max", "min"):
        return f"{fn}({var}, axis={axis}, keep_dims={keep_dims})"
    return f"{fn}({var}, {axis}, {keep_dims})"


def combine(kind: str, acc: str, part: str, floating: bool) -> str:
    lib = "M" if floating else "tl"
    return {"sum": f"{acc} + {part}", "prod": f"{acc} * {part}",
            "max": f"{lib}.maximum({acc}, {part})", "min": f"{lib}.minimum({acc}, {part})",
            "and": f"{acc} & {part}", "or": f"{acc} | {part}"}[kind]
