"""from_jax with sizes that are functions of the sizes: a length computed by dividing by a
size (`arange(0, 10, b)`, a slice with step `b`), a window of run-time size over a static
dimension, and an argument that jax.export leaves out because fn never reads it. Expected
values are NumPy's by hand."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp, lax = jax.numpy, jax.lax

import dynhlo  # noqa: E402
from dynhlo.frontends.jax import from_jax  # noqa: E402


def test_a_length_divided_by_a_size_has_a_bound():
    """ceil(10 / b) is bounded because b >= 1 (JAX's least size): 10 elements at b = 1."""
    exe = from_jax(lambda x: jnp.arange(0, 10, x.shape[0]) + x.sum().astype(jnp.int32),
                   "f32[b]", bounds={"b": 6})
    for b in range(1, 7):
        x = np.zeros(b, np.float32)
        np.testing.assert_array_equal(exe(x), np.arange(0, 10, b))


def test_a_slice_with_a_step_of_a_size():
    exe = from_jax(lambda x: x[::x.shape[1]], "f32[c,b]", bounds={"c": 16, "b": 8})
    rng = np.random.default_rng(1)
    for c, b in ((1, 1), (16, 8), (13, 3), (5, 8)):
        x = rng.standard_normal((c, b)).astype(np.float32)
        np.testing.assert_array_equal(exe(x), x[::b])


def test_a_window_of_run_time_size_over_a_static_dimension():
    """reduce_window (2, b) over f32[b, 8]: the static 8 becomes 9 - b."""
    def fn(x):
        return lax.reduce_window(x, np.float32(np.inf), lax.min, (2, x.shape[0]), (1, 1),
                                 "VALID")

    exe = from_jax(fn, "f32[b,8]", bounds={"b": 5}, constraints=["b >= 2"])
    rng = np.random.default_rng(2)
    for b in (2, 3, 5):
        x = rng.standard_normal((b, 8)).astype(np.float32)
        want = np.array([[x[i:i + 2, j:j + b].min() for j in range(9 - b)]
                         for i in range(b - 1)], np.float32)
        np.testing.assert_array_equal(exe(x), want)


def test_an_argument_fn_never_reads_is_left_out():
    """With static shapes jax.export drops `y` (only its shape is read, as jax.random.choice
    reads its `shape`): the call still takes it, checks its shape against its spec and
    names the paths."""
    exe = from_jax(lambda y, x: x * 2 + y.shape[0], "f32[5,2]", "f32[3]")
    assert len(exe.module.entry.parameters) == 1
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(exe(np.zeros((5, 2), np.float32), x), x * 2 + 5)
    with pytest.raises(dynhlo.ArgumentError, match=r"y dimension 1 is static 2"):
        exe(np.zeros((5, 3), np.float32), x)
    with pytest.raises(dynhlo.ArgumentError, match=r"^x dimension 0 is static 3"):
        exe(np.zeros((5, 2), np.float32), np.zeros(4, np.float32))
