"""A while loop's body run per iteration with its per-loop lookups done once
(compiled/loop_body.py): the spec of the state's shapes is found again when they change
from one iteration to the next (growing, alternating), specs made over buffers since grown
are made again, a nested loop holds its own body's pool, and the body's pool goes back to
its thread after an error. Semantics: XLA operation semantics, While. Every result is
compared with the reference evaluator's bit for bit; warm calls are checked to run every
iteration through the spec its key names (the key the loop builds is CompiledEvaluator's).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import loop_body, native_loop
from tests.support import reallibs_data

# calls from one first state's key after which a counted loop's specs and plan are made
# (loop_body._WARM uncounted calls, one that makes the counted specs, one the plan)
WARM_CALLS = loop_body._WARM + 2
F32, S32 = np.float32, np.int32

# State (i, x): x's size is SIZE, a value the body computes from i (its sizes read a value:
# the body's specs are keyed by the state's shapes, guarded on that value); the body reads
# x's own size and largest element (an exact reduction), so each iteration's result
# depends on the last one's shape. The counter starts at a value computed from a size, not
# a constant, so that loops of 0 and 1 trips stay loops here (the while-loop-simplifier
# writes out those it proves).
GROWING = """
HloModule growing

max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] maximum(a, b)
}

body {
  s = (s32[], f32[<=8], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[<=8] get-tuple-element(s), index=1
  w = f32[8] get-tuple-element(s), index=2
  one = s32[] constant(1)
  two = s32[] constant(2)
  j = s32[] add(i, one)
  r = s32[] remainder(i, two)
  k = s32[] add(r, one)
  low = f32[] constant(-inf)
  total = f32[] reduce(x, low), dimensions={0}, to_apply=max
  n = s32[] get-dimension-size(x), dimensions={0}
  fn = f32[] convert(n)
  t2 = f32[] multiply(total, fn)
  tb = f32[8] broadcast(t2), dimensions={}
  fj = f32[] convert(j)
  jb = f32[8] broadcast(fj), dimensions={}
  e = f32[8] exponential(w)
  m = f32[8] multiply(e, jb)
  y8 = f32[8] add(m, tb)
  y = f32[<=8] set-dimension-size(y8, SIZE), dimensions={0}
  ROOT t = (s32[], f32[<=8], f32[8]) tuple(j, y, w)
}

cond {
  s = (s32[], f32[<=8], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  limit = s32[] constant(TRIPS)
  ROOT lt = pred[] compare(i, limit), direction=LT
}

ENTRY main {
  x = f32[<=8] parameter(0)
  w = f32[8] parameter(1)
  eight = s32[] get-dimension-size(w), dimensions={0}
  z = s32[] subtract(eight, eight)
  t = (s32[], f32[<=8], f32[8]) tuple(z, x, w)
  l = (s32[], f32[<=8], f32[8]) while(t), condition=cond, body=body
  c = s32[] get-tuple-element(l), index=0
  y = f32[<=8] get-tuple-element(l), index=1
  ROOT out = (s32[], f32[<=8]) tuple(c, y)
}
"""

# the outer body runs an inner counter loop over its own state (rows of acc scaled); the
# outer counter starts at a computed 0 (a loop of 0 trips stays one: GROWING's comment)
NESTED = """
HloModule nested

inner_body {
  s = (s32[], f32[<=6,3]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  a = f32[<=6,3] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  h = f32[] constant(1.5)
  n = s32[] get-dimension-size(a), dimensions={0}
  hb = f32[6,3] broadcast(h), dimensions={}
  hn = f32[<=6,3] set-dimension-size(hb, n), dimensions={0}
  b = f32[<=6,3] multiply(a, hn)
  ROOT t = (s32[], f32[<=6,3]) tuple(j, b)
}

inner_cond {
  s = (s32[], f32[<=6,3]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  limit = s32[] constant(3)
  ROOT lt = pred[] compare(i, limit), direction=LT
}

outer_body {
  s = (s32[], f32[<=6,3]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  a = f32[<=6,3] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  z = s32[] constant(0)
  t0 = (s32[], f32[<=6,3]) tuple(z, a)
  w = (s32[], f32[<=6,3]) while(t0), condition=inner_cond, body=inner_body
  b = f32[<=6,3] get-tuple-element(w), index=1
  e = f32[<=6,3] tanh(b)
  ROOT t = (s32[], f32[<=6,3]) tuple(j, e)
}

outer_cond {
  s = (s32[], f32[<=6,3]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  limit = s32[] constant(TRIPS)
  ROOT lt = pred[] compare(i, limit), direction=LT
}

ENTRY main {
  a = f32[<=6,3] parameter(0)
  n = s32[] get-dimension-size(a), dimensions={0}
  z = s32[] subtract(n, n)
  t = (s32[], f32[<=6,3]) tuple(z, a)
  l = (s32[], f32[<=6,3]) while(t), condition=outer_cond, body=outer_body
  ROOT r = f32[<=6,3] get-tuple-element(l), index=1
}
"""


def _pair(text: str, **options):
    return dynhlo.compile(text, backend="cpu", reference=False, **options), \
        dynhlo.compile(text, backend="cpu", reference=True)


def _leaves(out) -> list:
    return [np.asarray(o) for o in (out if isinstance(out, (tuple, list)) else [out])]


def _same(got, want):
    for g, w in zip(_leaves(got), _leaves(want), strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def _body(exe, name: str):
    """The info of the computation `name` that the program calls (at any depth)."""
    todo = list(exe.program.info.calls.values())
    while todo:
        info = todo.pop()
        if info.computation.name == name:
            return info
        todo.extend(info.calls.values())
    raise LookupError(name)


def _spec_runs(exe, body) -> dict:
    """Counts, per way, of the body's runs from now on: through a spec found by the key
    ("fast": on its own, or a plan's iterations, native_loop.LoopPlan) or through
    CompiledEvaluator._walk ("walk", which makes the spec)."""
    evaluator = exe.program.evaluator
    counts = {"fast": 0, "walk": 0}
    run_fast, walk = evaluator._run_fast, evaluator._walk
    plan_run = native_loop.LoopPlan.run

    def counted_fast(info, *args):
        counts["fast"] += info is body
        return run_fast(info, *args)

    def counted_walk(info, *args):
        counts["walk"] += info is body
        return walk(info, *args)

    def counted_plan(plan, state, *keyed):
        out = plan_run(plan, state, *keyed)
        counts["fast"] += plan.trips if out is not None and plan.body is body else 0
        return out
    evaluator._run_fast, evaluator._walk = counted_fast, counted_walk
    native_loop.LoopPlan.run = counted_plan   # (put back by the fixture below)
    return counts


@pytest.fixture(autouse=True)
def _plan_run_restored():
    run = native_loop.LoopPlan.run
    yield
    native_loop.LoopPlan.run = run


@pytest.mark.parametrize("size,trips", [("j", 0), ("j", 1), ("j", 5), ("k", 1), ("k", 6)])
def test_a_state_whose_shapes_change_gets_each_shapes_spec(size, trips):
    """x grows by a row per iteration (SIZE j) or alternates between 1 and 2 rows (SIZE
    k): each iteration's spec is that of its state's shapes, made on the first call, found
    again (buffers grown since: made again) on the next, every iteration from a spec on
    the third."""
    exe, ref = _pair(GROWING.replace("SIZE", size).replace("TRIPS", str(trips)))
    gen = np.random.default_rng(0)
    w = gen.standard_normal(8).astype(F32)
    for n in (3, 0, 3):
        x = gen.standard_normal(n).astype(F32)
        for _ in range(WARM_CALLS):
            _same(exe(x, w), ref(x, w))
        counts = _spec_runs(exe, _body(exe, "body"))
        _same(exe(x, w), ref(x, w))
        assert counts == {"fast": trips, "walk": 0}
    evaluator = exe.program.evaluator
    pool = evaluator._local.pools[id(_body(exe, "body"))]
    # the state's x shapes keyed (a signature: the state's three shapes; counted specs'
    # keys end with the counter's value, loops.counter_values)
    states = {part[1] for key in pool.fast for part in key
              if isinstance(part, tuple) and len(part) == 3 and part[0] == ()}
    # iteration 0 reads the argument's rows, iteration i > 0 the size the last one set
    after = {(i,) if size == "j" else ((i - 1) % 2 + 1,) for i in range(1, trips)}
    assert (after <= states) if trips else not states


@pytest.mark.parametrize("trips", [0, 1, 4])
def test_nested_loops_are_the_references(trips):
    exe, ref = _pair(NESTED.replace("TRIPS", str(trips)))
    gen = np.random.default_rng(1)
    for n in (4, 6, 0, 4):
        a = gen.standard_normal((n, 3)).astype(F32)
        for _ in range(2):
            _same(exe(a), ref(a))
    counts = _spec_runs(exe, _body(exe, "inner_body"))
    _same(exe(a), ref(a))
    assert counts == {"fast": 3 * trips, "walk": 0}


def test_the_body_pool_goes_back_after_an_error():
    """The iteration limit raised inside the loop: the body's pool is its thread's again,
    and a loop within the limit runs from it."""
    text = GROWING.replace("SIZE", "k").replace("TRIPS", "6")
    exe = dynhlo.compile(text, backend="cpu", reference=False, max_while_iterations=4)
    few = dynhlo.compile(text.replace("constant(6)", "constant(3)"), backend="cpu",
                         reference=False, max_while_iterations=4)
    x, w = np.ones(2, F32), np.arange(8, dtype=F32)
    for _ in range(2):
        with pytest.raises(dynhlo.DynHloError, match="max_while_iterations"):
            exe(x, w)
        pools = exe.program.evaluator._local.pools
        assert id(_body(exe, "body")) in pools
    ref = dynhlo.compile(text.replace("constant(6)", "constant(3)"), backend="cpu",
                         reference=True)
    _same(few(x, w), ref(x, w))


@pytest.mark.parametrize("size", reallibs_data.MANIFEST["haiku_lstm"]["sizes"])
def test_haiku_lstm_runs_every_iteration_from_its_spec(size):
    """The stored LSTM (a 12-step scan, pinned and guarded elements in its body's key):
    a warm call runs each iteration through its spec, bit for bit the reference's."""
    text = reallibs_data.module_text("haiku_lstm")
    exe, ref = _pair(dynhlo.parse_stablehlo(text))
    args, _ = reallibs_data.case("haiku_lstm", size)
    for _ in range(WARM_CALLS):
        exe(*args)
    body = next(info for info in exe.program.info.calls.values()
                if info.computation.name.startswith("body"))
    counts = _spec_runs(exe, body)
    _same(exe(*args), ref(*args))
    assert counts["walk"] == 0 and counts["fast"] > 0
