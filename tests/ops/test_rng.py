"""rng, rng-get-and-update-state and rng-bit-generator on the CPU backend, by their documented
properties.

rng: values in [a, b) (uniform) or with the right mean and spread (normal), at the size of the
operand they meet, drawn anew per call; rng-get-and-update-state advances by its delta;
rng-bit-generator: shapes and dtypes as XLA, equal states give equal bits, the state moves on,
and the bits look uniform, for every algorithm (its bits against XLA's: tests/ops/test_rng_bits.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from dynhlo.hlo.types import to_numpy_dtype
from tests.support.opcheck import run_hlo


RNG_TEXT = """HloModule t
ENTRY main {{
  z = {t}[<=4096] parameter(0)
  a = {t}[] constant({a})
  b = {t}[] constant({b})
  r = {t}[<=4096] rng(a, b), distribution={dist}
  ROOT y = {t}[<=4096] add(r, z)
}}"""


@pytest.mark.parametrize("n", [0, 1, 4096])
@pytest.mark.parametrize("t", ["f32", "f64", "s32", "bf16"])
def test_rng_uniform(t, n):
    """Values in [a, b) at the size of the operand they meet; a second call draws anew."""
    text = RNG_TEXT.format(t=t, a=2, b=6, dist="rng_uniform")
    zeros = np.zeros(n, to_numpy_dtype(t))
    first, second = run_hlo(text, zeros), run_hlo(text, zeros)
    assert first.shape == (n,) and first.dtype == to_numpy_dtype(t)
    values = first.astype(np.float64)
    assert np.all((values >= 2) & (values <= 6))
    if t != "bf16":
        assert np.all(values < 6)
    if n == 4096:
        assert abs(values.mean() - (4 if t != "s32" else 3.5)) < 0.1
        assert not np.array_equal(first, second)


def test_rng_normal():
    text = RNG_TEXT.format(t="f32", a=3, b=0.5, dist="rng_normal")
    values = run_hlo(text, np.zeros(4096, np.float32))
    assert abs(values.mean() - 3) < 0.05 and abs(values.std() - 0.5) < 0.05


def test_rng_get_and_update_state_advances_by_delta():
    text = """HloModule t
ENTRY main {
  a = u64[2] rng-get-and-update-state(), delta=5
  b = u64[2] rng-get-and-update-state(), delta=5
  ROOT t = (u64[2], u64[2]) tuple(a, b)
}"""
    a, b = run_hlo(text)
    assert a.dtype == np.uint64 and a.shape == (2,)
    counters = sorted([int(a[1]), int(b[1])])  # either may run first
    assert counters[1] - counters[0] == 5 and int(b[0]) == int(a[0])
    c, d = run_hlo(text)
    assert min(int(c[1]), int(d[1])) - counters[1] == 5  # the state lives with the program


RBG_TEXT = """HloModule t
ENTRY main {{
  s = u64[{k}] parameter(0)
  ROOT r = (u64[{k}], {t}[{shape}]) rng-bit-generator(s), algorithm={alg}
}}"""
RBG_CASES = [("rng_three_fry", 2), ("rng_philox", 2), ("rng_philox", 3), ("rng_default", 2)]


@pytest.mark.parametrize("alg,k", RBG_CASES)
@pytest.mark.parametrize("t,shape", [("u32", "64,64"), ("u64", "4096"), ("u8", "3,5"),
                                     ("u32", "0")])
def test_rng_bit_generator(alg, k, t, shape):
    """Shapes and dtypes as XLA; equal states give equal bits; the new state moves on."""
    text = RBG_TEXT.format(k=k, t=t, shape=shape, alg=alg)
    state = np.arange(7, 7 + k, dtype=np.uint64)
    new_state, bits = run_hlo(text, state)
    dims = tuple(int(v) for v in shape.split(","))
    assert new_state.shape == (k,) and new_state.dtype == np.uint64
    assert bits.shape == dims and bits.dtype == to_numpy_dtype(t)
    again_state, again = run_hlo(text, state)
    np.testing.assert_array_equal(bits, again)
    np.testing.assert_array_equal(new_state, again_state)
    # The counter moves past the blocks used; XLA keeps the state for an empty result.
    assert np.array_equal(new_state, state) == (bits.size == 0)
    _, next_bits = run_hlo(text, new_state)
    _, other = run_hlo(text, state + np.uint64(1))
    if bits.size:
        assert not np.array_equal(bits, next_bits) and not np.array_equal(bits, other)
    if bits.size >= 4096:  # uniform bits: the mean of each bit is one half
        width = bits.dtype.itemsize * 8
        ones = np.unpackbits(bits.view(np.uint8)).mean()
        assert abs(ones - 0.5) < 0.01, width
