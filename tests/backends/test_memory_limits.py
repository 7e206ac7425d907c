"""Arrays beyond memory (issue 8): sized before allocating, a ResourceExhaustedError naming
the instruction, the bytes and the device; never NumPy's MemoryError or torch's allocator
error, and a broadcast of a constant declared at a huge bound is never written at it.

Sizes here are terabytes, past any machine's memory. Expected values are NumPy by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo

TB = 10 ** 12
# name -> (entry body, arguments, the instruction at fault or None when it must run)
CASES = {
    "static_broadcast_root": ("c = f32[] constant(1)\n ROOT s = f32[1000000,1000000] "
                              "broadcast(c), dimensions={}", [], "s"),
    "static_broadcast_used": ("c = f32[] constant(1)\n b = f32[1000000,1000000] broadcast(c), "
                              "dimensions={}\n ROOT s = f32[1000000,1000000] add(b, b)", [], "s"),
    "iota": ("ROOT s = s32[1000000,1000000] iota(), iota_dimension=0", [], "s"),
    "broadcast_of_a_parameter": ("a = f32[4] parameter(0)\n ROOT s = f32[4,1000000,1000000] "
                                 "broadcast(a), dimensions={0}", [np.ones(4, np.float32)], "s"),
    "huge_bound_exp_then_cut": ("c = f32[] constant(1)\n b = f32[<=1000000000000] broadcast(c), "
                                "dimensions={}\n e = f32[<=1000000000000] exponential(b)\n "
                                "n = s32[] constant(3)\n ROOT s = f32[<=1000000000000] "
                                "set-dimension-size(e, n), dimensions={0}", [], "e"),
    # These need nothing near their bound: they must run.
    "huge_bound_parameter": ("a = f32[<=1000000000000] parameter(0)\n ROOT s = "
                             "f32[<=1000000000000] negate(a)", [np.ones(3, np.float32)], None),
    "huge_bound_broadcast_cut": ("c = f32[] constant(1)\n b = f32[<=1000000000000] broadcast(c), "
                                 "dimensions={}\n n = s32[] constant(3)\n ROOT s = "
                                 "f32[<=1000000000000] set-dimension-size(b, n), dimensions={0}",
                                 [], None),
}
EXPECTED = {"huge_bound_parameter": -np.ones(3, np.float32),
            "huge_bound_broadcast_cut": np.ones(3, np.float32),
            "huge_bound_exp_then_cut": np.full(3, np.exp(np.float32(1)), np.float32)}
# The GPU fuses a set-dimension-size to a size known from the module (here a constant) into
# the kernel that computes its operand, so exp runs over the 3 elements kept, never at the
# bound; the CPU's reference evaluator computes the operand at its bound first.
RUNS_ON_THE_GPU = {"huge_bound_exp_then_cut"}


def check(name: str, options: dict, runs: set = frozenset()) -> None:
    body, args, culprit = CASES[name]
    if name in runs:
        culprit = None
    exe = dynhlo.compile("HloModule m\nENTRY e {\n " + body + "\n}\n", **options)
    if culprit is None:
        out = exe(*args)
        out = out.cpu().numpy() if hasattr(out, "cpu") else np.asarray(out)
        np.testing.assert_allclose(out, EXPECTED[name], rtol=1e-6)   # exp: libm vs device
        return
    with pytest.raises(dynhlo.ResourceExhaustedError) as info:
        exe(*args)
    message = str(info.value)
    assert f"instruction '{culprit}'" in message and "bytes" in message and " on the " in message
    assert "TiB" in message or "GiB" in message


@pytest.mark.parametrize("name", sorted(CASES))
def test_arrays_beyond_memory_on_the_cpu(name):
    check(name, {})


@pytest.mark.parametrize("name", sorted(CASES))
def test_arrays_beyond_memory_on_the_gpu(name):
    from tests.support.gpucheck import GPU  # skips without torch or triton
    check(name, GPU, RUNS_ON_THE_GPU)
