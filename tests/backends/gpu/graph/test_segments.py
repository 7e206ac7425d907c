"""Captured segments (dynhlo/backends/gpu/graph/segments.py, walk.py): a module the graph
cannot hold whole runs, with graph=True, as captured runs of launches between the steps
that need the host (a loop, a sort, a conditional, a size read from a value).

Modules written by hand: three products, the step that needs the host, three products. The
tests lower MIN_LAUNCHES so stretches of three launches are captured. In CI the segments'
launches run in Triton's interpreter (tests/support/gpucheck.py); expected values come from the CPU
backend at sizes 0, 1, a middle size and the bound.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import CLI_GPU, GPU, INTERPRET, gpu, torch  # noqa: F401
from dynhlo.backends.gpu import graph
from tests.support.common import DATA

BOUND = 16
TAIL = """
  b0 = f32[<=16,8]{1,0} dot(m, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  b1 = f32[<=16,8]{1,0} dot(b0, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT b2 = f32[<=16,8]{1,0} dot(b1, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
"""


def module(middle: str, extra_params: str = "", computations: str = "") -> str:
    """x @ w three times (the first stretch), `middle` making `m` from `a2`, then m @ w
    three times (the second)."""
    return f"""HloModule segments
{computations}
ENTRY main {{
  x = f32[<=16,8]{{1,0}} parameter(0)
  w = f32[8,8]{{1,0}} parameter(1){extra_params}
  a0 = f32[<=16,8]{{1,0}} dot(x, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  a1 = f32[<=16,8]{{1,0}} dot(a0, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  a2 = f32[<=16,8]{{1,0}} dot(a1, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
{middle}{TAIL}"""


WHILE = module("""  zero = s32[] constant(0)
  init = (s32[], f32[<=16,8]{1,0}) tuple(zero, a2)
  loop = (s32[], f32[<=16,8]{1,0}) while(init), condition=cond, body=body
  m = f32[<=16,8]{1,0} get-tuple-element(loop), index=1""", computations="""cond {
  s = (s32[], f32[<=16,8]{1,0}) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  three = s32[] constant(3)
  ROOT lt = pred[] compare(i, three), direction=LT
}
body {
  s = (s32[], f32[<=16,8]{1,0}) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  j = s32[] add(i, one)
  v = f32[<=16,8]{1,0} get-tuple-element(s), index=1
  h = f32[] constant(0.5)
  hb = f32[<=16,8]{1,0} broadcast(h), dimensions={}
  u = f32[<=16,8]{1,0} multiply(v, hb)
  ROOT t = (s32[], f32[<=16,8]{1,0}) tuple(j, u)
}""")

LT = """lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT
}"""
SORT = module("""  m = f32[<=16,8]{1,0} sort(a2), dimensions={1}, to_apply=lt""", computations=LT)

# The true branch halves the rows (a size read from a value inside the branch): the second
# stretch reads its size off the conditional's result.
CONDITIONAL = module(
    """  m = f32[<=16,8]{1,0} conditional(p, a2, a2), true_computation=halve, """
    """false_computation=flip""", extra_params="\n  p = pred[] parameter(2)",
    computations="""halve {
  v = f32[<=16,8]{1,0} parameter(0)
  n = s32[] get-dimension-size(v), dimensions={0}
  two = s32[] constant(2)
  h = s32[] divide(n, two)
  ROOT y = f32[<=16,8]{1,0} set-dimension-size(v, h), dimensions={0}
}
flip {
  v = f32[<=16,8]{1,0} parameter(0)
  ROOT y = f32[<=16,8]{1,0} negate(v)
}""")

# The rows kept are a run-time value: the second stretch's sizes come from `m`'s shape.
SET_SIZE = module("""  m = f32[<=16,8]{1,0} set-dimension-size(a2, n), dimensions={0}""",
                  extra_params="\n  n = s32[] parameter(2)")

SIZES = (0, 1, 7, BOUND)


@pytest.fixture(autouse=True)
def three_launches(monkeypatch):
    """Stretches of three products are long enough to capture here."""
    monkeypatch.setattr(graph, "MIN_LAUNCHES", 3)


def segmented(text: str):
    exe = dynhlo.compile(text, **GPU, graph=True)
    assert isinstance(exe.program.graph, graph.SegmentedRunner), exe.program.graph_refusal
    return exe


def arguments(n: int, extra=None) -> list:
    rng = np.random.default_rng(n)
    x = rng.standard_normal((n, 8)).astype(np.float32)
    w = (rng.standard_normal((8, 8)) / 3).astype(np.float32)
    return [x, w] + ([] if extra is None else [extra])


def check(exe, cpu, args) -> None:
    got, want = exe(*args), cpu(*args)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


CASES = {"while": (WHILE, lambda n: None), "sort": (SORT, lambda n: None),
         "conditional": (CONDITIONAL, lambda n: np.bool_(n % 2 == 1)),
         "set_size": (SET_SIZE, lambda n: np.int32(max(n - 2, 0) if n > 1 else n))}


@pytest.mark.parametrize("name", list(CASES))
def test_two_segments_around_the_host_step_match_the_cpu(name):
    text, extra = CASES[name]
    exe, cpu = segmented(text), dynhlo.compile(text)
    runner = exe.program.graph
    assert len(runner.segmented.segments) == 2   # before and after the host step
    for n in SIZES:
        check(exe, cpu, arguments(n, extra(n)))
    if name == "conditional":  # both branches, at every size
        for n in SIZES:
            check(exe, cpu, arguments(n, np.bool_(n % 2 == 0)))
    if not INTERPRET:  # on a device: each segment captured once, replayed at every size
        assert len(runner.graphs) == 2 and len({k for k, _ in runner.graphs}) == 2


def test_tensors_in_and_out_stay_on_the_device():
    exe, cpu = segmented(SET_SIZE), dynhlo.compile(SET_SIZE)
    args = arguments(9, np.int32(5))
    got = exe(*[torch.as_tensor(a) for a in args])
    assert isinstance(got, torch.Tensor) and tuple(got.shape) == (5, 8)
    np.testing.assert_allclose(got.cpu().numpy(), cpu(*args), rtol=1e-5, atol=1e-5)


def test_a_size_read_from_a_value_comes_from_the_host_steps_result():
    exe = segmented(SET_SIZE)
    first, second = exe.program.graph.segmented.segments
    assert [i.name for i in first.exports] == ["a2"]
    assert [i.name for i in second.inputs] == ["m", "w"] and second.sources == []
    assert second.prog.dims[0] == [(0, 0), 8]   # rows: the input m's own dimension 0


def test_the_default_keeps_the_plain_path(monkeypatch):
    monkeypatch.delenv("DYNHLO_GPU_GRAPH", raising=False)   # the default, not the test run's
    exe = dynhlo.compile(SORT, **GPU)
    assert exe.program.graph is None
    runner, why = graph.make(exe.program)   # the default rule, as on a GPU
    assert runner is None and "'m' (sort): a library step" in why
    off = dynhlo.compile(SORT, **GPU, graph=False)
    assert off.program.graph is None
    # AOT artifacts carry a whole-graph module's program only: a segmented one loads plain
    assert graph.wanted_program(exe.program.plan, exe.program.precision) is None


@pytest.mark.parametrize("value", [1, 0, "yes", "False"])
def test_a_graph_option_that_is_not_a_bool_is_an_error(value):
    """graph=1 or graph="yes" was taken as unset (no segments, no error); True, False and
    None are the values."""
    with pytest.raises(dynhlo.UnsupportedError, match=f"graph={value!r} is not True, False"):
        dynhlo.compile(SORT, **GPU, graph=value)
    args = arguments(5)
    np.testing.assert_allclose(segmented(SORT)(*args), dynhlo.compile(SORT)(*args),
                               rtol=1e-5, atol=1e-5)


def test_short_stretches_stay_plain(monkeypatch):
    monkeypatch.setattr(graph, "MIN_LAUNCHES", 4)
    exe = dynhlo.compile(SORT, **GPU, graph=True)
    assert exe.program.graph is None
    assert "'m' (sort)" in exe.program.graph_refusal
    assert "no run between the steps that need the host has 4 launches" in \
        exe.program.graph_refusal


def test_errors_in_a_host_step_name_the_instruction():
    exe = segmented(SET_SIZE)
    with pytest.raises(dynhlo.DynamicSizeError, match="instruction 'm'.*outside \\[0, 16\\]"):
        exe(*arguments(4, np.int32(20)))
    loop = dynhlo.compile(WHILE, **GPU, graph=True, max_while_iterations=2)
    assert isinstance(loop.program.graph, graph.SegmentedRunner)
    with pytest.raises(dynhlo.DynHloError, match="'loop'"):
        loop(*arguments(4))


@pytest.mark.parametrize("name,why", [
    ("while", "split at 'loop' (while): the host reads its predicate"),
    ("sort", "split at 'm' (sort): a library step"),
    ("conditional", "split at 'm' (conditional): the host reads its branch index"),
    ("set_size", "split at 'm' (set-dimension-size): a size read from a value at run time")])
def test_inspect_lists_the_segments_and_split_points(name, why, tmp_path, capsys):
    from dynhlo.cli import main
    path = tmp_path / "m.hlo"
    path.write_text(CASES[name][0])
    assert main(["inspect", *CLI_GPU, str(path)]) == 0
    out = capsys.readouterr().out
    assert "gpu graph: off; plain path (not capturable:" in out
    assert "gpu segments with graph=True: 2 captured (" in out and why in out
    assert "segment 1: " in out and "segment 2: 3 launch(es), 'b0' .. 'b2'" in out
    assert out.index("segment 1:") < out.index(why) < out.index("segment 2:")


def _random_arguments(exe, rng) -> list:
    out = []
    for p in exe.module.entry.parameters:
        shape = p.shape.dims
        if p.shape.element_type == "f32":
            out.append((rng.standard_normal(shape) * 3).astype(np.float32))
        else:
            out.append(rng.integers(0, 1000, shape).astype(np.uint32))
    return out


@pytest.mark.parametrize("path,sizes", [("tf/nms_static.hlo", [None]),
                                        ("jax/threefry.hlo", [0, 1, 1234, 3000])])
def test_corpus_modules_with_loops_match_the_cpu(path, sizes, monkeypatch):
    """TF's non-max suppression (sorts, a loop, sizes set from values) and a JAX
    fori_loop (threefry), every stretch of launches captured."""
    from pathlib import Path
    monkeypatch.setattr(graph, "MIN_LAUNCHES", 1)
    text = (DATA / path).read_text()
    exe, cpu = segmented(text), dynhlo.compile(text)
    assert len(exe.program.graph.segmented.segments) >= 4
    rng = np.random.default_rng(7)
    for n in sizes:
        args = _random_arguments(exe, rng)
        if n is not None:
            args[0] = args[0][:n]
        got, want = exe(*args), cpu(*args)
        for a, b in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,), strict=True):
            assert a.shape == b.shape
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


HOISTED = "HloModule hoisted\n" + LT + """
ENTRY main {
  x = f32[<=16,8]{1,0} parameter(0)
  w = f32[8,8]{1,0} parameter(1)
  a0 = f32[<=16,8]{1,0} dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  a1 = f32[<=16,8]{1,0} dot(a0, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  s = f32[8,8]{1,0} sort(w), dimensions={1}, to_apply=lt
  a2 = f32[<=16,8]{1,0} dot(a1, s), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT a3 = f32[<=16,8]{1,0} dot(a2, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
"""


def test_a_host_step_that_reads_nothing_of_the_run_runs_before_it():
    """The sort reads a parameter only: it runs first and the four products stay one
    segment, whatever order the plan had them in."""
    exe, cpu = segmented(HOISTED), dynhlo.compile(HOISTED)
    (only,) = exe.program.graph.segmented.segments
    assert len(only.prog.steps) == 4 and "s" in [i.name for i in only.inputs]
    for n in SIZES:
        check(exe, cpu, arguments(n))


def test_an_artifact_of_a_segmented_module_loads_on_the_plain_path(monkeypatch, tmp_path):
    """AOT payloads carry a whole-graph module's graph kernel forms only: a module that needs
    segments loads and runs launch by launch, without errors."""
    import json
    from dynhlo import compiler
    from dynhlo.backends.gpu import aot
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    compiled = dynhlo.compile(SORT, backend="gpu", target="sm_90", graph=True).program
    assert isinstance(compiled.graph, graph.SegmentedRunner)
    payload = compiled.to_payload()
    meta = json.loads(payload["gpu_program.json"])
    assert meta["graph_forms"] is None
    by_cubin = {payload[f"cubin_{meta['kernels'][i]['cubin']}.cubin"]:
                compiled.runner.launchers[id(k)] for i, k in enumerate(compiled.kernels)}
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(aot, "cubin_launcher", lambda cubin, info: by_cubin[cubin])
    if INTERPRET:  # the compiled launchers stand in for cubins: they run on the CPU here
        monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))
    loaded = compiler.load_program(compiler.checked(SORT), "gpu", payload, "sm_90")
    assert loaded.graph is None
    cpu = dynhlo.compile(SORT)
    for n in (0, 7):
        args = arguments(n)
        np.testing.assert_allclose(loaded.run(args), cpu(*args), rtol=1e-5, atol=1e-5)


# `bc` reads only the scalar c, but its rows are x's (the add with x unifies them): the
# first segment reads x's shape, not its data.
SHAPE_ONLY = "HloModule shape_only\n" + LT + """
ENTRY main {
  x = f32[<=16,8]{1,0} parameter(0)
  w = f32[8,8]{1,0} parameter(1)
  c = f32[] parameter(2)
  bc = f32[<=16,8]{1,0} broadcast(c), dimensions={}
  d0 = f32[<=16,8]{1,0} dot(bc, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  d1 = f32[<=16,8]{1,0} dot(d0, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  d2 = f32[<=16,8]{1,0} dot(d1, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  m = f32[<=16,8]{1,0} sort(d2), dimensions={1}, to_apply=lt
  e0 = f32[<=16,8]{1,0} dot(m, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  e1 = f32[<=16,8]{1,0} add(e0, bc)
  ROOT e2 = f32[<=16,8]{1,0} add(e1, x)
}
"""


def test_a_size_of_a_value_the_segment_does_not_read_comes_from_its_shape():
    exe, cpu = segmented(SHAPE_ONLY), dynhlo.compile(SHAPE_ONLY)
    first = exe.program.graph.segmented.segments[0]
    assert [i.name for i in first.inputs] == ["c", "w"]
    assert [i.name for i in first.sources] == ["x"]
    assert [e.name for e in first.exports] == ["bc", "d2"]
    for n in SIZES:
        check(exe, cpu, arguments(n, np.float32(0.7)))


def test_a_jax_scan_runs_as_segments_around_its_loop(monkeypatch):
    """lax.scan over the rows (a while whose trip count is the run-time n), between
    products: through dynhlo.from_jax with graph=True, against JAX itself (sizes start
    at 1 in JAX)."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    from dynhlo.frontends.jax import from_jax
    monkeypatch.setattr(graph, "MIN_LAUNCHES", 2)

    def f(x, w):
        h = jnp.tanh(x @ w) @ w

        def step(c, xi):
            c = jnp.tanh(c * 0.5 + xi)
            return c, c * 2.0
        _, ys = jax.lax.scan(step, jnp.zeros((8,), x.dtype), h)
        return jnp.tanh(ys @ w) @ w

    exe = from_jax(f, "f32[n,8]", "f32[8,8]", bounds={"n": BOUND}, **GPU, graph=True)
    runner = exe.executable.program.graph
    assert isinstance(runner, graph.SegmentedRunner)
    assert len(runner.segmented.segments) == 2
    rng = np.random.default_rng(11)
    w = (rng.standard_normal((8, 8)) / 3).astype(np.float32)
    for n in (1, 2, 9, BOUND):
        x = rng.standard_normal((n, 8)).astype(np.float32)
        np.testing.assert_allclose(exe(x, w), np.asarray(jax.jit(f)(x, w)), rtol=1e-5,
                                   atol=1e-5)
