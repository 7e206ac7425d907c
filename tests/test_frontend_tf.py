"""from_tf: a TensorFlow function with bounded sizes, against TensorFlow at the same sizes.

CI does not install tensorflow: these tests skip there. Run them with /work/venv-tf (or any
environment with tensorflow): `python -m pytest tests/test_frontend_tf.py`.
"""

from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

import dynhlo  # noqa: E402


def _model(x, y):
    h = tf.nn.relu(tf.matmul(x, tf.ones((4, 3))) + 1.0)
    return tf.reduce_sum(h * y, 0), tf.reduce_max(x, 1), tf.matmul(x, x, transpose_a=True)


def test_from_tf_matches_tensorflow_at_every_size():
    exe = dynhlo.from_tf(_model, "f32[n,4]", "f32[n,3]", bounds={"n": 8})
    assert [str(p.shape) for p in exe.module.entry.parameters] == ["f32[<=8,4]{1,0}",
                                                                   "f32[<=8,3]{1,0}"]
    rng = np.random.default_rng(0)
    for n in (1, 5, 8):
        x = rng.standard_normal((n, 4)).astype(np.float32)
        y = rng.standard_normal((n, 3)).astype(np.float32)
        for got, want in zip(exe(x, y), _model(x, y), strict=True):
            np.testing.assert_allclose(got, want.numpy(), rtol=1e-5, atol=1e-5)


def test_from_tf_refuses_a_baked_size_and_quotes_the_line():
    # a cumulative sum over the rows is a reduce-window whose window is the row count
    with pytest.raises(dynhlo.UnsupportedError, match=r"baked into the program: '8' becomes "
                       r"'7'.*reduce-window.*window=\{size=8x1"):
        dynhlo.from_tf(lambda x: tf.cumsum(x, 0), "f32[n,4]", bounds={"n": 8})


@pytest.mark.parametrize("fn", [
    lambda x: tf.reduce_mean(x, 0),                       # divides by s32[] constant(n)
    lambda x: tf.nn.moments(x, axes=[0]),
    lambda x: tf.math.reduce_std(x, 0),
    lambda x: tf.sort(x, 0),                              # TopK of k = n
    lambda x: tf.gather(x, tf.argsort(x[:, 0])),
])
def test_from_tf_reads_a_count_of_rows_at_run_time(fn):
    exe = dynhlo.from_tf(fn, "f32[n,4]", bounds={"n": 8})
    rng = np.random.default_rng(4)
    for n in (1, 3, 8):
        x = rng.standard_normal((n, 4)).astype(np.float32)
        got, want = exe(x), tf.nest.flatten(fn(x))
        for g, w in zip(got if isinstance(got, tuple) else (got,), want, strict=True):
            np.testing.assert_allclose(g, w.numpy(), rtol=1e-5, atol=1e-6)


def test_from_tf_needs_a_bound_per_name():
    with pytest.raises(dynhlo.UnsupportedError, match="one bound per size name"):
        dynhlo.from_tf(lambda x: x, "f32[n]", bounds={})


def test_from_tf_lowering_failure_is_an_unsupported_error():
    with pytest.raises(dynhlo.UnsupportedError, match="tensorflow cannot lower"):
        dynhlo.from_tf(lambda x: tf.strings.as_string(x), "f32[n]", bounds={"n": 4})


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float16, np.complex64])
def test_from_tf_keeps_the_values_of_large_constants(dtype):
    # TensorFlow's HLO text writes a folded constant of more than a few elements as `{...}`;
    # from_tf fills it in from the module's proto
    table = (np.arange(35).reshape(5, 7) % 11 - 4).astype(dtype)
    if np.dtype(dtype).kind == "c":
        table = table + 1j * table[::-1]

    def fn(x):
        return tf.matmul(x, tf.constant(table)) + tf.constant(table[1] * 2)

    exe = dynhlo.from_tf(fn, f"{dict(zip('fic', ['f', 's', 'c']))[np.dtype(dtype).kind]}"
                         f"{np.dtype(dtype).itemsize * 8}[n,5]", bounds={"n": 6})
    rng = np.random.default_rng(1)
    for n in (1, 5):
        x = (rng.integers(-3, 4, (n, 5))).astype(dtype)
        want = fn(tf.constant(x)).numpy()
        np.testing.assert_array_equal(exe(x), want) if np.dtype(dtype).kind == "i" else \
            np.testing.assert_allclose(exe(x), want, rtol=1e-3)


def test_from_tf_ignores_metadata_that_differs_between_lowerings():
    # TensorFlow writes a source file into some lowerings' metadata and not others'
    fns = [lambda x: tf.nn.relu(x), lambda x: tf.math.atan(x), lambda x: tf.math.lgamma(x)]
    rng = np.random.default_rng(2)
    for fn in fns:
        exe = dynhlo.from_tf(fn, "f32[n,5]", bounds={"n": 8})
        for n in (1, 8):
            x = rng.uniform(0.5, 2, (n, 5)).astype(np.float32)
            np.testing.assert_allclose(exe(x), fn(x).numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fn,shape,match", [
    # the shape folded into a broadcast of a constant: at one row it gave 8 rows
    (lambda x: tf.ones_like(x) + tf.zeros_like(x), "f32[n,5]", "nothing in the program"),
    (lambda x: tf.nn.avg_pool1d(x[None], 2, 1, "SAME"), "f32[n,5]", "nothing in the program"),
    # Philox numbers drawn at the bound's shape are not the ones drawn at the size's
    (lambda x: x + tf.random.stateless_uniform(tf.shape(x), seed=[1, 2]), "f32[n,5]",
     "random numbers"),
    # bincount folded over the zeros the function is lowered at: no parameter left
    (lambda x: tf.math.bincount(tf.abs(x[:, 0]), minlength=6, maxlength=6), "s32[n,5]",
     "folded the others into constants"),
])
def test_from_tf_refuses_sizes_folded_into_constants(fn, shape, match):
    with pytest.raises(dynhlo.UnsupportedError, match=match):
        dynhlo.from_tf(fn, shape, bounds={"n": 8})


# --- tf.linalg: XLA's Qr, ProductOfElementaryHouseholderReflectors and Eigh custom calls ---

def _linalg_inputs(spec: str, sizes: list[tuple], hermitian: bool = False):
    """Random matrices of each shape in `sizes`, of spec's type (f32 or c64); Hermitian ones
    (A + A^H) where asked."""
    rng = np.random.default_rng(5)
    for shape in sizes:
        x = rng.standard_normal(shape)
        if spec.startswith("c64"):
            x = x + 1j * rng.standard_normal(shape)
        x = x.astype(np.complex64 if spec.startswith("c64") else np.float32)
        yield x + np.conj(np.swapaxes(x, -1, -2)) if hermitian else x


@pytest.mark.parametrize("fn,spec,bounds,sizes", [
    (lambda x: tf.linalg.qr(x), "f32[b,4,4]", {"b": 4}, [(1, 4, 4), (3, 4, 4), (4, 4, 4)]),
    (lambda x: tf.linalg.qr(x, full_matrices=True), "f32[b,5,3]", {"b": 4},
     [(1, 5, 3), (4, 5, 3)]),
    (lambda x: tf.linalg.qr(x), "f32[m,3]", {"m": 6}, [(3, 3), (5, 3), (6, 3)]),
    (lambda x: tf.linalg.qr(x), "c64[b,3,5]", {"b": 3}, [(1, 3, 5), (3, 3, 5)]),
    (lambda x: tf.linalg.solve(x, x[..., :2] + 1.0), "f32[b,4,4]", {"b": 4},
     [(1, 4, 4), (4, 4, 4)]),
    (lambda x: tf.linalg.inv(x), "f32[b,4,4]", {"b": 4}, [(1, 4, 4), (3, 4, 4)]),
    (lambda x: tf.linalg.inv(x), "f32[n,n]", {"n": 5}, [(1, 1), (3, 3), (5, 5)]),
], ids=["qr", "qr-full", "qr-rows", "qr-c64-wide", "solve", "inv", "inv-size"])
def test_from_tf_qr_solve_inv_match_tensorflow(fn, spec, bounds, sizes):
    """tf2xla lowers these through XLA's Qr and Householder product: the same reflectors as
    TensorFlow's own expansion, so Q and R agree entry by entry (no sign to fix)."""
    exe = dynhlo.from_tf(fn, spec, bounds=bounds)
    for x in _linalg_inputs(spec, sizes):
        got = exe(x)
        for g, w in zip(got if isinstance(got, tuple) else (got,), tf.nest.flatten(fn(x)),
                        strict=True):
            np.testing.assert_allclose(g, w.numpy(), rtol=1e-4, atol=1e-4, err_msg=x.shape)


@pytest.mark.parametrize("spec,bounds,sizes", [
    ("f32[b,4,4]", {"b": 4}, [(1, 4, 4), (3, 4, 4), (4, 4, 4)]),
    ("f32[n,n]", {"n": 5}, [(1, 1), (2, 2), (5, 5)]),
    ("c64[b,3,3]", {"b": 2}, [(1, 3, 3), (2, 3, 3)]),
])
def test_from_tf_eigh_matches_tensorflow(spec, bounds, sizes):
    """tf.linalg.eigh (XLA's Eigh): TensorFlow's eigenvalues, ascending; eigenvectors equal
    TensorFlow's up to each one's sign (phase), and A v = v diag(w)."""
    exe = dynhlo.from_tf(lambda x: tf.linalg.eigh(x), spec, bounds=bounds)
    for a in _linalg_inputs(spec, sizes, hermitian=True):
        w, v = exe(a)
        want_w, want_v = (t.numpy() for t in tf.linalg.eigh(a))
        np.testing.assert_allclose(w, want_w, rtol=1e-4, atol=1e-4, err_msg=a.shape)
        np.testing.assert_allclose(a @ v, v * w[..., None, :], atol=1e-4, err_msg=a.shape)
        phase = np.sum(np.conj(want_v) * v, axis=-2, keepdims=True)  # <v_tf, v>: a unit phase
        np.testing.assert_allclose(np.abs(phase), 1, atol=1e-4, err_msg=a.shape)
        np.testing.assert_allclose(v, want_v * phase, atol=1e-4, err_msg=a.shape)
