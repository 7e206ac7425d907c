"""Linear algebra on the device: convolution, fft, cholesky, triangular-solve (torch).

fft, cholesky and triangular-solve call torch.fft / torch.linalg on the valid region and
return NotImplemented for configurations they do not cover (then the host tier runs them).
convolution goes through torch.nn.functional.conv1d/2d/3d on tensors at their actual sizes:

The operands are permuted from their dim_labels to (batch, feature, spatial...) and
(out, in, spatial...) views; window reversal flips the kernel; lhs_dilate (base dilation) is
an explicit zero-spread copy of the input; padding (negative pads crop) is F.pad; window
strides and rhs_dilate are conv's stride and dilation; feature_group_count is conv's
`groups`. batch_group_count g is the same grouped conv after moving the g batch chunks into
the feature dimension: chunk j of the batch meets the j-th group of output features (the
StableHLO definition the CPU backend follows, dynhlo/backends/cpu/ops_linalg.py).

Floats compute in their own type (f16/bf16 in f32), so sums can differ from the CPU
backend's f64 accumulation in the last bits; an f32 convolution runs in IEEE f32 unless the
`precision` option and its operand_precision allow TF32 (gpu/precision.py), and the f32
factorizations and solves always in IEEE f32, each set for the one call (Fp32Scope).
Integer convolutions
(cuDNN has none) run in f64 when max|x| * max|w| * terms per output is below 2**40: every
partial sum is then an exact integer, and the cast to the result type wraps as the CPU's
integer arithmetic does; the bound is read back (one scalar). Taken by the host fallback:
integer convolutions past that bound, u64 and pred ones, complex convolutions, and more
than 3 spatial dimensions. Empty reductions (no input features, a zero-sized kernel, or an
input of padding only) give zeros without a launch.
Semantics: XLA operation semantics, Conv (ConvWithGeneralPadding), Fft, Cholesky,
TriangularSolve.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from ....hlo import attrs
from ....shapes.windows import conv_groups, conv_labels, window_dims, window_output_size
from ..precision import Fp32Scope, allows_tf32
from ..tensors import torch_dtype

_WORK = {torch.float16: torch.float32, torch.bfloat16: torch.float32,
         torch.float32: torch.float32, torch.float64: torch.float64}
_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}


def convolution(ctx, inst, args):
    lhs, rhs = args
    out_dtype = torch_dtype(inst.shape.element_type)
    spatial = lhs.dim() - 2
    integer = out_dtype in _INTEGERS and lhs.dtype in _INTEGERS and rhs.dtype in _INTEGERS
    work = torch.float64 if integer else _WORK.get(out_dtype)
    if spatial > 3 or work is None or not integer and (lhs.dtype not in _WORK
                                                       or rhs.dtype not in _WORK):
        return NotImplemented
    labels = conv_labels(inst, lhs.dim())
    wins = window_dims(inst, spatial)
    x = lhs.permute((labels.lhs_batch, labels.lhs_feature) + labels.lhs_spatial)
    w = rhs.permute((labels.rhs_out, labels.rhs_in) + labels.rhs_spatial)
    if integer:  # the CPU computes in the result type: operands cast (wrapping) first
        x, w = x.to(out_dtype), w.to(out_dtype)
        if not _exact_in_f64(x, w):
            return NotImplemented
    x, w = x.to(work), w.to(work)
    x, groups = _grouped(inst, x, w)
    out_spatial = tuple(window_output_size(n, win, k) for n, win, k in
                        zip(_lhs_spatial(lhs, labels), wins, w.shape[2:], strict=True))
    result_shape = (x.shape[0], w.shape[0]) + out_spatial
    if 0 in result_shape or 0 in w.shape or 0 in x.shape:
        result = torch.zeros(result_shape, dtype=work, device=x.device)
    else:
        with Fp32Scope(work is torch.float32 and allows_tf32(inst, ctx.precision), conv=True):
            result = _conv(x, w, wins, groups)
    canonical = (labels.out_batch, labels.out_feature) + labels.out_spatial
    inverse = sorted(range(len(canonical)), key=canonical.__getitem__)
    if integer:  # an exact integer sum; the cast wraps it as the CPU's arithmetic does
        result = torch.round(result).to(torch.int64)
    return result.permute(inverse).to(out_dtype)


_INTEGERS = {torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16,
             torch.uint32}
_EXACT = 2.0 ** 40


def _exact_in_f64(x, w) -> bool:
    """Whether every partial sum of the conv is an integer far inside f64's exact range.

    max|x| * max|w| * (terms per output) < 2**40 bounds every partial sum, so any summation
    order (cuDNN's FFT and Winograd algorithms included, whose rounding errors stay far
    below 0.5 at that magnitude) rounds back to the exact integer. One value is read back.
    """
    if x.numel() == 0 or w.numel() == 0:
        return True
    terms = w[0].numel()  # input features per group x kernel taps
    bound = x.to(torch.float64).abs().max() * w.to(torch.float64).abs().max() * terms
    return bool(bound < _EXACT)


def _lhs_spatial(lhs, labels) -> list[int]:
    return [lhs.shape[d] for d in labels.lhs_spatial]


def _grouped(inst, x, w):
    """x (N, C, *S) -> (N', C', *S) for a conv with `groups` groups (see module doc)."""
    (n, c), (o, i) = x.shape[:2], w.shape[:2]
    groups, batch_groups = conv_groups(inst, n, c, o, i)
    g = groups * batch_groups
    if batch_groups == 1:
        return x, groups
    chunks = x.reshape((g, n // g) + tuple(x.shape[1:]))
    return chunks.movedim(0, 1).reshape((n // g, g * c) + tuple(x.shape[2:])), g


def _conv(x, w, wins, groups: int):
    flips = [2 + d for d, win in enumerate(wins) if win.reversal]
    if flips:
        w = w.flip(flips)
    x = _base_dilate(x, wins)
    pads = []
    for win in reversed(wins):  # F.pad lists the last dimension first
        pads += [win.lo, win.hi]
    if any(pads):
        x = F.pad(x, pads)  # negative pads crop
    strides = [win.stride for win in wins]
    dilation = [win.window_dilation for win in wins]
    if not wins:  # no spatial dims: a grouped matrix product, as a length-1 conv1d
        return F.conv1d(x.unsqueeze(-1), w.unsqueeze(-1), groups=groups).squeeze(-1)
    return _CONV[len(wins)](x, w, stride=strides, dilation=dilation, groups=groups)


def _base_dilate(x, wins):
    """Spatial dims spread with base_dilation - 1 zeros between elements (explicit copy)."""
    if all(win.base_dilation == 1 for win in wins):
        return x
    shape = list(x.shape[:2]) + [(n - 1) * win.base_dilation + 1
                                 for n, win in zip(x.shape[2:], wins, strict=True)]
    out = torch.zeros(shape, dtype=x.dtype, device=x.device)
    out[(slice(None), slice(None)) + tuple(slice(None, None, win.base_dilation)
                                           for win in wins)] = x
    return out


def fft(ctx, inst, args):
    (x,) = args
    kind = attrs.string(inst, "fft_type", "FFT")
    lengths = list(attrs.ints(inst, "fft_length"))
    dims = list(range(x.dim() - len(lengths), x.dim()))
    out_dtype = torch_dtype(inst.shape.element_type)
    out_shape = ctx.out_shape()
    if 0 in out_shape or 0 in [x.shape[d] for d in dims]:
        return torch.zeros(out_shape, dtype=out_dtype, device=x.device)
    if kind == "IRFFT":
        result = torch.fft.irfftn(x, s=lengths, dim=dims)
    elif kind in ("FFT", "IFFT", "RFFT"):
        transform = {"FFT": torch.fft.fftn, "IFFT": torch.fft.ifftn,
                     "RFFT": torch.fft.rfftn}[kind]
        result = transform(x, dim=dims)
    else:
        return NotImplemented
    return result.to(out_dtype)


_LINALG = {torch.float32, torch.float64, torch.complex64, torch.complex128}


def cholesky(ctx, inst, args):
    """The factor in the named triangle, the other triangle zero; NaN where not PD."""
    (a,) = args
    if a.dtype not in _LINALG:
        return NotImplemented
    if a.numel() == 0:
        return a.clone()
    lower = attrs.boolean(inst, "lower")
    half = torch.tril(a) if lower else torch.triu(a)
    strict = torch.tril(a, -1) if lower else torch.triu(a, 1)
    full = half + strict.mH  # Hermitian from the named triangle only
    with Fp32Scope(False):  # the caller's TF32 setting must not reach cuSOLVER's GEMMs
        factor, info = torch.linalg.cholesky_ex(full)
    factor = torch.where((info != 0)[..., None, None], torch.nan, factor)
    return factor if lower else factor.mH.contiguous()


def triangular_solve(ctx, inst, args):
    a, b = args
    transpose = attrs.string(inst, "transpose_a", "NO_TRANSPOSE")
    if a.dtype not in _LINALG or transpose not in ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"):
        return NotImplemented
    lower = attrs.boolean(inst, "lower")
    m = torch.tril(a) if lower else torch.triu(a)
    if transpose != "NO_TRANSPOSE":
        m, lower = (m.mH if transpose == "ADJOINT" else m.mT), not lower
    if b.numel() == 0 or m.numel() == 0:
        return torch.zeros(ctx.out_shape(), dtype=b.dtype, device=b.device)
    with Fp32Scope(False):
        return torch.linalg.solve_triangular(
            m, b, upper=not lower, left=attrs.boolean(inst, "left_side"),
            unitriangular=attrs.boolean(inst, "unit_diagonal"))
