"""Pass dead-code (dynhlo/passes/dead_code.py): what no result reads is dropped, as XLA's
HloDCE drops it, and what has a side effect stays."""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.passes.dead_code import dead_code

# JAX's export computes shape checks from get-dimension-size and leaves them unread; the
# dead dynamic-slice reads rows past the actual size (an error if it ran: XLA reads padding)
DEAD = """HloModule dead
ENTRY main {
  x = f32[<=8,4] parameter(0)
  unused = f32[3] parameter(1)
  size = s32[] get-dimension-size(x), dimensions={0}
  one = s32[] constant(1)
  check = pred[] compare(size, one), direction=GE
  zero = s32[] constant(0)
  window = f32[8,4] dynamic-slice(x, zero, zero), dynamic_slice_sizes={8,4}
  e = f32[<=8,4] exponential(x)
  ROOT n = f32[<=8,4] negate(e)
}
"""

EFFECTS = """HloModule effects
body {
  s = (s32[], f32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  lo = f32[] constant(0)
  hi = f32[] constant(1)
  r = f32[2] rng(lo, hi), distribution=rng_uniform
  ROOT t = (s32[], f32[2]) tuple(j, r)
}
cond {
  s = (s32[], f32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  three = s32[] constant(3)
  ROOT lt = pred[] compare(i, three), direction=LT
}
ENTRY main {
  x = f32[<=8] parameter(0)
  lo = f32[] constant(0)
  hi = f32[] constant(1)
  drawn = f32[5] rng(lo, hi), distribution=rng_uniform
  z = s32[] constant(0)
  v = f32[2] constant({0, 0})
  init = (s32[], f32[2]) tuple(z, v)
  loop = (s32[], f32[2]) while(init), condition=cond, body=body
  marked = f32[<=8] custom-call(x), custom_call_target="Sharding", custom_call_has_side_effect=true
  plain = f32[<=8] custom-call(x), custom_call_target="Sharding"
  ROOT a = f32[<=8] abs(x)
}
"""


def _names(module, comp=None) -> set:
    comp = module.entry if comp is None else module.computation(comp)
    return {i.name for i in comp.instructions}


def test_what_no_result_reads_is_dropped_and_parameters_stay():
    module = dynhlo.parse_hlo(DEAD)
    out = dead_code(module)
    assert _names(out) == {"x", "unused", "e", "n"}
    assert len(module.entry.instructions) == 9            # the input is not modified
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    # the dead dynamic-slice would read rows 3..7 of a 3-row x: not run, so no error
    got = dynhlo.compile(DEAD)(x, np.zeros(3, np.float32))
    np.testing.assert_allclose(got, -np.exp(x), rtol=1e-6)


def test_side_effects_stay_and_pure_dead_work_goes():
    out = dead_code(dynhlo.parse_hlo(EFFECTS))
    # rng draws from one stream (dropping one moves the others' numbers); a while whose
    # body draws; a custom-call marked with a side effect
    assert {"drawn", "loop", "init", "marked"} <= _names(out)
    assert "plain" not in _names(out)
    assert _names(out, "body") == _names(dynhlo.parse_hlo(EFFECTS), "body")


def test_a_module_with_nothing_dead_is_returned_as_it_is():
    module = dynhlo.parse_hlo("HloModule m\nENTRY e {\n  x = f32[<=4] parameter(0)\n"
                              "  ROOT y = f32[<=4] negate(x)\n}\n")
    assert dead_code(module) is module


jax = pytest.importorskip("jax")


def test_from_jax_modules_lose_their_unread_shape_checks():
    """JAX's export leaves get-dimension-size shape checks nobody reads; without them the
    GPU plan of a deep JAX function can be one CUDA graph."""
    from tests.support.gpucheck import GPU, torch  # noqa: F401  (skips without torch/triton)
    from dynhlo.backends.gpu import graph
    jnp = jax.numpy

    def deep(x, w):
        for _ in range(20):
            x = jnp.tanh(x @ w)
        return x

    exe = dynhlo.from_jax(deep, "f32[n,8]", "f32[8,8]", bounds={"n": 16}, **GPU)
    gen = np.random.default_rng(1)
    x = gen.standard_normal((5, 8)).astype(np.float32)
    w = (gen.standard_normal((8, 8)) / 3).astype(np.float32)
    np.testing.assert_allclose(exe(x, w), np.asarray(jax.jit(deep)(x, w)), rtol=1e-5,
                               atol=1e-6)
    assert "get-dimension-size" not in str(exe.executable.program.module)
    assert graph.summary(exe.executable.program).startswith("gpu graph: on")
