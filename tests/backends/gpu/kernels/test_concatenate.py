"""Concatenate in a generated kernel (kernels/data.py) against NumPy's concatenate.

Operands of dynamic sizes on the concatenated dimension and on another one, three of them,
one of actual size 0, a fused operand (the planner puts it in memory: the kernel loads each
operand masked to its own range), on the plain path and on the graph path (graph=True:
one captured program, sizes from the size buffer).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.gpu import graph
from tests.support.gpucheck import GPU, torch  # noqa: F401  (skips without torch or triton)

ROWS = """HloModule cat_rows
ENTRY main {
  a = f32[<=6,<=5] parameter(0)
  b = f32[3,<=5] parameter(1)
  c = f32[<=4,<=5] parameter(2)
  nb = f32[3,<=5] negate(b)
  r = f32[<=13,<=5] concatenate(a, nb, c), dimensions={0}
  ROOT e = f32[<=13,<=5] multiply(r, r)
}
"""

COLS = """HloModule cat_cols
ENTRY main {
  a = s32[<=3,<=4] parameter(0)
  b = s32[<=3,2] parameter(1)
  c = s32[<=3,<=7] parameter(2)
  ROOT r = s32[<=3,<=13] concatenate(a, b, c), dimensions={1}
}
"""


def _rows(a, b, c):
    r = np.concatenate([a, -b, c], axis=0)
    return r * r


def _cols(a, b, c):
    return np.concatenate([a, b, c], axis=1)


@pytest.mark.parametrize("use_graph", [False, True])
def test_concatenate_rows_matches_numpy(use_graph):
    exe = dynhlo.compile(ROWS, **GPU, graph=use_graph)
    kinds = {inst.name: kind for inst, kind in exe.program.plan.steps}
    assert "library" not in kinds.values(), kinds
    rng = np.random.default_rng(3)
    # (rows of a, rows of c, columns): dynamic on the axis and off it, size-0 operands
    for n, m, k in ((2, 4, 5), (0, 1, 3), (6, 0, 1), (0, 0, 2), (5, 3, 0)):
        a = rng.standard_normal((n, k)).astype(np.float32)
        b = rng.standard_normal((3, k)).astype(np.float32)
        c = rng.standard_normal((m, k)).astype(np.float32)
        got = np.asarray(exe(a, b, c))
        assert got.shape == (n + 3 + m, k)
        np.testing.assert_array_equal(got, _rows(a, b, c))


@pytest.mark.parametrize("use_graph", [False, True])
def test_concatenate_minor_dimension_matches_numpy(use_graph):
    exe = dynhlo.compile(COLS, **GPU, graph=use_graph)
    if use_graph:
        prog, why = graph.wanted(exe.program.schedule, exe.program.precision, force=True)
        assert prog is not None, why
    rng = np.random.default_rng(4)
    for rows, n, m in ((3, 4, 7), (2, 0, 5), (1, 3, 0), (0, 2, 2)):
        a = rng.integers(-9, 9, (rows, n)).astype(np.int32)
        b = rng.integers(-9, 9, (rows, 2)).astype(np.int32)
        c = rng.integers(-9, 9, (rows, m)).astype(np.int32)
        got = np.asarray(exe(a, b, c))
        np.testing.assert_array_equal(got, _cols(a, b, c))
