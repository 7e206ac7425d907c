"""XLA's maximum and minimum order -0 below +0 in the GPU library's windows and scatters.

XLA's facts (operation semantics, Max and Min): max(+0, -0) = +0 and min(+0, -0) = -0
whichever operand comes first, NaN wins. torch.maximum, cummax and scatter_reduce keep the
first zero of a tie; the GPU's reduce-window (tap walk and running reductions), scatter and
clamp inside a called computation run on them. Expected values by hand, the CPU backend's.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU

WINNER = {"maximum": 0.0, "minimum": -0.0}


def _reducer(op: str) -> str:
    return f"""f {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] {op}(a, b)
}}
"""


def _signs(x) -> list[bool]:
    return np.signbit(np.asarray(x)).tolist()


@pytest.mark.parametrize("op", ["maximum", "minimum"])
def test_reduce_window_of_two_zeros_is_the_winning_zero_either_order(op):
    init = "-inf" if op == "maximum" else "inf"
    text = "HloModule w\n" + _reducer(op) + f"""ENTRY main {{
  x = f32[4] parameter(0)
  z = f32[] constant({init})
  ROOT r = f32[3] reduce-window(x, z), window={{size=2}}, to_apply=f
}}"""
    x = np.array([-0.0, 0.0, -0.0, 0.0], np.float32)  # windows (-0, +0), (+0, -0), (-0, +0)
    for backend in ({"backend": "cpu"}, GPU):
        got = np.asarray(dynhlo.compile(text, **backend)(x))
        assert (got == 0).all() and _signs(got) == [bool(np.signbit(WINNER[op]))] * 3, \
            (backend, got)


@pytest.mark.parametrize("op", ["maximum", "minimum"])
def test_running_reduce_window_keeps_the_winning_zero(op):
    """A stride-1 window padded on one side as long as the row: a running max (cummax)."""
    winner = WINNER[op]
    text = "HloModule w\n" + _reducer(op) + f"""ENTRY main {{
  x = f32[4] parameter(0)
  z = f32[] constant({'-inf' if op == 'maximum' else 'inf'})
  ROOT r = f32[4] reduce-window(x, z), window={{size=4 pad=3_0}}, to_apply=f
}}"""
    x = np.array([-winner, winner, -winner, np.nan], np.float32)
    got = np.asarray(dynhlo.compile(text, **GPU)(x))
    assert got[:3].tolist() == [0, 0, 0] and np.isnan(got[3]), got
    loser = bool(np.signbit(-winner))
    assert _signs(got[:3]) == [loser, not loser, not loser], got


@pytest.mark.parametrize("op", ["maximum", "minimum"])
def test_scatter_combines_zeros_to_the_winning_zero(op):
    winner = WINNER[op]
    text = "HloModule s\n" + _reducer(op) + """ENTRY main {
  x = f32[3] parameter(0)
  i = s32[3,1] parameter(1)
  u = f32[3] parameter(2)
  ROOT r = f32[3] scatter(x, i, u), update_window_dims={}, inserted_window_dims={0},
    scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=f
}"""
    # element 0: the loser updated by the winner; 1: the winner by the loser; 2: no update
    x = np.array([-winner, winner, -winner], np.float32)
    i = np.array([[0], [1], [1]], np.int32)
    u = np.array([winner, -winner, -winner], np.float32)
    want = [bool(np.signbit(winner))] * 2 + [not np.signbit(winner)]
    for backend in ({"backend": "cpu"}, GPU):
        got = np.asarray(dynhlo.compile(text, **backend)(x, i, u))
        assert (got == 0).all() and _signs(got) == want, (backend, got)

