"""What a hostile (or just unlucky) user does to dynhlo: memory.

Results own their memory, arguments are never written, and work and memory follow the
actual size, not the bound.

Each test here was a crash, a hang, a silent wrong answer or lost data before its fix.
Expected values are numpy on the static computation.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.common import hlo_module


# -- results own their memory; arguments are never written ----------------------------------


@pytest.mark.parametrize("root", [
    "ROOT b = f32[<=4,3] parameter(0)",
    "ROOT b = f32[3,<=4] transpose(a), dimensions={1,0}",
    "ROOT b = f32[<=4,3] reshape(a)",
    "ROOT b = f32[<=4,3] bitcast(a)",
], ids=["parameter", "transpose", "reshape", "bitcast"])
def test_writing_a_result_never_changes_the_argument(root):
    """Before: `ROOT a = parameter(0)` returned the caller's own array, a transpose a view of
    it; writing into the result changed the caller's data."""
    text = "ENTRY m {\n  a = f32[<=4,3] parameter(0)\n  " + root + "\n}"
    if root.startswith("ROOT b = f32[<=4,3] parameter"):
        text = "ENTRY m {\n  " + root + "\n}"
    exe = dynhlo.compile(hlo_module(text))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = exe(x)
    y[...] = -1
    np.testing.assert_array_equal(x, np.arange(6, dtype=np.float32).reshape(2, 3))


def test_writing_a_result_never_changes_the_next_call():
    """Before: a constant root was the module's own literal; writing into the result changed
    every later call's answer."""
    exe = dynhlo.compile(hlo_module("""ENTRY m {
  a = f32[<=3] parameter(0)
  c = f32[3] constant({1, 2, 3})
  r = f32[3] reshape(c)
  ROOT t = (f32[<=3], f32[3], f32[3]) tuple(a, c, r)
}"""))
    first = exe(np.float32([5]))
    for value in first:
        value[...] = 100
    again = exe(np.float32([5]))
    np.testing.assert_array_equal(again[0], [5])
    np.testing.assert_array_equal(again[1], [1, 2, 3])
    np.testing.assert_array_equal(again[2], [1, 2, 3])


def test_results_do_not_share_memory_with_each_other():
    exe = dynhlo.compile(hlo_module("""ENTRY m {
  a = f32[<=4] parameter(0)
  n = f32[<=4] negate(a)
  r = f32[<=4] reshape(n)
  ROOT t = (f32[<=4], f32[<=4], f32[<=4]) tuple(n, n, r)
}"""))
    p, q, r = exe(np.float32([1, 2]))
    p[...] = 7
    np.testing.assert_array_equal(q, [-1, -2])
    np.testing.assert_array_equal(r, [-1, -2])


@pytest.mark.parametrize("layout", ["fortran", "strided", "read-only"])
def test_unusual_argument_arrays_are_read_not_written(layout):
    exe = dynhlo.compile(hlo_module("""ENTRY m {
  a = f32[<=6,4] parameter(0)
  u = f32[1,4] parameter(1)
  i = s32[] parameter(2)
  z = s32[] constant(0)
  ROOT d = f32[<=6,4] dynamic-update-slice(a, u, i, z)
}"""))
    base = np.arange(40, dtype=np.float32).reshape(10, 4)
    x = {"fortran": np.asfortranarray(base[:3]), "strided": base[::3],
         "read-only": base[:5].copy()}[layout]
    x.flags.writeable = layout != "read-only"
    before = x.copy()
    want = before.copy()
    want[1] = 9
    np.testing.assert_array_equal(exe(x, np.full((1, 4), 9, np.float32), np.int32(1)), want)
    np.testing.assert_array_equal(x, before)


# -- huge bounds: work and memory follow the actual size --------------------------------------


def _peak_bytes(fn) -> int:
    import tracemalloc
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_broadcast_declared_at_the_bound_is_not_materialized():
    """XLA's params-only form: the broadcast of a constant is declared static at the bound
    and meets the actual size in the multiply. Before: it was allocated at the bound
    (256 MB here; 238 GiB at f32[<=1000000000,64])."""
    bound = 1_000_000
    exe = dynhlo.compile(hlo_module(f"""add {{
  p = f32[] parameter(0)
  q = f32[] parameter(1)
  ROOT r = f32[] add(p, q)
}}
ENTRY m {{
  a = f32[<={bound},64] parameter(0)
  c = f32[] constant(2)
  b = f32[{bound},64] broadcast(c), dimensions={{}}
  r = f32[{bound},64] multiply(a, b)
  io = f32[{bound},64] iota(), iota_dimension=1
  s = f32[{bound},64] add(r, io)
  z = f32[] constant(0)
  ROOT t = f32[64] reduce(s, z), dimensions={{0}}, to_apply=add
}}"""))
    x = np.arange(3 * 64, dtype=np.float32).reshape(3, 64)
    out = []
    peak = _peak_bytes(lambda: out.append(exe(x)))
    np.testing.assert_allclose(out[0], (2 * x + np.arange(64, dtype=np.float32)).sum(axis=0))
    assert peak < 16 << 20, f"{peak} bytes for a 3x64 input"


def test_reverse_cumsum_over_a_huge_bound_follows_the_actual_size():
    """jnp.cumsum(x, reverse=True) lowers to a window of the bound's size padded after.
    Before: one tap per window offset, 10**9 of them (minutes, then MemoryError)."""
    bound = 1_000_000_000
    exe = dynhlo.compile(hlo_module(f"""add {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}}
ENTRY m {{
  x = f32[<={bound}] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<={bound}] reduce-window(x, z), window={{size={bound} pad=0_{bound - 1}}},
    to_apply=add
}}""".replace(",\n    to_apply", ", to_apply")))
    out = []
    peak = _peak_bytes(lambda: out.append(exe(np.float32([3, 1, 2]))))
    np.testing.assert_array_equal(out[0], [6, 3, 2])
    assert peak < 16 << 20
