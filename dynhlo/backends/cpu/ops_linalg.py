"""Convolution, linear algebra and FFT on the CPU.

- convolution: any dim_labels, window strides / padding (negative crops) / lhs_dilate (base
  dilation) / rhs_dilate (window dilation) / window_reversal, feature_group_count and
  batch_group_count (StableHLO spec: lhs features, resp. lhs batch, and kernel output
  features are split into that many groups, convolved pairwise, and joined along the output
  feature dimension). Computed one kernel tap at a time with einsum; floats accumulate in
  f64 (c128), integers in their result type (wrapping as XLA does). (The compiled path
  computes float convolutions as im2col and one matrix product: compiled/conv.py.)
- cholesky: `lower=true` gives L with a = L L^H, `lower=false` gives U with a = U^H U; only
  the named triangle of a is read. XLA leaves the other triangle of the result unspecified:
  here it is zero. A matrix that is not Hermitian positive definite gives a result of NaNs
  (XLA: implementation-defined).
- triangular-solve: op(a) x = b (left_side=true) or x op(a) = b, op from transpose_a
  (NO_TRANSPOSE, TRANSPOSE, ADJOINT); only the `lower` triangle of a is read, and its
  diagonal is taken as ones when unit_diagonal=true. Forward/back substitution; a zero
  pivot gives inf/NaN as IEEE division does.
- fft: FFT, IFFT, RFFT, IRFFT over the trailing len(fft_length) dimensions. A dynamic
  transformed dimension is transformed at its actual size (the static computation at that
  size has fft_length equal to it); an empty transform gives an empty result.
Semantics: XLA operation semantics (Conv, Cholesky, TriangularSolve, Fft).
"""

from __future__ import annotations

import itertools

import numpy as np

from ...hlo import attrs
from ...hlo.opcodes import Opcode
from ...hlo.types import to_numpy_dtype
from ...shapes.windows import conv_groups, conv_labels, window_dims, window_output_size
from .lowering import lowering


def _accumulator(dtype: np.dtype) -> np.dtype:
    if dtype.kind == "c":
        return np.dtype(np.complex128)
    if dtype.kind in "fV":
        return np.dtype(np.float64)
    return dtype


def _swap(x: np.ndarray) -> np.ndarray:
    return np.swapaxes(x, -1, -2)


@lowering(Opcode.CONVOLUTION)
def convolution(ctx, inst, args):
    """lhs and kernel in any dim_labels -> the convolution in the output's dim_labels."""
    lhs, rhs = args
    return run_convolution(plan_convolution(inst, lhs.shape, rhs.shape), lhs, rhs)


class ConvPlan:
    """What a convolution computes at given operand shapes, worked out from its attributes
    once (the compiled path keeps it for a spec's settled shapes: compiled/special.py)."""

    __slots__ = ("inst", "x_perm", "w_perm", "out_dtype", "work", "flips", "wins",
                 "out_spatial", "windows", "features", "order")


def plan_convolution(inst, lhs_shape: tuple, rhs_shape: tuple) -> ConvPlan:
    """The ConvPlan of `inst` at these operand shapes."""
    plan = ConvPlan()
    labels = conv_labels(inst, len(lhs_shape))
    wins = window_dims(inst, len(lhs_shape) - 2)
    plan.inst, plan.wins = inst, wins
    plan.out_dtype = to_numpy_dtype(inst.shape.element_type)
    plan.work = _accumulator(plan.out_dtype)
    plan.x_perm = (labels.lhs_batch, labels.lhs_feature) + labels.lhs_spatial
    plan.w_perm = (labels.rhs_out, labels.rhs_in) + labels.rhs_spatial
    x_spatial = [lhs_shape[k] for k in labels.lhs_spatial]
    w_spatial = [rhs_shape[k] for k in labels.rhs_spatial]
    plan.features = rhs_shape[labels.rhs_out]
    plan.flips = tuple(3 + d for d, win in enumerate(wins) if win.reversal)
    plan.out_spatial = out_spatial = tuple(
        window_output_size(n, win, k) for n, win, k in zip(x_spatial, wins, w_spatial,
                                                            strict=True))
    plan.windows = [
        (taps, tuple(slice(t * win.window_dilation,
                           t * win.window_dilation + (m - 1) * win.stride + 1, win.stride)
                     for t, win, m in zip(taps, wins, out_spatial, strict=True)))
        for taps in itertools.product(*(range(k) for k in w_spatial))]
    canonical = (labels.out_batch, labels.out_feature) + labels.out_spatial
    plan.order = tuple(np.argsort(canonical))
    return plan


def run_convolution(plan: ConvPlan, lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """The convolution of `plan` (made at these operands' shapes) of lhs and the kernel."""
    work, out_spatial = plan.work, plan.out_spatial
    x = np.transpose(lhs, plan.x_perm)
    w = np.transpose(rhs, plan.w_perm)
    xg, wg = _grouped(plan.inst, x.astype(work), w.astype(work))
    for axis in plan.flips:
        wg = np.flip(wg, axis=axis)
    padded = _dilate_and_pad(xg, plan.wins)
    result = np.zeros(xg.shape[:2] + wg.shape[1:2] + out_spatial, dtype=work)
    if all(out_spatial) and xg.shape[2]:
        for taps, window in plan.windows:
            result += np.einsum("gnc...,goc->gno...", padded[(Ellipsis,) + window],
                                wg[(Ellipsis,) + taps])
    # (groups, batch, group features, spatial) -> (batch, features, spatial) -> dim_labels.
    result = np.moveaxis(result, 0, 1)
    result = result.reshape((result.shape[0], plan.features) + out_spatial)
    return np.transpose(result, plan.order).astype(plan.out_dtype)


def _grouped(inst, x, w):
    """x (N, C, *S), w (O, I, *K) -> xg (g, N', I, *S), wg (g, O/g, I, *K)."""
    (n, c), (o, i) = x.shape[:2], w.shape[:2]
    groups, batch_groups = conv_groups(inst, n, c, o, i)
    g = groups * batch_groups
    wg = w.reshape((g, o // g) + w.shape[1:])
    if batch_groups > 1:
        return x.reshape((g, n // g) + x.shape[1:]), wg
    xg = x.reshape((n, g, i) + x.shape[2:])
    return np.moveaxis(xg, 1, 0), wg


def _dilate_and_pad(x, wins):
    """Spatial dims (from axis 3) base-dilated with zeros, then padded (negative: cropped)."""
    shape = list(x.shape[:3])
    placed = [slice(None)] * 3
    crop = [slice(None)] * 3
    for n, win in zip(x.shape[3:], wins, strict=True):
        dilated = (n - 1) * win.base_dilation + 1 if n else 0
        lo, hi = max(win.lo, 0), max(win.hi, 0)
        shape.append(lo + dilated + hi)
        placed.append(slice(lo, lo + dilated, win.base_dilation))
        crop.append(slice(max(-win.lo, 0), max(max(-win.lo, 0), lo + dilated + hi
                                                - max(-win.hi, 0))))
    out = np.zeros(shape, dtype=x.dtype)
    out[tuple(placed)] = x
    return out[tuple(crop)]


@lowering(Opcode.CHOLESKY, note="the other triangle is zero; not positive definite gives NaN")
def cholesky(ctx, inst, args):
    """a[..., n, n] -> its triangular factor (the other triangle zero; NaN if not PD)."""
    (a,) = args
    lower = attrs.boolean(inst, "lower")
    out_dtype = to_numpy_dtype(inst.shape.element_type)
    a = a.astype(_accumulator(out_dtype))
    if a.size == 0:
        return a.astype(out_dtype)
    half = np.tril(a) if lower else np.triu(a)
    strict = np.tril(a, -1) if lower else np.triu(a, 1)
    full = half + _swap(strict).conj()  # Hermitian from the named triangle only
    factor = np.full(a.shape, np.nan, dtype=a.dtype)
    flat_in = full.reshape((-1,) + a.shape[-2:])
    flat_out = factor.reshape((-1,) + a.shape[-2:])
    for k in range(flat_in.shape[0]):
        try:
            flat_out[k] = np.linalg.cholesky(flat_in[k])
        except np.linalg.LinAlgError:
            pass  # not positive definite: stays NaN
    if not lower:
        factor = _swap(factor).conj()
    return factor.astype(out_dtype)


_TRANSPOSE_A = ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")


@lowering(Opcode.TRIANGULAR_SOLVE)
def triangular_solve(ctx, inst, args):
    """a[..., m, m], b[..., m, k] (left) or b[..., k, m] (right) -> x of b's shape."""
    a, b = args
    lower = attrs.boolean(inst, "lower")
    transpose = attrs.string(inst, "transpose_a", "NO_TRANSPOSE")
    if transpose not in _TRANSPOSE_A:
        raise ctx.error(f"transpose_a={transpose} is not one of {', '.join(_TRANSPOSE_A)}")
    out_dtype = to_numpy_dtype(inst.shape.element_type)
    work = _accumulator(out_dtype)
    m = (np.tril(a) if lower else np.triu(a)).astype(work)
    if attrs.boolean(inst, "unit_diagonal"):
        m[..., np.arange(m.shape[-1]), np.arange(m.shape[-1])] = 1
    if transpose != "NO_TRANSPOSE":
        m, lower = _swap(m), not lower
        m = m.conj() if transpose == "ADJOINT" else m
    rhs = b.astype(work)
    if not attrs.boolean(inst, "left_side"):
        # x op(a) = b  <=>  op(a)^T x^T = b^T
        m, lower, rhs = _swap(m), not lower, _swap(rhs)
    x = _substitute(m, rhs, lower)
    if not attrs.boolean(inst, "left_side"):
        x = _swap(x)
    return x.astype(out_dtype)


def _substitute(m, b, lower):
    """Solve m x = b for triangular m[..., n, n], b[..., n, k]: row by row."""
    n = m.shape[-1]
    x = np.zeros(np.broadcast_shapes(m.shape[:-2], b.shape[:-2]) + b.shape[-2:],
                 dtype=b.dtype)
    with np.errstate(all="ignore"):
        for i in (range(n) if lower else reversed(range(n))):
            done = np.einsum("...j,...jk->...k", m[..., i, :], x)  # unsolved rows are 0
            x[..., i, :] = (b[..., i, :] - done) / m[..., i, i, None]
    return x


@lowering(Opcode.FFT, note="a dynamic transformed dimension is transformed at its actual "
                            "size; IRFFT over one is an UnsupportedError")
def fft(ctx, inst, args):
    """FFT/IFFT (complex), RFFT (real -> n//2+1 bins), IRFFT (bins -> fft_length reals)."""
    (x,) = args
    kind = attrs.string(inst, "fft_type", "FFT")
    lengths = attrs.ints(inst, "fft_length")
    axes = tuple(range(x.ndim - len(lengths), x.ndim))
    out_dtype = to_numpy_dtype(inst.shape.element_type)
    out_shape = ctx.out_shape()
    if 0 in out_shape or 0 in [x.shape[a] for a in axes]:
        return np.zeros(out_shape, dtype=out_dtype)
    if kind == "IRFFT":
        result = np.fft.irfftn(x, s=lengths, axes=axes)
    else:
        transform = {"FFT": np.fft.fftn, "IFFT": np.fft.ifftn, "RFFT": np.fft.rfftn}[kind]
        result = transform(x, axes=axes)
    return result.astype(out_dtype)
