"""Chains of data-movement steps in a loop body run as one step (compiled/chains.py), as
JAX writes an LSTM's scan: `x[i]` as a gather of a row and a dynamic-reshape joined to the
carried state by a concatenate, the output's row i written as broadcast, set-dimension-size,
pad, dynamic-update-slice, set-dimension-size and slice. Semantics: XLA operation semantics
(Gather, Pad, DynamicUpdateSlice, DynamicSlice: start indices clamped into range). Every
result is compared with the reference evaluator's bit for bit, at trip counts 0, 1 and past
the rows (indices clamped), at several dynamic sizes, each called again (the specs); a chain
whose placement reads padding at some counter values runs its steps there. The stored
haiku_lstm module is run at its sizes against its stored outputs and the reference.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import steps
from tests.support import reallibs_data


@pytest.fixture(autouse=True)
def _fusing(monkeypatch):
    """Movement chains as one step (chains.py) are off by default (fast._FUSING): these
    tests turn them on, in bodies whose specs are not made per counter value
    (loops._COUNTED: the gathers at the counter's index then fold)."""
    monkeypatch.setattr("dynhlo.backends.cpu.compiled.fast._FUSING", True)
    monkeypatch.setattr("dynhlo.backends.cpu.compiled.loops._COUNTED", 0)


F32, S32 = np.float32, np.int32

# State (i, x, w, h, out, y, acc): x[i] (a gather of row i, clamped, then a
# dynamic-reshape to the rows' actual count n) joined to h, times w, is the next h; h's
# row block written into out at row i (clamped past 5) through pad + update + resize +
# slice, as JAX lowers dynamic_update_index_in_dim; rows i, i+1 of y padded with 4 zero
# rows (a gather of a window reading padding once i > 4) added into acc.
MODULE = """
HloModule lstm_like

body {
  s = (s32[], f32[6,<=8,4], f32[7,3], f32[<=8,3], f32[6,<=8,3], f32[6,4], f32[2,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[6,<=8,4] get-tuple-element(s), index=1
  w = f32[7,3] get-tuple-element(s), index=2
  h = f32[<=8,3] get-tuple-element(s), index=3
  out = f32[6,<=8,3] get-tuple-element(s), index=4
  y = f32[6,4] get-tuple-element(s), index=5
  acc = f32[2,4] get-tuple-element(s), index=6
  z = s32[] constant(0)
  zf = f32[] constant(0)
  n = s32[] get-dimension-size(x), dimensions={1}
  four = s32[] constant(4)
  idx = s32[1,1] reshape(i)
  row = f32[1,<=8,4] gather(x, idx), offset_dims={1,2}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8,4}
  xi = f32[<=8,4] dynamic-reshape(row, n, four)
  cat = f32[<=8,7] concatenate(xi, h), dimensions={1}
  hn = f32[<=8,3] dot(cat, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  b = f32[1,<=8,3] broadcast(hn), dimensions={1,2}
  u = f32[1,<=8,3] set-dimension-size(b, n), dimensions={1}
  p = f32[6,<=16,3] pad(out, zf), padding=0_0x0_8x0_0
  d = f32[6,<=16,3] dynamic-update-slice(p, u, i, z, z)
  gd = s32[] get-dimension-size(out), dimensions={1}
  sd = f32[6,<=16,3] set-dimension-size(d, gd), dimensions={1}
  r = f32[6,<=8,3] slice(sd), slice={[0:6], [0:8], [0:3]}
  q = f32[10,4] pad(y, zf), padding=0_4x0_0
  ds = f32[1,2,4] gather(q, idx), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0}, index_vector_dim=1, slice_sizes={2,4}
  d2 = f32[2,4] reshape(ds)
  acc2 = f32[2,4] add(acc, d2)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[6,<=8,4], f32[7,3], f32[<=8,3], f32[6,<=8,3], f32[6,4], f32[2,4]) tuple(j, x, w, hn, r, y, acc2)
}

cond {
  s = (s32[], f32[6,<=8,4], f32[7,3], f32[<=8,3], f32[6,<=8,3], f32[6,4], f32[2,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  limit = s32[] constant(TRIPS)
  ROOT lt = pred[] compare(i, limit), direction=LT
}

ENTRY main {
  x = f32[6,<=8,4] parameter(0)
  w = f32[7,3] parameter(1)
  y = f32[6,4] parameter(2)
  n = s32[] get-dimension-size(x), dimensions={1}
  z = s32[] constant(0)
  zf = f32[] constant(0)
  zh = f32[8,3] broadcast(zf), dimensions={}
  h = f32[<=8,3] set-dimension-size(zh, n), dimensions={0}
  zo = f32[6,8,3] broadcast(zf), dimensions={}
  out = f32[6,<=8,3] set-dimension-size(zo, n), dimensions={1}
  acc = f32[2,4] broadcast(zf), dimensions={}
  t = (s32[], f32[6,<=8,4], f32[7,3], f32[<=8,3], f32[6,<=8,3], f32[6,4], f32[2,4]) tuple(z, x, w, h, out, y, acc)
  l = (s32[], f32[6,<=8,4], f32[7,3], f32[<=8,3], f32[6,<=8,3], f32[6,4], f32[2,4]) while(t), condition=cond, body=body
  r = f32[6,<=8,3] get-tuple-element(l), index=4
  hl = f32[<=8,3] get-tuple-element(l), index=3
  a = f32[2,4] get-tuple-element(l), index=6
  ROOT o = (f32[6,<=8,3], f32[<=8,3], f32[2,4]) tuple(r, hl, a)
}
"""


def _pair(trips: int):
    text = MODULE.replace("TRIPS", str(trips))
    return dynhlo.compile(text, backend="cpu", reference=False), \
        dynhlo.compile(text, backend="cpu", reference=True)


def _same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def _args(n: int, seed: int) -> tuple:
    r = np.random.default_rng(seed)
    return (r.standard_normal((6, n, 4)).astype(F32), r.standard_normal((7, 3)).astype(F32),
            r.standard_normal((6, 4)).astype(F32))


def _body_specs(exe) -> list:
    evaluator = exe.program.evaluator
    body = next(info for info in exe.program.info.calls.values()
                if info.computation.name == "body")
    return list(evaluator._local.pools[id(body)].fast.values())


def _fused(fast) -> dict:
    """{the last instruction's name: the names of the steps fused into it}."""
    return {op[1].name: [step[1].name for step in op[5]] for op in fast.ops
            if op[0] in (steps._SPECIAL, steps._SPECIAL_ONE) and len(op) > 5}


@pytest.mark.parametrize("trips", [0, 1, 3, 6, 9])
def test_movement_chains_in_a_loop_are_the_references_bit_for_bit(trips):
    """Trip counts 0, 1, within the rows, and past them (row 5 read and written again,
    clamped as XLA clamps; the padded window reading zeros from i = 5 on: its chain runs
    its steps there), sizes 5, 8, 1 and 5 again, each called twice."""
    exe, ref = _pair(trips)
    for seed, n in enumerate((5, 8, 1, 5)):
        args = _args(n, seed)
        for _ in range(2):
            _same(exe(*args), ref(*args))
    if trips > 1:   # (one trip: no loop left, its body in the entry)
        for fast in _body_specs(exe):
            fused = _fused(fast)
            assert fused["cat"] == ["row", "xi", "cat"]
            assert fused["r"] == ["b", "u", "p", "d", "sd", "r"]
            assert fused["ds"] == ["q", "ds"]
            names = {op[1].name for op in fast.ops}
            assert not names & {"row", "xi", "b", "u", "p", "d", "sd", "q"}


def test_a_fused_chain_keeps_its_placement_per_counter_value():
    """The x[i] chain's placement is worked out once per counter value: calls after the
    first read it back (the same results as the reference's for new data)."""
    exe, ref = _pair(9)
    for seed in range(3):
        args = _args(4, seed)
        _same(exe(*args), ref(*args))
    (fast,) = _body_specs(exe)
    (op,) = [op for op in fast.ops if op[1].name == "cat"]
    assert [s.name for s in op[3]] == ["x", "h", "idx"]   # moving inputs, then the key
    names = op[2].__code__.co_freevars
    kept = op[2].__closure__[names.index("kept")].cell_contents
    # one placement per counter value 0..8 (the gather clamps 6..8 to row 5: other keys)
    assert sorted(np.frombuffer(key[0][1], S32)[0] for key in kept) == list(range(9))
    assert all(plan is not None for plan in kept.values())


def test_a_chain_that_reads_padding_at_the_recorded_call_is_left_as_it_is():
    """A window of a pad that reads padding at the call the spec is made from (the
    loop starts at i = 5 here) keeps its steps: the trace would see a zero, not a position."""
    text = MODULE.replace("TRIPS", "8").replace(
        "t = (s32[], f32[6,<=8,4], f32[7,3], f32[<=8,3], f32[6,<=8,3], f32[6,4], f32[2,4]) "
        "tuple(z, x", "t = (s32[], f32[6,<=8,4], f32[7,3], f32[<=8,3], f32[6,<=8,3], "
        "f32[6,4], f32[2,4]) tuple(five, x").replace(
        "  z = s32[] constant(0)\n  zf = f32[] constant(0)\n  zh",
        "  z = s32[] constant(0)\n  five = s32[] constant(5)\n  zf = f32[] constant(0)\n  zh")
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    for seed, n in enumerate((3, 3, 7)):
        args = _args(n, seed)
        _same(exe(*args), ref(*args))
    for fast in _body_specs(exe):
        assert "ds" not in _fused(fast)
        assert {"q", "ds"} <= {op[1].name for op in fast.ops}


@pytest.mark.parametrize("size", reallibs_data.MANIFEST["haiku_lstm"]["sizes"])
def test_the_stored_haiku_lstm_against_its_outputs_and_the_reference(size):
    """The stored module (a 12-step scan) at each stored batch size: the stored outputs
    (jax.jit's, within the program's tolerance) and the reference's, bit for bit; its
    loop body's output-row chain is fused."""
    text = reallibs_data.module_text("haiku_lstm")
    exe = dynhlo.compile(dynhlo.parse_stablehlo(text), backend="cpu", reference=False)
    ref = dynhlo.compile(dynhlo.parse_stablehlo(text), backend="cpu", reference=True)
    args, outs = reallibs_data.case("haiku_lstm", size)
    for _ in range(2):
        got = exe(*args)
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        reallibs_data.check_outputs("haiku_lstm", got, outs)
    want = ref(*args)
    _same(got, list(want) if isinstance(want, (list, tuple)) else [want])
    evaluator = exe.program.evaluator
    bodies = [info for info in exe.program.info.calls.values()
              if info.computation.name.startswith("body")]
    specs = [f for info in bodies for f in evaluator._local.pools[id(info)].fast.values()]
    # (the output row's chain: its zeros, sized, written at the counter; the bias's
    # broadcast, sized by the carried batch size, is inside the gates' kernel)
    kinds = [[[name.rsplit(".", 1)[0] for name in steps] for last, steps in _fused(f).items()
              if last.startswith("dynamic_update_slice")] for f in specs]
    assert specs and all(k == [["broadcast", "set_dimension_size", "dynamic_update_slice"]]
                         for k in kinds)


# A size made of the counter (k = clamp(1, i, 3) + 1 rows summed) and an index made of it
# (element 2k, clamped): their values are kept per counter value (memo.py), the size's
# guard with them; counter values whose size is not the recorded one fail the guard and
# run their steps (nothing kept for them).
GUARDED = """
HloModule guarded

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

body {
  s = (s32[], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  acc = f32[4] get-tuple-element(s), index=1
  x = f32[4] get-tuple-element(s), index=2
  one = s32[] constant(1)
  three = s32[] constant(3)
  c = s32[] clamp(one, i, three)
  k = s32[] add(c, one)
  rows = f32[<=4] set-dimension-size(x, k), dimensions={0}
  zf = f32[] constant(0)
  total = f32[] reduce(rows, zf), dimensions={0}, to_apply=add
  two = s32[] constant(2)
  k2 = s32[] multiply(k, two)
  pick = f32[1] dynamic-slice(x, k2), dynamic_slice_sizes={1}
  ps = f32[] reshape(pick)
  both = f32[] add(total, ps)
  tb = f32[4] broadcast(both), dimensions={}
  acc2 = f32[4] add(acc, tb)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[4], f32[4]) tuple(j, acc2, x)
}

cond {
  s = (s32[], f32[4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  limit = s32[] constant(TRIPS)
  ROOT lt = pred[] compare(i, limit), direction=LT
}

ENTRY main {
  x = f32[4] parameter(0)
  z = s32[] constant(0)
  zf = f32[] constant(0)
  acc = f32[4] broadcast(zf), dimensions={}
  t = (s32[], f32[4], f32[4]) tuple(z, acc, x)
  l = (s32[], f32[4], f32[4]) while(t), condition=cond, body=body
  ROOT r = f32[4] get-tuple-element(l), index=1
}
"""


@pytest.mark.parametrize("trips", [0, 1, 2, 5])
def test_a_guard_of_a_kept_size_is_skipped_with_it_and_still_holds(trips):
    text = GUARDED.replace("TRIPS", str(trips))
    exe = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    r = np.random.default_rng(7)
    for _ in range(3):
        # (small integers: sums exact in any order, the kernel's reduction as NumPy's)
        x = r.integers(-50, 50, 4).astype(F32)
        np.testing.assert_array_equal(exe(x), ref(x))
    if trips > 1:   # (one trip: no loop left, its body in the entry)
        for fast in _body_specs(exe):
            wrapped = [op for op in fast.ops if op[0] == steps._MEMOIZED]
            assert any(op[2][0] == steps._GUARD for op in wrapped)
            load = next(op for op in fast.ops if op[0] == steps._MEMO_LOAD)
            # kept: only the counter values whose size is the recorded one
            recorded = 2   # (the spec is made at i = 0: k = 2)
            assert all(int(np.clip(i, 1, 3)) + 1 == recorded for (i,) in load[2])


# Outside a loop: a bias broadcast to n rows (broadcast + set-dimension-size: the result a
# strided copy of the input, rows of stride 0) and rows 2, 0, 3 of w transposed (gather at
# folded indices + transpose + copy by the resize: positions taken).
ENTRY_CHAINS = """
HloModule entry_chains

ENTRY main {
  x = f32[<=8,4] parameter(0)
  bias = f32[4] parameter(1)
  w = f32[5,3] parameter(2)
  n = s32[] get-dimension-size(x), dimensions={0}
  bb = f32[8,4] broadcast(bias), dimensions={1}
  bn = f32[<=8,4] set-dimension-size(bb, n), dimensions={0}
  y = f32[<=8,4] add(x, bn)
  idx = s32[3,1] constant({{2},{0},{3}})
  g = f32[3,3] gather(w, idx), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}
  gt = f32[3,3] transpose(g), dimensions={1,0}
  three = s32[] constant(3)
  gs = f32[3,3] set-dimension-size(gt, three), dimensions={0}
  ROOT o = (f32[<=8,4], f32[<=8,4], f32[3,3]) tuple(y, bn, gs)
}
"""


def test_chains_outside_loops_copy_strided_views_or_take_positions():
    exe = dynhlo.compile(ENTRY_CHAINS, backend="cpu", reference=False)
    ref = dynhlo.compile(ENTRY_CHAINS, backend="cpu", reference=True)
    r = np.random.default_rng(11)
    for n in (3, 8, 3, 1):
        args = (r.standard_normal((n, 4)).astype(F32), r.standard_normal(4).astype(F32),
                r.standard_normal((5, 3)).astype(F32))
        for _ in range(2):
            _same(exe(*args), ref(*args))
    evaluator = exe.program.evaluator
    fused = {}
    for pool in evaluator._local.pools.values():
        for fast in pool.fast.values():
            fused.update(_fused(fast))
    assert fused == {"bn": ["bb", "bn"], "gs": ["g", "gt", "gs"]}
