"""SVD through JAX's CPU custom call (lapack_*gesdd_ffi): modules lowered by JAX, answers from
NumPy (singular values; u s vt rebuilds the matrix; u and v orthonormal)."""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])  # JAX without x64: 32-bit
def test_svd_custom_call(shape, full, dtype):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape).astype(dtype)
    text = jax.jit(lambda a: jnp.linalg.svd(a, full_matrices=full)).lower(x).as_text(
        dialect="hlo")
    assert "gesdd_ffi" in text
    u, s, vt = dynhlo.compile(text)(x)
    tol = 1e-4 if np.dtype(dtype).itemsize <= 8 else 1e-10
    np.testing.assert_allclose(s, np.linalg.svd(x, compute_uv=False), rtol=tol, atol=tol)
    k = s.shape[-1]
    rebuilt = (u[..., :k] * s[..., None, :].astype(dtype)) @ vt[..., :k, :]
    np.testing.assert_allclose(rebuilt, x, rtol=10 * tol, atol=10 * tol)
    eye = np.eye(u.shape[-1])
    np.testing.assert_allclose(np.conj(np.swapaxes(u, -1, -2)) @ u, np.broadcast_to(
        eye, u.shape[:-2] + eye.shape), atol=10 * tol)


def test_svd_values_only():
    x = np.arange(12, dtype=np.float32).reshape(4, 3) ** 1.5
    text = jax.jit(lambda a: jnp.linalg.svd(a, compute_uv=False)).lower(x).as_text(
        dialect="hlo")
    np.testing.assert_allclose(dynhlo.compile(text)(x), np.linalg.svd(x, compute_uv=False),
                               rtol=1e-5)


@pytest.mark.parametrize("old,new", [("f32[3]", "f32[4]"),           # s: min(m, n) = 3
                                     ("f32[3,3]", "f32[5,3]")])      # vt of 'S': k x n
def test_svd_call_with_results_of_the_wrong_shape_is_a_verify_error(old, new):
    x = np.ones((5, 3), np.float32)
    text = jax.jit(lambda a: jnp.linalg.svd(a, full_matrices=False)).lower(x).as_text(
        dialect="hlo")
    call = next(line for line in text.splitlines() if "gesdd_ffi" in line)
    assert old in call
    bad = text.replace(call, call.replace(old, new, 1))
    with pytest.raises(dynhlo.HloVerifyError, match="svd|custom-call|gesdd"):
        dynhlo.compile(bad)


SVD = "(f32[<=4,3], f32[<=3], f32[<=4,<=4], f32[3,3], s32[])"


@pytest.mark.parametrize("target,operand,result,mode,match", [
    # the results' types are jaxlib's: a declared f64 was given f32 arrays
    ("lapack_sgesdd_ffi", "f32[<=4,3]", SVD.replace("(f32", "(f64", 1), 65, "element types"),
    ("lapack_cgesvd_ffi", "c64[4,3]", "(c64[4,3], c64[3], c64[4,4], c64[3,3], s32[])", 65,
     "element types"),
    ("lapack_dgesdd_ffi", "f32[<=4,3]", SVD, 65, "takes f64"),   # the letter names the type
    ("lapack_sgesdd_ffi", "f32[<=4,3]", SVD, 90, "mode = 65"),
    ("lapack_sgesdd_ffi", "f32[<=4,3]", SVD, 99999999, "mode = 65"),
    ("lapack_sgesdd_ffi", "f32[<=4,3]", "f32[<=4,3]", 65, "element types"),
])
def test_malformed_svd_call_is_a_verify_error(target, operand, result, mode, match):
    text = (f"HloModule m\nENTRY main {{\n  a = {operand} parameter(0)\n  ROOT c = {result} "
            f"custom-call(a), custom_call_target=\"{target}\", "
            f"backend_config={{mode = {mode} : ui8}}\n}}\n")
    with pytest.raises(dynhlo.HloVerifyError, match=match) as caught:
        dynhlo.compile(text)
    assert "instruction 'c'" in str(caught.value)
