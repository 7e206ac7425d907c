"""A counted while loop run by its caller's spec straight through the plan of its
iterations (compiled/loop_body.PlannedLoop, the spec's loop op): no per-call set-up of the
body's runs, the plan's key made from the state alone. Semantics: XLA operation semantics,
While. Every result is compared with the reference evaluator's bit for bit; the warm calls
are checked to take that way (no BodyRuns made), and the ways around it (the iteration
limit, another size, a plan declining) to give the reference's results or its error.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import loop_body, native_loop
from dynhlo.backends.cpu.compiled.steps import _LOOP
from tests.support import reallibs_data

WARM_CALLS = loop_body._WARM + 2   # (test_compiled_loop_body.py's: specs, then the plan)
F32 = np.float32

# A counted loop over a state of a dynamic size: the body's products and transcendental
# functions run as native calls, so its plan holds them all.
LOOP = """
HloModule planned
body {
  p = (s32[], f32[<=9,8], f32[8,8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  h = f32[<=9,8] get-tuple-element(p), index=1
  w = f32[8,8] get-tuple-element(p), index=2
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  d = f32[<=9,8] dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[<=9,8] tanh(d)
  e = f32[<=9,8] add(t, h)
  ROOT r = (s32[], f32[<=9,8], f32[8,8]) tuple(i1, e, w)
}
cond {
  p = (s32[], f32[<=9,8], f32[8,8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(7)
  ROOT c = pred[] compare(i, n), direction=LT
}
ENTRY main {
  x = f32[<=9,8] parameter(0)
  w = f32[8,8] parameter(1)
  z = s32[] constant(0)
  xe = f32[<=9,8] exponential(x)
  st = (s32[], f32[<=9,8], f32[8,8]) tuple(z, xe, w)
  l = (s32[], f32[<=9,8], f32[8,8]) while(st), condition=cond, body=body
  ROOT o = f32[<=9,8] get-tuple-element(l), index=1
}
"""


def _pair(text, **options):
    return dynhlo.compile(text, backend="cpu", reference=False, **options), \
        dynhlo.compile(text, backend="cpu", reference=True)


def _same(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def _loop_ops(exe) -> list:
    """The loop ops of the entry's specs (this thread's pools)."""
    pool = exe.program.evaluator._local.pools[id(exe.program.info)]
    return [op for fast in pool.fast.values() for op in fast.ops if op[0] == _LOOP]


def _counting(monkeypatch) -> dict:
    """Counts of BodyRuns made and of plan runs from now on."""
    counts = {"body_runs": 0, "plan_runs": 0}
    init, run = loop_body.BodyRuns.__init__, native_loop.LoopPlan.run

    def counted_init(self, *args):
        counts["body_runs"] += 1
        init(self, *args)

    def counted_run(self, *args):
        counts["plan_runs"] += 1
        return run(self, *args)
    monkeypatch.setattr(loop_body.BodyRuns, "__init__", counted_init)
    monkeypatch.setattr(native_loop.LoopPlan, "run", counted_run)
    return counts


@pytest.mark.parametrize("size", reallibs_data.MANIFEST["haiku_lstm"]["sizes"])
def test_haiku_lstm_warm_calls_run_the_plan_from_the_entry(monkeypatch, size):
    """The stored LSTM (a 12-step scan): once its plan is made, a call runs it from the
    entry's spec, bit for bit the reference's."""
    exe, ref = _pair(dynhlo.parse_stablehlo(reallibs_data.module_text("haiku_lstm")))
    args, _ = reallibs_data.case("haiku_lstm", size)
    for _ in range(WARM_CALLS + 1):
        _same(exe(*args), ref(*args))
    assert _loop_ops(exe)
    counts = _counting(monkeypatch)
    _same(exe(*args), ref(*args))
    assert counts == {"body_runs": 0, "plan_runs": 1}


def test_sizes_in_turn_each_run_their_own_plan(monkeypatch):
    """Calls at sizes in turn (each entry key its own spec and loop op): each call's
    result is the reference's, and once each size's plan is made none runs a BodyRuns
    but the empty size's (no plan is made of its iterations: its loop steps through the
    body's specs)."""
    exe, ref = _pair(LOOP)
    r = np.random.default_rng(5)
    w = (r.standard_normal((8, 8)) * 0.3).astype(F32)
    xs = {n: r.standard_normal((n, 8)).astype(F32) for n in (5, 0, 9, 1)}
    for _ in range(WARM_CALLS + 1):
        for n, x in xs.items():
            _same(exe(x, w), ref(x, w))
    assert len(_loop_ops(exe)) == len(xs)
    counts = _counting(monkeypatch)
    for n, x in xs.items():
        _same(exe(x, w), ref(x, w))
    assert counts == {"body_runs": 1, "plan_runs": len(xs) - 1}


def test_the_iteration_limit_stops_a_planned_loop():
    """max_while_iterations set below the trip count after the plan is made: the call is
    the loop's error (the loop run step by step, counted); without a limit again, the
    plan's result."""
    exe, ref = _pair(LOOP)
    x = np.linspace(-1, 1, 40, dtype=F32).reshape(5, 8)
    w = np.eye(8, dtype=F32) * 0.5
    for _ in range(WARM_CALLS + 1):
        exe(x, w)
    assert _loop_ops(exe)
    exe.program.while_limit = 6
    with pytest.raises(dynhlo.DynHloError, match="max_while_iterations=6"):
        exe(x, w)
    exe.program.while_limit = 7
    _same(exe(x, w), ref(x, w))
    exe.program.while_limit = None
    _same(exe(x, w), ref(x, w))


def test_a_declining_plan_runs_the_body_once_through_its_specs(monkeypatch):
    """A plan that declines (its native calls' way: None) leaves the loop to the body's
    specs, tried once: the result is the reference's and the plan is not run again in
    the same call."""
    exe, ref = _pair(LOOP)
    r = np.random.default_rng(8)
    w = (r.standard_normal((8, 8)) * 0.3).astype(F32)
    x = r.standard_normal((6, 8)).astype(F32)
    for _ in range(WARM_CALLS + 1):
        exe(x, w)
    runs = []
    monkeypatch.setattr(native_loop.LoopPlan, "run",
                        lambda self, *args: runs.append(self) and None)
    y = r.standard_normal((6, 8)).astype(F32)
    _same(exe(y, w), ref(y, w))
    assert len(runs) == 1
