"""Control flow on the CPU backend: while, conditional, call, map, copy-start/copy-done.

Each row is a module, its arguments at dynamic size n and the answer computed by hand with
NumPy; rows are crossed with sizes (bound, 0, 1 and in between). The while rows whose carried
array shrinks or grows through set-dimension-size, and the conditional whose branches return
different sizes, give a different answer if any padding reached a result.
"""

from __future__ import annotations

import numpy as np
import pytest

from dynhlo import DynamicSizeError, HloVerifyError
from tests.support.opcheck import OpCase, check_case, crossed, run_hlo

F32 = np.float32


def _vec(n, rng):
    return (rng.standard_normal(n).astype(F32),)


# The carried array shrinks by one element per iteration and is doubled; three iterations.
WHILE_SHRINK = """HloModule while_shrink
cond {
  p = (s32[], f32[<=8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  c = s32[] constant(3)
  ROOT lt = pred[] compare(i, c), direction=LT
}
body {
  p = (s32[], f32[<=8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[<=8] get-tuple-element(p), index=1
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  n = s32[] get-dimension-size(x), dimensions={0}
  n2 = s32[] subtract(n, one)
  zero = s32[] constant(0)
  n3 = s32[] maximum(n2, zero)
  y = f32[<=8] set-dimension-size(x, n3), dimensions={0}
  two = f32[] constant(2)
  b = f32[<=8] broadcast(two), dimensions={}
  z = f32[<=8] multiply(y, b)
  ROOT t = (s32[], f32[<=8]) tuple(i2, z)
}
ENTRY main {
  a = f32[<=8] parameter(0)
  zero = s32[] constant(0)
  t = (s32[], f32[<=8]) tuple(zero, a)
  w = (s32[], f32[<=8]) while(t), condition=cond, body=body
  ROOT r = f32[<=8] get-tuple-element(w), index=1
}
"""


def _while_shrink(x):
    for _ in range(3):
        x = x[:max(len(x) - 1, 0)] * 2
    return x


# Grows a static-declared carried array (made dynamic by the body) until it has 8 elements,
# then sums it: the sum counts the zeros set-dimension-size reads past the old end, nothing
# else. The body appends (via set-dimension-size) and adds 1 to every valid element.
WHILE_GROW = """HloModule while_grow
cond {
  p = f32[<=8] parameter(0)
  n = s32[] get-dimension-size(p), dimensions={0}
  c = s32[] constant(8)
  ROOT lt = pred[] compare(n, c), direction=LT
}
body {
  p = f32[<=8] parameter(0)
  n = s32[] get-dimension-size(p), dimensions={0}
  one = s32[] constant(1)
  n2 = s32[] add(n, one)
  y = f32[<=8] set-dimension-size(p, n2), dimensions={0}
  onef = f32[] constant(1)
  b = f32[<=8] broadcast(onef), dimensions={}
  ROOT z = f32[<=8] add(y, b)
}
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY main {
  a = f32[<=8] parameter(0)
  w = f32[<=8] while(a), condition=cond, body=body
  zero = f32[] constant(0)
  s = f32[] reduce(w, zero), dimensions={0}, to_apply=add
  ROOT t = (f32[<=8], f32[]) tuple(w, s)
}
"""


def _while_grow(x):
    while len(x) < 8:
        x = np.concatenate([x, np.zeros(1, F32)]) + 1
    return x, np.float32(x.sum())


# A counted loop whose carried value keeps the entry parameter's dynamic size.
WHILE_COUNT = """HloModule while_count
cond {
  p = (s32[], f32[<=6,2]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  c = s32[] constant(4)
  ROOT lt = pred[] compare(i, c), direction=LT
}
body {
  p = (s32[], f32[<=6,2]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[<=6,2] get-tuple-element(p), index=1
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  y = f32[<=6,2] multiply(x, x)
  h = f32[] constant(0.5)
  b = f32[<=6,2] broadcast(h), dimensions={}
  z = f32[<=6,2] multiply(y, b)
  ROOT t = (s32[], f32[<=6,2]) tuple(i2, z)
}
ENTRY main {
  a = f32[<=6,2] parameter(0)
  zero = s32[] constant(0)
  t = (s32[], f32[<=6,2]) tuple(zero, a)
  w = (s32[], f32[<=6,2]) while(t), condition=cond, body=body
  ROOT r = f32[<=6,2] get-tuple-element(w), index=1
}
"""


def _while_count(x):
    for _ in range(4):
        x = x * x * F32(0.5)
    return x


# Predicate form: true keeps the first half of the array, false reverses the whole array.
COND_PRED = """HloModule cond_pred
on_true {
  x = f32[<=8] parameter(0)
  n = s32[] get-dimension-size(x), dimensions={0}
  two = s32[] constant(2)
  h = s32[] divide(n, two)
  ROOT y = f32[<=8] set-dimension-size(x, h), dimensions={0}
}
on_false {
  x = f32[<=8] parameter(0)
  ROOT y = f32[<=8] reverse(x), dimensions={0}
}
ENTRY main {
  a = f32[<=8] parameter(0)
  p = pred[] parameter(1)
  ROOT c = f32[<=8] conditional(p, a, a), true_computation=on_true, false_computation=on_false
}
"""

# Indexed form with three branches of different result sizes; an index out of [0, 3) runs
# the last branch (XLA semantics).
COND_INDEX = """HloModule cond_index
b0 {
  x = f32[<=8] parameter(0)
  one = f32[] constant(1)
  b = f32[<=8] broadcast(one), dimensions={}
  ROOT y = f32[<=8] add(x, b)
}
b1 {
  x = f32[<=8] parameter(0)
  z = s32[] constant(1)
  ROOT y = f32[<=8] set-dimension-size(x, z), dimensions={0}
}
b2 {
  x = f32[<=8] parameter(0)
  ROOT y = f32[<=8] negate(x)
}
ENTRY main {
  a = f32[<=8] parameter(0)
  i = s32[] parameter(1)
  ROOT c = f32[<=8] conditional(i, a, a, a), branch_computations={b0, b1, b2}
}
"""


def _cond_index(x, i):
    i = int(i) if 0 <= int(i) < 3 else 2
    if i == 0:
        return x + 1
    if i == 1:
        return np.concatenate([x[:1], np.zeros(max(0, 1 - len(x)), F32)])
    return -x


CALL = """HloModule call
sq {
  x = f32[<=5,3] parameter(0)
  ROOT y = f32[<=5,3] multiply(x, x)
}
ENTRY main {
  a = f32[<=5,3] parameter(0)
  ROOT c = f32[<=5,3] call(a), to_apply=sq
}
"""

# The size set inside the callee is read off the call's result by the caller.
CALL_SETS_SIZE = """HloModule call_sets_size
half {
  x = f32[<=8] parameter(0)
  n = s32[] get-dimension-size(x), dimensions={0}
  two = s32[] constant(2)
  h = s32[] divide(n, two)
  ROOT y = f32[<=8] set-dimension-size(x, h), dimensions={0}
}
ENTRY main {
  a = f32[<=8] parameter(0)
  c = f32[<=8] call(a), to_apply=half
  i = s32[] constant(0)
  k = f32[<=8] conditional(i, c), branch_computations={half}
  ROOT n = f32[<=8] negate(k)
}
"""

MAP = """HloModule map
f {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  m = f32[] maximum(x, y)
  t = f32[] constant(3)
  ROOT r = f32[] multiply(m, t)
}
ENTRY main {
  a = f32[<=7,2] parameter(0)
  b = f32[<=7,2] parameter(1)
  ROOT m = f32[<=7,2] map(a, b), dimensions={0,1}, to_apply=f
}
"""

MAP_CONST = """HloModule map_const
f {
  x = s32[] parameter(0)
  ROOT c = s32[] constant(7)
}
ENTRY main {
  a = s32[<=5] parameter(0)
  ROOT m = s32[<=5] map(a), dimensions={0}, to_apply=f
}
"""

COPY_START = """HloModule copy_start
ENTRY main {
  a = f32[<=6,2] parameter(0)
  cs = (f32[<=6,2], f32[<=6,2], u32[]) copy-start(a)
  ROOT cd = f32[<=6,2] copy-done(cs)
}
"""

# The loop result meets the loop's input: the body keeps the size, so they agree.
WHILE_RESIDUAL = WHILE_COUNT.replace(
    "  ROOT r = f32[<=6,2] get-tuple-element(w), index=1",
    "  r = f32[<=6,2] get-tuple-element(w), index=1\n  ROOT s = f32[<=6,2] add(r, a)")

# A scan over the valid rows (what jax.lax.scan lowers to, with the trip count read off the
# dynamic size): ys[i] = cumulative sum of xs[0..i]. A padded trip count would add rows.
SCAN = """HloModule scan
cond {
  p = (s32[], f32[<=6,3], f32[3], f32[<=6,3]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  xs = f32[<=6,3] get-tuple-element(p), index=1
  n = s32[] get-dimension-size(xs), dimensions={0}
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[<=6,3], f32[3], f32[<=6,3]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  xs = f32[<=6,3] get-tuple-element(p), index=1
  c = f32[3] get-tuple-element(p), index=2
  ys = f32[<=6,3] get-tuple-element(p), index=3
  zero = s32[] constant(0)
  row = f32[1,3] dynamic-slice(xs, i, zero), dynamic_slice_sizes={1,3}
  r = f32[3] reshape(row)
  c2 = f32[3] add(c, r)
  c3 = f32[1,3] reshape(c2)
  ys2 = f32[<=6,3] dynamic-update-slice(ys, c3, i, zero)
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  ROOT t = (s32[], f32[<=6,3], f32[3], f32[<=6,3]) tuple(i2, xs, c2, ys2)
}
ENTRY main {
  xs = f32[<=6,3] parameter(0)
  zero = s32[] constant(0)
  z = f32[] constant(0)
  c = f32[3] broadcast(z), dimensions={}
  yb = f32[6,3] broadcast(z), dimensions={}
  n = s32[] get-dimension-size(xs), dimensions={0}
  ys = f32[<=6,3] set-dimension-size(yb, n), dimensions={0}
  t = (s32[], f32[<=6,3], f32[3], f32[<=6,3]) tuple(zero, xs, c, ys)
  w = (s32[], f32[<=6,3], f32[3], f32[<=6,3]) while(t), condition=cond, body=body
  ys3 = f32[<=6,3] get-tuple-element(w), index=3
  c4 = f32[3] get-tuple-element(w), index=2
  ROOT out = (f32[<=6,3], f32[3]) tuple(ys3, c4)
}
"""

CASES = [
    OpCase("while-shrink", WHILE_SHRINK, _vec, _while_shrink, (8, 0, 1, 2, 3, 5)),
    OpCase("while-grow", WHILE_GROW, _vec, _while_grow, (8, 0, 1, 5)),
    OpCase("while-count", WHILE_COUNT, lambda n, r: (r.standard_normal((n, 2)).astype(F32),),
           _while_count, (6, 0, 1, 4)),
    OpCase("while-residual", WHILE_RESIDUAL,
           lambda n, r: (r.standard_normal((n, 2)).astype(F32),),
           lambda x: _while_count(x) + x, (6, 0, 1, 4)),
    OpCase("while-scan", SCAN, lambda n, r: (r.standard_normal((n, 3)).astype(F32),),
           lambda x: (np.cumsum(x, axis=0, dtype=F32), x.sum(axis=0, dtype=F32)),
           (6, 0, 1, 4)),
    OpCase("cond-pred-true", COND_PRED, lambda n, r: _vec(n, r) + (np.bool_(True),),
           lambda x, p: x[:len(x) // 2], (8, 0, 1, 5)),
    OpCase("cond-pred-false", COND_PRED, lambda n, r: _vec(n, r) + (np.bool_(False),),
           lambda x, p: x[::-1], (8, 0, 1, 5)),
    *[OpCase(f"cond-index{i}", COND_INDEX, lambda n, r, i=i: _vec(n, r) + (np.int32(i),),
             _cond_index, (8, 0, 1, 5)) for i in (0, 1, 2, 3, -1)],
    OpCase("call", CALL, lambda n, r: (r.standard_normal((n, 3)).astype(F32),),
           lambda x: x * x, (5, 0, 1, 3)),
    OpCase("call-sets-size", CALL_SETS_SIZE, _vec, lambda x: -x[:len(x) // 4], (8, 0, 1, 5)),
    OpCase("map", MAP, lambda n, r: (r.standard_normal((n, 2)).astype(F32),
                                     r.standard_normal((n, 2)).astype(F32)),
           lambda x, y: np.maximum(x, y) * F32(3), (7, 0, 1, 4)),
    OpCase("map-const", MAP_CONST, lambda n, r: (np.arange(n, dtype=np.int32),),
           lambda x: np.full(len(x), 7, np.int32), (5, 0, 1, 2)),
    OpCase("copy-start-done", COPY_START, lambda n, r: (r.standard_normal((n, 2)).astype(F32),),
           lambda x: x, (6, 0, 1, 4)),
]


@pytest.mark.parametrize("case,n", crossed(CASES))
def test_control_ops(case, n):
    check_case(case, n)


def test_while_grows_into_zeros_not_padding():
    """set-dimension-size past the old end reads zeros: padding (here 9s) would show."""
    x = np.full(2, 9, F32)
    got, total = run_hlo(WHILE_GROW, x)
    np.testing.assert_array_equal(got, [15, 15, 6, 5, 4, 3, 2, 1])
    assert total == 51


def test_shrunk_loop_result_meeting_its_input_takes_the_smaller_size():
    """XLA's elementwise rule: the loop's 3 rows meet the input's 6, the add has 3."""
    text = WHILE_SHRINK.replace(
        "  ROOT r = f32[<=8] get-tuple-element(w), index=1",
        "  r = f32[<=8] get-tuple-element(w), index=1\n  ROOT s = f32[<=8] add(r, a)")
    a = np.arange(6, dtype=F32)
    np.testing.assert_array_equal(run_hlo(text, a), a[:3] * 8 + a[:3])


def test_conditional_branches_with_different_sizes():
    x = np.arange(6, dtype=F32)
    assert run_hlo(COND_INDEX, x, np.int32(1)).shape == (1,)
    assert run_hlo(COND_INDEX, x, np.int32(0)).shape == (6,)


def test_while_size_beyond_bound_is_a_clear_error():
    text = WHILE_GROW.replace("c = s32[] constant(8)", "c = s32[] constant(9)")
    with pytest.raises(DynamicSizeError, match="outside"):
        run_hlo(text, np.zeros(3, F32))


def test_conditional_branch_count_mismatch_is_a_verify_error():
    text = COND_INDEX.replace("conditional(i, a, a, a)", "conditional(i, a, a)")
    with pytest.raises(HloVerifyError, match="branch"):
        run_hlo(text, np.zeros(3, F32), np.int32(0))
