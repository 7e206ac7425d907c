"""The size algebra (dynhlo/shapes/algebra*.py) against Python's integer arithmetic.

Expressions are built two ways, through the algebra and as plain Python on ints, and must
agree at every value of their atoms; sizes written differently but equal (XLA's window
formula and JAX's `(n - k) // s + 1`, JAX's spelling of floor division) must be one object.
"""

from __future__ import annotations

import math
import operator
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dynhlo.shapes import algebra as A
from dynhlo.shapes import algebra_ops as O
from dynhlo.shapes.algebra_eval import evaluate, walk


def atom(name: str, hi: int = 64):
    return A.source("param", (0, name, hi, name), 0, hi)


def value_at(size, env: dict) -> int:
    return evaluate(size, lambda node: env[node.args[1]], {})


N, M = atom("n"), atom("m")


def test_equal_sizes_are_one_object():
    assert A.add(A.scale(N, 2), M, A.ONE) is A.add(A.ONE, M, N, N)
    assert A.mul(A.add(N, A.ONE), M) is A.add(A.mul(M, N), M)
    assert A.exact_div(A.scale(N, 3), 3, None) is N
    assert A.floordiv(A.scale(N, 6), 4) is A.add(N, A.floordiv(N, 2))
    assert A.maximum(A.ZERO, N) is N                  # a size is never negative
    assert A.minimum(A.const(64), N) is N             # nor above its bound


@pytest.mark.parametrize("k, s, lo, hi", [(3, 2, 0, 0), (3, 3, 0, 0), (3, 2, 1, 2), (5, 4, 2, 0)])
def test_xla_and_jax_window_sizes_are_one_object(k, s, lo, hi):
    """XLA: ceil((n + pads - k + 1) / s), clamped at 0; JAX: (n + pads - k) // s + 1."""
    pads = A.const(lo + hi)
    xla = A.clamp(A.ceildiv(A.add(N, pads, A.const(1 - k)), s), 0, None)
    jax = A.clamp(A.add(A.floordiv(A.add(N, pads, A.const(-k)), s), A.ONE), 0, None)
    assert xla is jax
    for n in range(65):
        assert value_at(xla, {"n": n}) == max(0, (n + lo + hi - k) // s + 1)


@pytest.mark.parametrize("k", [1, 2, 3, 7])
def test_jax_spellings_of_floor_division_and_modulus_fold(k):
    """jnp.floor_divide and jnp.remainder as JAX lowers them (divide, sign, remainder,
    select) over a value that may be negative: the algebra's floordiv and mod."""
    x, kk = A.sub(N, A.const(5)), A.const(k)
    d = O.trunc_div(x, kk)
    floor = O.select(O.logical_and(O.compare("NE", O.sign(x), O.sign(kk)),
                                   O.compare("NE", O.trunc_rem(x, kk), A.ZERO)),
                     A.sub(d, A.ONE), d)
    r = O.trunc_rem(x, kk)
    modulus = O.select(O.logical_and(O.compare("NE", O.compare("LT", r, A.ZERO),
                                                   O.compare("LT", kk, A.ZERO)),
                                     O.compare("NE", r, A.ZERO)), A.add(r, kk), r)
    assert floor is A.floordiv(x, k)
    assert modulus is A.mod(x, k)
    for n in range(65):
        assert value_at(floor, {"n": n}) == (n - 5) // k
        assert value_at(modulus, {"n": n}) == (n - 5) % k


def test_integer_operations_follow_xla():
    """Division truncates toward zero, x / 0 = -1, x % 0 = x (XLA's integer semantics)."""
    for x in range(-9, 10):
        for y in range(-4, 5):
            q = A.const(x)
            assert O.trunc_div(q, A.const(y)).value == (-1 if y == 0 else int(x / y))
            assert O.trunc_rem(q, A.const(y)).value == (x if y == 0 else int(math.fmod(x, y)))


_OPS = [("add", operator.add), ("sub", operator.sub), ("mul", operator.mul)]


def _random_pair(rng: random.Random, depth: int):
    """(Size, python function of {n, m}) built the same way."""
    if depth == 0 or rng.random() < 0.2:
        choice = rng.randrange(3)
        if choice == 0:
            c = rng.randrange(-5, 6)
            return A.const(c), lambda env: c
        name = "nm"[choice - 1]
        return (N if name == "n" else M), lambda env: env[name]
    kind = rng.choice(["add", "sub", "mul", "floordiv", "mod", "max", "min", "meet"])
    a, fa = _random_pair(rng, depth - 1)
    if kind in ("floordiv", "mod"):
        k = rng.randrange(1, 6)
        if kind == "floordiv":
            return A.floordiv(a, k), lambda env: fa(env) // k
        return A.mod(a, k), lambda env: fa(env) % k
    b, fb = _random_pair(rng, depth - 1)
    if kind == "max":
        return A.maximum(a, b), lambda env: max(fa(env), fb(env))
    if kind == "min":
        return A.minimum(a, b), lambda env: min(fa(env), fb(env))
    if kind == "meet":
        return A.meet(a, b), lambda env: A.broadcast_or_smaller(fa(env), fb(env))
    op = dict(_OPS)[kind]
    size = {"add": A.add, "sub": A.sub, "mul": A.mul}[kind](a, b)
    return size, lambda env: op(fa(env), fb(env))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, 2**32), st.integers(0, 64), st.integers(0, 64))
def test_normal_forms_compute_what_was_written(seed, n, m):
    size, reference = _random_pair(random.Random(seed), 4)
    env = {"n": n, "m": m}
    got = value_at(size, env)
    assert got == reference(env), (seed, A.text(size))
    assert size.lo <= got <= size.hi


def test_deep_expressions_evaluate_without_recursion_and_print_within_a_budget():
    size = N
    for k in range(10_000):
        size = A.meet(A.add(size, A.ONE), M) if k % 2 else A.maximum(A.ZERO, A.sub(size, M))
    assert len(list(walk(size))) < 5 * 10_000        # each step a few nodes, shared
    value = evaluate(size, lambda node: {"n": 9, "m": 3}[node.args[1]], {})
    assert value == 3                                 # meet(x, 3) with x >= 3 after step 1
    assert len(A.text(size)) <= A.BUDGET + 40 and A.text(size).endswith("…")


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, 40), st.integers(0, 6), st.integers(1, 4), st.integers(-3, 3),
       st.integers(-3, 3), st.integers(1, 3), st.integers(1, 3))
def test_window_sizes_as_expressions_are_xlas(n, size, stride, lo, hi, base, dilation):
    """windows.window_output_expr (the inference's) against window_output_size (the
    lowerings', XLA's ShapeInference arithmetic on ints)."""
    from dynhlo.shapes.windows import WindowDim, window_output_expr, window_output_size
    w = WindowDim(size, stride, lo, hi, base, dilation)
    assert value_at(window_output_expr(N, w), {"n": n}) == window_output_size(n, w)
    kernel = atom("m")
    assert value_at(window_output_expr(N, w, kernel), {"n": n, "m": size}) == \
        window_output_size(n, w)
