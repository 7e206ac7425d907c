"""The register-tiled f32 product of the runs of native calls (compiled/tiled_gemm.py) and
its dispatch (matmul_dispatch.tiled_block): right against float64 products at every layout
and tail, the bits of NumPy's matmul wherever the dispatch takes it, and kept out where it
may not be taken."""

import ctypes

import numpy as np
import pytest

from dynhlo.backends.cpu.compiled import matmul_dispatch
from dynhlo.backends.cpu.compiled.native_routines import _NO_TRANS, _TRANS, _routines

pytestmark = pytest.mark.skipif("sgemm" not in _routines(),
                                reason="NumPy's BLAS is not its bundled scipy-openblas")

CALL = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p)

# (M, K, N): tails of the 12-row tiles and 32-column panels; K in one block (K <= 448), in
# two halves (448 < K < 896), in blocks of 448 and then one or two more
SIZES = [(37, 33, 45), (64, 64, 64), (100, 256, 70), (45, 449, 33), (130, 700, 96),
         (512, 64, 512), (33, 512, 64), (64, 2000, 40), (40, 1350, 64)]


def _operands(m, k, n, ta, tb, seed=0):
    gen = np.random.default_rng(seed)
    a = gen.standard_normal((k, m) if ta else (m, k)).astype(np.float32)
    b = gen.standard_normal((n, k) if tb else (k, n)).astype(np.float32)
    return (a.T if ta else a), (b.T if tb else b)


def _tiled(a, b, out, kc):
    """Run the tiled kernel with K block `kc` on the gemm wrapper's arguments; its code."""
    args = matmul_dispatch._matmul_case(a, b, out)
    assert args[0] == "gemm"
    table = np.array([kc, *args[1]], np.int64)
    return CALL(_routines()["tiled_f32"])(None, table.ctypes.data)


@pytest.mark.parametrize("m,k,n", SIZES)
@pytest.mark.parametrize("tb", [0, 1])
def test_the_kernel_computes_the_product_at_every_layout_and_tail(m, k, n, tb):
    a, b = _operands(m, k, n, 0, tb)
    want = a.astype(np.float64) @ b.astype(np.float64)
    for kc in sorted({k, max(1, k // 2), 16, 448}):
        out = np.full((m, n), np.nan, np.float32)
        assert _tiled(a, b, out, kc) == 0
        np.testing.assert_allclose(out, want, rtol=2e-5, atol=2e-5 * np.sqrt(k))


@pytest.mark.parametrize("m,k,n", SIZES)
@pytest.mark.parametrize("tb", [0, 1])
def test_where_the_dispatch_takes_it_the_bits_are_numpys(m, k, n, tb):
    # (as if on one BLAS thread, which the dispatch asks for: a BLAS on more threads
    # still sums each element in one order, and the probe checks that order)
    routines = {**_routines(), "blas_threads": lambda: 1}
    key = (_NO_TRANS, _TRANS if tb else _NO_TRANS, m, n, k)
    kc = matmul_dispatch.tiled_block(*key, routines)
    if kc is None:
        pytest.skip("the probe found another order of sums in this host's BLAS")
    for seed in (1, 2):   # data the probe never saw, with specials in some rows
        a, b = _operands(m, k, n, 0, tb, seed)
        a, b = a.copy(), b.copy(order="F" if tb else "C")
        a[0, :] = 0.0
        a[1 % m, :] = -0.0
        a[2 % m, 0] = np.inf
        b[0, 3 % n] = np.nan
        b[:, 1 % n] *= 1e-38   # subnormal products
        out = np.empty((m, n), np.float32)
        assert _tiled(a, b, out, kc) == 0
        with np.errstate(invalid="ignore"):   # (inf times 0)
            want = np.matmul(a, b)
        np.testing.assert_array_equal(out.view(np.uint32), want.view(np.uint32))
        fn, args, _ = matmul_dispatch.matmul_call(a, b, out, routines)
        assert fn == routines["tiled_f32"] and args[0] == kc
    assert matmul_dispatch.matmul_call(a, b, out, _routines())[0] == (
        routines["tiled_f32"] if _routines()["blas_threads"]() == 1 else routines["gemm_f32"])


def test_a_transposed_a_is_declined_and_kept_blas():
    a, b = _operands(64, 64, 64, 1, 0)
    out = np.full((64, 64), np.nan, np.float32)
    assert _tiled(a, b, out, 448) == 1 and np.isnan(out).all()
    routines = {**_routines(), "blas_threads": lambda: 1}
    assert matmul_dispatch.tiled_block(_TRANS, _NO_TRANS, 64, 64, 64, routines) is None


def test_the_dispatch_keeps_blas_for_small_sizes_and_more_threads():
    routines = _routines()
    assert matmul_dispatch.tiled_block(_NO_TRANS, _NO_TRANS, 16, 64, 64, routines) is None
    assert matmul_dispatch.tiled_block(_NO_TRANS, _NO_TRANS, 64, 64, 8, routines) is None
    threaded = {**routines, "blas_threads": lambda: 2}
    assert matmul_dispatch.tiled_block(_NO_TRANS, _NO_TRANS, 64, 64, 64, threaded) is None


def test_a_probe_that_finds_other_bits_keeps_blas(monkeypatch):
    # as on a host whose BLAS sums in another order: the kernel never takes those sizes
    monkeypatch.setattr(matmul_dispatch, "_proven", {})
    monkeypatch.setattr(matmul_dispatch, "_BLAS_Q", 100)   # (not this BLAS's K block)
    routines = {**_routines(), "blas_threads": lambda: 1}
    assert matmul_dispatch.tiled_block(_NO_TRANS, _NO_TRANS, 64, 64, 300, routines) is None
    a, b = _operands(64, 300, 64, 0, 0)
    out = np.empty((64, 64), np.float32)
    assert matmul_dispatch.matmul_call(a, b, out, routines)[0] == routines["gemm_f32"]


def test_an_output_overlapping_an_operand_is_declined():
    a, b = _operands(64, 64, 64, 0, 0)
    base = np.zeros((64, 128), np.float32)
    a_in = base[:, :64]
    a_in[...] = a
    out = base[:, 64:]   # C's rows run between A's
    args = matmul_dispatch._matmul_case(a_in, b, np.empty((64, 64), np.float32))[1]
    args[9] = out.ctypes.data   # C's address and row stride where the wrapper reads them
    args[10] = 128
    args[13] = (63 * 128 + 64) * 4   # C's byte extent
    table = np.array([64, *args], np.int64)
    assert CALL(_routines()["tiled_f32"])(None, table.ctypes.data) == 1
    np.testing.assert_array_equal(base[:, :64], a)
    assert not base[:, 64:].any()
