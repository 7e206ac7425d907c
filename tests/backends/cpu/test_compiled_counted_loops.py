"""Counted loop bodies: a spec per counter value (loops.counter_elements, counter_values),
whose gathers, pads and dynamic-update-slices at the counter's index fold into strided
copies inside runs of native calls (placement.py). Semantics: XLA operation semantics
(While; Gather, DynamicUpdateSlice: start indices clamped into range; Pad). Every result
is compared with the reference evaluator's bit for bit, over several calls, trip counts
(past the rows: clamped indices, padding read) and sizes; the structure checks say the
steps did become copies, so the comparisons test them.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import joined, loop_body, loops, native_loop, placement, steps
from tests.backends.cpu import test_compiled_lstm_loop as lstm
from tests.backends.cpu.test_compiled_spec_steps import _same

F32, S32 = np.float32, np.int32


# calls from one first state's key after which a counted loop's specs and plan are made
# (loop_body._WARM uncounted calls, one that makes the counted specs, one the plan)
WARM_CALLS = loop_body._WARM + 2


def _counted_specs(pool) -> dict:
    """The pool's specs keyed by counter values (their keys one longer than the others:
    the first key, then the counter values)."""
    if not pool.fast:
        return {}
    longest = max(len(key) for key in pool.fast)
    if all(len(key) == longest for key in pool.fast):
        return {}   # (none counted: or every spec counted, never the case here)
    return {key: fast for key, fast in pool.fast.items() if len(key) == longest}


def _body_pool(exe, name: str = "body"):
    evaluator = exe.program.evaluator
    todo = list(exe.program.info.calls.values())
    while todo:
        info = todo.pop()
        if info.computation.name == name:
            return evaluator._local.pools[id(info)]
        todo.extend(info.calls.values())
    raise LookupError(name)


@pytest.mark.parametrize("trips", [0, 1, 3, 6, 9])
def test_an_lstm_scan_body_is_one_run_per_counter_value(trips):
    """JAX's scan as an LSTM writes it (x[i] gathered, h's rows written into out[i]
    through pad, dynamic-update-slice, set-dimension-size and slice, a padded window of y
    gathered at i): each counter value's spec is one run of native calls between the
    state's unpacking and the next state's tuple, with the reference's results bit for
    bit, past the rows too (i clamped, zeros of the padding read)."""
    text = lstm.MODULE.replace("TRIPS", str(trips))
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    for seed, n in enumerate((5, 8, 1, 5)):
        args = lstm._args(n, seed)
        for _ in range(WARM_CALLS):
            _same(exe(*args), ref(*args))
    if trips <= 1:   # no loop left: its init, or its body in the entry (while-loop-simplifier)
        with pytest.raises(LookupError):
            _body_pool(exe)
        return
    counted = _counted_specs(_body_pool(exe))
    assert {key[-1] for key in counted} == {(i,) for i in range(trips)}
    for fast in counted.values():
        assert [op[0] for op in fast.ops] == [steps._UNPACK, steps._CHAIN, steps._TUPLE]


def test_a_first_key_seen_once_or_twice_makes_no_spec_per_counter_value():
    """Sizes seen once or twice run the body's one spec (a spec per counter value is made
    from the third call from a first key on, and for at most _COUNTED_KEYS first keys)."""
    exe = dynhlo.compile(lstm.MODULE.replace("TRIPS", "4"), backend="cpu", reference=False)
    for n in (1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8):
        exe(*lstm._args(n, n))
    assert not _counted_specs(_body_pool(exe))
    for n in (1, 2, 3, 4, 5, 6, 7, 8):
        exe(*lstm._args(n, n))
    keys = {key[:-1] for key in _counted_specs(_body_pool(exe))}
    assert len(keys) == loop_body._COUNTED_KEYS


# A counter that starts where the caller says (i0), a row of x read at i & 7 and summed
COUNTER = """
HloModule counted
body {
  s = (s32[], f32[8,4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[8,4] get-tuple-element(s), index=1
  acc = f32[4] get-tuple-element(s), index=2
  seven = s32[] constant(7)
  m = s32[] and(i, seven)
  at = s32[1,1] reshape(m)
  row = f32[1,4] gather(x, at), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
  r = f32[4] reshape(row)
  e = f32[4] exponential(r)
  acc2 = f32[4] add(acc, e)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[8,4], f32[4]) tuple(j, x, acc2)
}
cond {
  s = (s32[], f32[8,4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  k = s32[] constant(LIMIT)
  ROOT lt = pred[] compare(i, k), direction=LT
}
ENTRY main {
  i0 = s32[] parameter(0)
  x = f32[8,4] parameter(1)
  z = f32[] constant(0)
  a = f32[4] broadcast(z), dimensions={}
  t = (s32[], f32[8,4], f32[4]) tuple(i0, x, a)
  w = (s32[], f32[8,4], f32[4]) while(t), condition=cond, body=body
  ROOT r = f32[4] get-tuple-element(w), index=2
}
"""


@pytest.mark.parametrize("limit, starts", [(6, (0, 2, 0, 5, 6)), (70, (60, 0, 66, 60)),
                                           (3, (-4, 0, -4))])
def test_counter_values_out_of_the_counted_range_use_one_spec(limit, starts):
    """Counter values in [0, _COUNTED) key a spec each; others (past it, negative) the
    body's one spec whose row index is computed per iteration: the same results either
    way, bit for bit, whichever way a call starts."""
    text = COUNTER.replace("LIMIT", str(limit))
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    x = np.random.default_rng(3).standard_normal((8, 4)).astype(F32)
    for start in starts:
        for _ in range(WARM_CALLS):
            _same(exe(S32(start), x), ref(S32(start), x))
    keys = {key[-1] for key in _counted_specs(_body_pool(exe))}
    seen = {v for s in starts for v in range(s, limit)}
    assert keys == {(v,) for v in seen if 0 <= v < loops._COUNTED}


def test_a_body_too_large_for_a_spec_per_counter_value_is_not_small():
    """A body whose values at their bounds exceed _COUNTED_BYTES is not small (a spec per
    counter value of every iteration would each hold their own scratch arrays: only a
    long loop's first iterations get them, native_loop_template.py); its counter elements
    are found all the same."""
    big = loops._COUNTED_BYTES // 4 // 4 + 1
    text = COUNTER.replace("LIMIT", "3").replace("f32[8,4]", f"f32[{big},4]")
    module = dynhlo.parse_hlo(text)
    body = next(c for c in module.computations if c.name == "body")
    assert not loops.small_body(body)
    assert [k for k, _ in loops.counter_elements(body, ())] == [0]
    small = next(c for c in dynhlo.parse_hlo(COUNTER.replace("LIMIT", "3")).computations
                 if c.name == "body")
    assert loops.small_body(small)
    assert [k for k, _ in loops.counter_elements(small, ())] == [0]


# out[i] = h through a pad of PAD (its padding value) and a dynamic-update-slice at i
PADDED = """
HloModule padded
body {
  s = (s32[], f32[4,<=6,3], f32[<=6,3]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  out = f32[4,<=6,3] get-tuple-element(s), index=1
  h = f32[<=6,3] get-tuple-element(s), index=2
  z = s32[] constant(0)
  pv = f32[] constant(PAD)
  p = f32[4,<=12,3] pad(out, pv), padding=0_0x0_6x0_0
  b = f32[1,<=6,3] broadcast(h), dimensions={1,2}
  d = f32[4,<=12,3] dynamic-update-slice(p, b, i, z, z)
  r = f32[4,<=6,3] slice(d), slice={[0:4], [0:6], [0:3]}
  n = s32[] get-dimension-size(out), dimensions={1}
  rn = f32[4,<=6,3] set-dimension-size(r, n), dimensions={1}
  two = f32[] constant(2)
  tb = f32[<=6,3] broadcast(two), dimensions={}
  tn = f32[<=6,3] set-dimension-size(tb, n), dimensions={0}
  h2 = f32[<=6,3] multiply(h, tn)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[4,<=6,3], f32[<=6,3]) tuple(j, rn, h2)
}
cond {
  s = (s32[], f32[4,<=6,3], f32[<=6,3]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  k = s32[] constant(5)
  ROOT lt = pred[] compare(i, k), direction=LT
}
ENTRY main {
  out = f32[4,<=6,3] parameter(0)
  h = f32[<=6,3] parameter(1)
  z = s32[] constant(0)
  t = (s32[], f32[4,<=6,3], f32[<=6,3]) tuple(z, out, h)
  w = (s32[], f32[4,<=6,3], f32[<=6,3]) while(t), condition=cond, body=body
  ROOT r = f32[4,<=6,3] get-tuple-element(w), index=1
}
"""


@pytest.mark.parametrize("pad, placed", [("0", True), ("-0", False), ("1.5", False)])
def test_a_pad_is_copies_over_zeros_only_for_a_positive_zero(pad, placed):
    """The padding is never read back here (sliced off), but the pad's own value holds
    it: a copy over zeros stands for a +0 padding value only; -0 and 1.5 stay the
    lowering's (the spec keeps a Python step). Row 4 (i = 4) is clamped to row 3."""
    text = PADDED.replace("PAD", pad)
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    r = np.random.default_rng(5)
    for n in (6, 2, 6, 1):
        args = (r.standard_normal((4, n, 3)).astype(F32), r.standard_normal((n, 3)).astype(F32))
        for _ in range(WARM_CALLS):
            _same(exe(*args), ref(*args))
    counted = _counted_specs(_body_pool(exe))
    assert counted
    for fast in counted.values():
        left = {op[1].opcode.name for op in fast.ops if op[0] != steps._CHAIN and
                op[1] is not None and not op[1].shape.is_tuple}
        assert ("PAD" not in left) == placed


def _probe_of(fn, *xs):
    value = fn(*xs)
    return placement._probe(fn, list(xs), value)


def test_probe_splits_a_row_written_into_the_middle_twice():
    """A dynamic-update-slice's value: rows before and after the written one read the
    operand, the written row half the update and half the operand (a slab split again
    along another axis): four boxes."""
    x = np.arange(24, dtype=F32).reshape(4, 3, 2)
    u = -np.arange(4, dtype=F32).reshape(1, 2, 2) - 1

    def update(a, b):
        out = a.copy()
        out[2:3, 0:2] = b
        return out
    boxes = _probe_of(update, x, u)
    assert boxes is not None and len(boxes) == 4
    got = np.empty_like(x)
    sources = (x, u)
    for start, sizes, k, first, step in boxes:   # the boxes, copied by hand
        for index in np.ndindex(*sizes):
            at = tuple(s + i for s, i in zip(start, index, strict=True))
            src = tuple(f + sum(i * st[d] for i, st in zip(index, step, strict=True))
                        for d, f in enumerate(first))
            got[at] = sources[k][src]
    assert np.array_equal(got, update(x, u))


# exp of a gather whose value is a transposed copy (the reference's layout: F order),
# inside a run of native calls
TRANSPOSED_UFUNC = """
HloModule tu
ENTRY main {
  x = f32[<=8,6] parameter(0)
  w = f32[6,6] parameter(1)
  p = f32[<=8,6] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[6,<=8] transpose(p), dimensions={1,0}
  c = s32[3,1] constant({{0},{2},{4}})
  g = f32[3,<=8] gather(t, c), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}
  e = f32[3,<=8] exponential(g)
  ROOT r = f32[3,<=8] negate(e)
}
"""


def test_a_ufunc_on_a_transposed_copy_is_the_references():
    exe = dynhlo.compile(TRANSPOSED_UFUNC, backend="cpu", reference=False)
    ref = dynhlo.compile(TRANSPOSED_UFUNC, backend="cpu", reference=True)
    r = np.random.default_rng(9)
    w = r.standard_normal((6, 6)).astype(F32)
    for n in (8, 3, 8, 1):
        x = r.standard_normal((n, 6)).astype(F32)
        for _ in range(2):
            _same(exe(x, w), ref(x, w))


def _plan_runs(monkeypatch, kind=native_loop.LoopPlan) -> list:
    """The runs of plans of class `kind` from now on: True for each that gave the final
    state."""
    ran: list = []
    run = kind.run

    def counted(self, state, *keyed):
        out = run(self, state, *keyed)
        ran.append(out is not None)
        return out
    monkeypatch.setattr(kind, "run", counted)
    return ran


@pytest.mark.parametrize("trips", [2, 3, 6, 9])   # (one trip: no loop left to plan)
def test_a_scans_iterations_run_as_one_plan(trips, monkeypatch):
    """From the second call at a first state's shapes on, the LSTM-like scan's iterations
    run as one list of native calls (native_loop.LoopPlan), with the reference's results
    bit for bit; a result written into by the caller changes no later call's."""
    text = lstm.MODULE.replace("TRIPS", str(trips))
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    ran = _plan_runs(monkeypatch)
    for seed, n in enumerate((5, 8, 1, 5)):
        args = lstm._args(n, seed)
        for _ in range(WARM_CALLS + 1):
            got = exe(*args)
            _same(got, ref(*args))
            for leaf in got:
                np.asarray(leaf)[...] = np.nan
        _same(exe(*args), ref(*args))
    assert ran.count(True) >= 4 * 2   # (each size: its calls after the first)


def test_elements_the_caller_never_reads_are_not_copied_out_of_a_plan(monkeypatch):
    """The entry reads only `out` (element 4) of the scan: the plan returns h and acc as its
    own arrays (nobody sees them) and copies out only what is read, bit for bit with the
    reference; a result written into by the caller changes no later call's."""
    text = lstm.MODULE.replace("TRIPS", "4").replace(
        "ROOT o = (f32[6,<=8,3], f32[<=8,3], f32[2,4]) tuple(r, hl, a)",
        "ROOT o = (f32[6,<=8,3]) tuple(r)")
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    ran = _plan_runs(monkeypatch)
    for seed, n in enumerate((5, 8, 5)):
        args = lstm._args(n, seed)
        for _ in range(WARM_CALLS + 1):
            got = exe(*args)
            _same(got, ref(*args))
            np.asarray(got[0])[...] = np.nan
    assert ran.count(True) >= 2
    (plan,) = {id(p): p for p in _body_pool(exe).loops.values()
               if isinstance(p, native_loop.LoopPlan) and p.signature[1][1] == 5}.values()
    kinds = [kind for kind, _ in plan.final]
    assert kinds[4] == native_loop._OWNED   # read: copied out
    assert kinds[3] == kinds[6] == native_loop._HELD   # never read: the plan's own


def test_arguments_of_another_layout_run_through_the_specs(monkeypatch):
    """x transposed in memory (Fortran order), and a view of a larger array: the plan
    declines (strides other than recorded) and the specs run, bit for bit."""
    text = lstm.MODULE.replace("TRIPS", "4")
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    ran = _plan_runs(monkeypatch)
    x, w, y = lstm._args(5, 0)
    for _ in range(WARM_CALLS):
        _same(exe(x, w, y), ref(x, w, y))
    layouts = [np.asfortranarray(x), np.concatenate([x, x], axis=2)[:, :, ::2], x]
    for xs in layouts:
        for _ in range(2):
            _same(exe(xs, w, y), ref(xs, w, y))
    assert True in ran and False in ran


# the counter's next value read off another element: iterations not known from the start
FOLLOWS_NOT = COUNTER.replace("j = s32[] add(i, one)", """sum = f32[] reduce(acc2, z0), dimensions={0}, to_apply=add
  big = pred[] compare(sum, z0), direction=GT
  two = s32[] constant(2)
  by = s32[] select(big, two, one)
  j = s32[] add(i, by)""").replace("HloModule counted", """HloModule counted
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}""").replace("  seven = s32[] constant(7)", "  seven = s32[] constant(7)\n  z0 = f32[] constant(0)")


def test_a_counter_made_of_other_elements_gets_no_plan(monkeypatch):
    text = FOLLOWS_NOT.replace("LIMIT", "9")
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    ran = _plan_runs(monkeypatch)
    r = np.random.default_rng(4)
    for _ in range(WARM_CALLS):
        x = r.standard_normal((8, 4)).astype(F32)
        for _ in range(2):
            _same(exe(S32(0), x), ref(S32(0), x))
    assert ran == []


def test_the_iteration_limit_holds_with_plans():
    """max_while_iterations below the trip count: the loop's error every call; at the trip
    count: results (through the plan from the second call)."""
    text = lstm.MODULE.replace("TRIPS", "6")
    args = lstm._args(5, 0)
    low = dynhlo.compile(text, backend="cpu", reference=False, max_while_iterations=5)
    for _ in range(WARM_CALLS + 1):
        with pytest.raises(dynhlo.DynHloError, match="max_while_iterations=5"):
            low(*args)
    enough = dynhlo.compile(text, backend="cpu", reference=False, max_while_iterations=6)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    for _ in range(WARM_CALLS + 1):
        _same(enough(*args), ref(*args))


def test_threads_running_one_executables_plans_are_the_references():
    import threading
    text = lstm.MODULE.replace("TRIPS", "6")
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    cases = [lstm._args(n, n) for n in (1, 3, 5, 8)]
    wants = [ref(*args) for args in cases]
    failures = []

    def work(k):
        try:
            for _ in range(20):
                for args, want in zip(cases[k:] + cases[:k], wants[k:] + wants[:k],
                                      strict=True):
                    _same(exe(*args), want)
        except AssertionError as exc:   # (reported by the main thread)
            failures.append(exc)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_one_copy_of_a_box_is_a_new_array_a_scalar_one_too():
    """joined._one_copy of a run that reads one element (a counted body's gather at the
    counter, then a reshape to a scalar: JAX's lu_pivots_to_permutation) is a 0-d copy; of
    a run whose box is already dense, a copy too (never a view of the operand)."""
    x = np.arange(8, dtype=S32)
    one = joined._one_copy(lambda a: a[3:4].reshape(()).copy(), x, np.array(S32(3)))
    got = one(x)
    assert got.shape == () and got == 3 and not np.may_share_memory(got, x)
    dense = joined._one_copy(lambda a: a[2:6].copy(), x, x[2:6].copy())
    got = dense(x)
    assert np.array_equal(got, x[2:6]) and not np.may_share_memory(got, x)


def test_a_scan_of_static_shapes_runs_as_one_plan_too(monkeypatch):
    """A body whose state has no dynamic dimension binds its elements one step each (no
    one-step unpacking: its key does not hold the state's shapes); its iterations run as
    one plan all the same, the reference's results bit for bit."""
    text = COUNTER.replace("LIMIT", "6")
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    ran = _plan_runs(monkeypatch)
    x = np.random.default_rng(8).standard_normal((8, 4)).astype(F32)
    for start in (0, 2, 0, 5):
        for _ in range(WARM_CALLS + 1):
            _same(exe(S32(start), x), ref(S32(start), x))
            x[1] += F32(0.5)   # (the same array, new values)
    assert ran.count(True) >= 4


# a view of a state element (v's reshape) inside the run, at static and dynamic shapes
VIEWED_STATE = """
HloModule viewed
body {
  p = (s32[], f32[4,DIM], f32[DIM]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  acc = f32[4,DIM] get-tuple-element(p), index=1
  v = f32[DIM] get-tuple-element(p), index=2
  row = f32[1,DIM] reshape(v)
  zero = s32[] constant(0)
  upd = f32[4,DIM] dynamic-update-slice(acc, row, i, zero)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  w = f32[DIM] negate(v)
  ROOT t = (s32[], f32[4,DIM], f32[DIM]) tuple(j, upd, w)
}
cond {
  p = (s32[], f32[4,DIM], f32[DIM]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  four = s32[] constant(4)
  ROOT lt = pred[] compare(i, four), direction=LT
}
ENTRY main {
  a = f32[4,DIM] parameter(0)
  v = f32[DIM] parameter(1)
  zero = s32[] constant(0)
  init = (s32[], f32[4,DIM], f32[DIM]) tuple(zero, a, v)
  loop = (s32[], f32[4,DIM], f32[DIM]) while(init), condition=cond, body=body
  ROOT out = f32[4,DIM] get-tuple-element(loop), index=1
}
"""


@pytest.mark.parametrize("dim", ["3", "<=3"])
def test_a_view_of_a_state_element_in_the_run(dim):
    """The first iteration's view of an argument is the plan's to decline (made per call):
    no plan, no error; the results are the reference's at every call."""
    text = VIEWED_STATE.replace("DIM", dim)
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    r = np.random.default_rng(9)
    for n in ((3,) if dim == "3" else (3, 2, 3)):
        a, v = r.standard_normal((4, n)).astype(F32), r.standard_normal(n).astype(F32)
        for _ in range(WARM_CALLS + 2):
            _same(exe(a, v), ref(a, v))
