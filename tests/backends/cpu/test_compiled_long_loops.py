"""Loops past the counted range (loops._COUNTED): their body's spec reads the counter per
iteration. A carried dynamic-update-slice is written in place (loops.carried_update,
special._update_slice): from a loop call's second iteration on, the buffer the body's update
made in the same call is written into instead of copied (a scan's stacked outputs: one row
per iteration, not the whole buffer); a dynamic-slice at the counter is a window placed per
start value (special._slice_at). Semantics: XLA operation semantics (While, DynamicSlice,
DynamicUpdateSlice: start indices clamped into range; rows past an actual size are padding).
Every result is compared with NumPy by hand and the reference evaluator, over several calls
(uncounted and counted specs, loop plans) and trip counts past the counted range; the
caller's arrays, the loop's first state included, are never written, and a buffer still
read after the update is never written.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import loops, native_loop, steps
from dynhlo.errors import DynamicSizeError
from dynhlo.hlo import parse_hlo
from tests.backends.cpu.test_compiled_counted_loops import _body_pool

F32 = np.float32


def _condition(state: str, trips: int) -> str:
    """The condition computation `cond` of a loop over `state` whose element 0 counts to
    `trips`."""
    return f"""cond {{
  s = {state} parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant({trips})
  ROOT lt = pred[] compare(i, n), direction=LT
}}
"""


def _scan(trips: int, rows: int, extra_root: str = "", extra_shape: str = "") -> str:
    """A loop writing row i of ys (element 1) with c = h * 0.5 + i at each iteration i < trips;
    `extra_root`/`extra_shape`: one more state element (what the root passes as it)."""
    state = f"(s32[], f32[{rows},4], f32[4]{extra_shape})"
    last = f"last = {extra_shape.strip(', ')} get-tuple-element(w), index=3" \
        if extra_shape else ""
    return f"""HloModule scan

{_condition(state, trips)}
body {{
  s = {state} parameter(0)
  i = s32[] get-tuple-element(s), index=0
  ys = f32[{rows},4] get-tuple-element(s), index=1
  h = f32[4] get-tuple-element(s), index=2
  one = s32[] constant(1)
  next = s32[] add(i, one)
  half = f32[] constant(0.5)
  halves = f32[4] broadcast(half), dimensions={{}}
  fi = f32[] convert(i)
  fis = f32[4] broadcast(fi), dimensions={{}}
  scaled = f32[4] multiply(h, halves)
  c = f32[4] add(scaled, fis)
  row = f32[1,4] reshape(c)
  zero = s32[] constant(0)
  ys1 = f32[{rows},4] dynamic-update-slice(ys, row, i, zero)
  ROOT t = {state} tuple(next, ys1, c{extra_root})
}}

ENTRY e {{
  ys0 = f32[{rows},4] parameter(0)
  h0 = f32[4] parameter(1)
  z = s32[] constant(0)
  init = {state} tuple(z, ys0, h0{', ys0' if extra_shape else ''})
  w = {state} while(init), condition=cond, body=body
  ys = f32[{rows},4] get-tuple-element(w), index=1
  h = f32[4] get-tuple-element(w), index=2
  {last}
  ROOT r = (f32[{rows},4], f32[4]{extra_shape}) tuple(ys, h{', last' if extra_shape else ''})
}}
"""


def _by_hand(ys0, h0, trips: int, keep_before_last: bool = False):
    """NumPy's loop: row min(i, rows - 1) (the start clamped) of ys takes c at step i."""
    ys, h, before = ys0.copy(), h0.copy(), ys0.copy()
    for i in range(trips):
        c = (h * F32(0.5) + F32(i)).astype(F32)
        before = ys.copy()
        ys[min(i, ys.shape[0] - 1)] = c
        h = c
    return (ys, h, before) if keep_before_last else (ys, h)


def _body(text: str):
    module = parse_hlo(text)
    return next(c for c in module.computations if c.name == "body")


def test_a_scans_stacked_output_is_a_carried_update():
    body = _body(_scan(5, 5))
    assert loops.carried_update(body, next(i for i in body.instructions
                                           if i.name == "ys1"))


def test_an_update_whose_old_buffer_is_still_read_is_not_carried():
    # the root passes the old ys on as element 3: writing into it would change that
    body = _body(_scan(5, 5, extra_root=", ys", extra_shape=", f32[5,4]"))
    assert not loops.carried_update(body, next(i for i in body.instructions
                                               if i.name == "ys1"))


def _through_barrier(text: str) -> str:
    """_scan with element 3 the old ys read through an opt-barrier of the whole state."""
    return text.replace("  ROOT t = ", "  ob = (s32[], f32[{r},4], f32[4], f32[{r},4]) "
                        "opt-barrier(s)\n  old = f32[{r},4] get-tuple-element(ob), index=1\n"
                        "  ROOT t = ").replace("tuple(next, ys1, c, ys)", "tuple(next, ys1, c, old)")


@pytest.mark.parametrize("trips", [5, 100])
def test_a_state_read_whole_keeps_the_old_buffer(trips):
    """The old buffer read through an instruction of the whole state (an opt-barrier; a
    call, tuple or conditional alike): not a carried update, and the state before the last
    update is returned as it was."""
    rows = 100
    text = _through_barrier(_scan(trips, rows, extra_root=", ys",
                                  extra_shape=f", f32[{rows},4]")).replace("{r}", str(rows))
    assert not loops.carried_update(_body(text), next(
        i for i in _body(text).instructions if i.name == "ys1"))
    fast = dynhlo.compile(text, backend="cpu", reference=False)
    ys0 = np.random.default_rng(2).standard_normal((rows, 4)).astype(F32)
    h0 = np.ones(4, F32)
    ys, h, before = _by_hand(ys0, h0, trips, keep_before_last=True)
    for _ in range(8):
        got = fast(ys0, h0)
        np.testing.assert_array_equal(got[0], ys)
        np.testing.assert_array_equal(got[2], before)


@pytest.mark.parametrize("trips,rows", [(3, 8), (8, 8), (100, 100), (130, 100)])
def test_carried_updates_equal_the_loop_by_hand_and_leave_the_callers_arrays(trips, rows):
    text = _scan(trips, rows)
    fast = dynhlo.compile(text, backend="cpu", reference=False)
    reference = dynhlo.compile(text, backend="cpu", reference=True)
    rng = np.random.default_rng(trips)
    ys0 = rng.standard_normal((rows, 4)).astype(F32)
    h0 = rng.standard_normal(4).astype(F32)
    expected = _by_hand(ys0, h0, trips)
    kept_ys0, kept_h0 = ys0.copy(), h0.copy()
    results = []
    for _ in range(6):   # uncounted specs, counted ones, a loop plan
        got = fast(ys0, h0)
        for g, e, r in zip(got, expected, reference(ys0, h0), strict=True):
            np.testing.assert_array_equal(g, e)
            np.testing.assert_array_equal(g, r)
        results.append(got)
        np.testing.assert_array_equal(ys0, kept_ys0)
        np.testing.assert_array_equal(h0, kept_h0)
    # a result passed back as the first state is the caller's array now: never written
    earlier = [(ys.copy(), h.copy()) for ys, h in results]
    again = fast(results[0][0], results[0][1])
    np.testing.assert_array_equal(again[0], _by_hand(results[0][0], results[0][1], trips)[0])
    for (ys, h), (ys_was, h_was) in zip(results, earlier, strict=True):
        np.testing.assert_array_equal(ys, ys_was)
        np.testing.assert_array_equal(h, h_was)
    assert all(ys is not ys0 for ys, _ in results)


@pytest.mark.parametrize("trips", [6, 100])
def test_an_old_buffer_still_read_after_the_update_keeps_its_rows(trips):
    rows = 100
    text = _scan(trips, rows, extra_root=", ys", extra_shape=f", f32[{rows},4]")
    fast = dynhlo.compile(text, backend="cpu", reference=False)
    rng = np.random.default_rng(1)
    ys0 = rng.standard_normal((rows, 4)).astype(F32)
    h0 = rng.standard_normal(4).astype(F32)
    ys, h, before = _by_hand(ys0, h0, trips, keep_before_last=True)
    for _ in range(5):
        got = fast(ys0, h0)
        np.testing.assert_array_equal(got[0], ys)
        np.testing.assert_array_equal(got[1], h)
        np.testing.assert_array_equal(got[2], before)   # the state before the last update


def test_the_update_writes_into_its_own_buffer_from_the_second_iteration_on():
    """The values the uncounted spec's update step gives over one loop call of 100
    iterations: a new array at its first (the buffer it was given copied), then that same
    array at every later one; a new one again at the next call."""
    text = _scan(100, 100)
    fast = dynhlo.compile(text, backend="cpu", reference=False)
    ys0, h0 = np.zeros((100, 4), F32), np.ones(4, F32)
    fast(ys0, h0)
    pool = _body_pool(fast)
    (spec,) = pool.fast.values()
    (k,) = [k for k, op in enumerate(spec.ops)
            if op[0] == steps._SPECIAL and op[1].name == "ys1"]
    made = []
    op = spec.ops[k]

    def spy(*args):
        out = op[2](*args)
        made.append(out)
        return out
    spec.ops[k] = (op[0], op[1], spy, *op[3:])
    firsts = []
    for _ in range(2):   # (the third call counts iterations 0..63: specs of their own)
        start = len(made)
        got = fast(ys0, h0)
        np.testing.assert_array_equal(got[0], _by_hand(ys0, h0, 100)[0])
        mine = made[start:]
        assert len(mine) in (100, 100 - loops._COUNTED) and mine[0] is not ys0
        assert all(m is mine[0] for m in mine[1:])
        firsts.append(mine[0])
    assert firsts[0] is not firsts[1]



def _windows(trips: int, bound: int, dynamic: bool) -> str:
    """A loop summing, at each iteration i < trips, the 2-row window of x at start i - 3
    (clamped: negative at first, past the rows at the end; x's rows may be a dynamic size,
    whose padding the window may reach)."""
    x = f"f32[<={bound},4]" if dynamic else f"f32[{bound},4]"
    state = f"(s32[], {x}, f32[2,4])"
    return f"""HloModule windows

{_condition(state, trips)}
body {{
  s = {state} parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = {x} get-tuple-element(s), index=1
  acc = f32[2,4] get-tuple-element(s), index=2
  three = s32[] constant(3)
  start = s32[] subtract(i, three)
  zero = s32[] constant(0)
  window = f32[2,4] dynamic-slice(x, start, zero), dynamic_slice_sizes={{2,4}}
  sum = f32[2,4] add(acc, window)
  one = s32[] constant(1)
  next = s32[] add(i, one)
  ROOT t = {state} tuple(next, x, sum)
}}

ENTRY e {{
  x = {x} parameter(0)
  z = s32[] constant(0)
  fz = f32[] constant(0)
  acc = f32[2,4] broadcast(fz), dimensions={{}}
  init = {state} tuple(z, x, acc)
  w = {state} while(init), condition=cond, body=body
  ROOT r = f32[2,4] get-tuple-element(w), index=2
}}
"""


def _windows_by_hand(x, trips: int, bound: int):
    """The sum of the windows, each at its start clamped into [0, bound - 2] (XLA clamps
    against the bound), rows past x's actual rows read as zeros (padding)."""
    padded = np.zeros((bound, 4), F32)
    padded[:x.shape[0]] = x
    acc = np.zeros((2, 4), F32)
    for i in range(trips):
        first = min(max(i - 3, 0), bound - 2)
        acc = (acc + padded[first:first + 2]).astype(F32)
    return acc


@pytest.mark.parametrize("trips", [5, 70, 130])
@pytest.mark.parametrize("dynamic,rows", [(False, 100), (True, 100), (True, 57)])
def test_windows_at_the_counter_past_the_counted_range(trips, dynamic, rows):
    text = _windows(trips, 100, dynamic)
    fast = dynhlo.compile(text, backend="cpu", reference=False)
    reference = dynhlo.compile(text, backend="cpu", reference=True)
    x = np.random.default_rng(rows).standard_normal((rows, 4)).astype(F32)
    expected = _windows_by_hand(x, trips, 100)
    for _ in range(5):
        got = fast(x)
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(got, reference(x))
    # (the comparisons ran the window's specialized step: a spec past the counted range)
    kinds = (steps._SPECIAL, steps._SPECIAL_ONE, steps._SPECIAL_TWO)
    assert any(op[0] in kinds and op[1].name == "window"
               for spec in _body_pool(fast).fast.values() for op in spec.ops)


def test_a_window_reaching_padding_is_refused_where_padding_reads_are_errors():
    text = _windows(130, 100, True)
    fast = dynhlo.compile(text, backend="cpu", reference=False, padding_reads="error")
    x = np.ones((57, 4), F32)
    fast(np.ones((100, 4), F32))   # (whole rows: no padding read; the spec made)
    for _ in range(2):
        with pytest.raises(DynamicSizeError, match="window|dynamic-slice"):
            fast(x)


def _plan_calls(monkeypatch, carried: bool, trips: int) -> tuple[int, list]:
    """(native calls of the loop plan of _scan(trips, trips), the results of the calls
    from the one that made it on), with carried updates recognized or not."""
    if not carried:
        monkeypatch.setattr(native_loop, "carried_update", lambda computation, inst: False)
    fast = dynhlo.compile(_scan(trips, trips), backend="cpu", reference=False)
    ys0 = np.arange(trips * 4, dtype=F32).reshape(trips, 4)
    h0 = np.ones(4, F32)
    got = [fast(ys0, h0) for _ in range(7)]
    (plan,) = [p for p in _body_pool(fast).loops.values()
               if p.__class__ is native_loop.LoopPlan]
    np.testing.assert_array_equal(ys0, np.arange(trips * 4, dtype=F32).reshape(trips, 4))
    monkeypatch.undo()
    return plan.count, got[3:]


@pytest.mark.parametrize("trips", [2, 17, 40])
def test_a_loop_plan_writes_a_carried_update_into_the_array_of_its_first_iteration(
        monkeypatch, trips):
    """A counted loop's plan (native_loop.LoopPlan): the update's copies of the operand's
    other rows run at the first iteration only (into the plan's array), so the plan has
    fewer native calls than with every update copying; the results are the same, by hand."""
    count, got = _plan_calls(monkeypatch, True, trips)
    copying, got_copying = _plan_calls(monkeypatch, False, trips)
    assert count < copying
    ys0 = np.arange(trips * 4, dtype=F32).reshape(trips, 4)
    for a, b in zip(got, got_copying, strict=True):
        for x, y, e in zip(a, b, _by_hand(ys0, np.ones(4, F32), trips), strict=True):
            np.testing.assert_array_equal(x, e)
            np.testing.assert_array_equal(y, e)
    assert got[0][0] is not got[1][0]   # (each call's result a new array)


def _rnn(w, xs):
    import jax
    import jax.numpy as jnp

    def cell(h, x):
        h = jnp.tanh(x @ w + h)
        return h, h
    return jax.lax.scan(cell, jnp.zeros((xs.shape[1], w.shape[1]), xs.dtype), xs)[1]


@pytest.mark.parametrize("symbolic", [False, True])
@pytest.mark.parametrize("batch", [1, 5, 8])
def test_a_jax_scans_plan_writes_its_rows_in_place(monkeypatch, batch, symbolic):
    """jax.lax.scan's stacked outputs, over a static or a symbolic batch (whose update is
    imported unpadded, OPERAND_SIZED; the update's row made inside the run, its operand
    copies each with an argument patch, the update's copy none): the plan leaves the operand
    copies out after the first iteration, and its results are jax.jit's."""
    import jax
    from dynhlo.frontends.jax import from_jax

    w = (np.random.default_rng(0).standard_normal((4, 4)) * 0.5).astype(F32)
    xs = np.random.default_rng(batch).standard_normal((12, batch, 4)).astype(F32)
    expected = np.asarray(jax.jit(_rnn)(w, xs))
    counts = []
    for carried in (True, False):
        if not carried:
            monkeypatch.setattr(native_loop, "carried_update", lambda computation, i: False)
        exe = from_jax(_rnn, "f32[4,4]", "f32[12,b,4]" if symbolic else xs,
                       bounds={"b": 8} if symbolic else None, reference=False)
        for _ in range(6):
            np.testing.assert_allclose(exe(w, xs), expected, rtol=1e-6, atol=1e-6)
        pools = exe.executable.program.evaluator._local.pools.values()
        (plan,) = [p for pool in pools for p in pool.loops.values()
                   if p.__class__ is native_loop.LoopPlan]
        counts.append(plan.count)
        monkeypatch.undo()
    assert counts[0] < counts[1]
