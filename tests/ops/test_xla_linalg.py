"""XLA's own linear-algebra custom calls (`Qr`, `ProductOfElementaryHouseholderReflectors`,
`Eigh`, as TensorFlow's tf2xla bridge emits them) on the CPU backend, from hand-written HLO
modules, against NumPy:

- Qr: the Householder vectors and taus of numpy.linalg.qr(mode='raw') (LAPACK's geqrf, the
  reflectors XLA's qr_expander.cc picks), and Q R = A with Q built from them by hand;
- the Householder product: the explicit product of (I - tau v v^H), and IREE's expected values
  for the same call, also read from its StableHLO (dynhlo.parse_stablehlo passes XLA's calls
  through; Eigh's backend_config too);
- Eigh: numpy.linalg.eigvalsh of the triangle named (the other one holds garbage) and
  A v = v diag(w) with unit columns; n = 0 and 1 (XLA: v = 1, w = the diagonal);
- f16, bf16, f32, f64, c64, c128; a bounded-dynamic batch at 0, 1 and the bound and dynamic
  matrix sizes, matrix by matrix as the static computation;
- malformed calls: HloVerifyError naming the instruction; sizes that break k <= n <= m or a
  non-square Eigh at run time: DynamicSizeError.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import dynhlo

TYPES = {"f16": (np.float16, 2e-2), "bf16": (ml_dtypes.bfloat16, 1e-1),
         "f32": (np.float32, 2e-5), "f64": (np.float64, 1e-12),
         "c64": (np.complex64, 2e-5), "c128": (np.complex128, 1e-12)}
REAL = {"f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64", "c64": "f32", "c128": "f64"}

QR = """HloModule qr
ENTRY main {{
  a = {t}{a} parameter(0)
  ROOT qr = ({t}{a}, {t}{taus}) custom-call(a), custom_call_target="Qr"
}}"""

HOUSEHOLDER = """HloModule householder
ENTRY main {{
  a = {t}{a} parameter(0)
  taus = {t}{taus} parameter(1)
  ROOT q = {t}{a} custom-call(a, taus), custom_call_target="ProductOfElementaryHouseholderReflectors"
}}"""

EIGH = """HloModule eigh
ENTRY main {{
  a = {t}{a} parameter(0)
  ROOT eigh = ({t}{a}, {r}{w}) custom-call(a), custom_call_target="Eigh", backend_config="{config}"
}}"""


def _random(rng, shape, t):
    x = rng.standard_normal(shape)
    if t.startswith("c"):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(TYPES[t][0])


def _wide(x):
    """f16/bf16 as f32 (NumPy's linalg has no such kinds); the others as they are."""
    return x.astype(np.float32) if x.dtype.itemsize <= 2 and x.dtype.kind != "c" else x


def _h(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _reflectors_product(a, taus, m, n):
    """H_1 ... H_k applied to eye(m, n), H_j = I - tau_j v_j v_j^H, v_j = e_j + a[j+1:, j],
    one matrix, by hand."""
    q = np.eye(m, n, dtype=np.result_type(a, np.float64))
    for j in reversed(range(len(taus))):
        v = np.zeros(m, q.dtype)
        v[j] = 1
        v[j + 1:] = a[j + 1:, j]
        q -= taus[j] * np.outer(v, np.conj(v) @ q)
    return q


# --- Qr --------------------------------------------------------------------------------------

@pytest.mark.parametrize("t", sorted(TYPES))
@pytest.mark.parametrize("m,n", [(5, 3), (4, 4), (3, 5)])
def test_qr_is_lapacks_householder_qr(t, m, n):
    """Vectors and taus as numpy.linalg.qr(mode='raw') computes them (at f32 for f16/bf16),
    and Q R = A with Q the product of those reflectors, over a static batch."""
    dtype, tol = TYPES[t]
    k = min(m, n)
    exe = dynhlo.compile(QR.format(t=t, a=f"[2,{m},{n}]", taus=f"[2,{k}]"))
    a = _random(np.random.default_rng(0), (2, m, n), t)
    got, taus = exe(a)
    assert got.dtype == taus.dtype == dtype and taus.shape == (2, k)
    h, want_taus = np.linalg.qr(_wide(a), mode="raw")
    np.testing.assert_allclose(_wide(got), np.swapaxes(h, -1, -2), rtol=tol, atol=tol)
    np.testing.assert_allclose(_wide(taus), want_taus, rtol=tol, atol=tol)
    for i in range(2):
        q = _reflectors_product(_wide(got[i]), _wide(taus[i]), m, m)
        r = np.triu(_wide(got[i]))
        np.testing.assert_allclose(q @ r, _wide(a[i]), rtol=tol, atol=4 * tol)


def test_qr_of_a_zero_column_has_tau_zero():
    """A column already zero below the diagonal: tau = 0 and beta = alpha (XLA's House)."""
    exe = dynhlo.compile(QR.format(t="f64", a="[3,3]", taus="[3]"))
    a = np.array([[2.0, 1, 0], [0, 3, 1], [0, 4, 5]])
    got, taus = exe(a)
    assert taus[0] == 0 and got[0, 0] == 2.0
    np.testing.assert_allclose(taus[1], 1 + 3 / 5)  # (beta - alpha) / beta, beta = -5
    np.testing.assert_allclose(got[1, 1], -5.0)


@pytest.mark.parametrize("t", ["f32", "c128"])
def test_qr_over_dynamic_sizes_is_the_static_qr_per_matrix(t):
    """A bounded-dynamic batch and matrix at 0, 1 and the bound: each matrix's result is the
    static Qr of that matrix."""
    exe = dynhlo.compile(QR.format(t=t, a="[<=3,<=5,<=4]", taus="[<=3,<=4]"))
    a = _random(np.random.default_rng(1), (3, 5, 4), t)
    tol = TYPES[t][1]
    for b, m, n in [(0, 5, 4), (3, 0, 0), (1, 1, 1), (2, 5, 2), (3, 3, 4), (3, 5, 4)]:
        got, taus = exe(a[:b, :m, :n])
        assert got.shape == (b, m, n) and taus.shape == (b, min(m, n))
        for i in range(b):
            one = dynhlo.compile(QR.format(t=t, a=f"[{m},{n}]", taus=f"[{min(m, n)}]"))
            want, want_taus = one(a[i, :m, :n])
            np.testing.assert_allclose(got[i], want, rtol=tol, atol=tol)
            np.testing.assert_allclose(taus[i], want_taus, rtol=tol, atol=tol)


# --- the Householder product -----------------------------------------------------------------

@pytest.mark.parametrize("t", sorted(TYPES))
@pytest.mark.parametrize("m,n,k", [(5, 3, 3), (4, 4, 4), (5, 4, 2), (3, 3, 0)])
def test_householder_product_is_the_product_of_reflectors(t, m, n, k):
    dtype, tol = TYPES[t]
    exe = dynhlo.compile(HOUSEHOLDER.format(t=t, a=f"[2,{m},{n}]", taus=f"[2,{k}]"))
    rng = np.random.default_rng(2)
    a, taus = _random(rng, (2, m, n), t), _random(rng, (2, k), t)
    got = exe(a, taus)
    assert got.dtype == dtype and got.shape == (2, m, n)
    for i in range(2):
        want = _reflectors_product(_wide(a[i]), _wide(taus[i]), m, n)
        np.testing.assert_allclose(_wide(got[i]), want, rtol=tol, atol=4 * tol)


IREE_HOUSEHOLDER = """
func.func public @main(%m: tensor<4x3xf32>, %t: tensor<2xf32>) -> tensor<4x3xf32> {
  %q = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%m, %t) : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  return %q : tensor<4x3xf32>
}"""


@pytest.mark.parametrize("source", ["hlo", "stablehlo"])
def test_householder_product_as_iree_expects_it(source):
    """IREE's end-to-end test of the same StableHLO custom call (a 4 x 3 matrix, 2 taus), as
    HLO text and as its StableHLO (dynhlo.parse_stablehlo passes the call through)."""
    if source == "stablehlo":
        pytest.importorskip("jax")
        module = dynhlo.parse_stablehlo(IREE_HOUSEHOLDER)
    else:
        module = HOUSEHOLDER.format(t="f32", a="[4,3]", taus="[2]")
    a = np.array([[0.19151945, 0.62210877, 0.43772774], [0.78535858, 0.77997581, 0.27259261],
                  [0.27646426, 0.80187218, 0.95813935], [0.87593263, 0.35781727, 0.50099513]],
                 np.float32)
    want = [[0.31653708, 0.10644531, 0.32681817], [-0.53676350, 0.37089570, -0.31482652],
            [-0.18895307, -0.54206765, 0.63208690], [-0.59866750, -0.16177818, 0.08177957]]
    got = dynhlo.compile(module)(a, np.array([0.68346294, 0.71270203], np.float32))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_householder_product_over_dynamic_sizes():
    """Dynamic batch, m, n and k: each matrix's result is the product of its reflectors."""
    exe = dynhlo.compile(HOUSEHOLDER.format(t="c64", a="[<=3,<=5,<=4]", taus="[<=3,<=4]"))
    rng = np.random.default_rng(3)
    a, taus = _random(rng, (3, 5, 4), "c64"), _random(rng, (3, 4), "c64")
    for b, m, n, k in [(0, 5, 4, 4), (3, 0, 0, 0), (1, 1, 1, 1), (2, 5, 3, 2), (3, 5, 4, 4)]:
        got = exe(a[:b, :m, :n], taus[:b, :k])
        assert got.shape == (b, m, n)
        for i in range(b):
            want = _reflectors_product(a[i, :m, :n], taus[i, :k], m, n)
            np.testing.assert_allclose(got[i], want, rtol=1e-5, atol=1e-5)


# --- Eigh ------------------------------------------------------------------------------------

def _hermitian_from(a, lower: bool):
    """The Hermitian matrix a's lower (upper) triangle names, the diagonal's real part."""
    tri = np.tril(a, -1) if lower else np.triu(a, 1)
    return tri + _h(tri) + np.real(np.diagonal(a, axis1=-2, axis2=-1))[..., None] * np.eye(
        a.shape[-1])


def _check_eigh(a, v, w, lower, tol, where):
    """w as numpy.linalg.eigvalsh (ascending), A v = v diag(w), unit columns."""
    h = _hermitian_from(_wide(a).astype(np.result_type(_wide(a), np.float64)), lower)
    v, w = _wide(v).astype(h.dtype), _wide(w).astype(np.float64)
    scale = tol * max(1.0, float(np.abs(h).max(initial=0)))
    np.testing.assert_allclose(w, np.linalg.eigvalsh(h), atol=scale, err_msg=where)
    np.testing.assert_allclose(h @ v, v * w[..., None, :], atol=4 * scale, err_msg=where)
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), np.ones(w.shape), atol=4 * tol,
                               err_msg=where)


@pytest.mark.parametrize("t", sorted(TYPES))
@pytest.mark.parametrize("lower", [1, 0])
def test_eigh_reads_the_triangle_named(t, lower):
    """The other triangle (and a complex diagonal's imaginary part) holds garbage that must
    not count."""
    dtype, tol = TYPES[t]
    exe = dynhlo.compile(EIGH.format(t=t, r=REAL[t], a="[2,5,5]", w="[2,5]",
                                     config=f"{lower},1,100,0.000001"))
    a = _random(np.random.default_rng(4), (2, 5, 5), t)
    v, w = exe(a)
    assert v.dtype == dtype and w.dtype == TYPES[REAL[t]][0]
    _check_eigh(a, v, w, lower, tol, f"{t} lower={lower}")


def test_eigh_of_1x1_and_0x0():
    """XLA's Eigh of n <= 1: v = 1, w = the diagonal's real part; n = 0: empty results."""
    one = dynhlo.compile(EIGH.format(t="c64", r="f32", a="[3,1,1]", w="[3,1]",
                                     config="0,1,100,1e-6"))
    v, w = one(np.array([2 + 1j, -3, 0], np.complex64).reshape(3, 1, 1))
    np.testing.assert_array_equal(v, np.ones((3, 1, 1), np.complex64))
    np.testing.assert_array_equal(w, [[2], [-3], [0]])
    empty = dynhlo.compile(EIGH.format(t="f32", r="f32", a="[2,0,0]", w="[2,0]",
                                       config="1,1,100,1e-6"))
    v, w = empty(np.zeros((2, 0, 0), np.float32))
    assert v.shape == (2, 0, 0) and w.shape == (2, 0)


@pytest.mark.parametrize("t", ["f64", "c64"])
def test_eigh_over_dynamic_sizes(t):
    """A bounded-dynamic batch and matrix size at 0, 1 and the bound, each matrix read at its
    actual size (garbage past it in the caller's array never reaches the call)."""
    exe = dynhlo.compile(EIGH.format(t=t, r=REAL[t], a="[<=3,<=4,<=4]", w="[<=3,<=4]",
                                     config="1,1,100,0.000001"))
    a = _random(np.random.default_rng(5), (3, 4, 4), t)
    for b, n in [(0, 4), (3, 0), (1, 1), (2, 3), (3, 4)]:
        x = np.ascontiguousarray(a[:b, :n, :n])
        v, w = exe(x)
        assert v.shape == (b, n, n) and w.shape == (b, n)
        _check_eigh(x, v, w, True, TYPES[t][1], f"{t} at {b}x{n}")


def test_eigh_from_stablehlo_keeps_its_backend_config():
    """The upper triangle named in a StableHLO call's backend_config reaches the call."""
    pytest.importorskip("jax")
    module = dynhlo.parse_stablehlo("""
func.func public @main(%a: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>) {
  %r:2 = stablehlo.custom_call @Eigh(%a) {backend_config = "0,1,100,0.000001"} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>)
  return %r#0, %r#1 : tensor<3x3xf64>, tensor<3xf64>
}""")
    a = _random(np.random.default_rng(10), (3, 3), "f64")
    v, w = dynhlo.compile(module)(a)
    _check_eigh(a, v, w, False, 1e-12, "stablehlo upper")


def test_eigh_unsorted_gives_eigenpairs_too():
    """sort_eigenvalues 0 leaves the order to the algorithm: still eigenpairs of A."""
    exe = dynhlo.compile(EIGH.format(t="f64", r="f64", a="[4,4]", w="[4]",
                                     config="1,0,4,0.001"))
    a = _random(np.random.default_rng(6), (4, 4), "f64")
    v, w = exe(a)
    h = _hermitian_from(a, True)
    np.testing.assert_allclose(np.sort(w), np.linalg.eigvalsh(h), atol=1e-12)
    np.testing.assert_allclose(h @ v, v * w, atol=1e-12)


# --- errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text,match", [
    (QR.format(t="s32", a="[3,3]", taus="[3]"), "takes one type of"),
    (QR.format(t="f32", a="[3]", taus="[3]"), "rank >= 2"),
    (QR.format(t="f32", a="[3,3]", taus="[2]"), r"declared f32\[2\]"),
    (QR.replace("({t}{a}, {t}{taus})", "{t}{a}").format(t="f32", a="[3,3]", taus=""),
     "tuple of 2"),
    (HOUSEHOLDER.format(t="f32", a="[3,4]", taus="[3]"), "k <= n <= m"),
    (HOUSEHOLDER.format(t="f32", a="[5,3]", taus="[4]"), "k <= n <= m"),
    (HOUSEHOLDER.format(t="f32", a="[2,5,3]", taus="[3,3]"), "k <= n <= m"),
    (HOUSEHOLDER.format(t="f32", a="[5,3]", taus="[3]").replace("taus = f32", "taus = f64"),
     "one type of"),
    (EIGH.format(t="f32", r="f32", a="[3,4]", w="[4]", config="1,1,100,1e-6"), "square"),
    (EIGH.format(t="f32", r="f32", a="[3,3]", w="[3]", config="1,1,100"), "backend_config"),
    (EIGH.format(t="f32", r="f32", a="[3,3]", w="[3]", config="1,1,x,1e-6"), "backend_config"),
    (EIGH.format(t="f32", r="f32", a="[3,3]", w="[3]", config="1,1,100,1e-6,0"),
     "backend_config"),
    (EIGH.replace(', backend_config="{config}"', "").format(t="f32", r="f32", a="[3,3]",
                                                          w="[3]"), "backend_config"),
    (EIGH.format(t="c64", r="c64", a="[3,3]", w="[3]", config="1,1,100,1e-6"), "c64, f32"),
])
def test_malformed_calls_name_the_instruction(text, match):
    with pytest.raises(dynhlo.HloVerifyError, match=match) as info:
        dynhlo.compile(text)
    assert any(name in str(info.value) for name in ("'qr'", "'q'", "'eigh'")), info.value


def test_sizes_that_break_the_rules_at_run_time():
    """Bounds allow these calls; the sizes passed do not."""
    product = dynhlo.compile(HOUSEHOLDER.format(t="f32", a="[<=5,<=4]", taus="[<=4]"))
    rng = np.random.default_rng(7)
    with pytest.raises(dynhlo.DynamicSizeError, match="'q'.*k <= n <= m"):
        product(_random(rng, (5, 2), "f32"), _random(rng, (3,), "f32"))
    with pytest.raises(dynhlo.DynamicSizeError, match="'q'.*k <= n <= m"):
        product(_random(rng, (2, 3), "f32"), _random(rng, (1,), "f32"))
    eigh = dynhlo.compile(EIGH.format(t="f32", r="f32", a="[<=4,<=4]", w="[<=4]",
                                      config="1,1,100,1e-6"))
    with pytest.raises(dynhlo.DynamicSizeError, match="'eigh'.*3 x 2"):
        eigh(_random(rng, (3, 2), "f32"))
