"""Elementwise and data-movement ops whose element type or attributes kernels refuse.

Generated kernels handle pred, integers and f16/bf16/f32/f64 (lowering._KERNEL_TYPES) and
a few attribute forms. What they refuse lands here instead of the host:
- complex (c64, c128) arithmetic: add, subtract, multiply, divide, negate, abs (to the
  real magnitude), sign (z/|z|), exp, log, sqrt, rsqrt, tanh, sine, cosine, power, compare
  EQ/NE, select, copy; float8 and complex values through broadcast, slice, reverse, copy,
  select (bit-exact moves);
- compare with type=TOTALORDER (IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < NaN),
  through the same integer key as the CPU backend;
- integer power (x ** negative: 1 for x = 1, +-1 for x = -1, else 0, as on the CPU).
Complex results agree with the CPU backend's NumPy ones to rounding (the formulas of
complex division and transcendentals differ in the last bits), the rest exactly.
Left on the host: float8 arithmetic (ml_dtypes' and torch's f8 rounding may differ) and
unsigned power wider than u8.
Semantics: XLA operation semantics, element-wise operations, Broadcast, Slice, Rev.
"""

from __future__ import annotations

import torch

from ...hlo import attrs
from ...hlo.opcodes import Opcode
from .launcher import torch_dtype
from .lowering import LIBRARY, library
from .ops_torch_elementwise import fitted

_COMPLEX_UNARY = {
    Opcode.NEGATE: torch.neg, Opcode.ABS: torch.abs, Opcode.SIGN: torch.sgn,
    Opcode.EXP: torch.exp, Opcode.LOG: torch.log, Opcode.SQRT: torch.sqrt,
    Opcode.RSQRT: lambda z: 1 / torch.sqrt(z), Opcode.TANH: torch.tanh,
    Opcode.SINE: torch.sin, Opcode.COSINE: torch.cos,
}
_COMPLEX_BINARY = {
    Opcode.ADD: torch.add, Opcode.SUBTRACT: torch.sub, Opcode.MULTIPLY: torch.mul,
    Opcode.DIVIDE: torch.div, Opcode.POWER: torch.pow,
}


def elementwise(ctx, inst, args):
    """Complex arithmetic (see module doc); NotImplemented for any other element type."""
    values = fitted(ctx, args)
    if not values or not all(v.is_complex() for v in values):
        return NotImplemented
    fn = _COMPLEX_UNARY.get(inst.opcode) or _COMPLEX_BINARY.get(inst.opcode)
    if fn is None:
        return NotImplemented
    return fn(*values).to(torch_dtype(inst.shape.element_type))


for _op in list(_COMPLEX_UNARY) + list(_COMPLEX_BINARY):
    if _op not in LIBRARY:  # ops_torch_elementwise's divide calls `elementwise` itself
        library(_op)(elementwise)


_FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)
_COMPARE = {"EQ": torch.eq, "NE": torch.ne, "LT": torch.lt, "LE": torch.le, "GT": torch.gt,
            "GE": torch.ge}


_SAME_WIDTH_INT = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def _total_order_key(x: torch.Tensor) -> torch.Tensor:
    """Floats mapped to integers whose order is IEEE totalOrder (as the CPU backend's key).

    Read from the value's own bits: converting to f64 first would lose a NaN's sign on CUDA,
    which makes every NaN positive.
    """
    width = x.element_size()
    bits = x.contiguous().view(_SAME_WIDTH_INT[width]).to(torch.int64)
    return torch.where(bits < 0, bits ^ (2 ** (8 * width - 1) - 1), bits)


@library(Opcode.COMPARE)
def compare(ctx, inst, args):
    x, y = fitted(ctx, args)
    direction = attrs.string(inst, "direction")
    fn = _COMPARE.get(direction)
    if fn is None or x.dtype in _FP8 or (x.is_complex() and direction not in ("EQ", "NE")):
        return NotImplemented  # a bad direction (the host path reports it), float8 values
    if attrs.string(inst, "type") == "TOTALORDER" and x.is_floating_point():
        x, y = _total_order_key(x), _total_order_key(y)
    return fn(x, y)


@library(Opcode.POWER)
def power(ctx, inst, args):
    x, y = fitted(ctx, args)
    if x.is_complex():
        return elementwise(ctx, inst, args)
    if x.dtype not in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8):
        return NotImplemented
    negative = y < 0
    out = torch.pow(x, torch.where(negative, torch.zeros_like(y), y))
    one, zero = torch.ones_like(x), torch.zeros_like(x)
    odd = torch.remainder(y, 2) != 0
    special = torch.where(x == 1, one, torch.where(x == -1, torch.where(odd, -one, one), zero)) \
        if x.dtype != torch.uint8 else torch.where(x == 1, one, zero)
    return torch.where(negative, special, out)


@library(Opcode.SELECT)
def select(ctx, inst, args):
    pred, on_true, on_false = fitted(ctx, args)
    return torch.where(pred, on_true, on_false)


@library(Opcode.COPY)
def copy(ctx, inst, args):
    return args[0].clone()


@library(Opcode.BROADCAST)
def broadcast(ctx, inst, args):
    """A view (no copy): a broadcast declared at its bound meets the actual size later."""
    (x,) = args
    shape = tuple(ctx.out_shape())
    mapped = attrs.ints(inst, "dimensions", ())
    if x.dim() == 0:
        return x.expand(shape)
    view = x.reshape([x.shape[mapped.index(k)] if k in mapped else 1
                      for k in range(len(shape))])
    if any(k in mapped and view.shape[k] != shape[k] for k in range(len(shape))):
        raise ctx.error(f"broadcast of size {list(x.shape)} to {list(shape)}")
    return view.expand(shape)


@library(Opcode.SLICE)
def slice_(ctx, inst, args):
    (x,) = args
    return x[tuple(slice(s, limit, step) for s, limit, step in attrs.slices(inst))]


@library(Opcode.REVERSE)
def reverse(ctx, inst, args):
    (x,) = args
    dims = list(attrs.ints(inst, "dimensions", ()))
    if x.dtype in _FP8:  # torch has no flip for float8: move the bytes
        return x.view(torch.uint8).flip(dims).view(x.dtype)
    return x.flip(dims)
