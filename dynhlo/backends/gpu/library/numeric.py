"""reduce-precision and the batch-norm ops as torch ops at the actual sizes (topk: sort.py).

- reduce-precision: XLA's bit algorithm (round to nearest, ties to even; overflow to inf,
  the reduced format's subnormals flushed to zero; NaN kept) on the operand's own encoding
  (f16, bf16, f32, f64), in int64 arithmetic on the device; bit-exact with the CPU backend.
- batch-norm-training / -inference / -grad: XLA's formulas, statistics as population mean
  and variance over every dimension but feature_index of the valid region, in f32 for
  16-bit floats (float sums can differ from NumPy's in the last bits).
Taken by the host fallback: reduce-precision of float8 types. rng-bit-generator and rng stay
on the host: the CPU backend's bits (XLA's generators, dynhlo/backends/cpu/rng_bits.py; for
rng a NumPy Philox stream), which torch does not reproduce.
Semantics: XLA operation semantics, ReducePrecision, BatchNormTraining,
BatchNormInference, BatchNormGrad.
"""

from __future__ import annotations

import math

import torch

from ....hlo import attrs
from ..tensors import torch_dtype
from .elementwise import fitted




# dtype -> (exponent bits, mantissa bits, same-width integer dtype)
_LAYOUT = {torch.float16: (5, 10, torch.int16), torch.bfloat16: (8, 7, torch.int16),
           torch.float32: (8, 23, torch.int32), torch.float64: (11, 52, torch.int64)}


def reduce_precision(ctx, inst, args):
    (x,) = args
    exponent_bits = attrs.integer(inst, "exponent_bits")
    mantissa_bits = attrs.integer(inst, "mantissa_bits")
    layout = _LAYOUT.get(x.dtype)
    if layout is None or exponent_bits < 1 or mantissa_bits < 0:
        return NotImplemented  # float8, or attributes the host path reports
    src_exp, src_man, itype = layout
    width = itype.itemsize * 8
    mask = (1 << width) - 1 if width < 64 else -1
    bits = x.contiguous().view(itype).to(torch.int64) & mask  # unsigned bits in int64
    if mantissa_bits < src_man:
        shift = src_man - mantissa_bits
        last = 1 << shift
        bias = ((bits & last) >> shift) + ((last >> 1) - 1)  # ties to even
        bits = ((bits + bias) & mask) & ~(last - 1)
    if exponent_bits < src_exp:
        bits = _clamp_exponent(bits, width, src_exp, src_man, exponent_bits)
    out = bits.to(itype).view(x.dtype)
    return torch.where(torch.isnan(x), x, out)


def _clamp_exponent(bits, width, src_exp, src_man, exponent_bits):
    sign_mask = 1 << (width - 1) if width < 64 else -(1 << 63)
    exp_mask = ((1 << src_exp) - 1) << src_man
    src_bias = (1 << (src_exp - 1)) - 1
    reduced_bias = (1 << (exponent_bits - 1)) - 1
    exponent = bits & exp_mask
    overflow = exponent > ((src_bias + reduced_bias) << src_man)
    underflow = exponent <= ((src_bias - reduced_bias) << src_man)
    signed_zero = bits & sign_mask
    return torch.where(overflow, signed_zero | exp_mask,
                       torch.where(underflow, signed_zero, bits))


# --- batch norm ------------------------------------------------------------------------


def _epsilon(ctx, inst) -> float:
    try:
        return float(inst.attrs.get("epsilon", "0"))
    except ValueError:
        raise ctx.error(f"epsilon={inst.attrs.get('epsilon')!r} is not a number") from None


def _work(x: torch.Tensor) -> torch.Tensor:
    return x.to(torch.float32) if x.element_size() < 4 else x


def _setup(inst, x, vectors):
    f = attrs.integer(inst, "feature_index")
    axes = tuple(k for k in range(x.dim()) if k != f)
    shape = [-1 if k == f else 1 for k in range(x.dim())]
    return axes, [_work(v).reshape(shape) for v in vectors]


def _sum(x, axes):
    return x.sum(dim=axes, keepdim=True) if axes else x


def _moments(x, axes):
    """Population mean and variance over `axes`; an empty region gives NaN, as 0/0 does."""
    count = float(math.prod(x.shape[k] for k in axes))
    mean = _sum(x, axes) / count
    var = _sum(torch.square(x - mean), axes) / count
    return mean, var


def _floating(*tensors) -> bool:
    return all(t.is_floating_point() for t in tensors)


def batch_norm_training(ctx, inst, args):
    x, scale, offset = args
    if not _floating(*args):
        return NotImplemented
    axes, (scale, offset) = _setup(inst, x, (scale, offset))
    w = _work(x)
    mean, var = _moments(w, axes)
    y = (w - mean) / torch.sqrt(var + _epsilon(ctx, inst)) * scale + offset
    return (y.to(x.dtype), mean.reshape(-1).to(x.dtype), var.reshape(-1).to(x.dtype))


def batch_norm_inference(ctx, inst, args):
    x = args[0]
    if not _floating(*args):
        return NotImplemented
    axes, (scale, offset, mean, var) = _setup(inst, x, args[1:])
    y = (_work(x) - mean) / torch.sqrt(var + _epsilon(ctx, inst)) * scale + offset
    return y.to(x.dtype)


def batch_norm_grad(ctx, inst, args):
    x, scale, mean, var, dy = args
    if not _floating(*args):
        return NotImplemented
    axes, (scale, mean, var) = _setup(inst, x, (scale, mean, var))
    w, dy_w = _work(x), _work(dy)
    count = float(math.prod(x.shape[k] for k in axes))
    centered = w - mean
    inv_std = 1 / torch.sqrt(var + _epsilon(ctx, inst))
    grad_offset = _sum(dy_w, axes)
    grad_scale = _sum(dy_w * centered, axes) * inv_std
    c = _sum(dy_w * centered, axes) / count * inv_std * inv_std
    dx = scale * inv_std * (dy_w - grad_offset / count - c * centered)
    return (dx.to(x.dtype), grad_scale.reshape(-1).to(x.dtype),
            grad_offset.reshape(-1).to(x.dtype))


_FLOATS = {torch.float16, torch.bfloat16, torch.float32, torch.float64}
_INTS = {torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16,
         torch.uint32}


def stochastic_convert(ctx, inst, args):
    """|x| truncated, plus one where random < frac(|x|) * 2**bits; sign back; saturating;
    NaN -> 0 (the CPU backend's definition, computed in f64 as there)."""
    x, random = fitted(ctx, args)
    target = torch_dtype(inst.shape.element_type)
    if target not in _INTS or x.dtype not in _FLOATS or \
            random.element_size() != x.element_size() or random.dtype == torch.uint64:
        return NotImplemented  # a mismatch the host path reports, or u64 bits
    f = x.to(torch.float64)
    magnitude = f.abs()
    whole = torch.floor(magnitude)
    threshold = (magnitude - whole) * float(2 ** (random.element_size() * 8))
    rounded = whole + (random.to(torch.float64) < threshold).to(torch.float64)
    signed = torch.where(torch.signbit(f), -rounded, rounded)
    info = torch.iinfo(target)
    clipped = signed.clamp(int(info.min), int(info.max))
    return torch.where(torch.isnan(f), 0.0, clipped).to(target)
