"""While loops on the compiled CPU path (compiled/loops.py, fast.Fast): a counter
condition compared on the state without running the condition's steps, integer elements the
body passes through unchanged and reads as sizes joining its specs' key (pinned: what is
made of them folded), and the placement of windows at a counter's indices kept per value
(special.Remembered). Semantics: XLA operation semantics, While. Every result is compared
with the reference evaluator's, bit for bit, at several trip counts and dynamic sizes; the
fallbacks (a condition that is not a counter's, a pinned value that changes, more counter
values than a step keeps) are run too.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import loop_body, loops, native_loop, runner, steps

F32, S32 = np.float32, np.int32

# State (i, n, acc, x): n (the rows of acc) is passed through unchanged and read as a size
# by the body (a set-dimension-size of a broadcast: pinned); the body writes row i of acc by
# dynamic-update-slice (clamped past n - 1, as XLA clamps), gathers rows i.. i+n-1 of x
# (many windows, clamped) and adds them in.
BODY = """
body {
  s = (s32[], s32[], f32[<=8,4], f32[16,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] get-tuple-element(s), index=1
  acc = f32[<=8,4] get-tuple-element(s), index=2
  x = f32[16,4] get-tuple-element(s), index=3
  one = s32[] constant(1)
  j = s32[] add(i, one)
  half = f32[] constant(0.5)
  hb = f32[8,4] broadcast(half), dimensions={}
  halves = f32[<=8,4] set-dimension-size(hb, n), dimensions={0}
  fi = f32[] convert(i)
  row = f32[1,4] broadcast(fi), dimensions={}
  z = s32[] constant(0)
  upd = f32[<=8,4] dynamic-update-slice(acc, row, i, z)
  io = s32[8] iota(), iota_dimension=0
  ib = s32[8] broadcast(i), dimensions={}
  at = s32[8] add(io, ib)
  at2 = s32[8,1] reshape(at)
  atn = s32[<=8,1] set-dimension-size(at2, n), dimensions={0}
  rows = f32[<=8,4] gather(x, atn), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
  m = f32[<=8,4] multiply(rows, halves)
  acc2 = f32[<=8,4] add(upd, m)
  ROOT t = (s32[], s32[], f32[<=8,4], f32[16,4]) tuple(j, n, acc2, x)
}
"""

ENTRY = """
ENTRY main {
  n = s32[] parameter(0)
  x = f32[16,4] parameter(1)
  z = s32[] constant(0)
  zf = f32[] constant(0)
  zb = f32[8,4] broadcast(zf), dimensions={}
  acc = f32[<=8,4] set-dimension-size(zb, n), dimensions={0}
  t = (s32[], s32[], f32[<=8,4], f32[16,4]) tuple(z, n, acc, x)
  w = (s32[], s32[], f32[<=8,4], f32[16,4]) while(t), condition=cond, body=body
  r = f32[<=8,4] get-tuple-element(w), index=2
  c = s32[] get-tuple-element(w), index=0
  ROOT out = (f32[<=8,4], s32[]) tuple(r, c)
}
"""

# i < TRIPS: a counter's condition (compared on the state)
COUNTER = """
cond {
  s = (s32[], s32[], f32[<=8,4], f32[16,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  limit = s32[] constant(TRIPS)
  ROOT lt = pred[] compare(i, limit), direction=LT
}
"""

# i < n + TRIPS - 8: a condition of two elements (its steps run)
COMPUTED = """
cond {
  s = (s32[], s32[], f32[<=8,4], f32[16,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] get-tuple-element(s), index=1
  k = s32[] constant(TRIPS)
  eight = s32[] constant(8)
  d = s32[] subtract(k, eight)
  limit = s32[] add(n, d)
  ROOT lt = pred[] compare(i, limit), direction=LT
}
"""


def _module(cond: str, trips: int) -> str:
    return "HloModule loop\n" + BODY + cond.replace("TRIPS", str(trips)) + ENTRY


def _pair(text):
    return dynhlo.compile(text, backend="cpu", reference=False), \
        dynhlo.compile(text, backend="cpu", reference=True)


def _same(got, want):
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def _cases(sizes, seed: int = 0) -> list:
    r = np.random.default_rng(seed)
    return [(S32(n), r.standard_normal((16, 4)).astype(F32)) for n in sizes]


def _cond_runs(exe, monkeypatch) -> list:
    """The names of the computations the compiled evaluator runs from now on (a loop
    body's: once per iteration, through its loop's BodyRuns.step or a plan of its
    iterations, native_loop.LoopPlan)."""
    ran: list = []
    run, step = runner.CompiledEvaluator.run, loop_body.BodyRuns.step
    plan_run = native_loop.LoopPlan.run

    def counted(self, info, *args, **kwargs):
        ran.append(info.computation.name)
        return run(self, info, *args, **kwargs)

    def counted_step(self, state):
        ran.append(self.info.computation.name)
        return step(self, state)

    def counted_plan(self, state, *keyed):
        out = plan_run(self, state, *keyed)
        if out is not None:
            ran.extend([self.body.computation.name] * self.trips)
        return out
    monkeypatch.setattr(runner.CompiledEvaluator, "run", counted)
    monkeypatch.setattr(loop_body.BodyRuns, "step", counted_step)
    monkeypatch.setattr(native_loop.LoopPlan, "run", counted_plan)
    return ran


@pytest.mark.parametrize("trips", [0, 1, 5, 12, 70, 300])
def test_counter_loops_are_the_references_bit_for_bit(trips, monkeypatch):
    """Several trip counts (70: more counter values than a step keeps placements of; 300:
    more than a memo keeps values of) and dynamic sizes, each shape called again (the
    specialized steps), a size repeated after others (a pinned value's spec made again or
    found)."""
    exe, ref = _pair(_module(COUNTER, trips))
    ran = _cond_runs(exe, monkeypatch)
    for args in _cases((5, 5, 8, 0, 3, 5, 8)):
        for _ in range(2):
            _same(exe(*args), ref(*args))
    # the counter compared directly (one trip: no loop left, its body in the entry)
    assert "cond" not in ran and ran.count("body") >= (trips if trips != 1 else 0)


@pytest.mark.parametrize("trips", [0, 6, 11])
def test_other_conditions_run_their_steps_and_are_the_references(trips, monkeypatch):
    exe, ref = _pair(_module(COMPUTED, trips))
    ran = _cond_runs(exe, monkeypatch)
    for args in _cases((5, 5, 8, 3, 8), seed=1):
        for _ in range(2):
            _same(exe(*args), ref(*args))
    assert "cond" in ran


def test_a_pinned_size_is_part_of_the_body_specs_key(monkeypatch):
    """n is passed through and read as a size: the body's specs are keyed by its value (one
    per n), and what is made of n alone is folded in them. (Not a counted body: a spec
    per counter value would fold what is made of the counter as well.)"""
    monkeypatch.setattr(loops, "_COUNTED", 0)
    exe, ref = _pair(_module(COUNTER, 6))
    for args in _cases((5, 3, 5, 3)):
        _same(exe(*args), ref(*args))
    evaluator = exe.program.evaluator
    body = next(info for info in exe.program.info.calls.values()
                if info.computation.name == "body")
    assert [inst.name for _, inst in evaluator._pinned[id(body)]] == ["n"]
    pool = evaluator._local.pools[id(body)]
    assert sorted(key[-1] for key in pool.fast) == [(3,), (5,)]
    for fast in pool.fast.values():   # halves: of n alone; atn: of the counter too
        names = {inst.name for inst in fast.folded}
        assert "halves" in names and "atn" not in names


def _body_spec(exe, n: int):
    evaluator = exe.program.evaluator
    body = next(info for info in exe.program.info.calls.values()
                if info.computation.name == "body")
    pool = evaluator._local.pools[id(body)]
    return next(fast for key, fast in pool.fast.items() if key[-1] == (n,))


def test_values_made_of_the_counter_are_kept_per_counter_value(monkeypatch):
    """The index arrays made of i (and n) are kept per value of i (memo.py) and read from
    there by later calls; j = i + 1 is returned by the body (the caller's): never kept.
    The state's elements are bound at once (steps._UNPACK). (Counter values past those a
    counted body keys its specs by: loops._COUNTED.)"""
    monkeypatch.setattr(loops, "_COUNTED", 0)
    exe, ref = _pair(_module(COUNTER, 7))
    for args in _cases((5, 5, 5, 4, 5)):
        _same(exe(*args), ref(*args))
    ops = _body_spec(exe, 5).ops
    load = next(op for op in ops if op[0] == steps._MEMO_LOAD)
    store = next(op for op in ops if op[0] == steps._MEMO_STORE)
    kept = {inst.name for inst in store[3]}
    assert kept == {"at2", "atn"}   # (at2: the kernel of ib, at and the reshape)
    memo = load[2]
    assert sorted(memo) == [(i,) for i in range(7)]
    # the state's elements are bound in one step (their shapes are the key's)
    unpack = [op for op in ops if op[0] == steps._UNPACK]
    assert len(unpack) == 1 and {inst.name for inst, _ in unpack[0][3]} == {"i", "n", "acc", "x"}
    assert not [op for op in ops if op[0] == steps._ELEMENT]
    assert all(not value.flags.writeable for made in memo.values() for value in made.values())
    # an iteration whose counter was seen takes the kept values: equal to the computed ones
    gen = np.random.default_rng(3)
    for _ in range(3):
        args = (S32(5), gen.standard_normal((16, 4)).astype(F32))
        _same(exe(*args), ref(*args))


def test_a_loop_over_a_size_past_its_bound_is_still_refused():
    """n = 9 is past acc's bound 8: the reference's error, after calls at good sizes."""
    exe, ref = _pair(_module(COUNTER, 4))
    for args in _cases((5, 5)):
        _same(exe(*args), ref(*args))
    for exe_ in (exe, ref):
        with pytest.raises(dynhlo.DynHloError):
            exe_(*_cases((9,))[0])


def test_the_iteration_limit_holds_with_a_counter_condition():
    exe = dynhlo.compile(_module(COUNTER, 50), backend="cpu", reference=False,
                         max_while_iterations=10)
    with pytest.raises(dynhlo.DynHloError, match="max_while_iterations"):
        exe(*_cases((4,))[0])


CONDITIONS = """
HloModule c
cond {
  s = (s32[], u8[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  k = s32[] constant(3)
  ROOT c = pred[] compare(k, i), direction=DIRECTION
}
unsigned {
  s = (s32[], u8[], f32[]) parameter(0)
  u = u8[] get-tuple-element(s), index=1
  k = u8[] constant(200)
  ROOT c = pred[] compare(u, k), direction=GE
}
float {
  s = (s32[], u8[], f32[]) parameter(0)
  x = f32[] get-tuple-element(s), index=2
  k = f32[] constant(1)
  ROOT c = pred[] compare(x, k), direction=LT
}
typed {
  s = (s32[], u8[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  k = s32[] constant(3)
  ROOT c = pred[] compare(i, k), direction=LT, type=UNSIGNED
}
two {
  s = (s32[], u8[], f32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  j = s32[] get-tuple-element(s), index=0
  ROOT c = pred[] compare(i, j), direction=LT
}
ENTRY main {
  ROOT p = (s32[], u8[], f32[]) parameter(0)
}
"""


@pytest.mark.parametrize("direction", ["LT", "LE", "GT", "GE", "EQ", "NE"])
def test_counter_conditions_compare_as_the_reference(direction):
    module = dynhlo.parse_hlo(CONDITIONS.replace("DIRECTION", direction))
    comps = {c.name: c for c in module.computations}
    test = loops.counter_condition(comps["cond"])
    compare = {"LT": np.less, "LE": np.less_equal, "GT": np.greater,
               "GE": np.greater_equal, "EQ": np.equal, "NE": np.not_equal}[direction]
    for i in (-2**31, -1, 0, 2, 3, 4, 2**31 - 1):   # a 0-d array and a NumPy scalar
        for state in ((np.asarray(i, S32), np.uint8(0), F32(0)), (S32(i), np.uint8(0), F32(0))):
            assert test(state) == bool(compare(S32(3), S32(i)))
    unsigned = loops.counter_condition(comps["unsigned"])
    for u in (0, 199, 200, 255):
        assert unsigned((S32(0), np.uint8(u), F32(0))) == (u >= 200)
    # not a counter's: a float compare, another comparison type, two elements
    assert loops.counter_condition(comps["float"]) is None
    assert loops.counter_condition(comps["typed"]) is None
    assert loops.counter_condition(comps["two"]) is None
