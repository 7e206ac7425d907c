"""Long counted loops run as one list of native calls extrapolated from their first
iterations (native_loop_template.TemplatePlan), guarded by counter_affine.affine_counter.
Semantics: XLA operation semantics (While; DynamicSlice and DynamicUpdateSlice: start
indices clamped to [0, dim - size]). Every result is compared bit for bit with the
reference evaluator over several calls (uncounted specs, the sampled specs, the plan),
with new arguments at other addresses too; a loop whose counter reaches the data other
than as an affine unclamped start (a row i + 1 clamped at the end, a compare, a convert)
gets no plan and keeps the specs' results.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import native_loop_template
from dynhlo.backends.cpu.compiled.counter_affine import affine_counter
from dynhlo.hlo.loop_counter import counter_condition
from tests.backends.cpu.test_compiled_counted_loops import _body_pool, _plan_runs

F32 = np.float32
CALLS = 5   # (the third call makes the sampled specs and the plan, later ones run it)


def _loop(rows: int, out_rows: int, limit: int, step: int = 1, read: str = "i",
          first: str = "z = s32[] constant(0)", extra: str = "", update: str = "hn") -> str:
    """A loop from counter value `first` (the instruction `z`) by `step` while i < limit:
    x = xs[read] (a dynamic-slice of f32[rows,4], `read` an instruction of i, `extra` its
    definitions), hn = h * 0.5 + x, ys[i] = `update` (f32[out_rows,4]); returns (ys, h,
    the counter's last value)."""
    state = f"(s32[], f32[{rows},4], f32[{out_rows},4], f32[4])"
    return f"""HloModule loop

cond {{
  s = {state} parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant({limit})
  ROOT lt = pred[] compare(i, n), direction=LT
}}

body {{
  s = {state} parameter(0)
  i = s32[] get-tuple-element(s), index=0
  xs = f32[{rows},4] get-tuple-element(s), index=1
  ys = f32[{out_rows},4] get-tuple-element(s), index=2
  h = f32[4] get-tuple-element(s), index=3
  zero = s32[] constant(0)
  {extra}
  x = f32[1,4] dynamic-slice(xs, {read}, zero), dynamic_slice_sizes={{1,4}}
  xr = f32[4] reshape(x)
  half = f32[] constant(0.5)
  halves = f32[4] broadcast(half), dimensions={{}}
  scaled = f32[4] multiply(h, halves)
  hn = f32[4] add(scaled, xr)
  row = f32[1,4] reshape({update})
  ys1 = f32[{out_rows},4] dynamic-update-slice(ys, row, i, zero)
  by = s32[] constant({step})
  next = s32[] add(i, by)
  ROOT t = {state} tuple(next, xs, ys1, hn)
}}

ENTRY e {{
  xs0 = f32[{rows},4] parameter(0)
  ys0 = f32[{out_rows},4] parameter(1)
  h0 = f32[4] parameter(2)
  {first}
  init = {state} tuple(z, xs0, ys0, h0)
  w = {state} while(init), condition=cond, body=body
  ys = f32[{out_rows},4] get-tuple-element(w), index=2
  h = f32[4] get-tuple-element(w), index=3
  last = s32[] get-tuple-element(w), index=0
  ROOT r = (f32[{out_rows},4], f32[4], s32[]) tuple(ys, h, last)
}}
"""


def _args(rows: int, out_rows: int, seed: int) -> list:
    gen = np.random.default_rng(seed)
    return [gen.standard_normal((rows, 4)).astype(F32),
            gen.standard_normal((out_rows, 4)).astype(F32),
            gen.standard_normal(4).astype(F32)]


def _same(got, want) -> None:
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


def _ran(monkeypatch) -> list:
    """Whether each run of a TemplatePlan gave the final state (appended per run)."""
    return _plan_runs(monkeypatch, native_loop_template.TemplatePlan)


def _templates(exe) -> list:
    return [p for p in _body_pool(exe).loops.values()
            if isinstance(p, native_loop_template.TemplatePlan)]


def _check(text: str, arg_sets: list, monkeypatch) -> tuple:
    """(the executable, the TemplatePlan runs) after CALLS calls of each argument list,
    each call's results the reference's bit for bit."""
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    ran = _ran(monkeypatch)
    for args in arg_sets:
        want = ref(*args)
        for _ in range(CALLS):
            got = exe(*args)
            _same(got, want)
            for leaf in got:   # (a result written into changes no later call's)
                leaf = np.asarray(leaf)
                if leaf.flags.writeable:
                    leaf[...] = np.nan if leaf.dtype.kind == "f" else -1
        fresh = [np.array(a) for a in args]   # (other addresses)
        _same(exe(*fresh), want)
    return exe, ran


@pytest.mark.parametrize("trips", [200, 1000])
def test_a_long_scan_runs_as_one_extrapolated_plan(trips, monkeypatch):
    """Reading xs[i] and writing ys[i] for i < trips: a TemplatePlan, run from the fourth
    call on, the reference's results bit for bit."""
    text = _loop(trips, trips, trips)
    exe, ran = _check(text, [_args(trips, trips, 0), _args(trips, trips, 1)], monkeypatch)
    assert len(_templates(exe)) == 1
    assert ran.count(True) >= 2 * (CALLS - 3) and all(ran)


@pytest.mark.parametrize("trips", [200, 1000])
def test_a_jax_scan_of_a_batch_under_a_bound_runs_as_one_plan(trips, monkeypatch):
    """bench/cpu_scan.py's RNN scan (dynhlo.from_jax, the batch symbolic b <= 8): batch 1
    and 5, bit for bit with the reference, through a TemplatePlan."""
    jax = pytest.importorskip("jax")

    def rnn(w, u, b, xs):
        def cell(h, x):
            h = jax.numpy.tanh(x @ w + h @ u + b)
            return h, h
        h0 = jax.numpy.zeros((xs.shape[1], w.shape[1]), xs.dtype)
        return jax.lax.scan(cell, h0, xs)[1]
    shapes = ("f32[16,16]", "f32[16,16]", "f32[16]", f"f32[{trips},b,16]")
    exe = dynhlo.from_jax(rnn, *shapes, bounds={"b": 8}, reference=False)
    ref = dynhlo.from_jax(rnn, *shapes, bounds={"b": 8}, reference=True)
    ran = _ran(monkeypatch)
    gen = np.random.default_rng(trips)
    weights = [(gen.standard_normal(s) * 0.3).astype(F32) for s in ((16, 16), (16, 16), (16,))]
    for batch in (1, 5):
        args = [*weights, gen.standard_normal((trips, batch, 16)).astype(F32)]
        want = np.asarray(ref(*args))
        for _ in range(CALLS):
            np.testing.assert_array_equal(np.asarray(exe(*args)), want)
        args[3] = args[3].copy()
        np.testing.assert_array_equal(np.asarray(exe(*args)), want)
    assert ran.count(True) >= 2 * (CALLS - 3) and all(ran)


def test_a_row_after_the_counter_clamped_at_the_end_gets_no_plan(monkeypatch):
    """xs[i + 1] of xs of `trips` rows: at the last iteration the start is clamped to
    trips - 1 (XLA's DynamicSlice), not affine: no TemplatePlan, the specs' results."""
    trips = 150
    extra = "one = s32[] constant(1)\n  j = s32[] add(i, one)"
    text = _loop(trips, trips, trips, read="j", extra=extra)
    exe, ran = _check(text, [_args(trips, trips, 2)], monkeypatch)
    assert not _templates(exe) and not ran


def test_a_row_after_the_counter_inside_the_rows_runs_as_one_plan(monkeypatch):
    """xs[i + 1] of xs of trips + 1 rows: never clamped, affine: a TemplatePlan."""
    trips = 150
    extra = "one = s32[] constant(1)\n  j = s32[] add(i, one)"
    text = _loop(trips + 1, trips, trips, read="j", extra=extra)
    exe, ran = _check(text, [_args(trips + 1, trips, 3)], monkeypatch)
    assert len(_templates(exe)) == 1 and ran and all(ran)


@pytest.mark.parametrize("start, step", [(3, 1), (0, 2), (5, 3)])
def test_a_counter_from_another_start_or_by_another_step(start, step, monkeypatch):
    """i from `start` by `step` while i < 400: rows start, start + step, ...; a
    TemplatePlan, the reference's results."""
    text = _loop(400, 400, 400, step=step, first=f"z = s32[] constant({start})")
    exe, ran = _check(text, [_args(400, 400, 4)], monkeypatch)
    assert len(_templates(exe)) == 1 and ran and all(ran)


@pytest.mark.parametrize("use", ["compare", "convert"])
def test_a_counter_read_by_the_data_gets_no_plan(use, monkeypatch):
    """ys[i] = select(i < 100, hn, h) (a compare of the counter) or hn + float(i) (a
    convert): no TemplatePlan, the specs' results bit for bit."""
    extra = {"compare": """hundred = s32[] constant(100)
  early = pred[] compare(i, hundred), direction=LT
  earlies = pred[4] broadcast(early), dimensions={}
  picked = f32[4] select(earlies, hn, h)""",
             "convert": """fi = f32[] convert(i)
  fis = f32[4] broadcast(fi), dimensions={}
  picked = f32[4] add(hn, fis)"""}[use]
    text = _loop(300, 300, 300, extra="", update="picked").replace(
        "  row = f32[1,4]", f"  {extra}\n  row = f32[1,4]")
    exe, ran = _check(text, [_args(300, 300, 5)], monkeypatch)
    assert not _templates(exe) and not ran


def test_a_compare_of_the_counter_the_same_over_the_trips_keeps_the_plan(monkeypatch):
    """ys[i] = select(i >= 0, hn, h): the compare is true at every iteration (the same
    value: nothing extrapolated differs), a TemplatePlan."""
    extra = """zero2 = s32[] constant(0)
  early = pred[] compare(i, zero2), direction=GE
  earlies = pred[4] broadcast(early), dimensions={}
  picked = f32[4] select(earlies, hn, h)"""
    text = _loop(300, 300, 300, update="picked").replace(
        "  row = f32[1,4]", f"  {extra}\n  row = f32[1,4]")
    exe, ran = _check(text, [_args(300, 300, 6)], monkeypatch)
    assert len(_templates(exe)) == 1 and ran and all(ran)


def test_a_trip_count_that_changes_between_calls(monkeypatch):
    """The counter's first value an argument (a fori_loop from lo to 500): each lo its own
    trip count, each the reference's results; lo past the sampled specs' counted range
    runs through the specs."""
    text = _loop(500, 500, 500, first="z = s32[] parameter(3)")
    sets = [[*_args(500, 500, 7 + lo), np.int32(lo)] for lo in (0, 10, 57, 58, 100, 0)]
    exe, ran = _check(text, sets, monkeypatch)
    # (lo 58 and 100: a sampled counter value past _COUNTED, no spec of its own)
    assert len(_templates(exe)) == 3 and ran.count(True) >= 4 * (CALLS - 3)


def test_the_guard_reads_the_trips_and_refuses_a_clamped_start():
    """affine_counter on the HLO: (trips, step) for the plain scan; None for a start
    clamped at the last iteration."""
    module = dynhlo.parse_hlo(_loop(100, 100, 100, step=3))
    body = next(c for c in module.computations if c.name == "body")
    test = counter_condition(next(c for c in module.computations if c.name == "cond"))
    assert affine_counter(body, 0, (np.int32(1), None, None, None), test) == (33, 3)
    extra = "one = s32[] constant(1)\n  j = s32[] add(i, one)"
    module = dynhlo.parse_hlo(_loop(100, 100, 100, read="j", extra=extra))
    body = next(c for c in module.computations if c.name == "body")
    assert affine_counter(body, 0, (np.int32(0), None, None, None), test) is None
    assert affine_counter(body, 0, (np.int32(0), None, None, None),
                          counter_condition(dynhlo.parse_hlo(_loop(
                              100, 100, 99)).computations[0])) == (99, 1)


# h' = g, g' = h * 0.5 + xs[i]: iteration k + 1 reads (as h) the array iteration k - 1 made
SWAPPED = """HloModule swapped

cond {
  s = (s32[], f32[200,4], f32[200,4], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(200)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[200,4], f32[200,4], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  xs = f32[200,4] get-tuple-element(s), index=1
  ys = f32[200,4] get-tuple-element(s), index=2
  h = f32[4] get-tuple-element(s), index=3
  g = f32[4] get-tuple-element(s), index=4
  zero = s32[] constant(0)
  x = f32[1,4] dynamic-slice(xs, i, zero), dynamic_slice_sizes={1,4}
  xr = f32[4] reshape(x)
  half = f32[] constant(0.5)
  halves = f32[4] broadcast(half), dimensions={}
  scaled = f32[4] multiply(h, halves)
  gn = f32[4] add(scaled, xr)
  row = f32[1,4] reshape(gn)
  ys1 = f32[200,4] dynamic-update-slice(ys, row, i, zero)
  one = s32[] constant(1)
  next = s32[] add(i, one)
  ROOT t = (s32[], f32[200,4], f32[200,4], f32[4], f32[4]) tuple(next, xs, ys1, g, gn)
}

ENTRY e {
  xs0 = f32[200,4] parameter(0)
  ys0 = f32[200,4] parameter(1)
  h0 = f32[4] parameter(2)
  z = s32[] constant(0)
  init = (s32[], f32[200,4], f32[200,4], f32[4], f32[4]) tuple(z, xs0, ys0, h0, h0)
  w = (s32[], f32[200,4], f32[200,4], f32[4], f32[4]) while(init), condition=cond, body=body
  ys = f32[200,4] get-tuple-element(w), index=2
  h = f32[4] get-tuple-element(w), index=3
  g = f32[4] get-tuple-element(w), index=4
  ROOT r = (f32[200,4], f32[4], f32[4]) tuple(ys, h, g)
}
"""


def test_an_array_read_two_iterations_after_it_is_made_gets_no_plan(monkeypatch):
    """Two sets of arrays used alternately serve only arrays read by the iteration that
    made them or the next one: a state element passed on for a second iteration gives no
    TemplatePlan, the specs' results bit for bit."""
    exe, ran = _check(SWAPPED, [_args(200, 200, 8)], monkeypatch)
    assert not _templates(exe) and not ran


@pytest.mark.parametrize("how", [{"reverse": True}, {"unroll": 2}, {"unroll": 3},
                                 {"two": True}])
def test_jax_scans_reversed_unrolled_or_of_two_outputs(how, monkeypatch):
    """jax.lax.scan over 301 steps reversed (rows read and written at T - 1 - i: a
    negative stride), unrolled (two or three rows an iteration, the counter by 2 or 3, the
    rest after the loop) or stacking two outputs: through a TemplatePlan, the reference's
    results bit for bit at batch 1 and 3 (b <= 8)."""
    jax = pytest.importorskip("jax")
    two = how.pop("two", False)

    def f(w, xs, ys):
        def cell(h, xy):
            x, y = xy
            h = jax.numpy.tanh(x @ w + h * 0.5) + y
            return h, ((h, h * 2.0) if two else h)
        h0 = jax.numpy.zeros((xs.shape[1], w.shape[1]), xs.dtype)
        return jax.lax.scan(cell, h0, (xs, ys), **how)[1]
    shapes = ("f32[8,8]", "f32[301,b,8]", "f32[301,b,8]")
    exe = dynhlo.from_jax(f, *shapes, bounds={"b": 8}, reference=False)
    ref = dynhlo.from_jax(f, *shapes, bounds={"b": 8}, reference=True)
    ran = _ran(monkeypatch)
    gen = np.random.default_rng(9)
    for batch in (1, 3):
        args = [(gen.standard_normal((8, 8)) * 0.3).astype(F32),
                gen.standard_normal((301, batch, 8)).astype(F32),
                gen.standard_normal((301, batch, 8)).astype(F32)]
        want = ref(*args)
        for _ in range(CALLS + 1):
            got = exe(*args)
            _same(got if two else [got], want if two else [want])
    assert ran.count(True) >= 2 * (CALLS - 3) and all(ran)


def test_a_loop_whose_table_would_be_too_large_gets_no_plan(monkeypatch):
    """A plan's table of argument arrays is bounded (_TABLE_BYTES): past it the loop runs
    through its specs, the reference's results."""
    monkeypatch.setattr(native_loop_template, "_TABLE_BYTES", 1 << 10)
    exe, ran = _check(_loop(200, 200, 200), [_args(200, 200, 10)], monkeypatch)
    assert not _templates(exe) and not ran


def _offset_loop(rows: int, trips: int) -> str:
    """_loop reading xs[i + k], k an s32 argument the body passes through (a counter
    element of the same value at every iteration)."""
    state = f"(s32[], f32[{rows},4], f32[{trips},4], f32[4])"
    wide = f"(s32[], f32[{rows},4], f32[{trips},4], f32[4], s32[])"
    text = _loop(rows, trips, trips, read="j", extra="""k = s32[] get-tuple-element(s), index=4
  j = s32[] add(i, k)""").replace(state, wide)
    return text.replace("tuple(next, xs, ys1, hn)", "tuple(next, xs, ys1, hn, k)").replace(
        "tuple(z, xs0, ys0, h0)", "tuple(z, xs0, ys0, h0, k0)").replace(
        "  z = s32[] constant(0)\n", "  z = s32[] constant(0)\n  k0 = s32[] parameter(3)\n")


@pytest.mark.parametrize("rows, k", [(201, 1), (200, 0), (200, 1)])
def test_a_start_offset_by_an_element_passed_through(rows, k, monkeypatch):
    """xs[i + k] for i < 200, k passed through the loop (a second counter element, of the
    same value at every iteration; clamped at the last iteration where xs has 200 rows
    and k = 1): the reference's results bit for bit. (A counter element passed through is
    the state's argument at every iteration: LoopPlan.of, and so the sampled plan, gives
    none.)"""
    text = _offset_loop(rows, 200)
    exe, ran = _check(text, [[*_args(rows, 200, 11), np.int32(k)]], monkeypatch)
    assert not _templates(exe) and not ran


def test_the_guard_reads_an_element_passed_through_at_its_first_value():
    """affine_counter with k (element 4) passed through: xs[i + k] in range for k = 1 over
    201 rows, clamped at the end over 200 rows; refused where k is not passed through."""
    def guard(rows: int, k: int, text: str | None = None):
        module = dynhlo.parse_hlo(text or _offset_loop(rows, 200))
        body = next(c for c in module.computations if c.name == "body")
        test = counter_condition(next(c for c in module.computations if c.name == "cond"))
        return affine_counter(body, 0, (np.int32(0), None, None, None, np.int32(k)), test,
                              (4,))
    assert guard(201, 1) == (200, 1) and guard(200, 0) == (200, 1)
    assert guard(200, 1) is None
    moved = _offset_loop(201, 200).replace("tuple(next, xs, ys1, hn, k)",
                                           "tuple(next, xs, ys1, hn, next)")
    assert guard(201, 1, moved) is None


# A scalar made of the counter meeting arrays (HLO's clamp bounds and select's pred may be
# scalars): clamp(i, iota, 100)[0] is min(i, 100), clamped past row 100, not affine.
_SCALAR_BOUNDS = {
    "clamp over as many elements as trips": """k = s32[{n}] iota(), iota_dimension=0
  cap = s32[] constant(100)
  picks = s32[{n}] clamp(i, k, cap)""",
    "clamp over four elements": """k = s32[4] iota(), iota_dimension=0
  cap = s32[] constant(100)
  picks = s32[4] clamp(i, k, cap)""",
    "select of a scalar pred": """cap = s32[] constant(100)
  early = pred[] compare(i, cap), direction=LT
  mine = s32[{n}] broadcast(i), dimensions={{}}
  caps = s32[{n}] broadcast(cap), dimensions={{}}
  picks = s32[{n}] select(early, mine, caps)""",
}


@pytest.mark.parametrize("trips", [20, 200])
@pytest.mark.parametrize("form", sorted(_SCALAR_BOUNDS))
def test_a_scalar_bound_or_pred_made_of_the_counter(form, trips, monkeypatch):
    """The start min(i, 100) written as a clamp or select with a scalar operand: its value
    per iteration, not NumPy's broadcast of the trips against the elements (which raised,
    or found the start the same at every iteration): no TemplatePlan, the reference's
    results."""
    extra = _SCALAR_BOUNDS[form].format(n=trips) + """
  first1 = s32[1] slice(picks), slice={[0:1]}
  j = s32[] reshape(first1)"""
    text = _loop(trips, trips, trips, read="j", extra=extra)
    exe, ran = _check(text, [_args(trips, trips, 11)], monkeypatch)
    assert not _templates(exe) and not ran


def test_a_plan_runs_its_calls_in_parts(monkeypatch):
    """TemplatePlan.run returns to Python every _RUN_CALLS native calls (Ctrl-C is then
    handled within the loop): parts that end inside an iteration give the same results."""
    monkeypatch.setattr(native_loop_template, "_RUN_CALLS", 3)
    text = _loop(300, 300, 300)
    exe, ran = _check(text, [_args(300, 300, 12)], monkeypatch)
    assert len(_templates(exe)) == 1 and ran and all(ran)
