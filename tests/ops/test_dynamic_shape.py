"""StableHLO's dynamic-shape ops whose sizes are computed from the argument sizes, through
from_jax and against jax.jit at sizes 1, middle and the bound, one executable for all:
dynamic_top_k (lax.top_k with k from a size), dynamic_rng_bit_generator (rng_bit_generator
and unsafe_rbg keys over a variable shape, bit for bit), dynamic_pad (amounts from a size,
negative and interior ones included), ApproxTopK and dynamic_approx_top_k (approx_max_k and
approx_min_k, exact off TPU), a variadic dynamic_reduce_window and a slice whose stride is
computed from the size. Then the run-time errors of the three custom calls in HLO text.
The GPU backend runs the same programs in tests/backends/gpu/library/test_dynamic_shape.py.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo import stats
from dynhlo.errors import DynamicSizeError, UnsupportedError

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

BOUND = 9
SIZES = (1, 4, BOUND)


def _key(seed: int, words: int = 2):
    return np.arange(seed, seed + words, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)


def _rows(n: int, seed: int = 0, cols: int = 3) -> np.ndarray:
    x = np.random.default_rng(seed + n).standard_normal((n, cols)).astype(np.float32)
    x[0, :] = 0.5  # ties: the lower index first, as XLA's TopK
    return x


def _same(got, want):
    got, want = jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(want)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        w = np.asarray(w)
        assert np.asarray(g).dtype == w.dtype and np.asarray(g).shape == w.shape
        np.testing.assert_array_equal(np.asarray(g), w)


def check(fn, specs, make, sizes=SIZES, backend="cpu", **kw):
    """fn through from_jax against jax.jit at each size, with no compile between calls;
    `make(n)` gives the arguments at size n. Returns the executable."""
    exe = dynhlo.from_jax(fn, *specs, bounds={"n": BOUND}, backend=backend, **kw)
    before = stats.snapshot().get("compile", 0)
    for n in sizes:
        args = make(n)
        _same(exe(*args), jax.jit(fn)(*args))
    assert stats.snapshot().get("compile", 0) == before
    return exe


# --- dynamic_top_k ----------------------------------------------------------------------------

TOP_K = {
    "k = n - 1 over the rows' last dimension": lambda x: lax.top_k(x.T, x.shape[0] - 1),
    "k = n over a vector": lambda x: lax.top_k(x[:, 0], x.shape[0]),
    "k = (n + 1) // 2": lambda x: lax.top_k(x.T, (x.shape[0] + 1) // 2),
}


@pytest.mark.parametrize("name", TOP_K)
def test_top_k_with_k_from_a_size_matches_jit(name):
    check(TOP_K[name], ["f32[n,3]"], lambda n: [_rows(n)])


def test_top_k_with_k_the_size_of_another_argument_matches_jit():
    check(lambda x, y: lax.top_k(x, y.shape[0]), ["f32[2,n]", "f32[k]"],
          lambda n: [np.random.default_rng(n).standard_normal((2, n)).astype(np.float32),
                     np.zeros(max(n // 2, 1), np.float32)], constraints=["k <= n"])


# --- dynamic_rng_bit_generator ----------------------------------------------------------------

ALGORITHMS = {"default": lax.RandomAlgorithm.RNG_DEFAULT,
              "three_fry": lax.RandomAlgorithm.RNG_THREE_FRY,
              "philox": lax.RandomAlgorithm.RNG_PHILOX}


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("dtype", [np.uint32, np.uint16, np.uint8])  # u64 needs x64
@pytest.mark.parametrize("layout", ["n,3", "3,n", "2,n,2"])
def test_rng_bit_generator_of_a_variable_shape_is_jits_bits_and_state(algorithm, dtype, layout):
    """The bits and the new state at each size are XLA's at that shape (not cut from the
    bound's): Threefry halves the shape along its first even dimension, so they depend on
    the whole shape."""
    def fn(key, x):
        return lax.rng_bit_generator(key, x.shape, dtype=dtype,
                                     algorithm=ALGORITHMS[algorithm])

    def make(n):
        shape = tuple(n if d == "n" else int(d) for d in layout.split(","))
        return [_key(n).view(np.uint32), np.zeros(shape, np.float32)]
    check(fn, ["u32[4]", f"f32[{layout}]"], make)


def test_unsafe_rbg_uniform_and_split_over_a_variable_shape_match_jit():
    def fn(x):
        key = jax.random.key(7, impl="unsafe_rbg")
        first, second = jax.random.split(key)
        return (jax.random.uniform(first, x.shape) + x,
                jax.random.bits(second, (x.shape[0] * 2,)))
    check(fn, ["f32[n,3]"], lambda n: [_rows(n)])


# --- dynamic_pad --------------------------------------------------------------------------

PADS = {
    "edges of n": lambda x: lax.pad(x, np.float32(-1), ((x.shape[0], 2, 0), (0, 0, 0))),
    "interior n - 1": lambda x: lax.pad(x, np.float32(7), ((1, 0, x.shape[0] - 1), (0, 1, 1))),
    "negative low 1 - n": lambda x: lax.pad(x, np.float32(3),
                                            ((1 - x.shape[0], x.shape[0], 1), (0, 0, 0))),
    "jnp.pad by n": lambda x: jnp.pad(x, ((0, x.shape[0]), (x.shape[0] // 2, 1))),
}


@pytest.mark.parametrize("name", PADS)
def test_pad_with_amounts_from_the_size_matches_jit(name):
    check(PADS[name], ["f32[n,3]"], lambda n: [_rows(n)])


# --- ApproxTopK ---------------------------------------------------------------------------

def _scores(n: int) -> np.ndarray:
    return np.random.default_rng(n).standard_normal((2, n, 5)).astype(np.float32)


@pytest.mark.parametrize("k", ["3", "k"])
@pytest.mark.parametrize("fn", [lax.approx_max_k, lax.approx_min_k])
def test_approx_top_k_over_a_variable_dimension_is_the_exact_top_k_as_on_cpu(k, fn):
    """Off TPU JAX's ApproxTopK is the exact one (XLA's ApproxTopKFallback: a sort by the
    comparator, then the first k), ties and order included."""
    sizes = (3, 5, BOUND)   # k <= n
    check(lambda x, y: fn(x, y.shape[0], reduction_dimension=1), ["f32[2,n,5]", f"f32[{k}]"],
          lambda n: [_scores(n), np.zeros(3 if k == "3" else n - 1, np.float32)],
          sizes=sizes, constraints=[f"{k} <= n", "3 <= n"])


def test_approx_top_k_without_aggregation_is_the_whole_sorted_dimension():
    """(JAX exports aggregate_to_topk=False only over a static reduction dimension.)"""
    check(lambda x: lax.approx_max_k(x, 2, reduction_dimension=1, aggregate_to_topk=False),
          ["f32[n,6,5]"],
          lambda n: [np.random.default_rng(n).standard_normal((n, 6, 5)).astype(np.float32)])


def test_approx_top_k_of_one_is_the_maximum():
    check(lambda x: lax.approx_max_k(x, 1, reduction_dimension=2), ["f32[2,n,5]"],
          lambda n: [_scores(n)])


# --- a variadic dynamic_reduce_window and a stride from the size ---------------------------

def test_a_variadic_reduce_window_whose_window_is_a_size_matches_jit():
    """The value and the index of each window's maximum (two inputs, two initial values)."""
    def fn(x):
        idx = lax.broadcasted_iota(np.int32, x.shape, 0)

        def argmax(a, b):
            take = a[0] >= b[0]
            return lax.select(take, a[0], b[0]), lax.select(take, a[1], b[1])
        return lax.reduce_window((x, idx), (np.float32(-np.inf), np.int32(-1)), argmax,
                                 (x.shape[0] // 2 + 1, 1), (1, 1), "VALID")
    check(fn, ["f32[n,3]"], lambda n: [_rows(n)])


def test_a_slice_whose_stride_is_computed_from_the_size_matches_jit():
    check(lambda x: lax.slice_in_dim(x, 1, x.shape[0], 1 + x.shape[0] // 3, 0), ["f32[n,3]"],
          lambda n: [_rows(n)], sizes=(1, 2, 4, 7, BOUND))


_STRIDE_FROM_SIZE = """func.func public @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %c4 = stablehlo.constant dense<4> : tensor<i32>
  %q = stablehlo.divide %n, %c4 : tensor<i32>
  %step = stablehlo.reshape %q : (tensor<i32>) -> tensor<1xi32>
  %lim = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %zero = stablehlo.constant dense<0> : tensor<1xi32>
  %y = stablehlo.real_dynamic_slice %x, %zero, %lim, %step
    : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}"""


def test_a_stride_from_the_size_that_may_be_zero_is_refused_naming_it():
    """n / 4 is 0 for n < 4: refused at import, naming the op, the dimension and the value."""
    with pytest.raises(UnsupportedError, match="real_dynamic_slice: dimension 0 needs a "
                                               "positive stride.*may be 0"):
        dynhlo.parse_stablehlo(_STRIDE_FROM_SIZE, bounds={0: {0: BOUND}})
    # the same slice with the stride n / 4 + 1, at least 1 at every size: imported and run
    text = _STRIDE_FROM_SIZE.replace("%step = stablehlo.reshape %q", "%one = stablehlo.constant "
                                     "dense<1> : tensor<i32>\n  %q1 = stablehlo.add %q, %one : "
                                     "tensor<i32>\n  %step = stablehlo.reshape %q1")
    exe = dynhlo.compile(dynhlo.parse_stablehlo(text, bounds={0: {0: BOUND}}))
    for n in (0, *SIZES):
        x = np.arange(n, dtype=np.float32)
        np.testing.assert_array_equal(exe(x), x[::n // 4 + 1])


# --- run-time errors, in HLO text ------------------------------------------------------------

_TOP_K_HLO = """HloModule m
ENTRY e {
  x = f32[<=8] parameter(0)
  k = s32[] parameter(1)
  ROOT t = (f32[<=8], s32[<=8]) custom-call(x, k), custom_call_target="stablehlo.dynamic_top_k"
}"""

_RNG_HLO = """HloModule m
ENTRY e {
  s = u64[2] parameter(0)
  shape = s32[2] parameter(1)
  ROOT r = (u64[2], u32[<=8,3]) custom-call(s, shape),
    custom_call_target="stablehlo.dynamic_rng_bit_generator", backend_config="rng_three_fry"
}"""

_PAD_HLO = """HloModule m
ENTRY e {
  x = f32[<=4] parameter(0)
  v = f32[] constant(0)
  lo = s32[1] parameter(1)
  hi = s32[1] constant({0})
  in = s32[1] constant({0})
  ROOT p = f32[<=8] custom-call(x, v, lo, hi, in), custom_call_target="stablehlo.dynamic_pad"
}"""


def test_hlo_text_dynamic_top_k_runs_and_refuses_k_past_the_size():
    exe = dynhlo.compile(_TOP_K_HLO)
    x = np.array([3, 1, 4, 1, 5], np.float32)
    values, indices = exe(x, np.int32(3))
    np.testing.assert_array_equal(values, [5, 4, 3])
    np.testing.assert_array_equal(indices, [4, 2, 0])
    with pytest.raises(DynamicSizeError, match="'t'.*k=6 over a last dimension of actual "
                                               "size 5"):
        exe(x, np.int32(6))


def test_hlo_text_dynamic_rng_bit_generator_is_rng_bit_generator_at_the_shape():
    """The bits at [5, 3] are those of a static rng-bit-generator of that shape (the CPU's
    XLA-exact generator), and a shape past the bound is a DynamicSizeError."""
    exe = dynhlo.compile(_RNG_HLO)
    static = dynhlo.compile("""HloModule m
ENTRY e {
  s = u64[2] parameter(0)
  ROOT r = (u64[2], u32[5,3]) rng-bit-generator(s), algorithm=rng_three_fry
}""")
    key = _key(3)
    _same(exe(key, np.array([5, 3], np.int32)), static(key))
    with pytest.raises(DynamicSizeError, match="'r'.*output shape \\[9, 3\\] does not fit"):
        exe(key, np.array([9, 3], np.int32))


def test_hlo_text_dynamic_pad_runs_and_refuses_a_size_past_the_bound():
    exe = dynhlo.compile(_PAD_HLO)
    np.testing.assert_array_equal(exe(np.array([1, 2, 3], np.float32), np.array([2], np.int32)),
                                  [0, 0, 1, 2, 3])
    np.testing.assert_array_equal(exe(np.array([1, 2, 3], np.float32),
                                      np.array([-2], np.int32)), [3])
    with pytest.raises(DynamicSizeError, match="'p'.*gives size 9.*bound 8"):
        exe(np.array([1, 2, 3, 4], np.float32), np.array([5], np.int32))
