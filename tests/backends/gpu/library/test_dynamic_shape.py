"""The GPU backend (Triton's interpreter without a device) on StableHLO's dynamic-shape ops
whose sizes are computed from the argument sizes (tests/ops/test_dynamic_shape.py): dynamic_top_k,
dynamic_rng_bit_generator and dynamic_pad run on its host tier, ApproxTopK is a sort, a
variadic dynamic_reduce_window and a stride from the size are its own ops; each against
jax.jit at sizes 1, middle and the bound, one executable for every size."""

import numpy as np
import pytest

from tests.support.gpucheck import GPU  # noqa: F401  (first: picks the interpreter before triton loads)

from tests.ops.test_dynamic_shape import PADS, TOP_K, _key, _rows, _scores, check  # noqa: E402

jax = pytest.importorskip("jax")
from jax import lax  # noqa: E402

GPU_OPTIONS = {k: v for k, v in GPU.items() if k != "backend"}


def test_top_k_with_k_from_a_size_on_the_gpu():
    check(TOP_K["k = n - 1 over the rows' last dimension"], ["f32[n,3]"],
          lambda n: [_rows(n)], backend="gpu", **GPU_OPTIONS)


@pytest.mark.parametrize("algorithm", [lax.RandomAlgorithm.RNG_THREE_FRY,
                                       lax.RandomAlgorithm.RNG_PHILOX])
def test_rng_bit_generator_of_a_variable_shape_on_the_gpu(algorithm):
    check(lambda key, x: lax.rng_bit_generator(key, x.shape, algorithm=algorithm),
          ["u32[4]", "f32[3,n]"],
          lambda n: [_key(n).view(np.uint32), np.zeros((3, n), np.float32)],
          backend="gpu", **GPU_OPTIONS)


def test_pad_with_amounts_from_the_size_on_the_gpu():
    check(PADS["interior n - 1"], ["f32[n,3]"], lambda n: [_rows(n)], backend="gpu",
          **GPU_OPTIONS)


def test_approx_top_k_with_k_from_a_size_on_the_gpu():
    check(lambda x, y: lax.approx_max_k(x, y.shape[0], reduction_dimension=1),
          ["f32[2,n,5]", "f32[k]"],
          lambda n: [_scores(n), np.zeros(n - 1, np.float32)], sizes=(3, 5, 9),
          constraints=["k <= n", "3 <= n"], backend="gpu", **GPU_OPTIONS)


def test_a_variadic_reduce_window_and_a_stride_from_the_size_on_the_gpu():
    def fn(x):
        idx = lax.broadcasted_iota(np.int32, x.shape, 0)

        def argmax(a, b):
            take = a[0] >= b[0]
            return lax.select(take, a[0], b[0]), lax.select(take, a[1], b[1])
        best = lax.reduce_window((x, idx), (np.float32(-np.inf), np.int32(-1)), argmax,
                                 (x.shape[0] // 2 + 1, 1), (1, 1), "VALID")
        return best, lax.slice_in_dim(x, 1, x.shape[0], 1 + x.shape[0] // 3, 0)
    check(fn, ["f32[n,3]"], lambda n: [_rows(n)], backend="gpu", **GPU_OPTIONS)
