"""The compiled CPU path's specialized steps (fast.Fast over folding.py and special.py):
values fixed for a shape folded, data movement with its indices settled, dots with batch
dimensions, gathers of windows at indices read per call, loop bodies whose sizes read their
own values (guarded), and the kernels' rsqrt, sign and remainder. Every module runs several
times per shape (the specialized steps run from the second call) and every result is
compared with the reference evaluator's, bit for bit; bad input after good input is still
refused as the reference refuses it.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import steps

F32, S32 = np.float32, np.int32
SPECIAL = (steps._SPECIAL, steps._SPECIAL_ONE, steps._SPECIAL_TWO)   # specialized steps' kinds


def _pair(text, **options):
    return dynhlo.compile(text, backend="cpu", reference=False, **options), \
        dynhlo.compile(text, backend="cpu", reference=True, **options)


def _same(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def _steps(exe, opcode: str) -> list:
    """The kinds of the specialized steps of `opcode` in the entry's latest spec."""
    program = exe.program
    pool = program.evaluator._local.pools[id(program.info)]
    fast = list(pool.fast.values())[-1]
    return [op[0] for op in fast.ops if op[1].opcode.name == opcode]


def _chained(exe) -> set:
    """The names of the instructions in runs of native calls in the entry's latest spec."""
    program = exe.program
    fast = list(program.evaluator._local.pools[id(program.info)].fast.values())[-1]
    return {member[1].name for op in fast.ops if op[0] == steps._CHAIN
            for member in op[8][2]}


def _run(exe, ref, args_list, repeat: int = 3):
    for args in args_list:
        for _ in range(repeat):
            _same(exe(*args), ref(*args))


# Shape vectors of constants and sizes (folded), a dynamic-reshape and a set-dimension-size
# by them, a concatenate of a parameter and a constant, a slice, a transpose, and an iota
# returned: the caller owns it (never a value kept for later calls).
FOLDED = """
HloModule folded
ENTRY main {
  x = f32[<=8,3] parameter(0)
  w = f32[8,3] parameter(1)
  n = s32[] get-dimension-size(x), dimensions={0}
  three = s32[] constant(3)
  m = s32[] multiply(n, three)
  flat = f32[<=24] dynamic-reshape(x, m)
  cut = f32[<=8,3] set-dimension-size(w, n), dimensions={0}
  c = f32[1,3] constant({{1, 2, 3}})
  cat = f32[<=9,3] concatenate(x, c), dimensions={0}
  s = f32[<=9,2] slice(cat), slice={[0:9], [1:3]}
  t = f32[2,<=9] transpose(s), dimensions={1,0}
  io = s32[<=8,3] iota(), iota_dimension=0
  io2 = s32[<=8,3] set-dimension-size(io, n), dimensions={0}
  neg = f32[<=8,3] negate(cut)
  v = f32[] parameter(2)
  p = f32[<=16,8] pad(x, v), padding=1_0_1x-1_2_2
  row = f32[3] parameter(3)
  b = f32[2,<=8,3] broadcast(row), dimensions={2}
  ROOT r = (f32[<=24], f32[<=8,3], f32[2,<=9], s32[<=8,3], f32[<=16,8], f32[2,<=8,3]) tuple(flat, neg, t, io2, p, b)
}
"""


def test_values_fixed_for_a_shape_are_folded_and_data_movement_specialized():
    exe, ref = _pair(FOLDED)
    r = np.random.default_rng(0)
    cases = [(r.standard_normal((n, 3)).astype(F32), r.standard_normal((8, 3)).astype(F32),
              F32(r.standard_normal()), r.standard_normal(3).astype(F32))
             for n in (0, 5, 5, 2, 8, 5)]
    _run(exe, ref, cases)
    kinds = _steps(exe, "CONCATENATE") + _steps(exe, "DYNAMIC_RESHAPE") + \
        _steps(exe, "SET_DIMENSION_SIZE") + _steps(exe, "TRANSPOSE") + _steps(exe, "SLICE") + \
        _steps(exe, "PAD") + _steps(exe, "BROADCAST")
    assert kinds and all(kind in SPECIAL for kind in kinds)
    # the returned iota is the caller's: writing it changes no later result
    first = exe(*cases[1])
    first[3][...] = -1
    _same(exe(*cases[1]), ref(*cases[1]))


# Gathers whose indices are constants: a box of the operand (a qkv split) and rows in
# another order, read into a transposed result, then read by a kernel.
GATHER_FOLDED = """
HloModule gf
ENTRY main {
  x = f32[2,<=8,6] parameter(0)
  a = f32[<=10,4] parameter(1)
  c = s32[1] constant({2})
  g = f32[2,<=8,3] gather(x, c), offset_dims={0,1,2}, collapsed_slice_dims={}, start_index_map={2}, index_vector_dim=0, slice_sizes={2,8,3}
  i = s32[3] constant({4, 0, 2})
  rows = f32[4,3] gather(a, i), offset_dims={0}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
  k = f32[4,3] negate(rows)
  ROOT r = (f32[2,<=8,3], f32[4,3], f32[4,3]) tuple(g, rows, k)
}
"""


def test_gathers_at_folded_indices_take_the_reference_elements_and_layout():
    """Rows at or past the actual size (n = 3: row 4) read XLA's padding: those calls run
    the lowering (zeros), the others np.take of positions worked out once."""
    exe, ref = _pair(GATHER_FOLDED)
    r = np.random.default_rng(1)
    cases = [(r.standard_normal((2, n, 6)).astype(F32),
              r.standard_normal((rows, 4)).astype(F32))
             for n, rows in ((5, 10), (5, 10), (8, 6), (0, 3), (3, 3), (5, 10))]
    _run(exe, ref, cases)
    strict, strict_ref = _pair(GATHER_FOLDED, padding_reads="error")
    _run(strict, strict_ref, cases[:1])
    for exe_ in (strict, strict_ref):   # a row past the actual size, after good calls
        with pytest.raises(dynhlo.DynHloError) as caught:
            exe_(cases[3][0], cases[3][1])
    assert "gather" in str(caught.value)


# Gathers at indices read per call: one window (a time step of a scan), many windows
# (rows), the index vector first.
GATHER_DATA = """
HloModule gd
ENTRY main {
  x = f32[12,<=16,8] parameter(0)
  t = s32[1,1] parameter(1)
  a = f32[<=7,5] parameter(2)
  i = s32[<=4,2] parameter(3)
  b = s32[<=9] parameter(4)
  j = s32[1,<=5] parameter(5)
  step = f32[1,<=16,8] gather(x, t), offset_dims={1,2}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,16,8}
  win = f32[<=4,2,3] gather(a, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={1,0}, index_vector_dim=1, slice_sizes={2,3}
  ivd0 = s32[<=5] gather(b, j), offset_dims={}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=0, slice_sizes={1}
  ROOT r = (f32[1,<=16,8], f32[<=4,2,3], s32[<=5]) tuple(step, win, ivd0)
}
"""


def _gather_data_args(r, n, rows, m, starts):
    x = r.standard_normal((12, n, 8)).astype(F32)
    a = r.standard_normal((rows, 5)).astype(F32)
    b = r.integers(-50, 50, 9).astype(S32)
    i = np.stack([r.integers(-3, 5, m), r.integers(-3, rows - 1, m)], 1).astype(S32)
    j = r.integers(-2, 12, (1, 5)).astype(S32)
    return x, np.array([[starts]], S32), a, i, b, j


def test_gathers_at_indices_read_per_call_are_the_references():
    """Starts clamped below 0 and past the bound, new index values at one shape (the
    specialized gather), and windows past the actual size (the lowering's zeros)."""
    exe, ref = _pair(GATHER_DATA)
    r = np.random.default_rng(2)
    cases = [_gather_data_args(r, 16, 7, 0, 2), _gather_data_args(r, 5, 3, 2, 4)]
    cases += [_gather_data_args(r, 16, 7, 4, s) for s in (3, -5, 40, 11, 0)]
    _run(exe, ref, cases, repeat=2)
    assert all(kind in SPECIAL for kind in _steps(exe, "GATHER"))


def test_a_gathered_window_past_the_actual_size_is_refused_when_asked():
    exe, ref = _pair(GATHER_DATA, padding_reads="error")
    r = np.random.default_rng(3)
    good = _gather_data_args(r, 16, 7, 3, 2)
    _run(exe, ref, [good])
    bad = list(good)
    bad[2] = good[2][:2]   # rows 0..1: a window of 2 rows at start 1.. reads row 2
    bad[3] = np.array([[0, 1], [1, 1], [2, 0]], S32)
    for exe_ in (exe, ref):
        with pytest.raises(dynhlo.DynHloError):
            exe_(*bad)


# Dots with batch dimensions and contracting dimensions in either place.
DOTS = """
HloModule dots
ENTRY main {
  q = f32[2,<=8,4] parameter(0)
  k = f32[2,<=8,4] parameter(1)
  v = f32[2,4,5] parameter(2)
  ia = s32[3,<=6,2] parameter(3)
  ib = s32[3,2,4] parameter(4)
  s = f32[2,<=8,<=8] dot(q, k), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={2}
  o = f32[2,<=8,5] dot(q, v), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  t = f32[2,<=8,5] dot(s, o), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={1}
  n = s32[3,<=6,4] dot(ia, ib), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  g = f32[2,4,4] dot(q, k), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={1}
  ROOT r = (f32[2,<=8,<=8], f32[2,<=8,5], f32[2,<=8,5], s32[3,<=6,4], f32[2,4,4]) tuple(s, o, t, n, g)
}
"""


def test_dots_with_batch_dimensions_are_the_references_bit_for_bit():
    exe, ref = _pair(DOTS)
    r = np.random.default_rng(4)
    cases = []
    for n in (8, 3, 8, 1, 0):
        q = r.standard_normal((2, n, 4)).astype(F32)
        cases.append((q, r.standard_normal((2, n, 4)).astype(F32),
                      r.standard_normal((2, 4, 5)).astype(F32),
                      r.integers(-9, 9, (3, min(n, 6), 2)).astype(S32),
                      r.integers(-9, 9, (3, 2, 4)).astype(S32)))
    cases.append((np.asfortranarray(cases[0][0]), *cases[0][1:]))   # another layout
    _run(exe, ref, cases)
    assert any(kind in SPECIAL for kind in _steps(exe, "DOT"))
    # q's and k's dynamic sizes are contracted by g: they differ
    bad = (cases[0][0], cases[0][1][:, :2], *cases[0][2:])
    for exe_ in (exe, ref):
        with pytest.raises(dynhlo.DynHloError):
            exe_(*bad)


ELEMENTWISE = """
HloModule m
ENTRY main {
  x = f32[<=64] parameter(0)
  y = f32[<=64] parameter(1)
  i = s32[<=64] parameter(2)
  j = s32[<=64] parameter(3)
  u = u8[<=64] parameter(4)
  d = f64[<=64] parameter(5)
  r = f32[<=64] rsqrt(x)
  s = f32[<=64] sign(x)
  m = f32[<=64] remainder(x, y)
  a = f32[<=64] add(r, s)
  b = f32[<=64] add(a, m)
  si = s32[<=64] sign(i)
  ri = s32[<=64] remainder(i, j)
  su = u8[<=64] sign(u)
  ru = u8[<=64] remainder(u, u)
  rd = f64[<=64] rsqrt(d)
  ROOT t = (f32[<=64], s32[<=64], s32[<=64], u8[<=64], u8[<=64], f64[<=64]) tuple(b, si, ri, su, ru, rd)
}
"""


def test_rsqrt_sign_and_remainder_in_kernels_are_the_references_bit_for_bit():
    """Zeros of both signs, NaN, infinities, subnormals, x % 0 and MIN % -1."""
    exe, ref = _pair(ELEMENTWISE)
    program = exe.program
    steps = program.evaluator._steps[id(program.info)]
    assert {s[1].opcode.name for s in steps if s[0] == 1} >= {"SIGN", "REMAINDER", "ADD"}
    assert not any(s[1].opcode.name in ("RSQRT", "SIGN", "REMAINDER") for s in steps
                   if s[0] != 1)
    special = np.array([4, -0.0, 0.0, np.nan, np.inf, -np.inf, -3, 2.5, 1e-30, 7, 1e-45, -2],
                       F32)
    r = np.random.default_rng(5)
    with np.errstate(all="ignore"):
        for n in (12, 64, 0, 12):
            x = np.concatenate([special, r.standard_normal(64).astype(F32)])[:n]
            y = np.concatenate([special[::-1], r.standard_normal(64).astype(F32)])[:n]
            i = np.concatenate([np.array([-2**31, 7, -7, 0, 5, -5], S32),
                                r.integers(-2**31, 2**31 - 1, 64).astype(S32)])[:n]
            j = np.concatenate([np.array([-1, 0, 3, 4, -2, -1], S32),
                                r.integers(-4, 4, 64).astype(S32)])[:n]
            u = r.integers(0, 256, n).astype(np.uint8)
            d = np.abs(r.standard_normal(n))
            _run(exe, ref, [(x, y, i, j, u, d)], repeat=2)


# A scan: the body's sizes are its state's (keyed by its arguments' shapes) and a size it
# reads off the loop counter (guarded: compared after each call's step).
LOOP = """
HloModule loop
body {
  s = (s32[], f32[<=8,4], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[<=8,4] get-tuple-element(s), index=1
  acc = f32[] get-tuple-element(s), index=2
  one = s32[] constant(1)
  j = s32[] add(i, one)
  half = f32[] constant(0.5)
  hb = f32[<=8,4] broadcast(half), dimensions={}
  y = f32[<=8,4] multiply(x, hb)
  full = f32[8] constant({1, 2, 3, 4, 5, 6, 7, 8})
  part = f32[<=8] set-dimension-size(full, j), dimensions={0}
  zero = f32[] constant(0)
  sum = f32[] reduce(part, zero), dimensions={0}, to_apply=add
  acc2 = f32[] add(acc, sum)
  ROOT t = (s32[], f32[<=8,4], f32[]) tuple(j, y, acc2)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
cond {
  s = (s32[], f32[<=8,4], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  limit = s32[] constant(LIMIT)
  ROOT lt = pred[] compare(i, limit), direction=LT
}
ENTRY main {
  x = f32[<=8,4] parameter(0)
  z = s32[] constant(0)
  f = f32[] constant(0)
  t = (s32[], f32[<=8,4], f32[]) tuple(z, x, f)
  w = (s32[], f32[<=8,4], f32[]) while(t), condition=cond, body=body
  y = f32[<=8,4] get-tuple-element(w), index=1
  acc = f32[] get-tuple-element(w), index=2
  ROOT r = (f32[<=8,4], f32[]) tuple(y, acc)
}
"""


def test_loop_bodies_whose_sizes_read_their_own_values_are_the_references():
    exe, ref = _pair(LOOP.replace("LIMIT", "6"))
    r = np.random.default_rng(6)
    cases = [(r.standard_normal((n, 4)).astype(F32),) for n in (5, 5, 8, 0, 5)]
    _run(exe, ref, cases)
    evaluator = exe.program.evaluator
    assert any(pool.fast for pool in evaluator._local.pools.values()
               if pool is not evaluator._local.pools[id(exe.program.info)])


def test_a_loop_size_past_its_bound_is_still_refused():
    """The ninth step's size (9) is past the bound 8: the reference's error, after calls
    that made the body's specialized steps."""
    good, good_ref = _pair(LOOP.replace("LIMIT", "6"))
    _run(good, good_ref, [(np.ones((3, 4), F32),)])
    exe, ref = _pair(LOOP.replace("LIMIT", "9"))
    for exe_ in (exe, ref):
        with pytest.raises(dynhlo.DynHloError):
            exe_(np.ones((3, 4), F32))


# A causal mask made of iotas (folded: broadcast views, handed to the kernel as dense
# copies), a row maximum and a subtraction in one kernel; a matrix product of a parameter
# with a folded broadcast (matmul gets the reference's dense layout).
MASKED = """
HloModule masked
mx {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] maximum(a, b)
}
ENTRY main {
  x = f32[2,<=16,<=16] parameter(0)
  i0 = s32[<=16,<=16] iota(), iota_dimension=0
  i1 = s32[<=16,<=16] iota(), iota_dimension=1
  c = pred[<=16,<=16] compare(i0, i1), direction=GE
  cb = pred[2,<=16,<=16] broadcast(c), dimensions={1,2}
  low = f32[] constant(-1e30)
  lb = f32[2,<=16,<=16] broadcast(low), dimensions={}
  s = f32[2,<=16,<=16] select(cb, x, lb)
  z = f32[] constant(-inf)
  r = f32[2,<=16] reduce(s, z), dimensions={2}, to_apply=mx
  rb = f32[2,<=16,<=16] broadcast(r), dimensions={0,1}
  o = f32[2,<=16,<=16] subtract(s, rb)
  y = f32[<=16,4] parameter(1)
  half = f32[] constant(0.5)
  w = f32[4,3] broadcast(half), dimensions={}
  d = f32[<=16,3] dot(y, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (f32[2,<=16,<=16], f32[<=16,3]) tuple(o, d)
}
"""


def test_kernels_and_matmuls_reading_folded_broadcasts_are_the_references():
    exe, ref = _pair(MASKED)
    r = np.random.default_rng(7)
    cases = [(r.standard_normal((2, n, n)).astype(F32), r.standard_normal((n, 4)).astype(F32))
             for n in (16, 16, 5, 1, 16)]
    _run(exe, ref, cases)
    program = exe.program
    pool = program.evaluator._local.pools[id(program.info)]
    assert any(fast.dense for fast in pool.fast.values())


BIG_FOLD = """
HloModule big
ENTRY main {
  x = s32[<=2200,<=1100] parameter(0)
  i0 = s32[<=1100,<=1100] iota(), iota_dimension=0
  i1 = s32[<=1100,<=1100] iota(), iota_dimension=1
  mix = s32[<=1100,<=1100] multiply(i0, i1)
  twice = s32[<=2200,<=1100] concatenate(mix, mix), dimensions={0}
  s = s32[<=2200,<=1100] add(x, twice)
  small = s32[2] constant({7, 9})
  n = s32[2] negate(small)
  ROOT t = (s32[<=2200,<=1100], s32[2]) tuple(s, n)
}
"""


def test_a_spec_holds_no_large_folded_value():
    """A value fixed for the shape but over 4 MiB (an s32 product of iotas at 1100 x 1100)
    is computed per call, not held by the spec; at 3 x 3 it is held."""
    exe, ref = _pair(BIG_FOLD)
    program = exe.program
    for n in (1100, 1100, 3, 3):
        x = np.arange(2 * n * n, dtype=S32).reshape(2 * n, n)
        _same(exe(x), ref(x))
        pool = program.evaluator._local.pools[id(program.info)]
        fast = pool.fast[((2 * n, n),)]   # made by the first call at this shape
        assert ("mix" in {inst.name for inst in fast.folded}) == (n == 3)


def test_boxes_of_positions_are_found_at_their_own_size():
    """special._box: the basic slices whose elements, in order, are the given flat
    positions, or None; worked out without the operand's own positions (a gather of rows of
    a large table asks at every new index value)."""
    from dynhlo.backends.cpu.compiled.special import _box

    shape = (4, 5, 6)
    positions = np.arange(120).reshape(shape)
    for box in [(slice(1, 3), slice(0, 5), slice(2, 4)), (slice(0, 4), slice(0, 5), slice(0, 6)),
                (slice(2, 3), slice(1, 2), slice(3, 4))]:
        assert _box(positions[box].reshape(-1), shape) == box
    assert _box(positions[1:3, 0:5, 2:4].transpose(2, 1, 0).reshape(-1), shape) is None
    assert _box(np.array([5, 3]), shape) is None
    assert _box(np.array([0, 1, 2, 4]), shape) is None
    big = (1 << 20, 1 << 12)   # 2**32 positions: never made
    rows = (np.arange(3, 5)[:, None] * big[1] + np.arange(big[1])).reshape(-1)
    assert _box(rows, big) == (slice(3, 5), slice(0, big[1]))


# A loop of one trip written in its caller (the while-loop-simplifier's output for PyTorch's
# per-sample loops): rows written into a zero-filled buffer the spec folds, once at a
# constant start (a run's strided copies into zeros) and once at a start read per call.
INTO_FOLDED = """
HloModule into_folded
ENTRY main {
  x = f32[2,<=8] parameter(0)
  at = s32[] parameter(1)
  n = s32[] get-dimension-size(x), dimensions={1}
  zero = f32[] constant(0)
  full = f32[3,8] broadcast(zero), dimensions={}
  buffer = f32[3,<=8] set-dimension-size(full, n), dimensions={1}
  e = f32[2,<=8] exponential(x)
  row = s32[] constant(1)
  col = s32[] constant(0)
  fixed = f32[3,<=8] dynamic-update-slice(buffer, e, row, col)
  moved = f32[3,<=8] dynamic-update-slice(buffer, x, at, col)
  ROOT out = (f32[3,<=8], f32[3,<=8]) tuple(fixed, moved)
}
"""


@pytest.mark.parametrize("fill", ["0", "-0", "1.5"])
def test_updates_into_a_folded_buffer_are_the_references_and_leave_it_as_it_was(fill):
    """Bit for bit, signs of zeros included; only a buffer of +0s is the run's zeros."""
    exe, ref = _pair(INTO_FOLDED.replace("f32[] constant(0)", f"f32[] constant({fill})"))
    r = np.random.default_rng(7)
    for n in (0, 1, 5, 8):
        x = r.standard_normal((2, n)).astype(F32)
        first = [np.array(v) for v in exe(x, S32(0))]
        for at in (0, 1, 2, 5, -1):   # clamped into [0, 1] as XLA clamps starts
            got, want = exe(x, S32(at)), ref(x, S32(at))
            _same(got, want)
            assert [g.tobytes() for g in got] == [w.tobytes() for w in want]
        if n and fill != "0":
            assert "fixed" not in _chained(exe)
        elif n:   # the update at constant starts into the zeros: strided copies in a run
            # of native calls (placement.py); the other specialized (neither the lowering)
            assert "fixed" in _chained(exe)
            assert [k in SPECIAL for k in _steps(exe, "DYNAMIC_UPDATE_SLICE")] == [True]
        _same(exe(x, S32(0)), tuple(first))   # the held buffer was never written
