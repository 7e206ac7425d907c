"""Adversarial cases for the compiled CPU path (fast.Fast and its folded values, loops.py's
counter conditions, memo.py's values kept per counter value, special.py's lowerings at
settled shapes, conv.py): each module is called several times per argument shape with
changing values, then at other shapes and back, and every result is compared with the
reference evaluator's (the oracle), bit for bit (floats as their bits: NaN payloads and
-0.0 included) except float convolutions (within 1e-5 relative: conv.py sums in the result's
type). The caller's arrays must come back unchanged, and a result must be the caller's own
(writing into it changes no later result). Semantics: XLA operation semantics (While,
Conditional, Gather, DynamicUpdateSlice, Pad, Conv).
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import steps

F32, S32, U8 = np.float32, np.int32, np.uint8


def _pair(text: str, **options):
    return dynhlo.compile(text, backend="cpu", reference=False, **options), \
        dynhlo.compile(text, backend="cpu", reference=True, **options)


def _bits(a) -> np.ndarray:
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.kind == "f" else a


def _same(got, want, rtol: float | None = None) -> None:
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            _same(g, w, rtol)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if rtol is not None and want.dtype.kind == "f":
        scale = float(np.abs(want.astype(np.float64)).max()) if want.size else 0.0
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                                   rtol=rtol, atol=rtol * scale)
    else:
        np.testing.assert_array_equal(_bits(got), _bits(want))


def _check(text: str, cases: list, repeat: int = 2, rtol: float | None = None, **options):
    """Every case through both evaluators: the same values or the same error class, the
    arguments unchanged. Returns the compiled executable."""
    exe, ref = _pair(text, **options)
    for args in cases:
        before = [np.array(a, copy=True) for a in args]
        try:
            want = ref(*args)
        except dynhlo.DynHloError as exc:
            for _ in range(repeat):
                with pytest.raises(type(exc)):
                    exe(*args)
            continue
        for _ in range(repeat):
            _same(exe(*args), want, rtol)
        for a, b in zip(args, before, strict=True):
            np.testing.assert_array_equal(_bits(a), _bits(b))
    return exe


# A spec folds what is the same at every call of its key (here `sq`, a kernel's new array
# made of an iota); whether it reaches the root is the call's to decide: a loop that runs no
# iteration returns its initial state, a branch its parameter. The caller got the spec's
# own array: a write into it changed every later result (and two calls returned one array).
LOOP_RETURNS_FOLDED = """
HloModule a
cond {
  s = (s32[], s32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  k = s32[] constant(3)
  ROOT c = pred[] compare(i, k), direction=LT
}
body {
  s = (s32[], s32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = s32[4] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  v2 = s32[4] add(v, v)
  ROOT t = (s32[], s32[4]) tuple(j, v2)
}
ENTRY main {
  i0 = s32[] parameter(0)
  io = s32[4] iota(), iota_dimension=0
  sq = s32[4] multiply(io, io)
  t = (s32[], s32[4]) tuple(i0, sq)
  w = (s32[], s32[4]) while(t), condition=cond, body=body
  ROOT r = s32[4] get-tuple-element(w), index=1
}
"""

BRANCH_RETURNS_FOLDED = """
HloModule b
twice {
  p = s32[4] parameter(0)
  ROOT r = s32[4] add(p, p)
}
same {
  ROOT p = s32[4] parameter(0)
}
ENTRY main {
  b = pred[] parameter(0)
  io = s32[4] iota(), iota_dimension=0
  sq = s32[4] multiply(io, io)
  ROOT c = s32[4] conditional(b, sq, sq), true_computation=twice, false_computation=same
}
"""


@pytest.mark.parametrize("text, runs, passes", [
    (LOOP_RETURNS_FOLDED, S32(0), S32(5)),
    (BRANCH_RETURNS_FOLDED, np.bool_(True), np.bool_(False))])
def test_a_folded_value_a_later_call_returns_is_the_callers_own(text, runs, passes):
    exe, ref = _pair(text)
    _same(exe(runs), ref(runs))   # the spec is made here: the folded value not returned
    first = exe(passes)
    _same(first, ref(passes))
    first[:] = 99
    second = exe(passes)
    assert not np.shares_memory(first, second)
    _same(second, ref(passes))
    _same(exe(runs), ref(runs))


# A u8 counter that wraps, compared with a constant by each direction (the compare of
# Python ints on the state: XLA's unsigned compare); the body gathers row i & 7 of x by
# index arrays made of the counter (kept per counter value: memo.py).
U8_LOOP = """
HloModule w
cond {
  s = (u8[], f32[8,4], f32[4], s32[]) parameter(0)
  i = u8[] get-tuple-element(s), index=0
  k = u8[] constant(KONST)
  ROOT c = pred[] compare(i, k), direction=DIR
}
body {
  s = (u8[], f32[8,4], f32[4], s32[]) parameter(0)
  i = u8[] get-tuple-element(s), index=0
  x = f32[8,4] get-tuple-element(s), index=1
  acc = f32[4] get-tuple-element(s), index=2
  cnt = s32[] get-tuple-element(s), index=3
  step = u8[] constant(STEP)
  j = u8[] add(i, step)
  ii = s32[] convert(i)
  seven = s32[] constant(7)
  m = s32[] and(ii, seven)
  io = s32[1] iota(), iota_dimension=0
  mb = s32[1] broadcast(m), dimensions={}
  at = s32[1] add(io, mb)
  at2 = s32[1,1] reshape(at)
  row = f32[1,4] gather(x, at2), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
  r = f32[4] reshape(row)
  acc2 = f32[4] add(acc, r)
  c1 = s32[] constant(1)
  cnt2 = s32[] add(cnt, c1)
  ROOT t = (u8[], f32[8,4], f32[4], s32[]) tuple(j, x, acc2, cnt2)
}
ENTRY main {
  i0 = u8[] parameter(0)
  x = f32[8,4] parameter(1)
  z = f32[] constant(0)
  a = f32[4] broadcast(z), dimensions={}
  c0 = s32[] constant(0)
  t = (u8[], f32[8,4], f32[4], s32[]) tuple(i0, x, a, c0)
  w = (u8[], f32[8,4], f32[4], s32[]) while(t), condition=cond, body=body
  r = f32[4] get-tuple-element(w), index=2
  c = s32[] get-tuple-element(w), index=3
  e = u8[] get-tuple-element(w), index=0
  ROOT o = (f32[4], s32[], u8[]) tuple(r, c, e)
}
"""


@pytest.mark.parametrize("konst, direction, step", [
    ("5", "NE", "1"), ("250", "LT", "3"), ("3", "GE", "255"), ("200", "GT", "1")])
def test_a_wrapping_u8_counter_is_the_references(konst, direction, step):
    text = U8_LOOP.replace("KONST", konst).replace("DIR", direction).replace("STEP", step)
    r = np.random.default_rng(0)
    _check(text, [(U8(v), r.standard_normal((8, 4)).astype(F32))
                  for v in (10, 10, 4, 250, 10, 7, 201)], max_while_iterations=600)


SCALAR_LOOP = """
HloModule w
cond {
  s = (TY[], s32[]) parameter(0)
  i = TY[] get-tuple-element(s), index=0
  k = TY[] constant(KONST)
  ROOT c = pred[] compare(LHS, RHS), direction=DIR
}
body {
  s = (TY[], s32[]) parameter(0)
  i = TY[] get-tuple-element(s), index=0
  n = s32[] get-tuple-element(s), index=1
  one = TY[] constant(STEP)
  j = TY[] add(i, one)
  c1 = s32[] constant(1)
  n2 = s32[] add(n, c1)
  ROOT t = (TY[], s32[]) tuple(j, n2)
}
ENTRY main {
  i0 = TY[] parameter(0)
  c0 = s32[] constant(0)
  t = (TY[], s32[]) tuple(i0, c0)
  ROOT w = (TY[], s32[]) while(t), condition=cond, body=body
}
"""


@pytest.mark.parametrize("ty, konst, step", [
    ("u32", "4294967295", "1"), ("s8", "-128", "-1"), ("s64", "-9223372036854775808", "-1"),
    ("u16", "65535", "1")])
@pytest.mark.parametrize("direction", ["LT", "GE", "NE"])
def test_counter_conditions_at_a_types_extremes_are_the_references(ty, konst, step,
                                                                   direction):
    """Starts at the type's extremes (wrapping, or the iteration limit's error: raised by
    both alike), the constant on either side."""
    dtype = np.dtype({"u32": np.uint32, "s8": np.int8, "s64": np.int64,
                      "u16": np.uint16}[ty])
    info = np.iinfo(dtype)
    starts = [info.min, info.max, 0, 1, info.max - 2, info.min + 2 if info.min else 5]
    for lhs, rhs in (("i", "k"), ("k", "i")):
        text = SCALAR_LOOP.replace("KONST", konst).replace("DIR", direction).replace(
            "STEP", step).replace("TY", ty).replace("LHS", lhs).replace("RHS", rhs)
        _check(text, [(dtype.type(v),) for v in starts], repeat=1, max_while_iterations=300)


# A body whose counter runs down from any start past -3 (GT), wraps a negative index as
# JAX does, gathers at it through a concatenated start vector (kept per counter value), and
# writes at a second counter's k * 3 mod n (k counts down through s32's extremes; n = 0:
# x % 0 = x); an inner loop whose trip count is the outer counter.
NESTED = """
HloModule w
icond {
  s = (s32[], s32[], f32[4]) parameter(0)
  j = s32[] get-tuple-element(s), index=0
  lim = s32[] get-tuple-element(s), index=1
  ROOT c = pred[] compare(j, lim), direction=LT
}
ibody {
  s = (s32[], s32[], f32[4]) parameter(0)
  j = s32[] get-tuple-element(s), index=0
  lim = s32[] get-tuple-element(s), index=1
  v = f32[4] get-tuple-element(s), index=2
  one = s32[] constant(1)
  j2 = s32[] add(j, one)
  fj = f32[] convert(j)
  b = f32[4] broadcast(fj), dimensions={}
  v2 = f32[4] add(v, b)
  ROOT t = (s32[], s32[], f32[4]) tuple(j2, lim, v2)
}
cond {
  s = (s32[], s32[], f32[12,4], f32[<=12,4], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  k = s32[] constant(-3)
  ROOT c = pred[] compare(i, k), direction=GT
}
body {
  s = (s32[], s32[], f32[12,4], f32[<=12,4], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] get-tuple-element(s), index=1
  x = f32[12,4] get-tuple-element(s), index=2
  out = f32[<=12,4] get-tuple-element(s), index=3
  k = s32[] get-tuple-element(s), index=4
  z = s32[] constant(0)
  twelve = s32[] constant(12)
  lt = pred[] compare(i, z), direction=LT
  ip = s32[] add(i, twelve)
  ii = s32[] select(lt, ip, i)
  eleven = s32[] constant(11)
  st = s32[] clamp(z, ii, eleven)
  st1 = s32[1] reshape(st)
  z1 = s32[1] constant({0})
  vec = s32[2] concatenate(st1, z1), dimensions={0}
  row = f32[1,4] gather(x, vec), offset_dims={0,1}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=0, slice_sizes={1,4}
  three = s32[] constant(3)
  k3 = s32[] multiply(k, three)
  kr = s32[] remainder(k3, n)
  r4 = f32[4] reshape(row)
  it = (s32[], s32[], f32[4]) tuple(z, i, r4)
  iw = (s32[], s32[], f32[4]) while(it), condition=icond, body=ibody
  iv = f32[4] get-tuple-element(iw), index=2
  ir = f32[1,4] reshape(iv)
  out2 = f32[<=12,4] dynamic-update-slice(out, ir, kr, z)
  one = s32[] constant(1)
  i2 = s32[] subtract(i, one)
  k2 = s32[] subtract(k, one)
  ROOT t = (s32[], s32[], f32[12,4], f32[<=12,4], s32[]) tuple(i2, n, x, out2, k2)
}
ENTRY main {
  n = s32[] parameter(0)
  x = f32[12,4] parameter(1)
  i0 = s32[] parameter(2)
  k0 = s32[] parameter(3)
  zf = f32[] constant(0)
  zb = f32[12,4] broadcast(zf), dimensions={}
  o = f32[<=12,4] set-dimension-size(zb, n), dimensions={0}
  t = (s32[], s32[], f32[12,4], f32[<=12,4], s32[]) tuple(i0, n, x, o, k0)
  w = (s32[], s32[], f32[12,4], f32[<=12,4], s32[]) while(t), condition=cond, body=body
  r = f32[<=12,4] get-tuple-element(w), index=3
  c = s32[] get-tuple-element(w), index=4
  ROOT res = (f32[<=12,4], s32[]) tuple(r, c)
}
"""

NESTED_CASES = [(5, 8, 100), (5, 8, 100), (5, 20, 7), (12, 8, -50), (3, 30, 2**31 - 1),
                (5, 8, 100), (1, -5, -2**31 + 20), (0, 2, 5), (5, 8, 100)]


def _nested_cases(seed: int) -> list:
    r = np.random.default_rng(seed)
    return [(S32(n), r.standard_normal((12, 4)).astype(F32), S32(i), S32(k))
            for n, i, k in NESTED_CASES]


def test_nested_loops_with_values_kept_per_counter_are_the_references():
    _check(NESTED, _nested_cases(1))


def test_threads_first_calling_one_executable_at_other_shapes_agree():
    """Specs, buffers and memos are per thread; the plans of the loop bodies are made at
    their first call, here by several threads at once."""
    ref = dynhlo.compile(NESTED, backend="cpu", reference=True)
    cases = _nested_cases(2)
    wants = [ref(*args) for args in cases]
    for _ in range(2):
        exe = dynhlo.compile(NESTED, backend="cpu", reference=False)
        barrier, errors = threading.Barrier(4), []

        def work(k, exe=exe, barrier=barrier, errors=errors):
            try:
                barrier.wait()
                for j in range(len(cases)):
                    n = (j + k) % len(cases)
                    _same(exe(*cases[n]), wants[n])
            except Exception as exc:   # noqa: BLE001 - reported below
                errors.append(repr(exc))
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []


# A value read as a size (n, summed from data) also used as a dynamic-update-slice start, a
# gather's start vector and dynamic-slice starts: the spec holds it (a guard compares it
# after its step); at the same shapes with another n the rest runs step by step.
GUARDED = """
HloModule g
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT c = s32[] add(a, b)
}
ENTRY main {
  x = f32[8,4] parameter(0)
  c = s32[3] parameter(1)
  z = s32[] constant(0)
  n = s32[] reduce(c, z), dimensions={0}, to_apply=add
  y = f32[<=8,4] set-dimension-size(x, n), dimensions={0}
  e = f32[<=8,4] exponential(y)
  u = f32[1,4] constant({{1,2,3,4}})
  d = f32[8,4] dynamic-update-slice(x, u, n, z)
  n1 = s32[1] reshape(n)
  z1 = s32[1] constant({1})
  v = s32[2] concatenate(n1, z1), dimensions={0}
  g = f32[2,3] gather(x, v), offset_dims={0,1}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=0, slice_sizes={2,3}
  ds = f32[2,2] dynamic-slice(x, n, n), dynamic_slice_sizes={2,2}
  ROOT o = (f32[<=8,4], f32[8,4], f32[2,3], f32[2,2], s32[2]) tuple(e, d, g, ds, v)
}
"""


def test_values_read_as_sizes_and_as_starts_are_the_references():
    r = np.random.default_rng(3)
    _check(GUARDED, [(r.standard_normal((8, 4)).astype(F32), np.array(c, S32)) for c in (
        (1, 1, 1), (1, 1, 1), (2, 1, 0), (3, 0, 0), (4, 4, 0), (0, 0, 0), (1, 1, 1),
        (-1, 0, 0), (9, 0, 0))], repeat=3)


GATHER_ONE = """
HloModule g
ENTRY main {
  x = f32[<=9,5] parameter(0)
  i = IT[2] parameter(1)
  ROOT g = f32[3,2] gather(x, i), offset_dims={0,1}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=0, slice_sizes={3,2}
}
"""

UPDATE = """
HloModule d
ENTRY main {
  x = f32[<=8,5] parameter(0)
  u = f32[2,3] parameter(1)
  a = IT[] parameter(2)
  b = IT[] parameter(3)
  ROOT d = f32[<=8,5] dynamic-update-slice(x, u, a, b)
}
"""


@pytest.mark.parametrize("it", ["s8", "u8", "u32", "s64", "u64"])
def test_starts_out_of_range_at_per_call_indices_clamp_as_the_references(it):
    """A gather of one window and a dynamic-update-slice at indices of each integer type:
    past the bound, past the actual size (padding: the reference's zeros), at the type's
    extremes, negative; the same index values with other data; the operand's size moved."""
    dtype = np.dtype({"s8": np.int8, "u8": np.uint8, "u32": np.uint32, "s64": np.int64,
                      "u64": np.uint64}[it])
    info = np.iinfo(dtype)
    starts = [(0, 0), (2, 3), (100, 100), (info.max, info.max), (info.min, 3), (7, 1),
              (5, 4)] + ([(-1, -2), (-100, 2)] if info.min < 0 else [])
    r = np.random.default_rng(4)
    sizes = (9, 9, 6, 3, 9)
    _check(GATHER_ONE.replace("IT", it), [
        (r.standard_normal((n, 5)).astype(F32), np.array(s, dtype))
        for n in sizes for s in starts])
    _check(UPDATE.replace("IT", it), [
        (r.standard_normal((min(n, 8), 5)).astype(F32), r.standard_normal((2, 3)).astype(F32),
         dtype.type(a), dtype.type(b)) for n in sizes + (1,) for a, b in starts])


PAD = """
HloModule p
ENTRY main {
  x = f32[<=7,5] parameter(0)
  v = f32[] parameter(1)
  ROOT p = f32[OUT] pad(x, v), padding=PADS
}
"""


@pytest.mark.parametrize("pads, out", [
    ("-5_-5_2x0_0_0", "<=9,5"), ("3_-4_0x-1_-1_0", "<=6,3"), ("-1_-1_3x2_2_1", "<=23,13"),
    ("0_-13_1x0_0_0", "<=0,5"), ("-1_0_1x-9_0_1", "<=12,0")])
def test_pads_with_negative_and_interior_padding_are_the_references_bit_for_bit(pads, out):
    """Per call pad values -0.0 and NaN (bits compared), sizes down to no rows (the
    lowering), results with no elements."""
    r = np.random.default_rng(5)
    _check(PAD.replace("OUT", out).replace("PADS", pads), [
        (r.standard_normal((n, 5)).astype(F32), F32(v))
        for n in (7, 7, 3, 1, 0, 7) for v in (0.0, -0.0, np.nan, 2.5)])


LAYOUTS = """
HloModule m
ENTRY main {
  x = f32[<=6,5] parameter(0)
  i = s32[2] parameter(1)
  k = f32[3,5,4] parameter(2)
  g = f32[3,2] gather(x, i), offset_dims={0,1}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=0, slice_sizes={3,2}
  v = f32[] constant(1.5)
  p = f32[<=11,7] pad(x, v), padding=1_-1_1x1_1_0
  b = f32[<=6,5,2] broadcast(x), dimensions={0,1}
  x3 = f32[1,<=6,5] reshape(x)
  cv = f32[1,<=6,4] convolution(x3, k), window={size=3 pad=1_1}, dim_labels=b0f_0io->b0f
  e = f32[<=6,5] exponential(x)
  t = f32[5,<=6] transpose(x), dimensions={1,0}
  d = f32[5,5] dot(t, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT o = (f32[3,2], f32[<=11,7], f32[<=6,5,2], f32[1,<=6,4], f32[<=6,5], f32[5,5]) tuple(g, p, b, cv, e, d)
}
"""


def test_arguments_in_other_layouts_at_a_recorded_shape_are_the_references():
    """Fortran-ordered, gapped and reversed-stride arguments after C-ordered ones at the same
    shapes (specs recorded for other strides), the broadcast's read-only view of an
    argument returned (a copy: the caller's array unchanged)."""
    r = np.random.default_rng(6)
    k = r.standard_normal((3, 5, 4)).astype(F32)
    cases = []
    for n in (6, 6, 3, 6):
        x = r.standard_normal((n, 5)).astype(F32)
        gapped = np.zeros((2 * n, 10), F32)
        gapped[::2, ::2] = x
        for v in (x, np.asfortranarray(x), gapped[::2, ::2], x[::-1].copy()[::-1]):
            cases.append((v, np.array([1, 4], S32), k))
            cases.append((v, np.array([-1, 9], S32), np.asfortranarray(k)))
    exe = _check(LAYOUTS, cases, rtol=1e-5)
    x = cases[0][0]
    out = exe(*cases[0])
    out[2][...] = 7
    assert not np.shares_memory(out[2], x) and not (x == 7).any()


CONV_NAN = """
HloModule c
ENTRY main {
  x = f32[1,4,1] parameter(0)
  k = f32[3,1,1] parameter(1)
  ROOT c = f32[1,OUT,1] convolution(x, k), window={WIN}, dim_labels=b0f_0io->b0f
}
"""


@pytest.mark.parametrize("window, out", [
    ("size=3 pad=1_1", 4), ("size=3 pad=2_2 lhs_dilate=2", 9),
    ("size=3 pad=-1_2 rhs_dilate=2 rhs_reversal=1", 1)])
def test_convolution_taps_on_padding_multiply_as_the_references(window, out):
    """A window tap on padding is a product with zero (inf * 0: NaN), as XLA's and the
    reference's, not a skipped term."""
    text = CONV_NAN.replace("OUT", str(out)).replace("WIN", window)
    x = np.arange(1, 5, dtype=F32).reshape(1, 4, 1)
    kernels = [np.array(k, F32).reshape(3, 1, 1) for k in (
        (np.inf, 1, 1), (1, np.nan, -np.inf), (1, 2, 3))]
    exe, ref = _pair(text)
    for k in kernels * 2:
        want, got = ref(x, k), exe(x, k)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        _same(np.nan_to_num(got), np.nan_to_num(want), rtol=1e-6)


# Index values made of the counter (w: kept per counter value, memo.py, when the body's
# spec is made at an iteration whose branch does not return it) that a branch picked by
# the counter returns as the next state: a later iteration, and the loop's result, hold the
# memo's own array.
BRANCH_IN_LOOP = """
HloModule w
b0 {
  p = (s32[2], f32[<=8,4]) parameter(0)
  v = s32[2] get-tuple-element(p), index=0
  a = f32[<=8,4] get-tuple-element(p), index=1
  ROOT r = (s32[2], f32[<=8,4]) tuple(v, a)
}
b1 {
  p = (s32[2], f32[<=8,4]) parameter(0)
  v = s32[2] get-tuple-element(p), index=0
  a = f32[<=8,4] get-tuple-element(p), index=1
  v2 = s32[2] add(v, v)
  e = f32[<=8,4] negate(a)
  ROOT r = (s32[2], f32[<=8,4]) tuple(v2, e)
}
b2 {
  p = (s32[2], f32[<=8,4]) parameter(0)
  v = s32[2] get-tuple-element(p), index=0
  a = f32[<=8,4] get-tuple-element(p), index=1
  io = s32[2] iota(), iota_dimension=0
  sq = s32[2] multiply(io, io)
  ROOT r = (s32[2], f32[<=8,4]) tuple(sq, a)
}
cond {
  s = (s32[], s32[], f32[<=8,4], s32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  k = s32[] constant(6)
  ROOT c = pred[] compare(i, k), direction=LT
}
body {
  s = (s32[], s32[], f32[<=8,4], s32[2]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] get-tuple-element(s), index=1
  acc = f32[<=8,4] get-tuple-element(s), index=2
  vec = s32[2] get-tuple-element(s), index=3
  three = s32[] constant(3)
  sel = s32[] remainder(i, three)
  ib = s32[2] broadcast(i), dimensions={}
  io = s32[2] iota(), iota_dimension=0
  w = s32[2] add(ib, io)
  ops = (s32[2], f32[<=8,4]) tuple(w, acc)
  c = (s32[2], f32[<=8,4]) conditional(sel, ops, ops, ops), branch_computations={b0, b1, b2}
  v2 = s32[2] get-tuple-element(c), index=0
  a2 = f32[<=8,4] get-tuple-element(c), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  half = f32[] constant(0.5)
  hb = f32[8,4] broadcast(half), dimensions={}
  hn = f32[<=8,4] set-dimension-size(hb, n), dimensions={0}
  a3 = f32[<=8,4] add(a2, hn)
  ROOT t = (s32[], s32[], f32[<=8,4], s32[2]) tuple(j, n, a3, v2)
}
ENTRY main {
  n = s32[] parameter(0)
  x = f32[8,4] parameter(1)
  i0 = s32[] parameter(2)
  xn = f32[<=8,4] set-dimension-size(x, n), dimensions={0}
  z2 = s32[2] constant({5, 5})
  t = (s32[], s32[], f32[<=8,4], s32[2]) tuple(i0, n, xn, z2)
  w = (s32[], s32[], f32[<=8,4], s32[2]) while(t), condition=cond, body=body
  a = f32[<=8,4] get-tuple-element(w), index=2
  v = s32[2] get-tuple-element(w), index=3
  ROOT o = (f32[<=8,4], s32[2]) tuple(a, v)
}
"""


@pytest.mark.parametrize("start", [0, 100])
def test_a_value_kept_per_counter_value_that_a_branch_returns_is_the_callers_own(start):
    """start 100: counter values past those a counted body keys its specs by
    (loops.counter_values), so the values made of them are kept per value (memo.py);
    start 0: from the third call from one first state's key on, a spec per counter value
    folds them (loop_body.BodyRuns._counting)."""
    r = np.random.default_rng(7)
    cases = [(S32(n), r.standard_normal((8, 4)).astype(F32), S32(start + i))
             for n, i in ((7, 1), (7, 0), (7, 3), (7, 0), (5, 1), (5, 0), (8, 3), (7, 1))]
    exe, ref = _pair(BRANCH_IN_LOOP.replace("constant(6)", f"constant({start + 6})"))
    for args in cases:
        want = ref(*args)
        got = exe(*args)
        _same(got, want)
        for leaf in got:
            leaf[...] = -1
        _same(exe(*args), want)
    evaluator = exe.program.evaluator
    body = next(info for info in exe.program.info.calls.values()
                if info.computation.name == "body")
    kept = {inst.name for fast in evaluator._local.pools[id(body)].fast.values()
            for op in fast.ops if op[0] == steps._MEMO_STORE for inst in op[3]}
    assert "w" in kept or start == 0   # (the case this test is about)
