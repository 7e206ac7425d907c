"""Library lowerings where torch has the kernel: sort, fft, cholesky, triangular-solve.

Operands are tensors at their actual sizes (views of the valid region), so padding never
enters a sort, a transform or a factorization. Each lowering mirrors the CPU backend's
semantics (dynhlo/backends/cpu/ops_sort.py, ops_linalg.py) and returns NotImplemented for
the configurations it does not cover (a general sort comparator, unusual element types),
which then run on the host through the CPU backend.
Semantics: XLA operation semantics, Sort, Fft, Cholesky, TriangularSolve.
"""

from __future__ import annotations

import torch

from ...hlo import attrs, patterns
from ...hlo.opcodes import Opcode
from .launcher import torch_dtype
from .lowering import library

_SORTABLE = {torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int8,
             torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool}
_INT_OF = {torch.float16: torch.int16, torch.bfloat16: torch.int16, torch.float32: torch.int32,
           torch.float64: torch.int64}


def _sort_key(x: torch.Tensor, total: bool, descending: bool) -> torch.Tensor:
    """A tensor whose ascending stable sort is the requested order of `x` (as the CPU's)."""
    floating = x.dtype.is_floating_point
    if floating and total:
        bits = x.view(_INT_OF[x.dtype])
        key = torch.where(bits < 0, bits ^ torch.iinfo(bits.dtype).max, bits)
    elif x.dtype in (torch.float16, torch.bfloat16):
        key = x.float()
    elif x.dtype == torch.bool:
        key = x.to(torch.int8)
    else:
        key = x
    if not descending:
        return key
    return -key if key.dtype.is_floating_point else ~key


@library(Opcode.SORT)
def sort(ctx, inst, args):
    (axis,) = attrs.ints(inst, "dimensions")
    found = patterns.sort_comparator(inst.called["to_apply"][0])
    if found is None or any(a.dtype not in _SORTABLE for a in args):
        return NotImplemented
    shape = [min(a.shape[d] for a in args) for d in range(args[0].dim())]
    arrays = [a[tuple(slice(0, s) for s in shape)] for a in args]  # static meets dynamic
    index, descending, total = found
    if arrays[0].numel() == 0 or shape[axis] <= 1:
        out = tuple(a.clone() for a in arrays)
    else:
        key = _sort_key(arrays[index], total, descending)
        order = torch.sort(key, dim=axis, stable=True).indices
        out = tuple(torch.take_along_dim(a, order, dim=axis) for a in arrays)
    return out[0] if len(out) == 1 else out


@library(Opcode.FFT)
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


@library(Opcode.CHOLESKY)
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
    factor, info = torch.linalg.cholesky_ex(full)
    factor = torch.where((info != 0)[..., None, None], torch.nan, factor)
    return factor if lower else factor.mH.contiguous()


@library(Opcode.TRIANGULAR_SOLVE)
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
    return torch.linalg.solve_triangular(
        m, b, upper=not lower, left=attrs.boolean(inst, "left_side"),
        unitriangular=attrs.boolean(inst, "unit_diagonal"))
