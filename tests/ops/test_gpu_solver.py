"""JAX's GPU solver custom calls (cuSOLVER `cusolver_*_ffi`, hipSOLVER, lu_pivots_to_permutation)
on the CPU backend, against JAX's own results (contracts: dynhlo/shapes/rules_gpu_solver.py).

- tests/data/cusolver: jnp.linalg / jax.scipy.linalg functions that JAX lowered for the CUDA
  platform (tools/gen_cusolver_cases.py), with JAX's outputs computed on the CPU; the batched
  ones with a dynamic batch `<=3`, run at 0, 1, 2 and 3. Eigenvectors and singular vectors
  are unique only up to sign (phase), so they are checked by reconstruction and orthonormal
  columns, their values against JAX's;
- lu_pivots_to_permutation against JAX's own (jax.lax.linalg.lu_pivots_to_permutation), and a
  pivot out of range skipped as jaxlib's GPU kernel does;
- the same functions exported for CUDA with a symbolic size (jax.export, imported from
  StableHLO) at sizes 1, 4, 6 of <= 6;
- a getrf whose matrix sizes are dynamic, potrf's upper triangle, gesvdj's reduced V, the
  hipSOLVER names; a type or target without a LAPACK counterpart: UnsupportedError.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.ops.test_lapack import call_module
from tests.support.common import TESTS

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

DATA = TESTS / "data" / "cusolver"
CASES = sorted(p.stem for p in DATA.glob("*.hlo"))


def load_case(name: str):
    """(HLO text, [(size tag, inputs, JAX's outputs)]) of a tests/data/cusolver case."""
    data = np.load(DATA / f"{name}.npz")
    runs = []
    for tag in sorted({k[2:].split("_")[0] for k in data if k.startswith("in")}):
        def leaves(kind):
            keys = [k for k in data if k.startswith(f"{kind}{tag}_")]
            return [data[k] for k in sorted(keys, key=lambda k: int(k.split("_")[1]))]
        runs.append((tag, leaves("in"), leaves("out")))
    return (DATA / f"{name}.hlo").read_text(), runs


def _tol(x) -> float:
    return 1e-10 if x.dtype in (np.float64, np.complex128) else 2e-4


def _h(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _orthonormal_columns(q, tol, where):
    eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
    np.testing.assert_allclose(_h(q) @ q, eye, atol=tol, err_msg=where)


def check_case(name, a, got, want, where):
    """`got` (a case's results) against JAX's `want`: all leaves alike, except eigenvectors
    and singular vectors, checked by what defines them."""
    assert len(got) == len(want), where
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and g.dtype == w.dtype, (where, g.shape, g.dtype, w.shape)
    tol = _tol(want[0]) * max(1.0, float(np.abs(a).max(initial=0)))
    if name.startswith("eigh"):   # (eigenvalues, eigenvectors)
        (w, v), (want_w, _) = got, want
        np.testing.assert_allclose(w, want_w, rtol=tol, atol=tol, err_msg=where)
        herm = (a + _h(a)) / 2   # jnp.linalg.eigh symmetrizes its input first
        np.testing.assert_allclose((v * w[..., None, :]) @ _h(v), herm, atol=tol, err_msg=where)
        _orthonormal_columns(v, tol, where)
    elif name.startswith("svd") and len(want) == 3:   # (u, s, vh)
        (u, s, vh), (_, want_s, _) = got, want
        np.testing.assert_allclose(s, want_s, rtol=tol, atol=tol, err_msg=where)
        k = s.shape[-1]
        np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], a,
                                   atol=tol, err_msg=where)
        _orthonormal_columns(u, tol, where)
        _orthonormal_columns(_h(vh), tol, where)
    else:
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=where)


def leaves(out) -> list[np.ndarray]:
    out = out if isinstance(out, tuple) else (out,)
    return [np.asarray(o.cpu() if hasattr(o, "cpu") else o) for o in out]


@pytest.mark.parametrize("name", CASES)
def test_cuda_lowered_jax_function(name):
    text, runs = load_case(name)
    assert "cusolver_" in text
    exe = dynhlo.compile(text)
    for tag, args, want in runs:
        check_case(name, args[0], leaves(exe(*args)), want, f"{name} at batch {tag or '-'}")


# name -> function: exported for CUDA with a symbolic size n <= 6 (jax.export), imported from
# StableHLO; names starting eigh/svd are checked as check_case checks those.
SYMBOLIC = {"cholesky": jnp.linalg.cholesky, "qr": jnp.linalg.qr, "eigh": jnp.linalg.eigh,
            "svd": jnp.linalg.svd, "solve": lambda a: jnp.linalg.solve(a, a[:, :2] + 1),
            "inv": jnp.linalg.inv, "det": jnp.linalg.det}


def symbolic_cuda_module(name: str):
    """SYMBOLIC[name] exported for the CUDA platform at f32[n, n], n <= 6, as an HloModule."""
    (n,) = jax.export.symbolic_shape("n", constraints=["n <= 6"])
    exported = jax.export.export(jax.jit(SYMBOLIC[name]), platforms=("cuda",))(
        jax.ShapeDtypeStruct((n, n), np.float32))
    assert "cusolver_" in exported.mlir_module()
    return dynhlo.parse_stablehlo(exported.mlir_module_serialized, bounds={"n": 6})


def symbolic_runs(name: str):
    """(n, a, JAX's outputs) at sizes 1, 4 and 6 (JAX's symbolic sizes start at 1)."""
    rng = np.random.default_rng(11)
    for n in (1, 4, 6):
        x = rng.standard_normal((n, n)).astype(np.float32)
        a = x @ x.T + n * np.eye(n, dtype=np.float32)
        yield n, a, [np.asarray(o) for o in jax.tree_util.tree_leaves(SYMBOLIC[name](a))]


@pytest.mark.parametrize("name", sorted(SYMBOLIC))
def test_cuda_export_with_a_symbolic_size(name):
    exe = dynhlo.compile(symbolic_cuda_module(name))
    for n, a, want in symbolic_runs(name):
        check_case(name, a, leaves(exe(a)), want, f"{name} at n = {n} of <= 6")


def _pivot_module(batch: str, k: int, m: int, target="cu_lu_pivots_to_permutation") -> str:
    return call_module(target, [f"s32[{batch}{k}]"], f"s32[{batch}{m}]")


@pytest.mark.parametrize("batch,k,m", [((), 3, 3), ((4,), 2, 5), ((0,), 3, 4), ((2, 3), 4, 4)])
def test_lu_pivots_to_permutation_as_jax(batch, k, m):
    rng = np.random.default_rng(1)
    pivots = np.stack([rng.integers(i, m, size=batch) for i in range(k)], -1).astype(np.int32)
    text = _pivot_module("".join(f"{b}," for b in batch), k, m)
    want = jax.lax.linalg.lu_pivots_to_permutation(pivots, m)
    np.testing.assert_array_equal(dynhlo.compile(text)(pivots), want)


def test_lu_pivots_out_of_range_are_skipped():
    """jaxlib's kernel skips a pivot < 0 or >= m (JAX's generic lowering would clamp it)."""
    pivots = np.array([[2, -1, 7, 3], [0, 3, 3, 3]], np.int32)
    got = dynhlo.compile(_pivot_module("2,", 4, 4))(pivots)
    np.testing.assert_array_equal(got, [[2, 1, 0, 3], [0, 3, 1, 2]])


DYNAMIC_LU = """HloModule lu
ENTRY main {
  a = f32[<=5,<=5]{0,1} parameter(0)
  lu = (f32[<=5,<=5]{0,1}, s32[<=5]{0}, s32[]) custom-call(a), custom_call_target="cusolver_getrf_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={}
  f = f32[<=5,<=5]{0,1} get-tuple-element(lu), index=0
  p = s32[<=5]{0} get-tuple-element(lu), index=1
  one = s32[] constant(1)
  ones = s32[<=5]{0} broadcast(one), dimensions={}
  p0 = s32[<=5]{0} subtract(p, ones)
  perm = s32[<=5]{0} custom-call(p0), custom_call_target="cu_lu_pivots_to_permutation", api_version=API_VERSION_TYPED_FFI, backend_config={}
  info = s32[] get-tuple-element(lu), index=2
  ROOT t = (f32[<=5,<=5]{0,1}, s32[<=5]{0}, s32[<=5]{0}, s32[]) tuple(f, p0, perm, info)
}
"""


def dynamic_lu_runs():
    """(n, a, JAX's (lu, pivots, permutation)) at sizes 0, 1, 3 and 5 of the square LU."""
    rng = np.random.default_rng(2)
    for n in (0, 1, 3, 5):
        a = rng.standard_normal((n, n)).astype(np.float32)
        yield n, a, [np.asarray(x) for x in jax.lax.linalg.lu(a)]


def test_getrf_and_pivots_with_dynamic_matrix_sizes():
    exe = dynhlo.compile(DYNAMIC_LU)
    for n, a, want in dynamic_lu_runs():
        lu, pivots, perm, info = exe(a)
        check_case("lu", a, [lu, pivots, perm], want, f"n = {n}")
        assert info == 0


@pytest.mark.parametrize("t", ["c64", "c128"])
def test_complex_getrf_pivots_as_lapack(t):
    """Complex pivoting compares |re| + |im| (LAPACK's icamax): in the first column 3 has the
    larger modulus, 2+2j the larger |re| + |im|; pivots and LU as JAX's CPU LU (LAPACK)."""
    dtype = np.complex64 if t == "c64" else np.complex128
    rng = np.random.default_rng(12)
    a = (rng.standard_normal((2, 4, 4)) + 1j * rng.standard_normal((2, 4, 4))).astype(dtype)
    a[0, :, 0] = [3, 2 + 2j, 0.5, -1j]
    text = call_module("cusolver_getrf_ffi", [f"{t}[2,4,4]"], f"({t}[2,4,4], s32[2,4], s32[2])")
    lu, ipiv, info = dynhlo.compile(text)(a)
    want_lu, want_pivots, _ = jax.lax.linalg.lu(a)
    assert ipiv[0, 0] == 2
    np.testing.assert_array_equal(ipiv - 1, want_pivots)
    tol = _tol(np.asarray(want_lu))   # JAX without x64 computes c128 as c64
    np.testing.assert_allclose(lu, want_lu, rtol=tol, atol=tol)
    np.testing.assert_array_equal(info, [0, 0])


def test_potrf_upper():
    """lower = false: U^H U = A, the strictly lower triangle keeps the input."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 4, 4))
    a = x @ np.swapaxes(x, -1, -2) + 4 * np.eye(4)
    text = call_module("cusolver_potrf_ffi", ["f64[2,4,4]"], "(f64[2,4,4], s32[2])",
                       "lower = false")
    factor, info = dynhlo.compile(text)(a)
    np.testing.assert_array_equal(info, [0, 0])
    np.testing.assert_allclose(np.triu(factor), np.linalg.cholesky(a, upper=True), rtol=1e-12)
    np.testing.assert_array_equal(np.tril(factor, -1), np.tril(a, -1))


def test_syevd_reads_the_triangle_lower_names():
    """lower = false: the eigenpairs of the matrix the upper triangle holds."""
    a = np.random.default_rng(6).standard_normal((5, 5))
    text = call_module("cusolver_syevd_ffi", ["f64[5,5]"], "(f64[5,5], f64[5], s32[])",
                       "algorithm = 0 : ui8, lower = false")
    v, w, info = dynhlo.compile(text)(a)
    np.testing.assert_allclose(w, np.linalg.eigh(a, UPLO="U")[0], rtol=1e-12)
    upper = np.triu(a) + np.triu(a, 1).T
    np.testing.assert_allclose((v * w) @ v.T, upper, atol=1e-12)
    assert info == 0


@pytest.mark.parametrize("full", [True, False])
def test_gesvdj_returns_v(full):
    """gesvdj gives V (JAX transposes it after): u diag(s) V^T = A, reduced where asked."""
    a = np.random.default_rng(4).standard_normal((6, 4))
    text = call_module("cusolver_gesvdj_ffi", ["f64[6,4]"],
                       f"(f64[6,4], f64[4], f64[6,{6 if full else 4}], f64[4,4], s32[])",
                       f"compute_uv = true, full_matrices = {str(full).lower()}")
    _, s, u, v, info = dynhlo.compile(text)(a)
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), rtol=1e-12)
    np.testing.assert_allclose((u[:, :4] * s) @ v.T, a, atol=1e-12)
    assert info == 0


def test_hipsolver_names_are_the_same_calls():
    a = np.random.default_rng(5).standard_normal((3, 4, 4)).astype(np.float32)
    outs = [dynhlo.compile(call_module(f"{p}_getrf_ffi", ["f32[3,4,4]"],
                                       "(f32[3,4,4], s32[3,4], s32[3])"))(a)
            for p in ("cusolver", "hipsolver")]
    for x, y in zip(*outs, strict=True):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("target,t,what", [
    ("cusolver_geqrf_ffi", "f16", "f32, f64, c64 or c128"),
    ("cusolver_sytrd_ffi", "f32", "not supported by the cpu backend")])
def test_calls_without_a_lapack_counterpart_are_refused(target, t, what):
    text = call_module(target, [f"{t}[3,3]"], f"({t}[3,3], {t}[3])")
    with pytest.raises(dynhlo.UnsupportedError, match=what) as info:
        dynhlo.compile(text)
    assert "'c'" in str(info.value)   # the instruction


# (target, operand shapes, result shape, backend_config, what the error says): calls that
# jaxlib's handlers refuse (solver_kernels_ffi.cc, linalg_kernels.cc) are clear errors at
# compile time that name the instruction, not a raw exception or a result of another type.
_MALFORMED = [
    ("cusolver_getrf_ffi", ["f32[4,4]", "f32[4,4]"], "(f32[4,4], s32[4], s32[])", "",
     "takes 1 operand"),
    ("cusolver_getrf_ffi", [], "(f32[4,4], s32[4], s32[])", "", "takes 1 operand"),
    ("cusolver_orgqr_ffi", ["f32[4,3]"], "f32[4,3]", "", "takes 2 operand"),
    ("cu_lu_pivots_to_permutation", ["s32[4]", "s32[4]"], "s32[4]", "", "takes 1 operand"),
    ("cusolver_getrf_ffi", ["f32[4]"], "(f32[4], s32[1], s32[])", "", "rank >= 2"),
    ("cusolver_getrf_ffi", ["f32[4,4]"], "(f64[4,4], s32[4], s32[])", "", "f32, s32, s32"),
    ("cusolver_getrf_ffi", ["f32[4,4]"], "(f32[4,4], f32[4], s32[])", "", "f32, s32, s32"),
    ("cusolver_syevd_ffi", ["c64[4,4]"], "(c64[4,4], c64[4], s32[])",
     "algorithm = 0 : ui8, lower = true", "c64, f32, s32"),
    ("cusolver_gesvdj_ffi", ["f32[5,3]"], "(f32[5,3], f32[3], f32[5,5], f32[3,3])",
     "compute_uv = true, full_matrices = true", "tuple of 5"),
    ("cusolver_potrf_ffi", ["f32[4,3]"], "(f32[4,3], s32[])", "lower = true", "square"),
    ("cusolver_syevd_ffi", ["f32[4,3]"], "(f32[4,3], f32[3], s32[])",
     "algorithm = 0 : ui8, lower = true", "square"),
    ("cusolver_orgqr_ffi", ["f32[4,3]", "f32[5]"], "f32[4,3]", "", "k <= n <= m"),
    ("cusolver_orgqr_ffi", ["f32[3,4]", "f32[3]"], "f32[3,4]", "", "k <= n <= m"),
    ("cusolver_potrf_ffi", ["f32[4,4]"], "(f32[4,4], s32[])", "", "bool attribute lower"),
    ("cusolver_potrf_ffi", ["f32[4,4]"], "(f32[4,4], s32[])", "lower = 1 : i32",
     "bool attribute lower"),
    ("cusolver_syevd_ffi", ["f32[4,4]"], "(f32[4,4], f32[4], s32[])",
     "algorithm = 7 : ui8, lower = true", "algorithm = 0, 1 or 2"),
    ("cusolver_gesvd_ffi", ["f32[5,3]"], "(f32[5,3], f32[3], f32[5,5], f32[3,3], s32[])",
     "compute_uv = true, full_matrices = true", "bool attribute transposed"),
    ("cusolver_gesvdj_ffi", ["f32[5,3]"], "(f32[5,3], f32[3], f32[3,3], f32[3,3], s32[])",
     "compute_uv = true, full_matrices = true", r"\(5, 5\), \(3, 3\)"),
    ("cusolver_gesvd_ffi", ["f32[5,3]"], "(f32[5,3], f32[3], f32[5,5], f32[3,3], s32[])",
     "compute_uv = false, full_matrices = true, transposed = false", r"\(3,\), \(\), \(\)"),
    ("cusolver_gesvd_ffi", ["f32[5,3]"], "(f32[5,3], f32[3], f32[], f32[], s32[])",
     "compute_uv = true, full_matrices = true, transposed = false", r"\(5, 5\), \(3, 3\)"),
    ("cu_lu_pivots_to_permutation", ["f32[4]"], "s32[4]", "", "s32 arrays"),
    ("cu_lu_pivots_to_permutation", ["s32[4]"], "f32[4]", "", "s32 arrays"),
]


@pytest.mark.parametrize("target,operands,result,config,what", _MALFORMED)
def test_malformed_solver_calls_are_clear_errors(target, operands, result, config, what):
    with pytest.raises(dynhlo.HloVerifyError, match=what) as info:
        dynhlo.compile(call_module(target, operands, result, config))
    assert "'c'" in str(info.value)   # the instruction


def _export_cuda(fn, names: str, constraints, shapes, dtype):
    """fn exported for CUDA at shapes over the dimension variables `names` (jax.export)."""
    env = dict(zip(names.split(", "), jax.export.symbolic_shape(names, constraints=constraints),
                   strict=True))
    specs = [jax.ShapeDtypeStruct(tuple(env.get(d, d) for d in s), dtype) for s in shapes]
    return jax.export.export(jax.jit(fn), platforms=("cuda",))(*specs)


def test_lu_permutation_of_a_symbolic_rectangle_has_m_entries():
    """lu of an m x n matrix: the permutation has m entries, not the k = min(m, n) pivots'
    count (JAX passes m as a shape operand, which the import keeps)."""
    exported = _export_cuda(jax.lax.linalg.lu, "m, n", ["m <= 5", "n <= 5"], [("m", "n")],
                            np.float32)
    exe = dynhlo.compile(dynhlo.parse_stablehlo(exported.mlir_module_serialized,
                                                bounds={"m": 5, "n": 5}))
    rng = np.random.default_rng(14)
    for m, n in [(4, 2), (2, 4), (5, 1), (3, 3)]:
        a = rng.standard_normal((m, n)).astype(np.float32)
        check_case("lu", a, leaves(exe(a)), [np.asarray(x) for x in jax.lax.linalg.lu(a)],
                   f"{m} x {n}")


def test_complex_nan_constant_of_an_export():
    """Complex inv holds a c64 NaN constant that StableHLO writes as two hex floats,
    (0x7FC00000,0x7FC00000): one complex value, not two."""
    exported = _export_cuda(jnp.linalg.inv, "n", [], [(3, 3)], np.complex64)
    exe = dynhlo.compile(dynhlo.parse_stablehlo(exported.mlir_module_serialized))
    rng = np.random.default_rng(15)
    a = (rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))).astype(np.complex64)
    np.testing.assert_allclose(exe(a), np.asarray(jnp.linalg.inv(a)), rtol=1e-4, atol=1e-4)


def test_x64_export_with_a_symbolic_size():
    """Under jax_enable_x64 JAX converts each dimension variable to i64 before passing it on;
    bounds by name still find it."""
    previous = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        exported = _export_cuda(jnp.linalg.det, "n", ["n <= 4"], [("n", "n")], np.float64)
        exe = dynhlo.compile(dynhlo.parse_stablehlo(exported.mlir_module_serialized,
                                                    bounds={"n": 4}))
        rng = np.random.default_rng(16)
        for n in (1, 4):
            a = rng.standard_normal((n, n))
            np.testing.assert_allclose(exe(a), np.linalg.det(a), rtol=1e-12, err_msg=f"n={n}")
    finally:
        jax.config.update("jax_enable_x64", previous)


def test_getrf_and_pivots_of_a_dynamic_rectangle():
    """DYNAMIC_LU at m != n: the permutation has m entries (the getrf's rows, which the
    pivots' count min(m, n) says), as JAX's."""
    exe = dynhlo.compile(DYNAMIC_LU)
    rng = np.random.default_rng(17)
    for m, n in [(4, 2), (2, 4), (5, 3), (1, 5)]:
        a = rng.standard_normal((m, n)).astype(np.float32)
        lu, pivots, perm, info = exe(a)
        want = [np.asarray(x) for x in jax.lax.linalg.lu(a)]
        check_case("lu", a, [lu, pivots, perm], want, f"{m} x {n}")


@pytest.mark.parametrize("target,operands,result,config,args,what", [
    ("cusolver_potrf_ffi", ["f32[<=4,<=4]"], "(f32[<=4,<=4], s32[])", "lower = true",
     [np.ones((2, 3), np.float32)], "potrf of a 2 x 3 matrix"),
    ("cusolver_syevd_ffi", ["f32[<=4,<=4]"], "(f32[<=4,<=4], f32[<=4], s32[])",
     "algorithm = 0 : ui8, lower = true", [np.ones((3, 2), np.float32)], "syevd of a 3 x 2"),
    ("cusolver_orgqr_ffi", ["f32[<=4,<=4]", "f32[<=4]"], "f32[<=4,<=4]", "",
     [np.ones((3, 2), np.float32), np.ones(3, np.float32)], "3 tau; it needs k <= n <= m"),
    ("cusolver_orgqr_ffi", ["f32[<=4,<=4]", "f32[<=4]"], "f32[<=4,<=4]", "",
     [np.ones((2, 3), np.float32), np.ones(2, np.float32)], "2 x 3 matrix"),
])
def test_dynamic_sizes_a_solver_refuses(target, operands, result, config, args, what):
    """Sizes the bounds allow but the solver does not take: a DynamicSizeError naming the
    instruction (a raw ValueError/IndexError, or a factor of garbage, before)."""
    exe = dynhlo.compile(call_module(target, operands, result, config))
    with pytest.raises(dynhlo.DynamicSizeError, match=what) as info:
        exe(*args)
    assert "'c'" in str(info.value)
