"""The GPU graph path (dynhlo/backends/gpu/graph/): one program serves every size.

In CI (no GPU) the graph program's launches run in Triton's interpreter with a grid of
INTERPRET_GRID programs, so the stride loops, the size buffer, the buffer plan and the
matmul epilogues are all exercised; capture and replay need the device
(bench/device_checks.py graph). Expected values: the corpus (JAX) and the CPU backend.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import CLI_GPU, GPU, INTERPRET, gpu, torch  # noqa: F401
from dynhlo.backends.gpu.graph import kernels, plan
from dynhlo.backends.plan import buffers
from dynhlo.backends.gpu.graph.runner import _dependencies
from tests.backends.gpu.test_models import MODELS, assert_matches, load_cases

GRAPH_MODELS = ["attention", "embedding_sum", "layernorm_residual", "mlp", "softmax_rows"]


def graph_exe(text: str):
    exe = dynhlo.compile(text, **GPU, graph=True)
    assert exe.program.graph is not None, exe.program.graph_refusal
    return exe


@pytest.mark.parametrize("name", GRAPH_MODELS)
def test_corpus_through_one_graph_program(name):
    exe = graph_exe((MODELS / name / "module.hlo").read_text())
    for case, args, wants in load_cases(name):
        assert_matches(exe(*args), wants[0], case["rtol"], case["atol"])
        tensors = exe(*[torch.from_numpy(a) for a in args])  # tensors in: read in place
        assert_matches(tensors.cpu().numpy(), wants[0], case["rtol"], case["atol"])


@pytest.mark.parametrize("name,dynamic", [("attention", 3), ("mlp", 1)])
def test_sizes_zero_and_one(name, dynamic):
    """The leading `dynamic` arguments carry n (corpus README)."""
    text = (MODELS / name / "module.hlo").read_text()
    exe, cpu = graph_exe(text), dynhlo.compile(text)
    _, args, _ = list(load_cases(name))[-1]
    for n in (0, 1, 0):
        cut = [a[:n] if k < dynamic else a for k, a in enumerate(args)]
        got, want = exe(*cut), cpu(*cut)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_refusals_name_the_reason():
    bmm = dynhlo.compile((MODELS / "batched_matmul" / "module.hlo").read_text(),
                         **GPU, graph=True)
    assert bmm.program.graph is None
    assert "dot_general.1" in bmm.program.graph_refusal
    from dynhlo.backends.gpu import graph
    small = dynhlo.compile((MODELS / "softmax_rows" / "module.hlo").read_text(),
                           **GPU)
    runner, why = graph.make(small.program)  # the default rule, as on a GPU
    assert runner is None and "1 launches" in why  # the plain path is faster


def test_strided_kernel_reads_sizes_from_the_buffer():
    exe = graph_exe((MODELS / "softmax_rows" / "module.hlo").read_text())
    (step,) = exe.program.graph.prog.steps
    src = step.kernel.source
    assert "def kernel(in0, out, sz, BM: tl.constexpr, BN: tl.constexpr):" in src
    assert "    s0 = tl.load(sz + 0)" in src
    assert "    for pid in range(tl.program_id(0), nblocks, tl.num_programs(0)):" in src
    assert "do_not_specialize" not in src


def test_product_epilogue_is_fused():
    exe = graph_exe((MODELS / "mlp" / "module.hlo").read_text())
    steps = exe.program.graph.prog.steps
    first = steps[0].kernel.source
    assert "def kernel(a, b, e0, out, sz," in first  # x @ w1, + b1, gelu: one launch
    assert "acc.to(tl.float32)" in first and "M.tanh(" in first
    assert 'input_precision="ieee"' in first
    assert len(steps) == 3


LOWER_PRODUCT = """HloModule lower
ENTRY e {
  a = f32[<=8,6] parameter(0)
  w = f32[6,8] parameter(1)
  n = s32[] get-dimension-size(a), dimensions={0}
  d = f32[<=8,8] dot(a, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  i = s64[<=8,8] iota(), iota_dimension=0
  i2 = s64[<=8,8] set-dimension-size(i, n), dimensions={0}
  j = s64[<=8,8] iota(), iota_dimension=1
  j2 = s64[<=8,8] set-dimension-size(j, n), dimensions={0}
  lower = pred[<=8,8] compare(i2, j2), direction=GE
  z = f32[] constant(0)
  zb = f32[<=8,8] broadcast(z), dimensions={}
  ROOT r = f32[<=8,8] select(lower, d, zb)
}
"""


def test_product_epilogue_with_64_bit_values_is_fused():
    """An epilogue that computes in int64 (an s64 iota's rows against its columns: a lower
    triangle) runs on the product's tiles; only 64-bit offsets keep a kernel apart."""
    exe = graph_exe(LOWER_PRODUCT)
    (step,) = exe.program.graph.prog.steps
    src = step.kernel.source
    assert "acc.to(tl.float32)" in src and ".to(tl.int64)" in src
    gen = np.random.default_rng(3)
    w = gen.standard_normal((6, 8), dtype=np.float32)
    for n in (0, 1, 5, 8):
        a = gen.standard_normal((n, 6), dtype=np.float32)
        want = np.where(np.arange(n)[:, None] >= np.arange(8)[None, :], a @ w, 0)
        np.testing.assert_allclose(exe(a, w), want, rtol=1e-5, atol=1e-5)


@dataclass
class _Step:
    inputs: list
    out: int


def test_buffer_plan_reuses_dead_values_only():
    # 0 -> 1 -> 2 -> 3 (root): 1 is dead once 2 ran, so 3 may take its buffer.
    steps = [_Step([0], 1), _Step([1], 2), _Step([2], 3)]
    where, sizes, before = buffers.assign(steps, {1: 1000, 2: 1000, 3: 1000}, keep={3})
    assert where[1] != where[2] and where[3] == where[1] and len(sizes) == 2
    assert before == {3: 1}
    deps = _dependencies(steps, before)
    assert deps == [set(), {0}, {1, 0}]  # 3's writer follows 2 (reader of 1) and 1's writer


def test_a_value_of_two_writers_has_one_buffer_and_its_reader_follows_both():
    # attention's two tile kernels both write 2 (one of them does the work at a given size),
    # 3 reads it: the second writer follows the first, the reader the second. On the H200 a
    # reader that followed only the last writer ran beside the first and read its partial
    # sums half written (the 48-layer transformer was wrong at n <= LONG_ROWS).
    steps = [_Step([0], 1), _Step([1], 2), _Step([1], 2), _Step([2], 3)]
    where, sizes, before = buffers.assign(steps, {1: 1000, 2: 1000, 3: 1000}, keep={3})
    assert len(sizes) == 2 and where[1] == where[3] != where[2]   # 3 takes dead 1's
    assert _dependencies(steps, before) == [set(), {0}, {0, 1}, {0, 1, 2}]



@pytest.mark.parametrize("steps", [
    # 2's first write is dead: 3 must not take its buffer before 2's second writer
    [_Step([0], 2), _Step([0], 3), _Step([0], 2), _Step([3], 4)],
    # 2 is read between its writers only: 5 must not take its buffer before the second
    [_Step([0], 2), _Step([2], 3), _Step([0], 5), _Step([0], 2), _Step([5, 3], 4)],
])
def test_a_value_of_two_writers_keeps_its_buffer_until_the_last(steps):
    """No buffer holds two values at once: a value's buffer is free only after its last
    writer and its last reader."""
    where, _, _ = buffers.assign(steps, dict.fromkeys(range(6), 64), keep={4})
    live: dict = {}   # slot -> [first write, last write or read]
    for k, step in enumerate(steps):
        for slot in [*step.inputs, step.out]:
            if slot in where:
                live.setdefault(slot, [k, k])[1] = k
    for a in live:
        for b in live:
            overlap = live[a][0] <= live[b][1] and live[b][0] <= live[a][1]
            assert a == b or not overlap or where[a] != where[b], (a, b, where)

def test_buffer_plan_never_aliases_a_step_input():
    steps = [_Step([0], 1), _Step([1], 2)]
    where, _, _ = buffers.assign(steps, {1: 4096, 2: 64}, keep={2})
    assert where[1] != where[2]


def test_matmul_layouts_and_types():
    for a_km in (False, True):
        for b_nk in (False, True):
            src = kernels.matmul("f32", a_km, b_nk).source
            assert ("rk[None, :] * mm" in src) == a_km and ("rn[None, :] * kk" in src) == b_nk
    assert 'input_precision="tf32"' in kernels.matmul("f32", False, False, tf32=True).source


def test_transposed_operands_and_a_tuple_root():
    text = """HloModule t
ENTRY main {
  a = f32[<=40,24]{1,0} parameter(0)
  b = f32[<=40,16]{1,0} parameter(1)
  at = f32[24,<=40]{1,0} transpose(a), dimensions={1,0}
  p = f32[24,16]{1,0} dot(at, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  q = f32[<=40,24]{1,0} dot(b, p), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  ROOT r = (f32[24,16]{1,0}, f32[<=40,24]{1,0}) tuple(p, q)
}
"""
    exe, cpu = graph_exe(text), dynhlo.compile(text)
    rng = np.random.default_rng(3)
    for n in (0, 1, 17, 40):
        args = [rng.standard_normal((n, 24)).astype(np.float32),
                rng.standard_normal((n, 16)).astype(np.float32)]
        for got, want in zip(exe(*args), cpu(*args), strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_plan_refuses_data_dependent_sizes():
    text = """HloModule t
ENTRY main {
  a = f32[<=8]{0} parameter(0)
  n = s32[] parameter(1)
  s = f32[<=8]{0} set-dimension-size(a, n), dimensions={0}
  ROOT e = f32[<=8]{0} exponential(s)
}
"""
    exe = dynhlo.compile(text, **GPU, graph=True)
    assert exe.program.graph is None
    with pytest.raises(plan.GraphRefusal):
        plan.build(exe.program.plan, exe.program.info)


def test_a_format_3_graph_program_reads_back():
    """What a format-3 AOT payload stored (tests/support/gpu_payload3.py writes it as that
    format did): the graph program as data, launches by cubin key."""
    import json
    from dynhlo.backends.gpu.graph import data
    from tests.support.gpu_payload3 import graph_program_data
    exe = graph_exe((MODELS / "mlp" / "module.hlo").read_text())
    prog = exe.program.graph.prog
    keys = [f"key{k}" for k in range(len(prog.steps))]
    back = data.from_data(json.loads(json.dumps(graph_program_data(prog, keys))), exe.module)
    assert [s.key for s in back.steps] == keys
    for a, b in zip(prog.steps, back.steps, strict=True):
        assert (a.inputs, a.out, a.sizes, a.bound_work, a.size_offset) == \
            (b.inputs, b.out, b.sizes, b.bound_work, b.size_offset)
        assert (a.kernel.block, a.kernel.nsizes) == (b.kernel.block, b.kernel.nsizes)
    assert (back.dtypes, back.bound_numel, back.dims, back.root, back.size_index) == \
        (prog.dtypes, prog.bound_numel, prog.dims, prog.root, prog.size_index)
    with pytest.raises(dynhlo.ArtifactError):
        data.from_data({"nparams": 1}, exe.module)


def test_inspect_shows_the_graph_or_why_not(capsys):
    from dynhlo.cli import main
    assert main(["inspect", *CLI_GPU, str(MODELS / "mlp" / "module.hlo")]) == 0
    assert "gpu graph: off by default (fewer than 16 launches" in capsys.readouterr().out
    assert main(["inspect", *CLI_GPU,
                 str(MODELS / "batched_matmul" / "module.hlo")]) == 0
    assert "not capturable: dot 'dot_general.1'" in capsys.readouterr().out


def _chain(n: int) -> str:
    """x @ w, n times: n products, so the default rule takes the graph path."""
    lines = ["HloModule chain", "ENTRY main {", "  x = f32[<=8,4]{1,0} parameter(0)",
             "  w = f32[4,4]{1,0} parameter(1)"]
    prev = "x"
    for k in range(n):
        lines.append(f"  d{k} = f32[<=8,4]{{1,0}} dot({prev}, w), lhs_contracting_dims={{1}}, "
                     "rhs_contracting_dims={0}")
        prev = f"d{k}"
    lines[-1] = "  ROOT" + lines[-1][1:]
    return "\n".join(lines + ["}"]) + "\n"


@pytest.mark.skipif(not INTERPRET, reason="stands interpreter launchers in for the cubins; on "
                    "a device, bench/device_checks.py graph loads and runs a real sm_90 artifact")
def test_an_artifact_runs_its_graph_program_without_generating_kernels(monkeypatch, tmp_path):
    """The graph program built on load from the payload's plan, with no kernel source
    generated, and the cubins of its kernel forms (stood in by interpreter launchers of the
    same kernels, found by cubin bytes) run the module: the compile's launches, by the
    compile's cubin keys, and the same results as the CPU."""
    import json
    from dynhlo import compiler
    from dynhlo.backends.gpu import aot
    from dynhlo.backends.gpu import graph as graph_pkg
    from dynhlo.backends.gpu.compile import cubins
    from dynhlo.backends.gpu.launch.launcher import jit_launcher
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    text = _chain(graph_pkg.MIN_LAUNCHES)
    compiled = dynhlo.compile(text, backend="gpu", target="sm_90").program
    payload = compiled.to_payload()
    meta = json.loads(payload["gpu_program.json"])
    assert len(meta["graph_forms"]) == 1   # 16 launches of one product kernel
    prog = plan.build(compiled.plan, compiled.info)
    by_cubin = {}
    for step, spec in zip(prog.steps, cubins.step_specs(prog), strict=True):
        cubin = payload[f"cubin_{cubins.spec_key(spec, 90)}.cubin"]
        by_cubin[cubin] = jit_launcher(step.kernel, True)
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(aot, "cubin_launcher", lambda cubin, info: by_cubin.get(cubin))
    monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))
    from dynhlo.backends.gpu.kernels import codegen

    def generated(*args, **kwargs):
        raise AssertionError("loading generated kernel source")
    for owner, name in ((plan, "strided"), (plan, "epilogue"), (codegen, "epilogue"),
                        (codegen, "render"), (codegen.KernelWriter, "write")):
        monkeypatch.setattr(owner, name, generated)
    loaded = compiler.load_program(compiler.checked(text), "gpu", payload, "sm_90")
    assert loaded.graph is not None, loaded.graph_refusal
    keys = [cubins.spec_key(spec, 90) for spec in cubins.step_specs(prog)]
    assert [step.key for step in loaded.graph.prog.steps] == keys
    cpu = dynhlo.compile(text)
    rng = np.random.default_rng(5)
    w = (rng.standard_normal((4, 4)) / 2).astype(np.float32)
    for n in (0, 1, 8):
        x = rng.standard_normal((n, 4)).astype(np.float32)
        np.testing.assert_allclose(loaded.run([x, w]), cpu(x, w), rtol=1e-5, atol=1e-5)


MEAN = """HloModule centered
add_r {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[<=16,3] parameter(0)
  zero = f32[] constant(0)
  total = f32[3] reduce(x, zero), dimensions={0}, to_apply=add_r
  n = s32[] get-dimension-size(x), dimensions={0}
  nf = f32[] convert(n)
  nb = f32[3] broadcast(nf), dimensions={}
  mean = f32[3] divide(total, nb)
  mb = f32[<=16,3] broadcast(mean), dimensions={1}
  c = f32[<=16,3] subtract(x, mb)
  ns = s32[2] broadcast(n), dimensions={}
  ROOT r = (f32[<=16,3], s32[2]) tuple(c, ns)
}
"""


def test_get_dimension_size_reads_the_size_buffer():
    """`x - x.mean(0)` as JAX writes it: the row count is a get-dimension-size, a value the
    graph's size buffer holds (a one-element launch), not a step that keeps the module off
    the graph."""
    exe = graph_exe(MEAN)
    assert any(step.kernel.source == kernels.size_value().source
               for step in exe.program.graph.prog.steps)
    gen = np.random.default_rng(2)
    for n in (0, 1, 5, 16, 3):
        x = gen.standard_normal((n, 3)).astype(np.float32)
        centered, sizes = exe(x)
        with np.errstate(invalid="ignore"):
            np.testing.assert_allclose(centered, x - x.mean(0), rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(sizes, [n, n])


BF16_DOT = """HloModule bf
ENTRY main {
  a = bf16[<=8,4] parameter(0)
  b = bf16[4,3] parameter(1)
  ROOT d = bf16[<=8,3] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
"""


def test_bf16_products_on_the_graph_path():
    """A bf16 Triton product against the CPU backend (in Triton's interpreter, bf16 tiles
    were multiplied as their integer bit patterns until compile/source.py widened them)."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    exe, cpu = graph_exe(BF16_DOT), dynhlo.compile(BF16_DOT)
    gen = np.random.default_rng(3)
    b = gen.standard_normal((4, 3)).astype(ml_dtypes.bfloat16)
    for n in (0, 1, 5, 8):
        a = gen.standard_normal((n, 4)).astype(ml_dtypes.bfloat16)
        # one bf16 rounding apart at most: the GPU rounds its f32 sum once, as XLA's does
        np.testing.assert_allclose(exe(a, b).astype(np.float32),
                                   cpu(a, b).astype(np.float32), rtol=2 ** -7, atol=1e-2)
