"""The GPU's launch list (backends/gpu/plan/schedule.py): one lowering of a fusion plan that
the interpreted, specialized and graph runners all read.

The modules here skip the compile pipeline (which inlines calls), so their plans keep
`call` steps: the list keeps them as items with their callee's list, and `inline` is the
one place that flattens them. Expected values are computed by hand in NumPy.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.gpucheck import torch  # skips without torch or triton; picks interpreter mode
from dynhlo.backends import gpu  # noqa: E402
from dynhlo.backends.gpu.graph import segments  # noqa: E402
from dynhlo.backends.gpu.plan.fusion import plan_computation  # noqa: E402
from dynhlo.backends.gpu.plan.schedule import inline, lower  # noqa: E402
from dynhlo.hlo.text.parser import parse_hlo  # noqa: E402
from dynhlo.options import CompileOptions  # noqa: E402
from dynhlo.shapes.dynamic import infer_module  # noqa: E402

pytestmark = pytest.mark.skipif(torch.cuda.is_available(), reason="runs in the interpreter")

CALLS = """HloModule calls
inner {
  x = f32[<=8,4] parameter(0)
  y = f32[<=8,4] parameter(1)
  m = f32[<=8,4] multiply(x, y)
  ROOT t = f32[<=8,4] tanh(m)
}
ENTRY main {
  a = f32[<=8,4] parameter(0)
  c = f32[<=8,4] call(a, a), to_apply=inner
  d = f32[<=8,4] call(c, a), to_apply=inner
  ROOT e = f32[<=8,4] add(d, a)
}
"""

BRANCHES = """HloModule branches
twice {
  p = f32[<=8] parameter(0)
  ROOT r = f32[<=8] add(p, p)
}
negated {
  p = f32[<=8] parameter(0)
  ROOT r = f32[<=8] negate(p)
}
ENTRY main {
  x = f32[<=8] parameter(0)
  c = pred[] parameter(1)
  ROOT o = f32[<=8] conditional(c, x, x), true_computation=twice, false_computation=negated
}
"""


def _compiled(text: str, **options):
    module = parse_hlo(text)
    info = infer_module(module)
    options = CompileOptions.of(options, interpret=True)
    return module, info, gpu.compile_module(module, info, options)


def _want(a):
    return np.tanh(np.tanh(a * a) * a) + a


def test_calls_stay_items_with_their_callee_lists():
    module = parse_hlo(CALLS)
    schedule = lower(plan_computation(infer_module(module)))
    assert [(i.kind, i.inst.name) for i in schedule.items] == [
        ("param", "a"), ("call", "c"), ("call", "d"), ("kernel", "e")]
    a, c, d, e = schedule.items
    assert (a.out, c.out, d.out, e.out) == (0, 1, 2, 3)
    assert c.inputs == [0, 0] and d.inputs == [1, 0]
    # a kernel reads its group's inputs, in the group's order
    assert e.inputs == [schedule.slot_of[i] for i in e.kernel.group.inputs]
    assert sorted(e.inputs) == [0, 2]
    assert schedule.root == 3 and schedule.nparams == 1 and schedule.nslots == 4
    (callee,) = c.calls
    assert [i.kind for i in callee.items] == ["param", "param", "kernel"]
    assert all(i.why is None for i in schedule.items)


def test_inline_is_the_one_flattening_of_calls():
    schedule = lower(plan_computation(infer_module(parse_hlo(CALLS))))
    items, root, free = inline(schedule)
    kinds = [(i.kind, i.inst.name) for i in items]
    assert kinds == [("param", "a"), ("kernel", "t"), ("kernel", "t"), ("kernel", "e")]
    first, second, last = items[1:]
    # the first call reads the entry's parameter, the second its result and `a`
    assert first.inputs == [0, 0] and sorted(second.inputs) == sorted([first.out, 0])
    assert sorted(last.inputs) == sorted([second.out, 0]) and root == last.out
    outs = [i.out for i in items]
    assert len(set(outs)) == len(outs) and free == max(outs) + 1
    # the lowered list itself is unchanged: inlined items are copies
    assert [i.kind for i in schedule.items].count("call") == 2


def test_size_getters_read_entry_parameter_dimensions():
    schedule = lower(plan_computation(infer_module(parse_hlo(CALLS))))
    kernel = schedule.items[-1]
    assert kernel.out_getters == [(0, 0), 4]
    assert kernel.size_getters and set(kernel.size_getters) <= {(0, 0), 4}
    assert kernel.grid_getters == [(0, 0), 4]
    assert schedule.equal == []


def test_control_flow_and_host_items_say_why_they_need_the_host():
    schedule = lower(plan_computation(infer_module(parse_hlo(BRANCHES))))
    (branch,) = [i for i in schedule.items if i.kind == "conditional"]
    assert branch.why == "the host reads its branch index" and len(branch.calls) == 2
    assert [i.kind for i in branch.calls[0].items] == ["param", "kernel"]
    rng = """HloModule r
ENTRY main {
  lo = f32[] constant(0)
  hi = f32[] constant(1)
  ROOT u = f32[4] rng(lo, hi), distribution=rng_uniform
}
"""
    (host,) = [i for i in lower(plan_computation(infer_module(parse_hlo(rng)))).items
               if i.inst.name == "u"]
    assert host.kind == "host" and host.why == "a host fallback"


@pytest.mark.parametrize("n", [0, 1, 5, 8])
def test_three_runners_read_one_list_and_agree(n):
    a = np.random.default_rng(n).standard_normal((n, 4)).astype(np.float32)
    want = _want(a)
    _, _, fast = _compiled(CALLS, graph=False)
    _, _, graphed = _compiled(CALLS, graph=True)
    assert fast.mode == "specialized" and graphed.mode == "graph"
    assert graphed.schedule.items[1].kind == "call"   # the graph inlined it, not the list
    ta = torch.from_numpy(a)
    interpreted = fast.runner.run(fast.schedule, [ta], args_shapes=[(n, 4)])
    for got in (fast.run([ta]), graphed.run([ta]), interpreted):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


def test_control_flow_runs_interpreted_or_as_segments_from_the_same_list():
    x = np.arange(5, dtype=np.float32)
    _, _, plain = _compiled(BRANCHES)
    assert plain.mode == "interpret" and plain.fast is None
    np.testing.assert_array_equal(plain.run([x, np.array(True)]), x + x)
    np.testing.assert_array_equal(plain.run([x, np.array(False)]), -x)
    split = segments.split(plain.schedule, 1)
    assert any(isinstance(i, segments.HostSteps) and
               any(s.kind == "conditional" for s in i.steps) for i in split.items)


def test_the_runner_is_chosen_once_per_program(monkeypatch):
    monkeypatch.setenv("DYNHLO_GPU_GRAPH", "0")
    _, _, off = _compiled(CALLS, graph=None)
    assert off.mode == "specialized" and off.graph_refusal == "off"
    monkeypatch.setenv("DYNHLO_GPU_GRAPH", "1")
    _, _, on = _compiled(CALLS, graph=None)
    assert on.mode == "graph" and on.graph is not None


def test_a_refused_capture_falls_back_to_the_next_runner_once():
    from dynhlo.backends.gpu.graph.runner import GraphCaptureError
    _, _, program = _compiled(CALLS, graph=True)
    assert program.mode == "graph"

    def refused(*args, **kwargs):
        raise GraphCaptureError("operation not permitted when stream is capturing")
    program.graph.run = refused
    a = np.random.default_rng(3).standard_normal((5, 4)).astype(np.float32)
    with pytest.warns(RuntimeWarning, match="could not be captured"):
        got = program.run([torch.from_numpy(a)])
    np.testing.assert_allclose(got.numpy(), _want(a), rtol=1e-5, atol=1e-6)
    assert program.mode == "specialized" and program.graph is None
    assert program.graph_refusal.startswith("capture failed: operation not permitted")
    np.testing.assert_allclose(program.run([a]), _want(a), rtol=1e-5, atol=1e-6)
