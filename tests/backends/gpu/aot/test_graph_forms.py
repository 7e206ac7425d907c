"""A GPU artifact holds one program description, the plan: load builds the graph program from it.

Format 4 stores the fusion plan and, for a graph module, one cubin per kernel form of its graph
(graph/kernels.py form_of: a generated kernel's BUFFER form and a product's epilogue by their
plan kernel, template kernels by their source's hash). Loading builds the graph program from the
plan read back (no kernel source: kernels.StoredForms gives the generated forms' launch facts and
says which epilogues the compile fused). These tests check that the program built on load is the
compile's, launch by launch (buffers, sizes, size-buffer offsets, grids, launch facts and cubins),
for products with epilogues, a row kernel, a size value, attention, sizes computed from the
arguments' dimensions (rebuilt from the module's own inference: no size expression is read
from the file) and batched products, and that an artifact's
graph program runs (cubins stood in by the interpreter's launchers of the same kernels) with the
values NumPy gives.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import INTERPRET, gpu, torch  # skips without torch/triton
from dynhlo import compiler
from dynhlo.backends.gpu import aot
from dynhlo.backends.gpu.compile import cubins
from dynhlo.backends.gpu.graph import plan as graph_plan
from dynhlo.backends.gpu.graph.kernels import StoredForms, form_id
from dynhlo.backends.gpu.launch.launcher import jit_launcher
from dynhlo.backends.gpu.plan.data import plan_from_data, plan_to_data
from dynhlo.backends.gpu.plan.fusion import kernels_of
from dynhlo.backends.gpu.plan.schedule import lower
from dynhlo.backends.gpu.kernels import codegen
from tests.backends.gpu.graph.test_attention import attention_text
from tests.backends.gpu.graph.test_computed_sizes import BATCHED, PLUS_ONE
from tests.support.common import DATA

MLP = (DATA / "golden_v4_gpu_payload3_mlp.hlo").read_text()
LLAMA_DECODER = (DATA / "jax" / "llama_decoder.hlo").read_text()
ATTENTION = (DATA / "models" / "attention" / "module.hlo").read_text()


def _facts(prog) -> list:
    return [(s.inputs, s.out, list(s.sizes), s.bound_work, s.size_offset, s.kernel.block,
             s.kernel.num_warps, s.kernel.nsizes, s.kernel.per_program) for s in prog.steps]


def _ids(prog) -> list:
    return [form_id(s.kernel, [prog.dtypes[x] for x in s.inputs + [s.out]])
            for s in prog.steps]


def _no_codegen(monkeypatch) -> None:
    def generated(*args, **kwargs):
        raise AssertionError("building the stored graph generated kernel source")
    for owner, name in ((graph_plan, "strided"), (graph_plan, "epilogue"),
                        (codegen, "epilogue"), (codegen, "render"),
                        (codegen.KernelWriter, "write")):
        monkeypatch.setattr(owner, name, generated)


@pytest.mark.parametrize("text", [MLP, ATTENTION, attention_text(project="kn"),
                                  attention_text(scale="mul", k_nd=False), PLUS_ONE,
                                  BATCHED, LLAMA_DECODER],
                         ids=["mlp-epilogues", "attention-model", "attention-projected",
                              "attention-mul", "computed-sizes", "batched-products",
                              "llama-decoder"])
def test_the_graph_built_from_a_stored_plan_is_the_compiles(text, monkeypatch):
    program = dynhlo.compile(text, backend="gpu", target="sm_90").program
    compiled = graph_plan.build(program.schedule, precision=program.precision)
    index = {id(k): i for i, k in enumerate(program.kernels)}
    data = json.loads(json.dumps(plan_to_data(program.plan, index)))
    _no_codegen(monkeypatch)
    loaded_plan = plan_from_data(data, program.info)
    assert all(k.source == "" and k.body is None for k in kernels_of(loaded_plan))
    built = graph_plan.build(lower(loaded_plan), precision=program.precision,
                             stored=StoredForms(_ids(compiled)))
    attention = sum("DV" in s.kernel.block for s in compiled.steps)   # attention.py's
    assert bool(attention) == (text not in (MLP, PLUS_ONE, BATCHED, LLAMA_DECODER))
    assert _facts(built) == _facts(compiled)
    assert _ids(built) == _ids(compiled)
    assert (built.dtypes, built.bound_numel, built.dims, built.root, built.equal,
            built.size_index) == (compiled.dtypes, compiled.bound_numel, compiled.dims,
                                  compiled.root, compiled.equal, compiled.size_index)
    assert {s: i.name for s, i in built.constants.items()} == \
        {s: i.name for s, i in compiled.constants.items()}


def test_without_the_epilogue_forms_the_products_and_kernels_stay_apart():
    """An artifact without a kernel's epilogue form (the compile did not fuse it) gets the
    product and the kernel as two launches, as the compile would have made them."""
    program = dynhlo.compile(MLP, backend="gpu", target="sm_90").program
    compiled = graph_plan.build(program.schedule, precision=program.precision)
    ids = [i for i in _ids(compiled) if '"epilogue"' not in i]
    built = graph_plan.build(program.schedule, precision=program.precision,
                             stored=StoredForms(ids))
    assert len(compiled.steps) == 19 and len(built.steps) == 19 + 16
    assert sum(bool(s.dot) for s in built.steps) == 17


@pytest.mark.skipif(not INTERPRET, reason="stands interpreter launchers in for the cubins")
def test_a_format_4_artifact_runs_its_graph_built_on_load(monkeypatch, tmp_path):
    """The MLP (16 products with bias and tanh as epilogues, a plain product, a row maximum,
    a size value): the payload stores no graph program; load builds it, each launch gets
    the compile's cubin, and it runs with NumPy's values."""
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    compiled = dynhlo.compile(MLP, backend="gpu", target="sm_90").program
    payload = compiled.to_payload()
    meta = json.loads(payload["gpu_program.json"])
    assert meta["format"] == aot.FORMAT == 4 and "graph_program" not in meta
    assert sorted(f["form"][0] for f in meta["graph_forms"]) == \
        ["epilogue"] * 16 + ["source", "source", "strided"]
    prog = graph_plan.build(compiled.schedule, precision=compiled.precision)
    keys = [cubins.spec_key(spec, 90) for spec in cubins.step_specs(prog)]
    by_cubin = {payload[f"cubin_{key}.cubin"]: jit_launcher(step.kernel, True)
                for step, key in zip(prog.steps, keys, strict=True)}
    by_cubin.update({payload[f"cubin_{meta['kernels'][i]['cubin']}.cubin"]:
                     compiled.runner.launchers[id(k)] for i, k in enumerate(compiled.kernels)})
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(aot, "cubin_launcher", lambda cubin, info: by_cubin[cubin])
    monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))
    _no_codegen(monkeypatch)
    loaded = compiler.load_program(compiler.checked(MLP), "gpu", payload, "sm_90")
    assert loaded.mode == "graph", loaded.graph_refusal
    assert [s.key for s in loaded.graph.prog.steps] == keys
    rng = np.random.default_rng(6)
    w = (rng.standard_normal((8, 8)) / 3).astype(np.float32)
    b = (rng.standard_normal(8) / 4).astype(np.float32)
    for n in (0, 1, 16):
        x = rng.standard_normal((n, 8)).astype(np.float32)
        h = x.astype(np.float64)
        for _ in range(16):
            h = np.tanh(h @ w + b)
        last, rowmax, count = loaded.run([x, w, b])
        np.testing.assert_allclose(np.asarray(last), h @ w, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(np.asarray(rowmax), h.max(axis=1) if n else np.zeros(0),
                                   rtol=1e-5, atol=1e-6)
        assert int(np.asarray(count)) == n
