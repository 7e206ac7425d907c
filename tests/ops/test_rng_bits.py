"""rng-bit-generator is bit-exact with XLA: bits and new state, against XLA's own outputs.

The expected values are XLA's (jaxlib's CPU client), stored in tests/data/rng_bits.npz by
tools/gen_rng_bits.py: both algorithms and the default (Philox), u64[2] and u64[3] states,
states with every high bit set (the counter wraps), scalar to rank-3 shapes, empty shapes,
8- to 64-bit unsigned results, and signed and float results (XLA's bits reinterpreted). Where
JAX is installed, lax.rng_bit_generator through from_jax is checked against jax.jit too.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.hlo.types import to_numpy_dtype
from tests.support.common import TESTS

DATA = np.load(TESTS / "data" / "rng_bits.npz")
CASES = sorted(name.removesuffix("/bits") for name in DATA.files if name.endswith("/bits"))

TEXT = """HloModule t
ENTRY main {{
  s = u64[{k}] parameter(0)
  ROOT r = (u64[{k}], {t}[{dims}]) rng-bit-generator(s), algorithm={alg}
}}"""


def _run(alg: str, state: np.ndarray, dims: str, t: str, **options):
    text = TEXT.format(k=len(state), t=t, dims=dims.replace("x", ","), alg=alg)
    return dynhlo.compile(text, **options)(state)


def test_cases_cover_the_brief():
    """The stored table has what it claims: every algorithm, both widths, high-bit states."""
    algorithms = {c.split("|")[0] for c in CASES}
    assert algorithms == {"rng_three_fry", "rng_philox", "rng_default"}
    assert {c.split("|")[4] for c in CASES} >= {"u8", "u16", "u32", "u64", "s32", "f64"}
    assert {c.split("|")[3] for c in CASES} >= {"", "1", "3", "4", "5", "7x3", "2x3x5", "1000"}
    assert int(DATA["states"][1, 0]) == 2**64 - 1 and len(CASES) > 600


@pytest.mark.parametrize("case", CASES)
def test_bits_and_state_equal_xla(case):
    alg, k, s, dims, t = case.split("|")
    state = DATA["states"][int(s), :int(k)]
    new_state, bits = _run(alg, state, dims, t)
    want_bits, want_state = DATA[case + "/bits"], DATA[case + "/state"]
    shape = tuple(int(d) for d in dims.split("x")) if dims else ()
    assert bits.shape == shape and bits.dtype == to_numpy_dtype(t)
    assert new_state.dtype == np.uint64
    np.testing.assert_array_equal(new_state, want_state)
    # XLA hands back signed and float results as their unsigned bits.
    np.testing.assert_array_equal(bits.view(want_bits.dtype), want_bits)


@pytest.mark.parametrize("t", ["pred", "c64", "s4", "u2"])
def test_other_types_refused(t):
    with pytest.raises(dynhlo.DynHloError, match=f"rng-bit-generator.*not {t}"):
        _run("rng_philox", np.zeros(2, np.uint64), "3", t)


@pytest.mark.parametrize("alg,k", [("rng_three_fry", 3), ("rng_philox", 4), ("rng_default", 1)])
def test_state_sizes_xla_refuses_are_refused(alg, k):
    """XLA's expander takes u64[2] for Threefry and u64[2] or u64[3] for Philox."""
    with pytest.raises(dynhlo.DynHloError, match=rf"{alg} with a u64\[{k}\] state"):
        _run(alg, np.zeros(k, np.uint64), "3", "u32")


@pytest.mark.parametrize("alg", ["RNG_PHILOX", "RNG_THREE_FRY", "RNG_DEFAULT"])
@pytest.mark.parametrize("dtype,shape", [("uint32", (7, 3)), ("uint32", (1000,)),
                                         ("uint8", (2, 3, 5)), ("uint16", ())])
def test_from_jax_equals_jax(alg, dtype, shape):
    """lax.rng_bit_generator through from_jax gives jax.jit's bits (u32[4] key, as JAX takes)."""
    jax = pytest.importorskip("jax")
    from dynhlo.frontends.jax import from_jax

    def fn(key):
        return jax.lax.rng_bit_generator(key, shape, dtype=getattr(jax.numpy, dtype),
                                         algorithm=getattr(jax.lax.RandomAlgorithm, alg))

    key = np.array([0xFFFFFFFF, 7, 0x80000001, 12345], np.uint32)
    want_key, want_bits = jax.jit(fn)(key)
    got_key, got_bits = from_jax(fn, "u32[4]")(key)
    np.testing.assert_array_equal(got_bits, np.asarray(want_bits))
    np.testing.assert_array_equal(got_key, np.asarray(want_key))
