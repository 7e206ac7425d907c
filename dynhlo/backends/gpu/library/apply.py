"""Scalar computations (to_apply, select, scatter) applied elementwise to device tensors.

map (control_flow.py), scatter with a general update computation, variadic or general reduce-window and select-and-scatter with a general
select/scatter call a scalar HLO computation on many elements at once. The CPU backend runs
it vectorized on NumPy arrays; here the same computation runs instruction by instruction as
torch ops on tensors, so nothing leaves the device. Only computations made of the ops below
run here (`applicable(comp)`), each with the CPU backend's exact semantics: parameter,
constant (scalar), tuple, get-tuple-element, add, subtract, multiply, maximum/minimum (NaN
propagates), and/or/xor/not, negate, abs, compare (TOTALORDER included), select, clamp,
convert between the same-kind types, and same-width bitcast-convert. 16-bit floats compute
in f32 and round back, as the CPU backend does. Anything else (a transcendental, a nested
call, u16/u32/u64 values, which torch cannot compare) keeps the caller on the host fallback.
Semantics: XLA operation semantics, Map and the called computations of Scatter,
ReduceWindow, SelectAndScatter, Sort.
"""

from __future__ import annotations

import torch

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ..tensors import to_device, torch_dtype
from .elementwise import total_order_key
from .minmax import maximum, minimum

_BINARY = {Opcode.ADD: torch.add, Opcode.SUBTRACT: torch.sub, Opcode.MULTIPLY: torch.mul,
           Opcode.MAXIMUM: maximum, Opcode.MINIMUM: minimum}
_BITWISE = {Opcode.AND: (torch.logical_and, torch.bitwise_and),
            Opcode.OR: (torch.logical_or, torch.bitwise_or),
            Opcode.XOR: (torch.logical_xor, torch.bitwise_xor)}
_COMPARE = {"EQ": torch.eq, "NE": torch.ne, "LT": torch.lt, "LE": torch.le, "GT": torch.gt,
            "GE": torch.ge}
_TYPES = {"pred", "s8", "s16", "s32", "s64", "u8", "f16", "bf16", "f32", "f64"}
_LOW = (torch.float16, torch.bfloat16)


def _shapes(inst):
    shape = inst.shape
    return shape.elements if shape.is_tuple else [shape]


def applicable(comp) -> bool:
    """Whether every instruction of `comp` is one this module runs exactly on tensors."""
    for inst in comp.instructions:
        if inst.opcode not in _PLAIN or inst.called:
            return False
        for s in _shapes(inst):
            if s.is_tuple or s.element_type not in _TYPES:
                return False
        if inst.opcode is Opcode.CONSTANT and (inst.shape.is_tuple or inst.shape.rank):
            return False
        if inst.opcode is Opcode.CONVERT and not _same_kind_convert(inst):
            return False
        if inst.opcode is Opcode.BITCAST_CONVERT and torch_dtype(
                inst.shape.element_type).itemsize != torch_dtype(
                inst.operands[0].shape.element_type).itemsize:
            return False
    return True


def _same_kind_convert(inst) -> bool:
    """Converts with no rounding mode to settle: not float -> integer (saturation)."""
    src, dst = inst.operands[0].shape.element_type, inst.shape.element_type
    floating = {"f16", "bf16", "f32", "f64"}
    return not (src in floating and dst not in floating and dst != "pred")


def apply(comp, args: list, device):
    """Run scalar computation `comp` elementwise over broadcastable tensors `args`."""
    values: dict = {}
    for inst in comp.post_order():
        values[inst] = _one(inst, [values[o] for o in inst.operands], args, device)
    return values[comp.root]


def _one(inst, ops, args, device):
    if inst.opcode is Opcode.PARAMETER:
        return args[inst.parameter_number]
    shape = inst.shape
    dtype = None if shape.is_tuple else torch_dtype(shape.element_type)
    return _SCALAR[inst.opcode](inst, ops, device, dtype)


def _binary(inst, ops, device, dtype):
    if dtype == torch.bool:  # pred arithmetic on 0/1: add is or, multiply is and, ...
        return _PRED_BINARY[inst.opcode](*ops)
    return _BINARY[inst.opcode](_wide(ops[0]), _wide(ops[1])).to(dtype)


def _bitwise(inst, ops, device, dtype):
    logical, bitwise = _BITWISE[inst.opcode]
    return (logical if dtype == torch.bool else bitwise)(*ops)


def _clamp(inst, ops, device, dtype):
    low, x, high = (_wide(o) for o in ops)
    return minimum(maximum(x, low), high).to(dtype)


_PRED_BINARY = {Opcode.ADD: torch.logical_or, Opcode.SUBTRACT: torch.logical_xor,
                Opcode.MULTIPLY: torch.logical_and, Opcode.MAXIMUM: torch.logical_or,
                Opcode.MINIMUM: torch.logical_and}

# opcode -> fn(inst, operand values, device, result dtype): the ops a scalar computation
# may use here (`applicable`), with the CPU backend's semantics. Parameters are the args.
_SCALAR = {
    Opcode.CONSTANT: lambda inst, ops, device, dtype: to_device(
        inst.literal, device, inst.shape.element_type),
    Opcode.TUPLE: lambda inst, ops, device, dtype: tuple(ops),
    Opcode.GET_TUPLE_ELEMENT: lambda inst, ops, device, dtype: ops[0][
        attrs.integer(inst, "index")],
    Opcode.COMPARE: lambda inst, ops, device, dtype: _compare(inst, *ops),
    Opcode.SELECT: lambda inst, ops, device, dtype: torch.where(*ops).to(dtype),
    Opcode.CONVERT: lambda inst, ops, device, dtype: (
        ops[0] != 0 if dtype == torch.bool else ops[0].to(dtype)),
    # same width (applicable checks): reinterpret
    Opcode.BITCAST_CONVERT: lambda inst, ops, device, dtype: ops[0].view(dtype),
    Opcode.CLAMP: _clamp,
    Opcode.NOT: lambda inst, ops, device, dtype: (
        torch.logical_not(ops[0]) if dtype == torch.bool else torch.bitwise_not(ops[0])),
    Opcode.NEGATE: lambda inst, ops, device, dtype: (
        ops[0].clone() if dtype == torch.bool else torch.neg(_wide(ops[0])).to(dtype)),
    Opcode.ABS: lambda inst, ops, device, dtype: torch.abs(_wide(ops[0])).to(dtype),
    **{op: _bitwise for op in _BITWISE},
    **{op: _binary for op in _BINARY},
}
_PLAIN = frozenset(_SCALAR) | {Opcode.PARAMETER}


def _wide(x: torch.Tensor) -> torch.Tensor:
    return x.to(torch.float32) if x.dtype in _LOW else x


def _compare(inst, x, y):
    direction = attrs.string(inst, "direction")
    if attrs.string(inst, "type") == "TOTALORDER" and x.is_floating_point():
        x, y = total_order_key(x), total_order_key(y)
    return _COMPARE[direction](x, y)


def occurrence(target: torch.Tensor) -> torch.Tensor:
    """For each position, how many earlier positions hold the same value (0 for the first)."""
    n = target.numel()
    if n == 0:
        return torch.zeros(0, dtype=torch.int64, device=target.device)
    order = torch.sort(target, stable=True).indices
    ordered = target[order]
    first = torch.ones(n, dtype=torch.bool, device=target.device)
    first[1:] = ordered[1:] != ordered[:-1]
    position = torch.arange(n, device=target.device)
    group_start = torch.cummax(torch.where(first, position, 0), dim=0).values
    out = torch.empty(n, dtype=torch.int64, device=target.device)
    out[order] = position - group_start
    return out


def apply_in_rounds(comp, outs: list, target, values: list, device) -> None:
    """outs[k][t] = comp(outs..[t], values..)[k] for every update, in order, in place.

    Updates hitting distinct elements are applied at once; an element hit k times takes
    k rounds, so the computation sees the earlier results (the CPU backend's order).
    """
    if target.numel() == 0:
        return
    rounds = occurrence(target)
    flats = [o.view(-1) for o in outs]
    for r in range(int(rounds.max().item()) + 1):
        pick = rounds == r
        t = target[pick]
        current = [f[t] for f in flats]
        result = apply(comp, current + [v[pick] for v in values], device)
        result = result if isinstance(result, tuple) else (result,)
        for f, value in zip(flats, result, strict=True):
            f[t] = value.to(f.dtype).expand(t.shape)


