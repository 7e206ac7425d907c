"""Values fixed for an argument-shape key that kernels and ufuncs write into reused buffers
(folding.folded's `remake`): a rotary table (positions from an iota times frequencies, a
kernel; its cosine, a ufunc) and a reshape view of it are kept by the spec as new arrays,
their steps skipped; every result is the reference's bit for bit at every size, again and
again (a stale buffer would show as changed values on a later call)."""

from __future__ import annotations

import numpy as np

from .test_compiled_spec_steps import _awkward, _fast, _pair, _run

F32 = np.float32

ROTARY = """
HloModule rot
ENTRY main {
  x = f32[<=32,8] parameter(0)
  n = s32[] get-dimension-size(x), dimensions={0}
  pos = s32[32,8] iota(), iota_dimension=0
  live = s32[<=32,8] set-dimension-size(pos, n), dimensions={0}
  p = f32[<=32,8] convert(live)
  f = f32[8] constant({1, 0.5, 0.25, 0.125, 1, 0.5, 0.25, 0.125})
  fb = f32[32,8] broadcast(f), dimensions={1}
  fl = f32[<=32,8] set-dimension-size(fb, n), dimensions={0}
  angle = f32[<=32,8] multiply(p, fl)
  c = f32[<=32,8] cosine(angle)
  s = f32[<=32,8] sine(angle)
  xc = f32[<=32,8] multiply(x, c)
  xs = f32[<=32,8] multiply(x, s)
  sum = f32[<=32,8] add(xc, xs)
  eight = s32[] constant(8)
  m = s32[] multiply(n, eight)
  flat = f32[<=256] dynamic-reshape(angle, m)
  twice = f32[<=256] add(flat, flat)
  ROOT r = (f32[<=32,8], f32[<=256]) tuple(sum, twice)
}
"""


def test_tables_in_reused_buffers_are_kept_as_new_arrays():
    exe, ref = _pair(ROTARY)
    r = np.random.default_rng(11)
    cases = [(_awkward(r, (n, 8)),) for n in (32, 1, 5, 32, 5, 2)]
    _run(exe, ref, cases, repeat=4)
    fast = _fast(exe)
    names = {i.name for i in fast.folded}
    assert {"angle", "c", "s"} <= names
    assert not {"angle", "c", "s"} & {op[1].name for op in fast.ops}
    # the spec's arrays are its own: a caller writing into a result changes nothing later
    got = exe(*cases[0])
    for a in got:
        np.asarray(a)[...] = 7
    _run(exe, ref, cases[:2])
