"""Elementwise opcodes as torch ops at the actual sizes: what generated kernels refuse.

Generated kernels (kernels/elementwise.py) handle pred, integers and f16/bf16/f32/f64 and a
few attribute forms; what they refuse comes here instead of the host, each mirroring the
CPU backend (dynhlo/backends/cpu/ops_elementwise.py):
- convert from float to integer (XLA's saturation, NaN -> 0), converts to and from complex;
- integer divide and remainder (x / 0 = -1, x % 0 = x, and MIN / -1 = MIN without a trap)
  and integer power (x ** negative: 1 for x = 1, +-1 for x = -1, else 0);
- popcnt and count-leading-zeros (byte tables), real, imag and complex;
- complex (c64, c128) arithmetic: add, subtract, multiply, divide, negate, abs (to the
  real magnitude), sign (z/|z|), exp, log, sqrt, rsqrt, tanh, sine, cosine, power, compare
  EQ/NE, select, copy (float8 and complex select and copy move bits exactly);
- compare with type=TOTALORDER (IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < NaN),
  through `total_order_key`, the GPU's one such key (sort uses it too).
Complex results agree with the CPU backend's NumPy ones to rounding (transcendentals
differ in the last bits; division is XLA's algorithm on both, complex_divide), the rest
exactly.

Left on the host: integer divide/remainder of u16/u32/u64 (torch lacks the unsigned
arithmetic), float -> u64 converts, converts TO float8 (torch saturates an f8e4m3fn
overflow where ml_dtypes, the CPU backend's, gives NaN), float8 arithmetic, unsigned power
wider than u8, and element types torch does not have.
Semantics: XLA operation semantics, element-wise operations and ConvertElementType.
"""

from __future__ import annotations

import torch

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ....shapes.sizes import operand_mismatch
from ..tensors import torch_dtype

_ARITH_INTS = {torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8}
_FLOATS = {torch.float16, torch.bfloat16, torch.float32, torch.float64}
_INTS = _ARITH_INTS | {torch.uint16, torch.uint32}
_FP8 = {torch.float8_e4m3fn, torch.float8_e5m2}


def fitted(ctx, args):
    """Operands cut to the result's actual shape (XLA: operands of different sizes give the
    smaller; a static operand meets a dynamic one), a dimension of size 1 broadcast (XLA's
    implicit broadcast of a dynamic size 1), rank-0 operands broadcast (as the CPU backend's
    `fit`). An operand otherwise smaller than the result is a DynamicSizeError."""
    shape = tuple(ctx.out_shape())
    out = []
    for a in args:
        if a.dim() and tuple(a.shape) != shape:
            if a.dim() != len(shape) or any(x < y and x != 1 for x, y in zip(a.shape, shape,
                                                                             strict=True)):
                raise operand_mismatch(ctx.inst.name, a.shape, shape)
            a = a[tuple(slice(0, s) for s in shape)]
            if tuple(a.shape) != shape:
                a = a.expand(shape)
        out.append(a)
    return out


def convert(ctx, inst, args):
    (x,) = fitted(ctx, args)
    target = torch_dtype(inst.shape.element_type)
    if target in _FP8:
        return NotImplemented  # torch saturates f32 -> f8e4m3fn overflow; ml_dtypes gives NaN
    if x.dtype in _FP8:
        x = x.to(torch.float32)  # exact: every float8 value is an f32 value
    if x.is_complex() and not target.is_complex:
        x = x.real
    if target == torch.bool:
        return x != 0
    if x.dtype in _FLOATS and target in _INTS | {torch.int64}:
        return _float_to_int(x, target)
    if x.dtype in _FLOATS and target == torch.uint64:
        return NotImplemented
    return x.to(target)


def _float_to_int(x, target):
    """Saturating, NaN -> 0; compared in f64, where INT64_MAX rounds up to 2**63."""
    f = x.to(torch.float64)
    info = torch.iinfo(target)
    lo, hi = int(info.min), int(info.max)
    inside = (f > lo) & (f < hi)  # False for NaN
    out = torch.trunc(torch.where(inside, f, 0.0)).to(torch.int64)
    top = torch.full_like(out, hi)
    bottom = torch.full_like(out, lo)
    out = torch.where(f >= hi, top, torch.where(f <= lo, bottom, out))
    return out.to(target)


def _int_pair(ctx, args):
    x, y = fitted(ctx, args)
    return (x, y) if x.dtype in _ARITH_INTS and y.dtype == x.dtype else (None, None)


def _overflow(x, y):
    """MIN / -1: the one quotient that does not fit (it traps in C); XLA gives MIN."""
    if x.dtype == torch.uint8:
        return torch.zeros_like(x, dtype=torch.bool)
    return (x == torch.iinfo(x.dtype).min) & (y == -1)


def divide(ctx, inst, args):
    x, y = _int_pair(ctx, args)
    if x is None:  # complex
        return complex_arith(ctx, inst, args)
    zero, over = y == 0, _overflow(x, y)
    safe = torch.where(zero | over, torch.ones_like(y), y)
    q = torch.div(x, safe, rounding_mode="trunc")
    # x / 0 is -1: all bits set, which for an unsigned type is its maximum (CUDA's fill of
    # -1 into uint8 is not 255).
    minus_one = torch.iinfo(x.dtype).max if x.dtype == torch.uint8 else -1
    return torch.where(zero, torch.full_like(x, minus_one), torch.where(over, x, q))


def remainder(ctx, inst, args):
    x, y = _int_pair(ctx, args)
    if x is None:
        return NotImplemented
    zero, over = y == 0, _overflow(x, y)
    safe = torch.where(zero | over, torch.ones_like(y), y)
    return torch.where(zero, x, torch.fmod(x, safe))


def _bytes(x):
    """(..., itemsize) uint8 bytes of each element, least significant first (little-endian)."""
    return x.contiguous().view(torch.uint8).reshape(tuple(x.shape) + (x.element_size(),))


_TABLES: dict = {}


def _table(name: str, device) -> torch.Tensor:
    key = (name, str(device))
    table = _TABLES.get(key)
    if table is None:
        values = [bin(i).count("1") for i in range(256)] if name == "popcnt" else \
            [8 - i.bit_length() for i in range(256)]
        table = _TABLES[key] = torch.tensor(values, dtype=torch.int64, device=device)
    return table


def popcnt(ctx, inst, args):
    (x,) = fitted(ctx, args)
    if x.dtype not in _INTS | {torch.uint64}:
        return NotImplemented
    counts = _table("popcnt", x.device)[_bytes(x).to(torch.int64)].sum(dim=-1)
    return counts.to(x.dtype)


def count_leading_zeros(ctx, inst, args):
    (x,) = fitted(ctx, args)
    if x.dtype not in _INTS | {torch.uint64}:
        return NotImplemented
    raw = _bytes(x).to(torch.int64)
    table = _table("clz", x.device)
    total = torch.zeros(x.shape, dtype=torch.int64, device=x.device)
    found = torch.zeros(x.shape, dtype=torch.bool, device=x.device)
    for b in reversed(range(raw.shape[-1])):  # from the most significant byte
        byte = raw[..., b]
        total = total + torch.where(found, 0, table[byte])
        found = found | (byte != 0)
    return total.to(x.dtype)


def real(ctx, inst, args):
    (x,) = fitted(ctx, args)
    return x.real.contiguous() if x.is_complex() else x.clone()


def imag(ctx, inst, args):
    (x,) = fitted(ctx, args)
    return x.imag.contiguous() if x.is_complex() else torch.zeros_like(x)


def complex_(ctx, inst, args):
    x, y = fitted(ctx, args)
    if x.dtype not in (torch.float32, torch.float64) or y.dtype != x.dtype:
        return NotImplemented
    return torch.complex(x, y)




def _parts(fn):
    """`fn` of the real and imaginary parts apart, as XLA computes complex add, subtract
    and negate. torch's own (on the CPU) give (0+0j) + (inf+0j) = inf+nanj (it adds 1*y,
    a complex product) and, from 8 elements, neg(0j) = +0 (as 0 - z)."""
    def apply(*zs):
        return torch.complex(fn(*(z.real for z in zs)), fn(*(z.imag for z in zs)))
    return apply


def complex_divide(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """XLA's complex division, as the CPU backend's (ops_elementwise._complex_divide):
    Smith's algorithm, then C99 Annex G's infinities and zeros where it gives (NaN, NaN).
    torch's division gives NaN for (1+0j) / (inf+infj), where XLA gives 0."""
    x, y = torch.broadcast_tensors(x, y)
    ar, ai, br, bi = x.real, x.imag, y.real, y.imag
    zero, one = torch.zeros_like(ar), torch.ones_like(ar)
    inf = torch.full_like(ar, float("inf"))
    small_real = br.abs() < bi.abs()
    c = torch.where(small_real, br / bi, bi / br)
    d = torch.where(small_real, br * c + bi, bi * c + br)
    real = torch.where(small_real, ar * c + ai, ai * c + ar) / d
    imag = torch.where(small_real, ai * c - ar, ai - ar * c) / d
    nan = real.isnan() & imag.isnan()
    case1 = nan & (br == 0) & (bi == 0) & ~(ar.isnan() & ai.isnan())
    case2 = nan & ~case1 & (ar.isinf() | ai.isinf()) & br.isfinite() & bi.isfinite()
    case3 = nan & ~case1 & ~case2 & (br.isinf() | bi.isinf()) & ar.isfinite() & ai.isfinite()
    s1 = torch.copysign(inf, br)
    ur = torch.copysign(torch.where(ar.isinf(), one, zero), ar)
    ui = torch.copysign(torch.where(ai.isinf(), one, zero), ai)
    vr = torch.copysign(torch.where(br.isinf(), one, zero), br)
    vi = torch.copysign(torch.where(bi.isinf(), one, zero), bi)
    real = torch.where(case1, s1 * ar, torch.where(case2, inf * (ur * br + ui * bi),
                       torch.where(case3, zero * (ar * vr + ai * vi), real)))
    imag = torch.where(case1, s1 * ai, torch.where(case2, inf * (ui * br - ur * bi),
                       torch.where(case3, zero * (ai * vr - ar * vi), imag)))
    return torch.complex(real, imag)


def _complex_sign(z: torch.Tensor) -> torch.Tensor:
    """XLA's: z / |z| part by part, z itself where it is 0 (torch.sgn makes -0-0j +0-0j)."""
    magnitude = z.abs()
    return torch.where(z == 0, z, torch.complex(z.real / magnitude, z.imag / magnitude))


def _complex_abs(z: torch.Tensor) -> torch.Tensor:
    """XLA's |z|: NaN where either part is NaN (torch's hypot gives inf for nan+inf j)."""
    out = z.abs()
    return torch.where(z.real.isnan() | z.imag.isnan(), torch.full_like(out, float("nan")), out)


def _complex_rsqrt(z: torch.Tensor) -> torch.Tensor:
    """XLA's 1 / sqrt(z): complex_divide's value, the imaginary part's sign the opposite of
    z's, zeros too (rsqrt(2+0j) is 0.707-0j), as the CPU backend's _rsqrt."""
    out = complex_divide(torch.ones_like(z), torch.sqrt(z))
    keep = out.imag.isnan() | z.imag.isnan()
    return torch.complex(out.real, torch.where(keep, out.imag, torch.copysign(out.imag, -z.imag)))


COMPLEX_UNARY = {
    Opcode.NEGATE: _parts(torch.neg), Opcode.ABS: _complex_abs, Opcode.SIGN: _complex_sign,
    Opcode.EXP: torch.exp, Opcode.LOG: torch.log, Opcode.SQRT: torch.sqrt,
    Opcode.RSQRT: _complex_rsqrt,
    Opcode.TANH: torch.tanh,
    Opcode.SINE: torch.sin, Opcode.COSINE: torch.cos,
}
_COMPLEX_BINARY = {
    Opcode.ADD: _parts(torch.add), Opcode.SUBTRACT: _parts(torch.sub),
    Opcode.MULTIPLY: torch.mul, Opcode.DIVIDE: complex_divide, Opcode.POWER: torch.pow,
}


def complex_arith(ctx, inst, args):
    """Complex arithmetic (see module doc); NotImplemented for any other element type."""
    values = fitted(ctx, args)
    if not values or not all(v.is_complex() for v in values):
        return NotImplemented
    fn = COMPLEX_UNARY.get(inst.opcode) or _COMPLEX_BINARY.get(inst.opcode)
    if fn is None:
        return NotImplemented
    return fn(*values).to(torch_dtype(inst.shape.element_type))




_FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)
_COMPARE = {"EQ": torch.eq, "NE": torch.ne, "LT": torch.lt, "LE": torch.le, "GT": torch.gt,
            "GE": torch.ge}


_SAME_WIDTH_INT = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def total_order_key(x: torch.Tensor) -> torch.Tensor:
    """Floats mapped to integers whose order is IEEE totalOrder (as the CPU backend's key).

    Read from the value's own bits: converting to f64 first would lose a NaN's sign on CUDA,
    which makes every NaN positive.
    """
    width = x.element_size()
    bits = x.contiguous().view(_SAME_WIDTH_INT[width]).to(torch.int64)
    return torch.where(bits < 0, bits ^ (2 ** (8 * width - 1) - 1), bits)


def compare(ctx, inst, args):
    x, y = fitted(ctx, args)
    direction = attrs.string(inst, "direction")
    fn = _COMPARE.get(direction)
    if fn is None or x.dtype in _FP8 or (x.is_complex() and direction not in ("EQ", "NE")):
        return NotImplemented  # a bad direction (the host path reports it), float8 values
    if attrs.string(inst, "type") == "TOTALORDER" and x.is_floating_point():
        x, y = total_order_key(x), total_order_key(y)
    return fn(x, y)


def power(ctx, inst, args):
    x, y = fitted(ctx, args)
    if x.is_complex():
        return complex_arith(ctx, inst, args)
    if x.dtype not in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8):
        return NotImplemented
    negative = y < 0
    out = torch.pow(x, torch.where(negative, torch.zeros_like(y), y))
    one, zero = torch.ones_like(x), torch.zeros_like(x)
    odd = torch.remainder(y, 2) != 0
    special = torch.where(x == 1, one, torch.where(x == -1, torch.where(odd, -one, one), zero)) \
        if x.dtype != torch.uint8 else torch.where(x == 1, one, zero)
    return torch.where(negative, special, out)


def select(ctx, inst, args):
    pred, on_true, on_false = fitted(ctx, args)
    return torch.where(pred, on_true, on_false)


def copy(ctx, inst, args):
    return args[0].clone()
