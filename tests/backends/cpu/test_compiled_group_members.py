"""A kernel group's members as fusion.build_group finds them, which kernels.generate takes
instead of walking the group again: the kernel's form (key, leaves, members) must be the one
the walk gives, for elementwise groups, views and row groups (reductions) alike."""

from __future__ import annotations

import dataclasses

import numpy as np

import dynhlo
from dynhlo.backends.cpu.compiled import kernels
from dynhlo.backends.plan.fusion import build_group
from dynhlo.shapes.schedule import schedule

SOFTMAX_LAYER = """
HloModule layer
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY main {
  x = f32[<=16,8] parameter(0)
  w = f32[8] parameter(1)
  t = f32[8,<=16] parameter(2)
  wb = f32[<=16,8] broadcast(w), dimensions={1}
  tt = f32[<=16,8] transpose(t), dimensions={1,0}
  h = f32[<=16,8] multiply(x, wb)
  g = f32[<=16,8] add(h, tt)
  lo = f32[] constant(-inf)
  mx = f32[<=16] reduce(g, lo), dimensions={1}, to_apply=max
  mb = f32[<=16,8] broadcast(mx), dimensions={0}
  e = f32[<=16,8] subtract(g, mb)
  zero = f32[] constant(0)
  sm = f32[<=16] reduce(e, zero), dimensions={1}, to_apply=add
  r = f32[<=16,1] reshape(sm)
  rb = f32[<=16,8] broadcast(sm), dimensions={0}
  ROOT o = f32[<=16,8] divide(e, rb)
}
"""


def test_build_groups_members_give_the_walks_kernel_form():
    exe = dynhlo.compile(SOFTMAX_LAYER, backend="cpu", reference=False)
    plan = exe.program.evaluator.plan   # the entry computation's (no calls here)
    found = list(plan.kernels.values())
    assert found, "the layer has no compiled kernel"
    info = plan.info
    position = {inst: k for k, inst in enumerate(schedule(info))}
    for source in found:
        group = build_group(info, position, source.group.root, plan.fused, set())
        assert group.members == kernels._members(group)   # the walk's own set
        given = kernels.generate(group, info, position)
        walked = kernels.generate(dataclasses.replace(group, members=None), info, position)
        assert given.key == walked.key == source.key
        assert given.leaves == walked.leaves == source.leaves
        assert given.members == walked.members == source.members
    rows = [s for s in found if s.group.reduces]
    assert rows, "no row group: the reductions were not fused"
    gen = np.random.default_rng(0)
    for n in (0, 1, 9):
        args = [gen.standard_normal((n, 8)).astype(np.float32),
                gen.standard_normal(8).astype(np.float32),
                gen.standard_normal((8, n)).astype(np.float32)]
        g = args[0] * args[1] + args[2].T
        e = g - g.max(axis=1, keepdims=True)
        want = e / e.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(exe(*args), want, rtol=1e-6, atol=1e-6)
