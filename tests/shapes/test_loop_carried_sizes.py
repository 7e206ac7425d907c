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


# The loop's scalar is n * 2^30 / 2^30 in s32: it wraps (XLA's integer arithmetic), so it
# is not n (1 for n = 5, 0 for 4, -2 for 2), and no size is tied to it; the body sums
# iota(j) twice.
WRAPS = """HloModule m
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT r = s32[] add(a, b)
}
cond {
  s = (s32[], s32[], f32[<=16], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  two = s32[] constant(2)
  ROOT lt = pred[] compare(i, two), direction=LT
}
body {
  s = (s32[], s32[], f32[<=16], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  j = s32[] get-tuple-element(s), index=1
  x = f32[<=16] get-tuple-element(s), index=2
  a = s32[] get-tuple-element(s), index=3
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  io = s32[16] iota(), iota_dimension=0
  ion = s32[<=16] set-dimension-size(io, j), dimensions={0}
  zero = s32[] constant(0)
  r = s32[] reduce(ion, zero), dimensions={0}, to_apply=add
  a1 = s32[] add(a, r)
  ROOT t = (s32[], s32[], f32[<=16], s32[]) tuple(i1, j, x, a1)
}
ENTRY main {
  x = f32[<=16] parameter(0)
  n = s32[] get-dimension-size(x), dimensions={0}
  k = s32[] constant(1073741824)
  nk = s32[] multiply(n, k)
  j = s32[] divide(nk, k)
  z = s32[] constant(0)
  t = (s32[], s32[], f32[<=16], s32[]) tuple(z, j, x, z)
  w = (s32[], s32[], f32[<=16], s32[]) while(t), condition=cond, body=body
  ROOT out = s32[] get-tuple-element(w), index=3
}
"""


@pytest.mark.parametrize("reference", [True, False])
def test_a_scalar_whose_arithmetic_wraps_is_not_the_size(reference):
    exe = dynhlo.compile(WRAPS, backend="cpu", reference=reference)
    for rows in (5, 4):
        with np.errstate(over="ignore"):
            nk = int(np.int32(rows) * np.int32(1 << 30))   # (wraps as XLA's s32 multiply)
        j = abs(nk) // (1 << 30) * (1 if nk >= 0 else -1)   # (division toward zero)
        assert exe(np.zeros(rows, np.float32)) == 2 * sum(range(j)), rows
    with pytest.raises(dynhlo.DynamicSizeError, match="dynamic size -2 from 'j'"):
        exe(np.zeros(2, np.float32))


# a narrowing convert: 260 as u8 is 4 (XLA's convert wraps), not 260
NARROWS = """HloModule m
ENTRY main {
  p = s32[] parameter(0)
  x = f32[400] parameter(1)
  c = u8[] convert(p)
  c2 = s32[] convert(c)
  y = f32[<=400] set-dimension-size(x, c2), dimensions={0}
  ROOT r = f32[<=400] negate(y)
}
"""


@pytest.mark.parametrize("reference", [True, False])
def test_a_narrowing_convert_of_a_value_is_not_that_value(reference):
    exe = dynhlo.compile(NARROWS, backend="cpu", reference=reference)
    x = np.arange(400, dtype=np.float32)
    np.testing.assert_array_equal(exe(np.int32(260), x), -x[:4])
    np.testing.assert_array_equal(exe(np.int32(7), x), -x[:7])


def _nested(depth: int) -> str:
    """`depth` loops, each body running the next on its own state, every one tying its
    array's rows to the scalar it carries (made in its caller by get-dimension-size)."""
    state = "(s32[], s32[], f32[<=16,4])"
    parts = ["HloModule m\n"]
    for k in range(depth):
        inner = "  x2 = f32[<=16,4] add(x, x)\n" if k + 1 == depth else (
            f"  z = s32[] constant(0)\n  g = s32[] get-dimension-size(x), dimensions={{0}}\n"
            f"  t = {state} tuple(z, g, x)\n"
            f"  w = {state} while(t), condition=cond{k + 1}, body=body{k + 1}\n"
            "  x2 = f32[<=16,4] get-tuple-element(w), index=2\n")
        parts.append(f"""cond{k} {{
  s = {state} parameter(0)
  i = s32[] get-tuple-element(s), index=0
  two = s32[] constant(2)
  ROOT lt = pred[] compare(i, two), direction=LT
}}
body{k} {{
  s = {state} parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] get-tuple-element(s), index=1
  x = f32[<=16,4] get-tuple-element(s), index=2
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
{inner}  ROOT r = {state} tuple(i1, n, x2)
}}
""")
    parts.append(f"""ENTRY main {{
  x = f32[<=16,4] parameter(0)
  z = s32[] constant(0)
  g = s32[] get-dimension-size(x), dimensions={{0}}
  t = {state} tuple(z, g, x)
  w = {state} while(t), condition=cond0, body=body0
  ROOT out = f32[<=16,4] get-tuple-element(w), index=2
}}
""")
    return "".join(parts)


def test_nested_tied_loops_are_analyzed_once_each(monkeypatch):
    """A tie costs no second analysis of a body that keeps it: 16 nested loops are 16
    bodies and 16 conditions analyzed (each body once), not 2^16."""
    from dynhlo.shapes import dynamic
    calls = []
    analyze = dynamic.Inference.analyze
    monkeypatch.setattr(dynamic.Inference, "analyze",
                        lambda self, *a: calls.append(1) or analyze(self, *a))
    info = infer_module(parse_hlo(_nested(16)))
    assert len(calls) == 1 + 2 * 16
    (w,) = [i for i in info.computation.instructions if i.name == "w"]
    body = info.callee(w, 1)
    dims = {inst.name: d for inst, d in body.dims.items()}
    assert same_size(dims["x"][0], dims["x2"][0])
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(dynhlo.compile(_nested(3))(x), x * 2.0 ** 8)
