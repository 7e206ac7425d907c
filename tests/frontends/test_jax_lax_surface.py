"""JAX's op surface with a dynamic leading dimension: each function is lowered by JAX at the
bound B=7, the leading dimension of every B-sized shape is marked `<=7` (what JAX's bounded
lowering writes), and the module runs at sizes 0, 1, a middle size and the bound against JAX
itself on the first n rows (the independent answer)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import dynhlo

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
lax = pytest.importorskip("jax.lax")

B = 7
SIZES = (0, 1, 4, B)


def _rows(n, cols=3, dtype=np.float32, seed=0):
    r = np.random.default_rng(seed)
    return (r.standard_normal((n, cols)) * 3).astype(dtype)


def _avg_pool(x):
    window = (3, 1)
    sums = lax.reduce_window(x, 0.0, lax.add, window, (1, 1), "SAME")
    counts = lax.reduce_window(jnp.ones_like(x), 0.0, lax.add, window, (1, 1), "SAME")
    return sums / counts


CASES = {
    "argmin_axis1": (lambda x: jnp.argmin(x, axis=1), _rows),
    "argmax_axis1": (lambda x: jnp.argmax(x, axis=1), _rows),
    "cumsum": (lambda x: jnp.cumsum(x, axis=0), _rows),
    "cummax": (lambda x: lax.cummax(x, axis=0), _rows),
    "copysign": (lambda x: jnp.copysign(x, -1.0), _rows),   # signbit of a scalar
    "sort": (lambda x: jnp.sort(x, axis=0), _rows),
    "top_k": (lambda x: lax.top_k(x, 2), _rows),
    "softmax_keepdims": (lambda x: jax.nn.softmax(x, axis=1), _rows),
    "avg_pool": (_avg_pool, _rows),
    "igamma": (lambda x: lax.igamma(jnp.abs(x) + 0.5, jnp.abs(x[:, ::-1]) + 0.1), _rows),
    "igammac": (lambda x: lax.igammac(jnp.abs(x) + 0.5, jnp.abs(x[:, ::-1]) + 0.1), _rows),
    "mulhi": (lambda x: lax.mul_hi(x, x[:, ::-1] * 3) if hasattr(lax, "mul_hi")
              else lax.mulhi(x, x[:, ::-1] * 3),
              lambda n: (_rows(n) * 1e8).astype(np.int32)),
    "dot_general": (lambda x: x @ x.T.sum(axis=1, keepdims=True), _rows),
    "integer_pow_u8": (lambda x: x * x + x, lambda n: _rows(n, dtype=np.uint8)),
}


# igamma's loops carry broadcast constants with x-sized values: XLA holds the constants static
# (HandleWhile), so each is cut to x's size where they meet; every size is checked for them.
ALL_SIZES = {"igamma": tuple(range(B + 1)), "igammac": tuple(range(B + 1))}


def _mark_dynamic(text: str) -> str:
    """Every dimension of size B that starts a shape becomes `<=B`."""
    return re.sub(rf"(\b[a-z][a-z0-9]*)\[{B}([,\]])", rf"\1[<={B}\2", text)


@pytest.mark.parametrize("name", sorted(CASES))
def test_lax_op_at_sizes_0_1_middle_bound(name):
    fn, make = CASES[name]
    text = _mark_dynamic(jax.jit(fn).lower(make(B)).as_text(dialect="hlo"))
    exe = dynhlo.compile(text)
    for n in ALL_SIZES.get(name, SIZES):
        x = make(n)
        expected = jax.tree_util.tree_leaves(fn(x))
        got = exe(x)
        got = list(got) if isinstance(got, tuple) else [got]
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            e = np.asarray(e)
            assert np.shape(g) == e.shape, (name, n)
            np.testing.assert_allclose(np.asarray(g), e, rtol=2e-5, atol=1e-5,
                                       err_msg=f"{name} at n={n}")


STACKED = {
    "scan": lambda x: lax.scan(lambda c, r: (c + r, c * 2 + r), jnp.zeros(3), x),
    "fori_loop": lambda x: _fori_rows(jnp.asarray(x)),
}


def _fori_rows(x):
    return lax.fori_loop(0, x.shape[0], lambda i, o: o.at[i].set(x[i] * 2), jnp.zeros_like(x))


@pytest.mark.parametrize("name", sorted(STACKED))
def test_stacking_loop_lowered_at_the_bound_runs_to_the_bound_below_it(name):
    """jax.jit's lowering bakes the trip count (the bound 7) into the loop, which then reads
    row i of x for every i < 7: below the bound XLA reads padding, and so does dynhlo (zeros),
    so the stacked result has the bound's 7 rows, the first n JAX's; padding_reads="error"
    refuses and points at from_jax (tests/frontends/test_jax.py's "stacked" family: the actual
    length comes back)."""
    fn = STACKED[name]
    text = _mark_dynamic(jax.jit(fn).lower(_rows(B)).as_text(dialect="hlo"))
    exe, strict = dynhlo.compile(text), dynhlo.compile(text, padding_reads="error")
    for n in (1, 4):
        stacked = jax.tree_util.tree_leaves(exe(_rows(n)))[-1]
        assert np.shape(stacked) == (B, 3)
        np.testing.assert_allclose(stacked[:n], jax.tree_util.tree_leaves(fn(_rows(n)))[-1],
                                   rtol=2e-5, atol=1e-5)
        with pytest.raises(dynhlo.DynamicSizeError, match=f"actual size {n}: .*from_jax"):
            strict(_rows(n))
    for g, e in zip(jax.tree_util.tree_leaves(exe(_rows(B))),
                    jax.tree_util.tree_leaves(fn(_rows(B))), strict=True):
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=2e-5, atol=1e-5)
