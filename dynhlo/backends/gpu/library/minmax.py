"""XLA's maximum and minimum of floats, for every library call that takes one.

XLA's maximum and minimum propagate NaN and order -0 below +0: max(+0, -0) = +0 and
min(+0, -0) = -0 whichever operand comes first. torch.maximum, torch.minimum, cummax, cummin
and scatter_reduce's amax/amin propagate NaN too, but a tie of zeros keeps whichever came
first. Each function here is torch's, then a zero result takes the sign XLA's order gives
it: the winning zero (+0 for max, -0 for min) wherever one was among the operands (the CPU
backend's cpu/minmax.py does the same for NumPy).
Semantics: XLA operation semantics, Max and Min (IEEE 754-2019 maximum and minimum).
"""

from __future__ import annotations

import torch


def _won(x: torch.Tensor, kind: str) -> torch.Tensor:
    """Where x is the zero that wins a tie of zeros under `kind` ('max' or 'min')."""
    return (x == 0) & (torch.signbit(x) == (kind == "min"))


def _fix(out: torch.Tensor, won: torch.Tensor, kind: str) -> torch.Tensor:
    zero = torch.tensor(-0.0 if kind == "min" else 0.0, dtype=out.dtype, device=out.device)
    return torch.where((out == 0) & won, zero, out)


def extreme(kind: str, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """XLA's maximum ('max') or minimum ('min') of x and y."""
    out = (torch.maximum if kind == "max" else torch.minimum)(x, y)
    if not out.is_floating_point():
        return out
    return _fix(out, _won(x, kind) | _won(y, kind), kind)


def maximum(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """XLA's maximum: NaN wins, then +0 over -0."""
    return extreme("max", x, y)


def minimum(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """XLA's minimum: NaN wins, then -0 over +0."""
    return extreme("min", x, y)


def cumulative(kind: str, seq: torch.Tensor, axis: int) -> torch.Tensor:
    """Every prefix's XLA maximum or minimum along `axis` (torch.cummax / cummin)."""
    out = (torch.cummax if kind == "max" else torch.cummin)(seq, dim=axis).values
    if not out.is_floating_point():
        return out
    won = torch.cummax(_won(seq, kind).to(torch.uint8), dim=axis).values.bool()
    return _fix(out, won, kind)


def scatter_extreme_(flat: torch.Tensor, target: torch.Tensor, values: torch.Tensor,
                     kind: str) -> None:
    """flat[t] = XLA max/min(flat[t], v) for every (t, v), in place."""
    won = None
    if flat.is_floating_point():
        won = _won(flat, kind).to(torch.uint8)
        won.scatter_reduce_(0, target, _won(values, kind).to(torch.uint8), "amax")
    flat.scatter_reduce_(0, target, values, "amax" if kind == "max" else "amin")
    if won is not None:
        flat.copy_(_fix(flat, won.bool(), kind))
