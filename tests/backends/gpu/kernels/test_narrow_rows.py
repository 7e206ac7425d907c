"""Row reductions over narrow rows (<= 64 columns: codegen.row_tile's 1024-element tiles)
in every float width, against the CPU backend, at 0, 1, a tile's worth and the bound of rows.

A softmax (max then sum, each starting from a constant of the element type) over C columns:
the tiles hold 1024 // C' rows (C' the next power of two >= 16), so the bound of 70 rows
spans several programs at every C here, and 65 columns takes the wider tile for contrast.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU, torch  # noqa: F401  (skips without torch or triton)

SOFTMAX = """HloModule softmax
max_t {
  a = T[] parameter(0)
  b = T[] parameter(1)
  ROOT c = T[] maximum(a, b)
}
add_t {
  a = T[] parameter(0)
  b = T[] parameter(1)
  ROOT c = T[] add(a, b)
}
ENTRY main {
  x = T[<=70,C] parameter(0)
  lo = T[] constant(-inf)
  m = T[<=70] reduce(x, lo), dimensions={1}, to_apply=max_t
  mb = T[<=70,C] broadcast(m), dimensions={0}
  d = T[<=70,C] subtract(x, mb)
  e = T[<=70,C] exponential(d)
  zero = T[] constant(0)
  s = T[<=70] reduce(e, zero), dimensions={1}, to_apply=add_t
  sb = T[<=70,C] broadcast(s), dimensions={0}
  ROOT r = T[<=70,C] divide(e, sb)
}
"""

STAGED = 40000   # rows at the bound: staged narrow rows

DTYPES = {"f32": (np.float32, 1e-6), "f16": (np.float16, 1e-3),
          "bf16": (ml_dtypes.bfloat16, 8e-3)}


@pytest.mark.parametrize("bound", [70, STAGED])
@pytest.mark.parametrize("t", sorted(DTYPES))
@pytest.mark.parametrize("cols", [1, 17, 37, 64, 65])
def test_softmax_over_narrow_rows_matches_the_cpu(t, cols, bound):
    """The GPU's fused softmax equals the CPU's at 0, 1, 23, 70 and 130 rows (bf16's
    constants too: Triton's interpreter makes no bf16 scalar, so the kernel makes them from
    f32). At a bound of many rows narrow rows are staged (codegen.STAGED_MIN_ROWS): 130 rows
    are three programs of 64, the last ending inside a vector at 37 columns."""
    text = SOFTMAX.replace("T[", f"{t}[").replace(",C]", f",{cols}]").replace(
        "<=70", f"<={bound}")
    dtype, tol = DTYPES[t]
    on_gpu, on_cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    (kernel,) = on_gpu.program.kernels
    assert ("tl.gather(" in kernel.source) == (bound == STAGED and cols <= 64)
    rng = np.random.default_rng(cols)
    for n in (0, 1, 23, 70, 130) if bound == STAGED else (0, 1, 23, 70):
        x = (rng.standard_normal((n, cols)) * 3).astype(dtype)
        got, want = np.asarray(on_gpu(x)), np.asarray(on_cpu(x))
        assert got.shape == want.shape == (n, cols) and got.dtype == want.dtype
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32),
                                   rtol=tol, atol=tol)


SCALED_ROWS = """HloModule scaled_rows
add_f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY main {
  x = f32[<=40000,37] parameter(0)
  g = f32[37] parameter(1)
  gb = f32[<=40000,37] broadcast(g), dimensions={1}
  y = f32[<=40000,37] multiply(x, gb)
  zero = f32[] constant(0)
  s = f32[<=40000] reduce(y, zero), dimensions={1}, to_apply=add_f
  sb = f32[<=40000,37] broadcast(s), dimensions={0}
  ROOT r = f32[<=40000,37] subtract(y, sb)
}
"""


@pytest.mark.parametrize("root", ["rows", "sums"])
def test_staged_rows_with_a_column_operand_match_the_cpu(root):
    """Staged narrow rows beside an operand broadcast along the columns (read as it is, not
    staged), with a domain-shaped root (stored through the chunk) or the row sums as root
    (a row's value, stored per row)."""
    text = SCALED_ROWS if root == "rows" else SCALED_ROWS.replace(
        "  sb = f32[<=40000,37] broadcast(s), dimensions={0}\n"
        "  ROOT r = f32[<=40000,37] subtract(y, sb)\n", "").replace("  s = f32", "  ROOT s = f32")
    on_gpu, on_cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    (kernel,) = on_gpu.program.kernels
    assert "tl.gather(" in kernel.source
    rng = np.random.default_rng(7)
    g = rng.standard_normal(37).astype(np.float32)
    for n in (0, 1, 64, 130):
        x = rng.standard_normal((n, 37)).astype(np.float32)
        got, want = np.asarray(on_gpu(x, g)), np.asarray(on_cpu(x, g))
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


ROWS_3D = """HloModule rows_3d
add_f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY main {
  x = f32[<=1000,39,37] parameter(0)
  b = f32[<=1000,39] parameter(1)
  bb = f32[<=1000,39,37] broadcast(b), dimensions={0,1}
  y = f32[<=1000,39,37] add(x, bb)
  zero = f32[] constant(0)
  s = f32[<=1000,39] reduce(y, zero), dimensions={2}, to_apply=add_f
  sb = f32[<=1000,39,37] broadcast(s), dimensions={0,1}
  col = f32[37] iota(), iota_dimension=0
  cb = f32[<=1000,39,37] broadcast(col), dimensions={2}
  t = f32[<=1000,39,37] multiply(y, cb)
  ROOT r = f32[<=1000,39,37] subtract(t, sb)
}
"""


def test_staged_rows_of_a_3d_domain_match_numpy():
    """A staged row kernel over two kept dimensions (39,000 rows at the bound) whose root,
    computed on the flat chunk, reads a per-row operand, the row sums gathered back by row
    and an iota over the columns: numpy by hand at 0, 1 and 3 (117 rows: two programs of
    64 rows, the last ending inside a vector) and 5 rows of 39."""
    on_gpu = dynhlo.compile(ROWS_3D, **GPU)
    (kernel,) = on_gpu.program.kernels
    assert "tl.gather(" in kernel.source
    rng = np.random.default_rng(3)
    for n in (0, 1, 3, 5):
        x = rng.standard_normal((n, 39, 37)).astype(np.float32)
        b = rng.standard_normal((n, 39)).astype(np.float32)
        y = x + b[:, :, None]
        want = y * np.arange(37, dtype=np.float32) - y.sum(axis=2, keepdims=True)
        got = np.asarray(on_gpu(x, b))
        assert got.shape == (n, 39, 37)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
