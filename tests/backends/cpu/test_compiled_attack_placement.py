"""Attacks on movement steps placed as strided copies in runs of native calls
(placement.py), the runs' scratch arrays, grouped per-call addresses and restrides
(native_chain.py) and a call's values reading the spec's held ones (runner._Values).
Every result is compared bit for bit with the reference evaluator's over several calls;
earlier results are checked unchanged by later calls; structure checks say the copies did
join (so the comparisons test them).
"""

from __future__ import annotations

import ctypes
import threading

import numpy as np
import pytest

from dynhlo.backends.cpu.compiled import machine, native_routines, steps
from tests.backends.cpu.test_compiled_placement import _bits, _pair

F32 = np.float32


def _all_bits(value) -> list:
    return [_bits(v) for v in (value if isinstance(value, tuple) else (value,))]


def _specs(exe) -> list:
    return [spec for pool in exe.program.evaluator._local.pools.values()
            for spec in pool.fast.values()]


def _placed_calls(exe) -> int:
    """How many strided-copy calls into a placed array all the specs' runs make."""
    routines = native_routines._routines()
    places = {routines["place4"], routines["place8"]}
    return sum(1 for spec in _specs(exe) for op in spec.ops if op[0] == steps._CHAIN
               for k in range(0, len(op[8][0]), 2) if op[8][0][k] in places)


def _check(text: str, calls: list):
    """Each call's result, the reference's bit for bit; earlier results unchanged by later
    calls (none aliases an array a later call writes)."""
    on, ref = _pair(text)
    kept = []
    for k, args in enumerate(calls):
        got = on(*args)
        assert _all_bits(got) == _all_bits(ref(*args)), k
        kept.append((got, _all_bits(got)))
        for j, (earlier, bits) in enumerate(kept):
            assert _all_bits(earlier) == bits, (j, k)
    return on, ref


# a parameter read by copies (a concatenate of it) and by a product in one run: the
# product's operand has no restride, so another layout hands the call to the steps
CONCAT_AND_PRODUCT = """
HloModule both
ENTRY main {
  x = f32[<=8,16] parameter(0)
  w = f32[16,32] parameter(1)
  c = f32[<=8,32] concatenate(x, x), dimensions={1}
  d = f32[<=8,32] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  m = f32[<=8,32] multiply(c, d)
  ROOT r = f32[<=8,32] tanh(m)
}
"""


def test_a_refused_restride_leaves_no_copy_half_rewritten():
    """A call with x in another layout: the copies' restrides succeed, the product's is
    refused (the steps run). The copies' arguments must stay the recorded layout's: a later
    call in the recorded layout read x at the other layout's strides."""
    on, ref = _pair(CONCAT_AND_PRODUCT)
    r = np.random.default_rng(1)
    w = r.standard_normal((16, 32)).astype(F32)
    for k in range(8):
        x = r.standard_normal((4, 16)).astype(F32)
        if k in (3, 6):
            x = np.asfortranarray(x)
        elif k == 4:
            x = np.repeat(x, 2, axis=1)[:, ::2]
        assert _all_bits(on(x, w)) == _all_bits(ref(x, w)), k
    assert _placed_calls(on) >= 2


def _refusing_kernel():
    refuse = machine.KERNEL(lambda _, pointer: 1)
    return refuse, ctypes.cast(refuse, ctypes.c_void_p).value


def test_a_refusing_kernel_reads_the_spec_held_values():
    """A kernel of a run that refuses computes its reference value from the call's values,
    which read the spec's held ones (a constant operand) through: a copy of the call's
    dict alone lost them (the constant read as None)."""
    text = """
HloModule held
ENTRY main {
  x = f32[4,4] parameter(0)
  c = f32[4,4] constant({{1,2,3,4},{5,6,7,8},{9,10,11,12},{13,14,15,16}})
  m = f32[4,4] multiply(x, c)
  d = f32[4,4] dot(m, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = f32[4,4] add(d, c)
}
"""
    on, ref = _pair(text)
    r = np.random.default_rng(2)
    x = r.standard_normal((4, 4)).astype(F32)
    for _ in range(3):
        assert _all_bits(on(x)) == _all_bits(ref(x))
    runs = [op for spec in _specs(on) for op in spec.ops if op[0] == steps._CHAIN]
    assert runs
    keep, address = _refusing_kernel()
    tried = 0
    for op in runs:
        entries = op[8][0]
        for at in range(op[4]):
            saved, entries[2 * at] = entries[2 * at], address
            try:
                for _ in range(2):
                    x = r.standard_normal((4, 4)).astype(F32)
                    assert _all_bits(on(x)) == _all_bits(ref(x)), at
            finally:
                entries[2 * at] = saved
            tried += 1
    assert tried >= 2 and keep is not None


# a joined op (transpose then reshape, joined.py) first in a run after a view step that
# stands between its two steps; x also read by a product (no restride)
JOINED_FIRST = """
HloModule joined
ENTRY main {
  x = f32[4,6] parameter(0)
  w = f32[6,6] parameter(1)
  y = f32[4,6] parameter(2)
  t = f32[6,4] transpose(x), dimensions={1,0}
  q = f32[2,6] slice(y), slice={[0:2], [0:6]}
  r = f32[24] reshape(t)
  d = f32[4,6] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  d2 = f32[4,6] dot(d, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT o = (f32[24], f32[4,6], f32[2,6]) tuple(r, d2, q)
}
"""


# the same with a copy of y first in the run (the joined op second)
JOINED_SECOND = JOINED_FIRST.replace(
    "  r = f32[24] reshape(t)\n",
    "  p = f32[4,12] concatenate(y, y), dimensions={1}\n  r = f32[24] reshape(t)\n").replace(
    "ROOT o = (f32[24], f32[4,6], f32[2,6]) tuple(r, d2, q)",
    "ROOT o = (f32[24], f32[4,6], f32[2,6], f32[4,12]) tuple(r, d2, q, p)")


@pytest.mark.parametrize("text", [JOINED_FIRST, JOINED_SECOND])
def test_a_joined_copy_in_a_run_of_an_input_in_another_layout(text):
    """The run's input in another layout hands the call to the steps: they resume before
    the steps the joined op stands for (from the op before the run they missed the
    transpose's value: KeyError)."""
    r = np.random.default_rng(3)
    x = r.standard_normal((4, 6)).astype(F32)
    w = r.standard_normal((6, 6)).astype(F32)
    y = r.standard_normal((4, 6)).astype(F32)
    on, _ = _check(text, [(x, w, y)] * 3 + [(np.asfortranarray(x), w, y)] * 2 +
                   [(x, w, y), (x[::-1].copy()[::-1], w, y), (x, np.asfortranarray(w), y)])
    assert _placed_calls(on) >= 2


ROTATE = """
HloModule rotate
ENTRY main {
  x = f32[<=8,16] parameter(0)
  w = f32[16,16] parameter(1)
  v = f32[16,8] parameter(2)
  d1 = f32[<=8,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  lo = f32[<=8,8] slice(d1), slice={[0:8], [0:8]}
  hi = f32[<=8,8] slice(d1), slice={[0:8], [8:16]}
  nh = f32[<=8,8] negate(hi)
  c = f32[<=8,16] concatenate(nh, lo), dimensions={1}
  m = f32[<=8,16] multiply(c, d1)
  d2 = f32[<=8,8] dot(m, v), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = (f32[<=8,8], f32[<=8,16]) tuple(d2, c)
}
"""


def test_parameters_as_views_of_one_array_and_results_written_into():
    """Parameters that are views of one array (the same array twice, a strided and a
    reversed view, broadcasts), sizes 0, 1 and the bound in turn; results written into by
    the caller change no later call."""
    on, ref = _pair(ROTATE)
    r = np.random.default_rng(4)
    for k, n in enumerate((3, 3, 3, 8, 1, 0, 3, 8, 3, 3)):
        base = r.standard_normal((16, 16)).astype(F32)
        x = base[:n]
        v = (base[:, :8], base[:, 8:], base[::-1, ::2], np.broadcast_to(base[:1, :8], (16, 8)),
             np.asfortranarray(base[:, :8]))[k % 5]
        w = (base, base.T, np.broadcast_to(base[0], (16, 16)))[k % 3]
        got = on(x, w, v)
        assert _all_bits(got) == _all_bits(ref(x, w, v)), k
        for g in got:
            g[...] = 7   # (the caller's to write)
    assert _placed_calls(on) >= 2


def test_the_same_weight_with_its_strides_changed_in_place_between_calls():
    """The same weight array at each call (its address skipped), written in place, and a
    view of the same memory of other strides in between."""
    on, ref = _pair(ROTATE)
    r = np.random.default_rng(5)
    w = r.standard_normal((16, 16)).astype(F32)
    v = r.standard_normal((16, 8)).astype(F32)
    x = r.standard_normal((4, 16)).astype(F32)
    for k in range(9):
        wv = np.lib.stride_tricks.as_strided(w, (16, 16), (4, 64)) if k % 3 == 2 else w
        assert _all_bits(on(x, wv, v)) == _all_bits(ref(x, wv, v)), k
        w[k % 16] += F32(1)
        x *= F32(1.25)


@pytest.mark.parametrize("ty, dtype", [("f32", np.float32), ("f64", np.float64),
                                       ("s32", np.int32), ("u32", np.uint32),
                                       ("s64", np.int64), ("f16", np.float16),
                                       ("pred", np.bool_)])
@pytest.mark.parametrize("count", [1, 2, 5, 12])
def test_concatenates_of_many_operands_every_type(ty, dtype, count):
    """Concatenates of 1 to 12 operands (the same ones again, one of size 0 along the
    axis), in every layout of the input, sizes changing; f16 and pred are no placements
    and still right."""
    unary = "not" if ty in ("pred", "u32") else "negate"
    parts = ", ".join(f"y{j % 2}" for j in range(count))
    width = 4 * count
    text = f"""
HloModule cat
ENTRY main {{
  x = {ty}[<=6,4] parameter(0)
  z = {ty}[<=6,0] parameter(1)
  s = {ty}[<=6,4] add(x, x)
  y0 = {ty}[<=6,4] multiply(s, x)
  y1 = {ty}[<=6,4] add(y0, x)
  c = {ty}[<=6,{width}] concatenate({parts}), dimensions={{1}}
  c2 = {ty}[<=6,{width}] concatenate(c, z), dimensions={{1}}
  n = {ty}[<=6,{width}] {unary}(c2)
  ROOT t = ({ty}[<=6,{width}], {ty}[<=6,{width}]) tuple(n, c)
}}
"""
    r = np.random.default_rng(6)
    calls = []
    for n in (3, 3, 3, 1, 6, 0, 3):
        a = r.standard_normal((n, 4)) > 0 if dtype is np.bool_ else \
            r.integers(0, 1000, (n, 4)).astype(dtype) if dtype is np.uint32 else \
            (r.standard_normal((n, 4)) * 5).astype(dtype)
        big = np.zeros((2 * n + 1, 4), dtype)
        big[1::2] = a
        for x in (a, np.asfortranarray(a), big[1::2], a[::-1].copy()[::-1]):
            calls.append((x, np.zeros((n, 0), dtype)))
    on, _ = _check(text, calls)
    if dtype in (np.float16, np.bool_):
        assert _placed_calls(on) == 0
    elif count in (2, 5):
        assert _placed_calls(on) >= count


def test_gathers_and_dynamic_slices_at_folded_indices():
    """Gathers of boxes at repeated, clamped and negative folded starts, and dynamic-slices
    at constant clamped starts, between products."""
    text = """
HloModule g
ENTRY main {
  x = f32[8,16] parameter(0)
  w = f32[16,16] parameter(1)
  d = f32[8,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  i = s32[5,2] constant({{0,0},{3,3},{3,3},{9,15},{-2,1}})
  g = f32[5,3,4] gather(d, i), offset_dims={1,2}, collapsed_slice_dims={},
      start_index_map={0,1}, index_vector_dim=1, slice_sizes={3,4}
  e = f32[5,3,4] exponential(g)
  a = s32[] constant(5)
  b = s32[] constant(13)
  s = f32[4,6] dynamic-slice(d, a, b), dynamic_slice_sizes={4,6}
  n = s32[] constant(-3)
  s2 = f32[4,6] dynamic-slice(d, n, n), dynamic_slice_sizes={4,6}
  m = f32[4,6] multiply(s, s2)
  v = f32[4,16] parameter(2)
  o = f32[5,3,16] dot(e, v), lhs_contracting_dims={2}, rhs_contracting_dims={0}
  ROOT t = (f32[5,3,16], f32[4,6]) tuple(o, m)
}
"""
    r = np.random.default_rng(7)
    calls = []
    for k in range(6):
        x = r.standard_normal((8, 16)).astype(F32)
        w = r.standard_normal((16, 16)).astype(F32)
        v = r.standard_normal((4, 16)).astype(F32)
        calls.append((x if k % 2 else np.asfortranarray(x), w, v))
    on, _ = _check(text, calls)
    assert _placed_calls(on) >= 2


LOOP = """
HloModule loop
body {
  p = (s32[], f32[<=8,16], f32[16,16]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[<=8,16] get-tuple-element(p), index=1
  w = f32[16,16] get-tuple-element(p), index=2
  d = f32[<=8,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  lo = f32[<=8,8] slice(d), slice={[0:8], [0:8]}
  hi = f32[<=8,8] slice(d), slice={[0:8], [8:16]}
  nh = f32[<=8,8] negate(hi)
  c = f32[<=8,16] concatenate(nh, lo), dimensions={1}
  m = f32[<=8,16] multiply(c, d)
  t = f32[<=8,16] tanh(m)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT o = (s32[], f32[<=8,16], f32[16,16]) tuple(j, t, w)
}
cond {
  p = (s32[], f32[<=8,16], f32[16,16]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  k = s32[] constant(4)
  ROOT lt = pred[] compare(i, k), direction=LT
}
ENTRY main {
  x = f32[<=8,16] parameter(0)
  w = f32[16,16] parameter(1)
  z = s32[] constant(0)
  s = (s32[], f32[<=8,16], f32[16,16]) tuple(z, x, w)
  l = (s32[], f32[<=8,16], f32[16,16]) while(s), condition=cond, body=body
  y = f32[<=8,16] get-tuple-element(l), index=1
  d = f32[<=8,16] dot(y, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  lo = f32[<=8,8] slice(d), slice={[0:8], [0:8]}
  hi = f32[<=8,8] slice(d), slice={[0:8], [8:16]}
  c = f32[<=8,16] concatenate(hi, lo), dimensions={1}
  e = f32[<=8,16] multiply(c, d)
  ROOT t = (f32[<=8,16], f32[<=8,16], f32[<=8,8]) tuple(e, c, lo)
}
"""


def test_loop_bodies_with_copies_and_values_returned_in_tuples():
    """A loop body's run of copies (its scratch arrays reused at every iteration) and the
    entry's, whose copies are also returned in the root tuple."""
    r = np.random.default_rng(8)
    calls = []
    for n in (3, 3, 3, 8, 1, 0, 3, 8):
        x = (r.standard_normal((n, 16)) * 0.3).astype(F32)
        w = (r.standard_normal((16, 16)) * 0.3).astype(F32)
        calls += [(x, w), (np.asfortranarray(x), w), (x, w[::-1].copy()[::-1])]
    on, _ = _check(LOOP, calls)
    assert _placed_calls(on) >= 4


def test_threads_calling_one_executable():
    """Threads calling one executable at once (each has its own specs, scratch arrays
    and argument arrays)."""
    on, ref = _pair(ROTATE)
    failed: list = []

    def work(seed):
        r = np.random.default_rng(seed)
        for k in range(25):
            n = int(r.integers(0, 9))
            x = r.standard_normal((n, 16)).astype(F32)
            args = (np.asfortranarray(x) if k % 4 == 1 else x,
                    r.standard_normal((16, 16)).astype(F32),
                    r.standard_normal((16, 8)).astype(F32))
            if _all_bits(on(*args)) != _all_bits(ref(*args)):
                failed.append((seed, k))
    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failed


# a loop body's joined copy (transpose then reshape) and copies of the state's x, read by a
# product too: x comes in the caller's layout at the first iteration, in the body's at
# the others (restrided back and forth, the steps handed the rest when the product reads
# it in another layout)
LOOP_JOINED = """
HloModule loop
body {
  p = (s32[], f32[4,6], f32[6,6], f32[24]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[4,6] get-tuple-element(p), index=1
  w = f32[6,6] get-tuple-element(p), index=2
  t = f32[6,4] transpose(x), dimensions={1,0}
  q = f32[2,6] slice(w), slice={[0:2], [0:6]}
  c = f32[4,12] concatenate(x, x), dimensions={1}
  r = f32[24] reshape(t)
  d = f32[4,6] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  d2 = f32[4,6] dot(d, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  cs = f32[4,6] slice(c), slice={[0:4], [3:9]}
  qq = f32[2,12] concatenate(q, q), dimensions={1}
  qs = f32[4,6] reshape(qq)
  n1 = f32[4,6] add(d2, cs)
  n = f32[4,6] add(n1, qs)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT o = (s32[], f32[4,6], f32[6,6], f32[24]) tuple(j, n, w, r)
}
cond {
  p = (s32[], f32[4,6], f32[6,6], f32[24]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  k = s32[] constant(4)
  ROOT lt = pred[] compare(i, k), direction=LT
}
ENTRY main {
  x = f32[4,6] parameter(0)
  w = f32[6,6] parameter(1)
  z = s32[] constant(0)
  e = f32[24] constant({0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0})
  s = (s32[], f32[4,6], f32[6,6], f32[24]) tuple(z, x, w, e)
  l = (s32[], f32[4,6], f32[6,6], f32[24]) while(s), condition=cond, body=body
  y = f32[4,6] get-tuple-element(l), index=1
  rr = f32[24] get-tuple-element(l), index=3
  ROOT t = (f32[4,6], f32[24]) tuple(y, rr)
}
"""


def test_a_loop_body_joined_copy_of_state_in_layouts_changing_per_iteration():
    r = np.random.default_rng(12)
    calls = []
    for k in range(10):
        x = (r.standard_normal((4, 6)) * 0.2).astype(F32)
        w = (r.standard_normal((6, 6)) * 0.2).astype(F32)
        calls.append(([x, np.asfortranarray(x), x[::-1].copy()[::-1],
                       np.repeat(x, 2, axis=1)[:, ::2]][k % 4],
                      [w, w, np.asfortranarray(w)][k % 3]))
    on, _ = _check(LOOP_JOINED, calls)
    assert _placed_calls(on) >= 4
