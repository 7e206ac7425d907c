"""A loop's sizes tied to a scalar it carries unchanged (XLA's dynamic dimension inference
carries a loop's dynamic sizes as elements of its state; JAX's shape-polymorphic scans carry
the batch size so). Where the loop's operand has the scalar's value as the size of carried
arrays and the body keeps both, the body sees one size: the arrays' read-off sizes and the
values made of the scalar are one expression, so what they meet is that size, not a meet to
check per call. Values: numpy by hand; the reference and compiled paths agree bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.hlo.text.parser import parse_hlo
from dynhlo.shapes.dynamic import infer_module
from dynhlo.shapes.sizes import same_size

# state: (i, n, x, h); the body adds x to h and scales by ones sized by n (JAX writes the
# batch size into a broadcast that way), i counts to 3
LOOP = """HloModule m

cond {
  s = (s32[], s32[], f32[<=16,4], f32[<=16,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  three = s32[] constant(3)
  ROOT lt = pred[] compare(i, three), direction=LT
}

body {
  s = (s32[], s32[], f32[<=16,4], f32[<=16,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] get-tuple-element(s), index=1
  x = f32[<=16,4] get-tuple-element(s), index=2
  h = f32[<=16,4] get-tuple-element(s), index=3
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  nv = s32[1] reshape(n)
  nn = s32[] reshape(nv)
  half = f32[] constant(0.5)
  b = f32[16,4] broadcast(half), dimensions={}
  bn = f32[<=16,4] set-dimension-size(b, SIZE), dimensions={0}
  xh = f32[<=16,4] add(x, h)
  ROOT t = (s32[], s32[], f32[<=16,4], f32[<=16,4]) tuple(i1, n, x, HOUT)
  y = f32[<=16,4] multiply(xh, bn)
}

ENTRY main {
  x = f32[<=16,4] parameter(0)
  n = s32[] get-dimension-size(x), dimensions={0}
  zero = f32[] constant(0)
  z = f32[16,4] broadcast(zero), dimensions={}
  h = f32[<=16,4] set-dimension-size(z, n), dimensions={0}
  start = s32[] constant(0)
  t = (s32[], s32[], f32[<=16,4], f32[<=16,4]) tuple(start, n, x, h)
  w = (s32[], s32[], f32[<=16,4], f32[<=16,4]) while(t), condition=cond, body=body
  ROOT out = f32[<=16,4] get-tuple-element(w), index=3
}
"""
# (the root is written before `y` so that `y` is defined last: the parser takes either order)
TIED = LOOP.replace("SIZE", "nn").replace("HOUT", "y")
# the body shrinks h by one row: h's size is no longer n at the next iteration
SHRINKS = LOOP.replace("SIZE", "nn").replace("HOUT", "y1").replace(
    "  y = f32[<=16,4] multiply(xh, bn)",
    "  y = f32[<=16,4] multiply(xh, bn)\n  m = s32[] subtract(nn, one)\n"
    "  y1 = f32[<=16,4] set-dimension-size(y, m), dimensions={0}")
# the body counts n down: n is not carried unchanged
COUNTS_DOWN = TIED.replace("tuple(i1, n, x, y)", "tuple(i1, m, x, y)").replace(
    "  y = f32[<=16,4] multiply(xh, bn)",
    "  y = f32[<=16,4] multiply(xh, bn)\n  m = s32[] subtract(n, one)")


def _body(text):
    info = infer_module(parse_hlo(text))
    (w,) = [i for i in info.computation.instructions if i.name == "w"]
    body = info.callee(w, 1)
    return {inst.name: dims for inst, dims in body.dims.items()}


def _expected(x, steps, shrink=False):
    """h after `steps` iterations; `shrink`: h keeps n - 1 rows of each (the smaller size
    where x's n rows meet them, XLA's elementwise rule)."""
    h = np.zeros_like(x)
    for _ in range(steps):
        h = ((x[:len(h)] + h) * np.float32(0.5)).astype(np.float32)
        if shrink:
            h = h[:len(x) - 1]
    return h


def test_one_size_for_the_carried_arrays_and_the_carried_scalar():
    dims = _body(TIED)
    x, h, xh, bn, y = (dims[k][0] for k in ("x", "h", "xh", "bn", "y"))
    assert same_size(x, h) and same_size(xh, x) and same_size(bn, x) and same_size(y, x)


def test_a_body_that_changes_a_size_keeps_the_sizes_it_reads_apart():
    dims = _body(SHRINKS)
    # x is still tied to n (carried unchanged); h is not (one row fewer each iteration)
    assert same_size(dims["x"][0], dims["bn"][0])
    assert not same_size(dims["h"][0], dims["x"][0])
    dims = _body(COUNTS_DOWN)
    assert not same_size(dims["bn"][0], dims["x"][0])
    assert not same_size(dims["h"][0], dims["x"][0])


@pytest.mark.parametrize("text,shrink", [(TIED, False), (SHRINKS, True),
                                         (COUNTS_DOWN, False)], ids=["tied", "shrinks", "counts"])
@pytest.mark.parametrize("rows", [1, 2, 5, 16])
def test_values_by_hand_on_both_paths(text, shrink, rows):
    rng = np.random.default_rng(rows)
    x = rng.standard_normal((rows, 4)).astype(np.float32)
    compiled = dynhlo.compile(text, backend="cpu", reference=False)
    reference = dynhlo.compile(text, backend="cpu", reference=True)
    if text is COUNTS_DOWN:
        # n - 1 rows of halves meet h's n rows at the second iteration: XLA's elementwise
        # rule takes the smaller (the CPU backend's rule); compare the two paths. One row
        # counts down to a size of -1 at the third iteration: both refuse it.
        if rows < 2:
            for exe in (compiled, reference):
                with pytest.raises(dynhlo.DynamicSizeError, match="dynamic size -1"):
                    exe(x)
            return
        got, want = compiled(x), reference(x)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)
        return
    got = compiled(x)
    np.testing.assert_array_equal(got, reference(x))
    np.testing.assert_allclose(got, _expected(x, 3, shrink), rtol=1e-6, atol=0)
    for _ in range(2):   # (again: the compiled path's specs and plans)
        np.testing.assert_array_equal(compiled(x), got)
