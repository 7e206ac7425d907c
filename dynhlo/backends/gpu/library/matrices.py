"""Helpers the LAPACK-family lowerings share (svd.py, lapack.py): a batch of matrices as one
[batch, m, n] tensor, the matrices holding a NaN or an infinity, and results marked NaN for
them, all on the device with no read back (a bad matrix must not fail the whole batch)."""

from __future__ import annotations

import math

import torch

# The element types LAPACK's s, d, c, z routines take (torch.linalg takes the same).
TYPES = (torch.float32, torch.float64, torch.complex64, torch.complex128)


def flat_batch(a: torch.Tensor) -> tuple[torch.Tensor, tuple[int, ...]]:
    """(a [..., m, n] as [batch, m, n], the batch shape)."""
    batch = tuple(a.shape[:-2])
    return a.reshape((math.prod(batch),) + tuple(a.shape[-2:])), batch


def triangle(n: int, lower: bool, device) -> torch.Tensor:
    """bool [n, n]: the triangle (with the diagonal) LAPACK reads for uplo 'L' / 'U'."""
    ones = torch.ones((n, n), dtype=torch.bool, device=device)
    return torch.tril(ones) if lower else torch.triu(ones)


def nonfinite(flat: torch.Tensor, read: torch.Tensor | None = None):
    """(nan, bad): bool [batch], the matrices of `flat` holding a NaN, and those holding a NaN
    or an infinity, among the entries `read` marks (bool [m, n]; None: all)."""
    nan, inf = torch.isnan(flat), torch.isinf(flat)
    if read is not None:
        nan, inf = nan & read, inf & read
    nan = nan.flatten(1).any(1)
    return nan, nan | inf.flatten(1).any(1)


def replace_where(bad: torch.Tensor, flat: torch.Tensor, fill: torch.Tensor) -> torch.Tensor:
    """`flat` with the matrices marked `bad` replaced by `fill` (broadcast to one matrix)."""
    return torch.where(bad[:, None, None], fill.to(flat.dtype), flat)


def nan_where(bad: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """`values` (one [...] per matrix) with NaN for the matrices marked `bad`."""
    mark = bad.reshape((-1,) + (1,) * (values.dim() - 1))
    return torch.where(mark, torch.full((), float("nan"), dtype=values.dtype,
                                        device=values.device), values)
