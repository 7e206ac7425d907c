"""The GPU backend's lowering tables.

Two kinds of lowering, one per opcode:
- fused (`@lowering(Opcode.X)`): `fn(k, inst, idx) -> var` emits Triton code computing `inst`
  at index `idx` inside a generated kernel (`k` is a codegen.KernelWriter). Ops in this table
  are fused into kernels (see fusion.py).
- library (`@library(Opcode.X)`): `fn(ctx, inst, args) -> value` runs on torch tensors held
  at their actual sizes (dot through cuBLAS, ...). `ctx` is a program.StepContext.

An opcode in neither table runs through the CPU backend's lowering on host copies (a slow
but exact fallback for rare ops); `can_fuse(inst)` may refuse an instruction whose operands
or attributes a generated kernel does not handle (it then takes the library or host path).
"""

from __future__ import annotations

import math
from typing import Callable

from ...hlo import patterns
from ...hlo.opcodes import Opcode
from ...hlo.types import FLOAT_TYPES, SIGNED_TYPES, UNSIGNED_TYPES

LOWERINGS: dict[Opcode, Callable] = {}
LIBRARY: dict[Opcode, Callable] = {}
# opcode -> fn(inst) -> bool: whether this instruction can be generated in a kernel.
FUSE_CHECKS: dict[Opcode, Callable] = {}


def lowering(*opcodes: Opcode, check: Callable | None = None):
    """Register a fused (Triton expression) lowering for opcodes."""
    def register(fn):
        for op in opcodes:
            LOWERINGS[op] = fn
            if check is not None:
                FUSE_CHECKS[op] = check
        return fn
    return register


def library(*opcodes: Opcode):
    """Register a library (torch) lowering for opcodes."""
    def register(fn):
        for op in opcodes:
            LIBRARY[op] = fn
        return fn
    return register


_KERNEL_TYPES = {"pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64",
                 "f16", "bf16", "f32", "f64"}


def _types_ok(inst) -> bool:
    shapes = [inst.shape] + [o.shape for o in inst.operands]
    return all(not s.is_tuple and s.element_type in _KERNEL_TYPES for s in shapes)


def can_fuse(inst) -> bool:
    """Whether `inst` can be computed inside a generated kernel."""
    if inst.opcode not in LOWERINGS or not _types_ok(inst):
        return False
    check = FUSE_CHECKS.get(inst.opcode)
    return check is None or check(inst)


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
    from .codegen import FusionError
    kind = reducer_of(inst)
    if kind is None:
        raise FusionError(f"reduce '{inst.name}' has a reducer kernels do not generate")
    return kind, _acc_type(inst.operands[0].shape.element_type)


def identity(kind: str, element_type: str):
    floating = element_type in FLOAT_TYPES
    if kind == "sum" or kind == "or":
        return 0
    if kind == "prod":
        return 1
    if kind == "and":
        return 1 if element_type == "pred" else -1
    big = float("inf") if floating else (1 << 31) - 1 if element_type in ("s32", "s8", "s16") \
        else (1 << 63) - 1 if element_type == "s64" else (1 << 32) - 1
    small = float("-inf") if floating else -(1 << 31) if element_type in ("s32", "s8", "s16") \
        else -(1 << 63) if element_type == "s64" else 0
    return big if kind == "min" else small


def tile_reduce(kind: str, var: str) -> str:
    fn = {"sum": "tl.sum", "max": "tl.max", "min": "tl.min", "prod": "M.reduce_prod",
          "and": "M.reduce_and", "or": "M.reduce_or"}[kind]
    if kind in ("sum", "max", "min"):
        return f"{fn}({var}, axis=1, keep_dims=True)"
    return f"{fn}({var})"


def combine(kind: str, acc: str, part: str) -> str:
    return {"sum": f"{acc} + {part}", "prod": f"{acc} * {part}",
            "max": f"tl.maximum({acc}, {part})", "min": f"tl.minimum({acc}, {part})",
            "and": f"{acc} & {part}", "or": f"{acc} | {part}"}[kind]


def is_unsigned(element_type: str) -> bool:
    return element_type in UNSIGNED_TYPES


def is_float(element_type: str) -> bool:
    return element_type in FLOAT_TYPES
