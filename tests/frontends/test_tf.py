"""from_tf: a TensorFlow function with bounded sizes, against TensorFlow at the same sizes.

They skip without tensorflow; .ci/run runs them at its end in a venv with tensorflow-cpu
(`python -m pytest tests/frontends/test_tf.py` where tensorflow is installed).
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


def _rows(x):
    return tf.cast(tf.shape(x)[0], tf.float32)


def _while_count(x):
    n = tf.shape(x)[0]
    return x + tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + 1.0), [0, 0.0])[1]


_TABLE = np.arange(40, dtype=np.float32).reshape(5, 8) / 7


@pytest.mark.parametrize("fn,shape", [
    # each folded at every static size into something no comparison of lowerings can tell
    # from a size baked in (2n; a pad to 8 rows; `n > 5`; 1/((n-7)(n-5))^2; n * a table; a
    # range of 2n; a loop whose state carries no array of n rows; tf.cond on the size):
    # with the sizes marked dynamic tf2xla computes them at run time
    (lambda x: x / tf.cast(2 * tf.shape(x)[0], tf.float32), "f32[n,4]"),
    (lambda x: tf.pad(x, [[0, 8 - tf.shape(x)[0]], [0, 0]]), "f32[n,5]"),
    (lambda x: tf.where(tf.shape(x)[0] > 5, x + 1.0, x - 1.0), "f32[n,5]"),
    (lambda x: x + 1.0 / tf.square((_rows(x) - 7.0) * (_rows(x) - 5.0)), "f32[n,5]"),
    (lambda x: x @ (_rows(x) * tf.constant(_TABLE)), "f32[n,5]"),
    (lambda x: tf.range(2 * tf.shape(x)[0]), "f32[n,3]"),
    (_while_count, "f32[n,3]"),
    (lambda x: tf.cond(tf.shape(x)[0] > 2, lambda: x * 2.0, lambda: x + 1.0), "f32[n,3]"),
])
def test_from_tf_computes_sizes_tensorflow_folds_at_run_time(fn, shape):
    exe = dynhlo.from_tf(fn, shape, bounds={"n": 8})
    width = int(shape[:-1].split(",")[1])
    for n in range(9):
        x = np.random.default_rng(n).standard_normal((n, width)).astype(np.float32)
        got, want = np.asarray(exe(x)), fn(tf.constant(x)).numpy()
        assert got.shape == want.shape, n
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"n={n}")


@pytest.mark.parametrize("fn", [
    lambda x: x / tf.cast(tf.shape(x)[0], tf.float32),     # f32[] constant(n)
    lambda x: tf.reduce_sum(x, 0) / tf.cast(tf.shape(x)[0], tf.float32),
    lambda x: tf.cast(x, tf.float16) * tf.cast(tf.shape(x)[0], tf.float16),   # f16[]
    lambda x: tf.cast(tf.shape(x)[0], tf.float64) + tf.cast(x, tf.float64),
    lambda x: x + tf.cast(tf.shape(x, out_type=tf.int64)[0], tf.float32),   # s64, folded
    lambda x: x / tf.cast(tf.shape(x)[0] + 1, tf.float32),  # f32[] constant(n + 1)
])
def test_from_tf_reads_the_size_used_as_a_value_at_run_time(fn):
    # TensorFlow folds the row count, cast to a float, into `f32[] constant(8)`: it becomes
    # the size read from the argument and converted
    _matches_tensorflow(fn, "f32[n,4]", (0, 1, 3, 8), seed=3, rtol=1e-3)


@pytest.mark.parametrize("fn", [
    lambda x: tf.cumsum(x, 0),                             # window n, padding n-1 before
    lambda x: tf.cumsum(x, 0, exclusive=True, reverse=True),   # padding n after, a slice
    lambda x: tf.math.cumprod(x, 0, reverse=True),
    lambda x: tf.math.cumulative_logsumexp(x, 0),
    lambda x: tf.cumsum(x[1:], 0),                         # window n - 1
    lambda x: tf.cumsum(tf.pad(x, [[1, 2], [0, 0]]), 0, reverse=True),   # window n + 3
])
def test_from_tf_takes_cumulative_ops_over_the_dynamic_axis(fn):
    # their reduce-window's window is the row count: at the bound it covers the same rows
    exe = dynhlo.from_tf(fn, "f32[n,4]", bounds={"n": 8})
    rng = np.random.default_rng(6)
    for n in (0, 1, 5, 8):
        x = rng.standard_normal((n, 4)).astype(np.float32)
        np.testing.assert_allclose(exe(x), fn(tf.constant(x)).numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fn,shape", [
    (lambda x: x[:-1] * 2.0, "f32[n,5]"),                  # slice [0:n-1]
    (lambda x: x[1:] - x[:-1], "f32[n,5]"),                # a difference of neighbours
    (lambda x: tf.reduce_sum(x[1:-3], axis=0), "f32[n,5]"),  # empty below 4 rows
    (lambda x: x[:-1, :-2], "f32[n,m]"),                   # two sizes, each cut
    (lambda x: tf.gather(x, [0, 2, 1], axis=1), "f32[n,m]"),   # slices of every row
    (lambda x: x[:-1] + x[-1], "f32[n,5]"),                # the last row: a dynamic-slice
    (lambda x: tf.pad(x, [[1, 1], [0, 0]], mode="SYMMETRIC"), "f32[n,5]"),
])
def test_from_tf_takes_slices_that_follow_the_size(fn, shape):
    # at 0 rows x[-1] is an error in TensorFlow too
    _matches_tensorflow(fn, shape, (1, 2, 4, 8), seed=5, rtol=1e-6)


def _matches_tensorflow(fn, shape: str, sizes, seed: int, rtol: float) -> None:
    """from_tf(fn) against TensorFlow at each size of n (m, where named, is 4 of <= 6)."""
    bounds = {"n": 8, "m": 6} if "m" in shape else {"n": 8}
    exe = dynhlo.from_tf(fn, shape, bounds=bounds)
    rng = np.random.default_rng(seed)
    for n in sizes:
        dims = [n if d == "n" else 4 if d == "m" else int(d) for d in shape[4:-1].split(",")]
        x = rng.standard_normal(dims).astype(np.float32)
        got, want = np.asarray(exe(x)), fn(tf.constant(x)).numpy()
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-6)


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


def _mismatched(x):
    return x + tf.ones(3)


def test_from_tf_lowering_failure_names_what_failed():
    # autograph's errors begin `in user code:` and end with what failed
    with pytest.raises(dynhlo.UnsupportedError, match="ValueError: .*Dimensions must be equal"):
        dynhlo.from_tf(_mismatched, "f32[n,4]", bounds={"n": 4})


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float16, np.complex64])
def test_from_tf_keeps_the_values_of_large_constants(dtype):
    # TensorFlow's HLO text writes a folded constant of more than a few elements as `{...}`;
    # from_tf fills it in from the module's proto
    table = (np.arange(35).reshape(5, 7) % 11 - 4).astype(dtype)
    if np.dtype(dtype).kind == "c":
        table = table + 1j * table[::-1]

    def fn(x):
        return tf.matmul(x, tf.constant(table)) + tf.constant(table[1] * 2)

    letter = dict(zip("fic", "fsc", strict=True))[np.dtype(dtype).kind]
    exe = dynhlo.from_tf(fn, f"{letter}{np.dtype(dtype).itemsize * 8}[n,5]", bounds={"n": 6})
    rng = np.random.default_rng(1)
    for n in (1, 5):
        x = (rng.integers(-3, 4, (n, 5))).astype(dtype)
        want = fn(tf.constant(x)).numpy()
        np.testing.assert_array_equal(exe(x), want) if np.dtype(dtype).kind == "i" else \
            np.testing.assert_allclose(exe(x), want, rtol=1e-3)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, "bfloat16",
                                   np.complex64, np.complex128])
def test_from_tf_keeps_special_values_of_large_constants_bit_for_bit(dtype):
    # NaN, infinities and -0.0 of an elided constant (20 values: TF's text writes {...}), in
    # each part of a complex one (re + 1j*im made an imaginary inf a NaN real part)
    import ml_dtypes
    dtype = np.dtype(ml_dtypes.bfloat16 if dtype == "bfloat16" else dtype)
    special = np.tile([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -2.25, 1 / 3, 7, 1e-3], 2)
    table = special.astype(dtype)
    if dtype.kind == "c":
        table.imag = special[::-1]
    shape = "bf16[n,20]" if dtype == ml_dtypes.bfloat16 else \
        f"{dtype.kind}{dtype.itemsize * 8}[n,20]"

    def fn(x):
        return x + tf.constant(table)   # v + -0.0 is v, for every v

    exe = dynhlo.from_tf(fn, shape, bounds={"n": 3})
    x = np.full((2, 20), -0.0, dtype)
    got, want = np.asarray(exe(x)), fn(tf.constant(x)).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


def test_from_tf_ignores_metadata_that_differs_between_lowerings():
    # TensorFlow writes a source file into some lowerings' metadata and not others'
    fns = [lambda x: tf.nn.relu(x), lambda x: tf.math.atan(x), lambda x: tf.math.lgamma(x)]
    rng = np.random.default_rng(2)
    for fn in fns:
        exe = dynhlo.from_tf(fn, "f32[n,5]", bounds={"n": 8})
        for n in (1, 8):
            x = rng.uniform(0.5, 2, (n, 5)).astype(np.float32)
            np.testing.assert_allclose(exe(x), fn(x).numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fn,shape", [
    (lambda x: tf.ones_like(x) + tf.zeros_like(x), "f32[n,5]"),
    (lambda x: tf.nn.avg_pool1d(x[None], 2, 1, "SAME"), "f32[n,5]"),   # counts of ones
    (lambda x: tf.math.unsorted_segment_sum(x, tf.zeros(tf.shape(x)[0], tf.int32), 2),
     "f32[n,5]"),
    (lambda x: tf.fill(tf.shape(x), 2.0) * x[:, :1], "f32[n,m]"),
])
def test_from_tf_sizes_a_folded_shape_from_its_argument(fn, shape):
    # TensorFlow folds the shape into a broadcast of a constant: at one row it gave 8 rows
    # (then refused); the broadcast's dimension is n in every lowering, so it is set to the
    # argument dimension's size at run time
    _matches_tensorflow(fn, shape, (0, 1, 3, 8), seed=9, rtol=1e-5)


@pytest.mark.parametrize("fn,rtol", [
    (lambda x: x + tf.random.stateless_uniform(tf.shape(x), seed=[1, 2]), 0),
    (lambda x: tf.random.stateless_uniform(tf.shape(x), seed=[3, 4], minval=0, maxval=10,
                                           dtype=tf.int32), 0),
    (lambda x: tf.random.stateless_uniform(tf.shape(x), seed=[3, 4], dtype=tf.float64), 0),
    (lambda x: tf.random.stateless_uniform(tf.shape(x)[:1], seed=[5, 6]), 0),
    (lambda x: tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]), 0),
    # the same bits; XLA's erfinv, in another order of float operations: a last bit apart
    (lambda x: tf.random.stateless_truncated_normal(tf.shape(x), seed=[3, 4]), 2e-7),
])
def test_from_tf_random_numbers_of_the_size_match_tensorflows_xla(fn, rtol):
    # Philox draws element k from block k // 4 whatever the shape: the bits at n rows are the
    # first n rows of the bound's (tf/random.py). TensorFlow's eager kernels draw other
    # numbers than its XLA lowering: the answer is tf.function(jit_compile=True)'s
    exe = dynhlo.from_tf(fn, "f32[n,5]", bounds={"n": 8})
    jitted = tf.function(fn, jit_compile=True)
    for n in (0, 1, 5, 8):
        x = np.random.default_rng(n).standard_normal((n, 5)).astype(np.float32)
        got, want = np.asarray(exe(x)), jitted(tf.constant(x)).numpy()
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=rtol, atol=0, err_msg=f"n={n}")


@pytest.mark.parametrize("fn", [
    lambda x: x[:, 0] + tf.random.stateless_normal(tf.shape(x)[:1], seed=[3, 4]),
    lambda x: x[:, :1] + tf.random.stateless_normal(tf.shape(x[:, :1]), seed=[5, 6]),
])
def test_from_tf_normals_in_pairs_of_rows_match_tensorflows_xla(fn):
    # Box-Muller normals of Philox bits drawn in pairs of rows (tf/random.py's slice_pairs): the
    # same bits; XLA's log, sin and cos against NumPy's, a last bit or two apart (of cos near
    # 0 too: an absolute error)
    exe = dynhlo.from_tf(fn, "f32[n,5]", bounds={"n": 8})
    jitted = tf.function(fn, jit_compile=True)
    for n in range(9):
        x = np.random.default_rng(n).standard_normal((n, 5)).astype(np.float32)
        got, want = np.asarray(exe(x)), jitted(tf.constant(x)).numpy()
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=3e-7, atol=3e-7, err_msg=f"n={n}")


def _threefry(x):
    return x + tf.random.stateless_uniform(tf.shape(x), seed=[5, 6], alg="threefry")


@pytest.mark.parametrize("fn,shape", [
    (_threefry, "f32[n,3]"),     # XLA pairs rows, but columns at n = 1 (no even dimension)
    (_threefry, "f32[n,4]"),     # rows at even n, columns at odd n
    (_threefry, "f32[n]"),
    (_threefry, "f32[n,2,3]"),
    (lambda x: tf.random.stateless_uniform(tf.shape(x), seed=[3, 4], minval=0, maxval=1000,
                                           dtype=tf.int32, alg="threefry"), "f32[n,3]"),
    (lambda x: tf.random.stateless_uniform(tf.shape(x), seed=[3, 4], dtype=tf.float64,
                                           alg="threefry"), "f32[n,3]"),   # u64: one a block
    (lambda x: tf.random.stateless_uniform(tf.shape(x), seed=[3, 4], dtype=tf.float16,
                                           alg="threefry"), "f32[n,5]"),   # u16: low bits
])
def test_from_tf_threefry_numbers_of_the_size_match_tensorflows_xla(fn, shape):
    # ThreeFry puts a block's two u32 words side by side along the dimension XLA picks at
    # the actual shape: drawn per picked dimension, chosen at run time (tf/threefry.py)
    exe = dynhlo.from_tf(fn, shape, bounds={"n": 8})
    jitted = tf.function(fn, jit_compile=True)
    rest = [int(d) for d in shape[4:-1].split(",")[1:]]
    for n in range(9):
        x = np.random.default_rng(n).standard_normal([n] + rest).astype(np.float32)
        try:
            got = np.asarray(exe(x))
        except dynhlo.DynamicSizeError as exc:
            # TensorFlow's own kernel refuses no rows (XLA's takes them): so may dynhlo
            assert n == 0 and _refused(tf.function(fn), x) and "StatelessRandom" in str(exc)
            continue
        want = jitted(tf.constant(x)).numpy()
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want, err_msg=f"n={n}")


def _refused(fn, x) -> bool:
    try:
        fn(tf.constant(x))
    except tf.errors.InvalidArgumentError:
        return True
    return False


@pytest.mark.parametrize("fn,match", [
    (lambda x: tf.random.stateless_uniform([5, tf.shape(x)[0]], seed=[1, 2]),
     r"op 'StatelessRandomUniformV2' .*u32\[5,<=8\]\{1,0\} follow the size in dimensions "
     r"\[1\], not in the most major dimension \(0\)"),
    # pairs of uniforms: XLA pairs the columns of [1, 5] and [3, 5] (the longest dimension),
    # the rows of [2, 5]: only the rows are the bound's first rows
    (lambda x: tf.random.stateless_normal(tf.shape(x), seed=[1, 2]),
     r"normals of StatelessRandomNormalV2 .*\[n,5\]\) along another dimension than the rows "
     r"at n in \[1, 3\]"),
    (lambda x: tf.random.stateless_normal([tf.shape(x)[0], 4], seed=[1, 2]),   # at odd n
     "op 'StatelessRandomNormalV2' draws random numbers"),
])
def test_from_tf_refuses_random_numbers_whose_order_follows_the_shape(fn, match):
    with pytest.raises(dynhlo.UnsupportedError, match=match):
        dynhlo.from_tf(fn, "f32[n,5]", bounds={"n": 8})


@pytest.mark.parametrize("fn,shape,match", [
    # bincount folded over the zeros the function is lowered at: no parameter left
    (lambda x: tf.math.bincount(tf.abs(x[:, 0]), minlength=6, maxlength=6), "s32[n,5]",
     r"has 0 parameters for the function's 1 inputs"),
])
def test_from_tf_refuses_sizes_folded_into_constants(fn, shape, match):
    with pytest.raises(dynhlo.UnsupportedError, match=match):
        dynhlo.from_tf(fn, shape, bounds={"n": 8})


def test_moving_dims_refuses_operands_that_change_places():
    # names may differ between lowerings, but one name must stand for one instruction
    from dynhlo.frontends.lowering_diff import mark_bounded, moving_tokens
    base = ("%a.1 = f32[8]{0} parameter(0)\n%b.2 = f32[8]{0} parameter(1)\n"
            "%c.3 = f32[8]{0} subtract(f32[8]{0} %a.1, f32[8]{0} %b.2)")
    renamed = base.replace("8", "7").replace("%a.1", "%x.5").replace("%b.2", "%y.6")
    marked = mark_bounded(base, moving_tokens(base, renamed, "n", 8, 7)[0])
    assert marked == base.replace("[8]", "[<=8]")
    swapped = renamed.replace("%x.5, f32[7]{0} %y.6", "%y.6, f32[7]{0} %x.5")
    assert swapped != renamed
    with pytest.raises(dynhlo.UnsupportedError, match="'%a.1' stands for two instructions"):
        moving_tokens(base, swapped, "n", 8, 7)


def test_from_tf_compares_large_constants_as_arrays_not_tokens(monkeypatch):
    # the text diff sees `{...}`: a constant of 90000 values is compared as one array (as text
    # it cost seconds per million values, three lowerings over)
    import dynhlo.frontends.lowering_diff as diff
    longest = []
    tokens = diff.tokens
    monkeypatch.setattr(diff, "tokens", lambda text: longest.append(len(
        out := tokens(text))) or out)
    table = np.random.default_rng(3).standard_normal((300, 300)).astype(np.float32)
    exe = dynhlo.from_tf(lambda x: x @ tf.constant(table), "f32[n,300]", bounds={"n": 4})
    assert max(longest, default=0) < 2000
    x = np.random.default_rng(4).standard_normal((3, 300)).astype(np.float32)
    np.testing.assert_allclose(exe(x), x @ table, rtol=1e-4, atol=1e-4)


def test_mark_bounded_leaves_a_bound_tf2xla_wrote():
    # tf2xla's own `<=N` (tf.where's rows) moving with the size stays `<=N`, not `<=<=N`
    from dynhlo.frontends.lowering_diff import mark_bounded, moving_tokens
    base = "%w.1 = s32[<=8,2]{1,0} parameter(0)\n%x.2 = f32[8]{0} parameter(1)"
    other = base.replace("8", "7")
    marked = mark_bounded(base, moving_tokens(base, other, "n", 8, 7)[0])
    assert marked == "%w.1 = s32[<=8,2]{1,0} parameter(0)\n%x.2 = f32[<=8]{0} parameter(1)"


def test_from_tf_reads_the_first_n_rows_of_more():
    # the first n of 2n rows: XLA's slice of a dynamic dimension would keep all 2n; the
    # slice reads n from x at run time (frontends.tf.rewrites.size_rows)
    fn = lambda x: tf.concat([x * 2.0, x], 0)[:tf.shape(x)[0]] + 1.0  # noqa: E731
    exe = dynhlo.from_tf(fn, "f32[n,3]", bounds={"n": 8})
    for n in range(9):
        x = np.random.default_rng(n).standard_normal((n, 3)).astype(np.float32)
        np.testing.assert_array_equal(exe(x), fn(tf.constant(x)).numpy(), err_msg=f"n={n}")


def test_from_tf_slices_to_a_size_only_the_dims_of_that_size():
    # x[1::2] and x[2:] cut x's own rows at each size: XLA's dynamic slice rule gives its size
    def own(x):
        return x[1::2] * 2.0, tf.reduce_sum(x[2:], 0)

    exe = dynhlo.from_tf(own, "f32[n,5]", bounds={"n": 8})
    for n in (2, 5, 8):
        x = np.arange(n * 5, dtype=np.float32).reshape(n, 5)
        for got, want in zip(exe(x), own(tf.constant(x)), strict=True):
            np.testing.assert_allclose(got, want.numpy())
    # y[:n] cuts y's m rows at n: it ran as y[:m] (6 rows for n = 3, m = 6), silently
    with pytest.raises(dynhlo.UnsupportedError, match=r"'8' becomes '7'.*slice\("):
        dynhlo.from_tf(lambda x, y: y[:tf.shape(x)[0]] * 2.0, "f32[n,5]", "f32[m,5]",
                       bounds={"n": 8, "m": 8})


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


# --- tf.roll, mirror pads and tf.range over the dynamic axis (tf/rewrites.py, tf/folded.py) ---

def _positions(x, dtype=tf.float32):
    return tf.cast(tf.range(tf.shape(x)[0]), dtype)


def _sinusoids(x):
    """x plus a transformer's position encoding: TensorFlow folds the sines of the positions
    into one literal of n rows."""
    angle = _positions(x)[:, None] / tf.pow(100.0, tf.range(4, dtype=tf.float32) / 4)
    return x + tf.sin(angle)


def _causal_attention(x):
    n = tf.shape(x)[0]
    mask = 1.0 - tf.linalg.band_part(tf.ones((n, n)), -1, 0)   # folded into a literal
    return tf.nn.softmax(tf.matmul(x, x, transpose_b=True) - 1e9 * mask) @ x


@pytest.mark.parametrize("fn,shape", [
    (lambda x: tf.roll(x, 2, axis=0), "f32[n,5]"),
    (lambda x: tf.roll(x, -3, axis=0), "f32[n,5]"),
    (lambda x: tf.roll(x, 11, axis=0), "f32[n,5]"),                  # more than the bound
    (lambda x: tf.roll(x, [1, -1], axis=[0, 1]), "f32[n,5]"),
    (lambda x: tf.roll(x, 1, axis=1), "f32[n,m]"),
    (lambda x: tf.reduce_sum(tf.roll(x, 3, axis=0) * x, 0), "f32[n,5]"),
    (lambda x: tf.pad(x, [[0, 0], [1, 2]], mode="SYMMETRIC"), "f32[n,5]"),
    (lambda x: x * _positions(x)[:, None], "f32[n,5]"),
    (lambda x: x + tf.gather(tf.constant([[2.0], [3.0]]), tf.range(tf.shape(x)[0]) % 2),
     "f32[n,5]"),
    (lambda x: tf.cast(_positions(x, tf.int32)[:, None] >= _positions(x, tf.int32), tf.float32)
     @ x, "f32[n,5]"),                                                 # a causal mask
    (lambda x: tf.range(tf.shape(x)[0]) + tf.cast(x[:, 0], tf.int32), "f32[n,5]"),
    (lambda x: tf.cast(tf.sequence_mask(tf.abs(tf.cast(x[:, 0] * 3, tf.int32)),
                                        tf.shape(x)[0]), tf.float32), "f32[n,5]"),
    (_sinusoids, "f32[n,4]"),
    (lambda x: tf.linalg.band_part(tf.matmul(x, x, transpose_b=True), -1, 0), "f32[n,5]"),
    (_causal_attention, "f32[n,5]"),
])
def test_from_tf_rolls_pads_and_ranges_match_tensorflow(fn, shape):
    _matches_tensorflow(fn, shape, (0, 1, 2, 5, 8), seed=7, rtol=1e-5)


@pytest.mark.parametrize("pads,mode,shortest", [
    ([[2, 1], [1, 1]], "REFLECT", 3),          # TensorFlow: each pad < n
    ([[3, 0], [0, 0]], "REFLECT", 4),
    ([[0, 0], [2, 2]], "REFLECT", 1),          # even a pad of 0 needs a row to reflect
    ([[0, 2], [1, 0]], "SYMMETRIC", 2),        # each pad <= n
    ([[2, 1], [0, 0]], "SYMMETRIC", 2),
])
def test_from_tf_mirror_pads_match_or_refuse_as_tensorflow_does(pads, mode, shortest):
    def fn(x):
        return tf.pad(x, pads, mode=mode)

    _matches_tensorflow(fn, "f32[n,5]", range(shortest, 9), seed=8, rtol=0)
    exe = dynhlo.from_tf(fn, "f32[n,5]", bounds={"n": 8})
    for n in range(shortest):
        x = np.ones((n, 5), np.float32)
        with pytest.raises(tf.errors.InvalidArgumentError, match="paddings must be"):
            fn(tf.constant(x))
        # TensorFlow's op, the user's argument, the size and the least size; no instruction
        # (the MirrorPad's own rule where the lowerings are compared; the least size
        # TensorFlow lowers at where tf2xla's dynamic sizes are taken)
        with pytest.raises(dynhlo.ArgumentError, match=rf"^TensorFlow's (MirrorPad|op) "
                           rf"'MirrorPad' .* of argument 0 'x' \(size 'n'\),? (which has )?(of )?"
                           rf"{n}: it needs at least {shortest} ") as info:
            exe(x)
        assert "dynhlo" not in str(info.value)


def test_from_tf_range_of_a_bound_whose_literal_is_elided():
    # 40 positions: TensorFlow's text writes `{...}` at the bound, the values at 21
    fn = lambda x: x * _positions(x)[:, None]  # noqa: E731
    exe = dynhlo.from_tf(fn, "f32[n,3]", bounds={"n": 40})
    for n in (0, 1, 21, 40):
        x = np.random.default_rng(n).standard_normal((n, 3)).astype(np.float32)
        np.testing.assert_allclose(exe(x), fn(tf.constant(x)).numpy(), rtol=1e-6)


@pytest.mark.parametrize("fn,match", [
    (lambda x: x + tf.random.stateless_normal(tf.shape(x), seed=[1, 2]),
     "normals of StatelessRandomNormalV2 "),
    (lambda x: x + tf.random.uniform(tf.shape(x), seed=1), r"baked.*%RandomUniform"),
    (lambda x: x * tf.cast(tf.range(tf.shape(x)[0] - 1, -1, -1), x.dtype)[:, None],
     r"structure changes.*first in: %\S+ = f32\[8,1\]\{1,0\} constant\(\{ \{7\}, \{6\}"),
])
def test_from_tf_refusals_name_the_op(fn, match):
    with pytest.raises(dynhlo.UnsupportedError, match=match):
        dynhlo.from_tf(fn, "f32[n,5]", bounds={"n": 8})


# --- ranges of n + c rows or of a stride, and loops over the dynamic axis ---

@pytest.mark.parametrize("fn", [
    lambda x: tf.range(tf.shape(x)[0] + 1),                  # n + 1 values
    lambda x: tf.range(0, tf.shape(x)[0], 2),                # ceil(n / 2)
    lambda x: tf.range(2, tf.shape(x)[0] + 3, 3),            # ceil((n + 1) / 3)
    lambda x: tf.cast(tf.range(tf.shape(x)[0] + 1), tf.float32) * 0.5,
    lambda x: tf.gather(x, tf.range(0, tf.shape(x)[0], 2)),  # the even rows
])
def test_from_tf_ranges_of_a_length_that_follows_the_size(fn):
    # TensorFlow folds each into a literal of the bound's length; the length at n is
    # computed from the size at run time (tf/lengths.py), fitted to TensorFlow's lengths
    exe = dynhlo.from_tf(fn, "f32[n,3]", bounds={"n": 8})
    for n in (0, 1, 2, 5, 7, 8):
        x = np.random.default_rng(n).standard_normal((n, 3)).astype(np.float32)
        got, want = np.asarray(exe(x)), fn(tf.constant(x)).numpy()
        assert got.shape == want.shape and got.dtype == want.dtype, n
        np.testing.assert_array_equal(got, want, err_msg=f"n={n}")


@pytest.mark.parametrize("fn,least", [
    (lambda x: tf.range(1, tf.shape(x)[0]), 1),                   # n - 1 values
    (lambda x: tf.range(0, tf.shape(x)[0] - 3, 2), 3),            # ceil((n - 3) / 2)
    (lambda x: x[1:] * tf.cast(tf.range(1, tf.shape(x)[0]), x.dtype)[:, None], 1),
    (lambda x: tf.ones(tf.shape(x)[0] - 2), 2),                   # Fill of n - 2
])
def test_from_tf_range_that_tensorflow_refuses_at_small_sizes(fn, least):
    # TensorFlow refuses a range whose start passes its limit (Range: start <= limit when
    # delta > 0), and a shape of negative size (Fill), eager and in XLA alike; dynhlo
    # refuses the same sizes before running, also once saved and loaded
    exe = dynhlo.from_tf(fn, "f32[n,3]", bounds={"n": 8})
    loaded = dynhlo.deserialize(exe.serialize())
    for n in range(9):
        x = np.random.default_rng(n).standard_normal((n, 3)).astype(np.float32)
        if n < least:
            with pytest.raises((tf.errors.InvalidArgumentError, ValueError),
                               match="start <= limit|must be >= 0|used for shape: -"):
                tf.function(fn, jit_compile=True)(tf.constant(x))
            with pytest.raises(tf.errors.InvalidArgumentError):
                fn(tf.constant(x))
            for run in (exe, loaded):
                with pytest.raises(dynhlo.ArgumentError, match=rf"of argument 0 'x'(, which "
                                   rf"has| \(size 'n'\) of) {n}: it needs at least {least} "):
                    run(x)
            continue
        want = fn(tf.constant(x)).numpy()
        for run in (exe, loaded):
            got = np.asarray(run(x))
            assert got.shape == want.shape and got.dtype == want.dtype, n
            np.testing.assert_array_equal(got, want, err_msg=f"n={n}")


def _while_sum(x):
    n = tf.shape(x)[0]
    return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + x[i] * x[i]),
                         [0, tf.zeros(3)])[1]


@pytest.mark.parametrize("fn,empty", [
    (lambda x: tf.scan(lambda a, r: a + r, x), None),                  # x[0], then n - 1 steps
    (lambda x: tf.scan(lambda a, r: a * 0.5 + r, x, reverse=True), None),   # from n - 2
    (lambda x: tf.scan(lambda a, r: a + r, x, initializer=tf.ones(3)), "eager"),
    (lambda x: tf.foldl(lambda a, r: a + r * r, x, initializer=tf.zeros(3)), "eager"),
    (lambda x: tf.map_fn(lambda r: r * 2.0, x), (0, 3)),
    (lambda x: tf.map_fn(lambda r: tf.reduce_sum(r), x), "eager"),
    (_while_sum, "eager"),
])
def test_from_tf_loops_over_the_dynamic_axis_match_tensorflow(fn, empty):
    # the loop's condition compares its counter with s32[] constant(n): it reads the size of
    # an array of the loop's state (tf/sizes.py), so the loop runs n times at every size
    exe = dynhlo.from_tf(fn, "f32[n,3]", bounds={"n": 8})
    for n in (1, 2, 5, 8):
        x = np.random.default_rng(n).standard_normal((n, 3)).astype(np.float32)
        got, want = np.asarray(exe(x)), fn(tf.constant(x)).numpy()
        assert got.shape == want.shape, n
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=f"n={n}")
    x = np.zeros((0, 3), np.float32)
    if empty is None:   # x[0] of no rows: TensorFlow refuses, and so does dynhlo
        with pytest.raises(tf.errors.OutOfRangeError):
            fn(tf.constant(x))
        with pytest.raises(dynhlo.DynamicSizeError, match="TensorListGetItem"):
            exe(x)
    elif empty == "eager":
        np.testing.assert_array_equal(exe(x), fn(tf.constant(x)).numpy())
    else:   # TensorFlow's tf.function gives rows of no rows; its XLA lowering refuses them
        assert np.asarray(exe(x)).shape == empty == tf.function(fn)(tf.constant(x)).shape
        with pytest.raises(tf.errors.InvalidArgumentError, match="TensorListGetItem"):
            tf.function(fn, jit_compile=True)(tf.constant(x))


def test_from_tf_map_fn_of_no_rows_is_tf_functions_shape():
    # eager map_fn of no rows stacks an empty TensorArray: f32[0] where fn_output_signature
    # leaves the rows' shape unknown (the default), f32[0, 3] where it gives it. A lowering
    # records no such thing (TensorFlow's XLA programs have rows of 3 at every size, and
    # refuse no rows), so dynhlo's answer is tf.function's, (0, 3) for both
    x = tf.zeros((0, 3))
    default = lambda x: tf.map_fn(lambda r: r * 2.0, x)  # noqa: E731
    signed = lambda x: tf.map_fn(lambda r: r * 2.0, x,  # noqa: E731
                                 fn_output_signature=tf.TensorSpec([3], tf.float32))
    assert default(x).shape == (0,) and signed(x).shape == (0, 3)
    exes = [dynhlo.from_tf(fn, "f32[n,3]", bounds={"n": 8}) for fn in (default, signed)]
    for fn, exe in zip((default, signed), exes, strict=True):
        got = np.asarray(exe(np.zeros((0, 3), np.float32)))
        assert tf.function(fn)(x).shape == (0, 3) == got.shape


@pytest.mark.parametrize("fn,op,least", [
    (lambda x: tf.math.top_k(x, k=5), "TopKV2", 5),
    (lambda x: tf.nn.conv1d(x[None, :, None], tf.ones((3, 1, 2)), 1, "VALID"),
     r"conv1d \(Conv2D\)", 3),
])
def test_from_tf_refuses_per_call_the_sizes_tensorflow_refuses(fn, op, least):
    # tf.function refuses these below `least` (top_k needs k values; a VALID window its
    # extent): a DynamicSizeError naming the op and the size, never made-up values
    exe = dynhlo.from_tf(fn, "f32[n]", bounds={"n": 8})
    for n in range(9):
        x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
        if n < least:
            with pytest.raises(ValueError):
                tf.function(fn)(tf.constant(x))
            with pytest.raises(dynhlo.DynamicSizeError, match=rf"^TensorFlow's op '{op}' .* "
                               rf"of {n}: it needs at least {least} "):
                exe(x)
            continue
        for got, want in zip(tf.nest.flatten(exe(x)), tf.nest.flatten(fn(tf.constant(x))),
                             strict=True):
            np.testing.assert_allclose(got, want.numpy(), rtol=1e-6, atol=1e-6)


def _branch_in_python(x):
    if x.shape[0] > 2:
        return x * 2.0
    return x + 1.0


@pytest.mark.parametrize("fn,line", [
    (_branch_in_python, r"return x \* 2\.0"),
])
def test_from_tf_refuses_a_branch_on_a_small_size_naming_its_line(fn, line):
    # TensorFlow folds the branch at each static size: the bound's program would double
    # at n = 1 and 2 where TensorFlow adds 1
    with pytest.raises(dynhlo.UnsupportedError, match=rf"at n = 1 TensorFlow's program gives "
                       rf"other outputs .* from .*frontends/test_tf\.py:\d+: .*{line}"):
        dynhlo.from_tf(fn, "f32[n,3]", bounds={"n": 8})


def test_from_tf_freezes_captured_variables_and_takes_keras_models():
    # captures were extra parameters of TensorFlow's program, refused as arguments folded
    # away; they are constants of their values now
    keras = pytest.importorskip("keras")
    w = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
    b = tf.constant([1.0, 2.0, 3.0])
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"),
                              keras.layers.LayerNormalization(), keras.layers.Dropout(0.5),
                              keras.layers.Dense(2)])
    cases = [(lambda x: tf.matmul(x, w) + b, lambda x: tf.matmul(x, w) + b),
             (model, lambda x: model(x, training=False))]
    for fn, want in cases:
        exe = dynhlo.from_tf(fn, "f32[n,4]", bounds={"n": 8})
        assert len(exe.module.entry.parameters) == 1
        for n in (1, 2, 5, 8):
            x = np.random.default_rng(n).standard_normal((n, 4)).astype(np.float32)
            np.testing.assert_allclose(exe(x), want(x).numpy(), rtol=1e-5, atol=1e-5)
