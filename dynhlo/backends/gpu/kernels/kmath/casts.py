"""Converts in generated kernels (`M.to_f32` ...), with XLA's rounding in both modes.

XLA converts to bf16 and f16 through f32: an integer or f64 rounds to f32 first, then to the
narrow type (f64 1 + 2^-8 + 2^-30 -> bf16 1.0, s64 2^40 + 2^32 + 1 -> bf16 2^40), which
Triton's direct casts (fptrunc f64 -> bf16, sitofp -> bf16) do not. Two casts in a row are
not enough on the GPU: MLIR's arith canonicalization rewrites truncf(sitofp x) into one
sitofp (its TruncFSIToFPToSIToFP pattern), one rounding, so an integer's f32 takes the step
to bf16 by its bits (common.f32_to_bf16_bits), which no pattern folds. The interpreter's own
casts to and from bf16 are wrong besides (a bf16 is its uint16 bits there: an integer's
value becomes the bit pattern, f32 -> bf16 truncates, bf16 subnormals flush), so there
every bf16 value goes through the bit versions.
"""

import triton
import triton.language as tl
from triton import knobs

from .common import f32_to_bf16_bits

if knobs.runtime.interpret:
    from .interp import bf16_to_f32
    f32_to_bf16 = f32_to_bf16_bits
else:
    from .device import bf16_to_f32, f32_to_bf16


@triton.jit
def to_f32(x):
    if x.dtype == tl.bfloat16:
        y = bf16_to_f32(x)
    else:
        y = x.to(tl.float32)
    return y


@triton.jit
def to_f64(x):
    if x.dtype == tl.bfloat16:
        y = bf16_to_f32(x).to(tl.float64)
    else:
        y = x.to(tl.float64)
    return y


@triton.jit
def to_bf16(x):
    if x.dtype == tl.bfloat16:
        y = x
    elif x.dtype.is_int():   # by the bits: the GPU compiler would merge the two roundings
        y = f32_to_bf16_bits(x.to(tl.float32))
    else:
        y = f32_to_bf16(x.to(tl.float32))
    return y


@triton.jit
def to_f16(x):
    return to_f32(x).to(tl.float16)
