"""JAX's GPU solver custom calls (contracts: dynhlo/shapes/rules_gpu_solver.py) on the GPU
backend's library tier, with no host fallback, against JAX's results and the CPU backend.

Here torch runs the LAPACK lowerings on the CPU device inside Triton's interpreter; on a
machine with a GPU they run on cuSOLVER/cuBLAS:

    python -m pytest -q tests/backends/gpu/library/test_solver_calls.py

- tests/data/cusolver (JAX functions lowered for CUDA, dynamic batch at 0, 1, 2, 3);
- lu_pivots_to_permutation on the device (a pivot out of range skipped) as the CPU's;
- a getrf + pivots module with dynamic matrix sizes at 0, 1, 3 and 5, and JAX functions
  exported for CUDA with a symbolic size n <= 6 at 1, 4 and 6.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch/triton; the interpreter without a GPU
from tests.backends.gpu.library.test_lapack import _on_device
from tests.ops.test_lapack import call_module
from tests.ops.test_gpu_solver import (CASES, DYNAMIC_LU, SYMBOLIC, _pivot_module, check_case,
                                 dynamic_lu_runs, leaves, load_case, symbolic_cuda_module,
                                 symbolic_runs)

pytest.importorskip("jax")


@pytest.mark.parametrize("name", CASES)
def test_cuda_lowered_jax_function_on_device(name):
    text, runs = load_case(name)
    cpu, gpu = dynhlo.compile(text), dynhlo.compile(text, **GPU)
    for tag, args, want in runs:
        where = f"{name} at batch {tag or '-'}"
        complex_lu = "getrf" in text and np.iscomplexobj(args[0])
        got = _on_device(gpu, *args, host=complex_lu)    # lapack.py's doc: complex pivots
        check_case(name, args[0], got, want, where)
        check_case(name, args[0], got, leaves(cpu(*args)), where + " (cpu)")


@pytest.mark.parametrize("name", sorted(SYMBOLIC))
def test_cuda_export_with_a_symbolic_size_on_device(name):
    exe = dynhlo.compile(symbolic_cuda_module(name), **GPU)
    for n, a, want in symbolic_runs(name):
        check_case(name, a, _on_device(exe, a), want, f"{name} at n = {n} of <= 6")


@pytest.mark.parametrize("target", ["cu_lu_pivots_to_permutation",
                                    "hip_lu_pivots_to_permutation"])
def test_lu_pivots_to_permutation_on_device(target):
    rng = np.random.default_rng(9)
    pivots = rng.integers(-2, 8, size=(3, 2, 5)).astype(np.int32)  # some out of [0, 6)
    text = _pivot_module("3,2,", 5, 6, target)
    want = dynhlo.compile(text)(pivots)
    (got,) = _on_device(dynhlo.compile(text, **GPU), pivots)
    np.testing.assert_array_equal(got, want)
    assert sorted(got[1, 1]) == list(range(6))


def test_getrf_and_pivots_with_dynamic_matrix_sizes_on_device():
    exe = dynhlo.compile(DYNAMIC_LU, **GPU)
    for n, a, want in dynamic_lu_runs():
        lu, pivots, perm, info = _on_device(exe, a)
        check_case("lu", a, [lu, pivots, perm], want, f"n = {n}")
        assert info == 0


@pytest.mark.parametrize("full", [True, False])
def test_gesvdj_v_of_complex_matrices_on_device(full):
    """V itself (conjugated on the device, not a lazy view) as the CPU's, up to the phase of
    each singular vector pair: u diag(s) V^H = A."""
    rng = np.random.default_rng(10)
    a = (rng.standard_normal((2, 5, 3)) + 1j * rng.standard_normal((2, 5, 3))).astype(np.complex64)
    text = call_module("cusolver_gesvdj_ffi", ["c64[2,5,3]"],
                       f"(c64[2,5,3], f32[2,3], c64[2,5,{5 if full else 3}], c64[2,3,3], s32[2])",
                       f"compute_uv = true, full_matrices = {str(full).lower()}")
    _, s, u, v, info = _on_device(dynhlo.compile(text, **GPU), a)
    cpu_s = dynhlo.compile(text)(a)[1]
    np.testing.assert_allclose(s, cpu_s, rtol=1e-5)
    np.testing.assert_allclose((u[..., :3] * s[..., None, :]) @ np.conj(np.swapaxes(v, -1, -2)),
                               a, atol=1e-5)
    np.testing.assert_array_equal(info, [0, 0])


@pytest.mark.parametrize("t,dtype", [("c64", np.complex64), ("c128", np.complex128)])
def test_complex_getrf_on_device(t, dtype):
    """Complex LU with the CPU's pivots: |re| + |im| decides (3 against 2+2j in the first
    column), over a dynamic batch at 0, 1 and 3. The device's LU pivots by |z|, so complex
    matrices take the host tier (lapack.py's doc)."""
    rng = np.random.default_rng(13)
    a = (rng.standard_normal((3, 4, 4)) + 1j * rng.standard_normal((3, 4, 4))).astype(dtype)
    a[0, :, 0] = [3, 2 + 2j, 0.5, -1j]
    text = call_module("cusolver_getrf_ffi", [f"{t}[<=3,4,4]"],
                       f"({t}[<=3,4,4], s32[<=3,4], s32[<=3])")
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    for batch in (0, 1, 3):
        (lu, ipiv, info), want = _on_device(gpu, a[:batch], host=True), cpu(a[:batch])
        np.testing.assert_array_equal(ipiv, want[1])
        np.testing.assert_array_equal(info, want[2])
        tol = 1e-5 if t == "c64" else 1e-12
        np.testing.assert_allclose(lu, want[0], rtol=tol, atol=tol)
    assert ipiv[0, 0] == 2


def test_getrf_and_pivots_of_a_dynamic_rectangle_on_device():
    """m != n: the permutation has m entries on the device too, as the CPU's."""
    gpu, cpu = dynhlo.compile(DYNAMIC_LU, **GPU), dynhlo.compile(DYNAMIC_LU)
    rng = np.random.default_rng(18)
    for m, n in [(4, 2), (2, 5)]:
        a = rng.standard_normal((m, n)).astype(np.float32)
        got, want = _on_device(gpu, a), cpu(a)
        assert got[2].shape == (m,)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
