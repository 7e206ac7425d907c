"""AOT load of a GPU artifact plans nothing and generates no kernel source.

The payload stores the plan as JSON (plan/data.py) and each kernel's cubin and metadata;
loading rebuilds the program from that data. Without a GPU the cubins cannot launch, so
here the cubin launcher's constructor alone is stood in for (it hands back the compiled
program's interpreter launcher for the same kernel), the planner and the code generator
raise if called, and the loaded program must still run and match the CPU backend.
"""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

import dynhlo
from dynhlo import compiler
from tests.support.gpucheck import INTERPRET, gpu, torch  # skips without torch/triton
from dynhlo.backends.gpu import aot
from dynhlo.backends.gpu.kernels import codegen
from dynhlo.backends.gpu.plan import fusion
from tests.support.common import FILECHECK

SOFTMAX = (FILECHECK / "softmax_rows.hlo").read_text()

LOOP = """HloModule loop

cond {
  s = (s32[], f32[<=8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[<=8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[<=8] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  y = f32[<=8] multiply(x, x)
  z = f32[<=8] add(y, x)
  ROOT t = (s32[], f32[<=8]) tuple(j, z)
}

ENTRY e {
  x = f32[<=8] parameter(0)
  zero = s32[] constant(0)
  s = (s32[], f32[<=8]) tuple(zero, x)
  w = (s32[], f32[<=8]) while(s), condition=cond, body=body
  ROOT r = f32[<=8] get-tuple-element(w), index=1
}
"""


def _boom(*args, **kwargs):
    raise AssertionError("loading an artifact planned or generated code")


@pytest.mark.parametrize("text,shape", [(SOFTMAX, (5, 64)), (LOOP, (6,))],
                         ids=["softmax", "while"])
def test_loading_a_payload_neither_plans_nor_generates(text, shape, monkeypatch):
    compiled = dynhlo.compile(text, backend="gpu", target="sm_90").program
    payload = compiled.to_payload()
    meta = json.loads(payload["gpu_program.json"])
    by_cubin = {payload[f"cubin_{meta['kernels'][i]['cubin']}.cubin"]:
                compiled.runner.launchers[id(k)] for i, k in enumerate(compiled.kernels)}
    for owner, name in ((fusion, "plan_computation"), (fusion, "generate"),
                        (codegen, "generate"), (gpu, "plan_computation")):
        monkeypatch.setattr(owner, name, _boom)
    monkeypatch.setattr(codegen.KernelWriter, "write", _boom)
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(aot, "cubin_launcher", lambda cubin, meta: by_cubin[cubin])
    if INTERPRET:  # the compiled launchers stand in for cubins: they run on the CPU here
        monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))
    loaded = compiler.load_program(compiler.checked(text), "gpu", payload, "sm_90")
    assert len(loaded.kernels) == len(compiled.kernels) >= 1
    assert [k.source for k in loaded.kernels] == [""] * len(loaded.kernels)  # no source
    assert [(i.name, kind) for i, kind in loaded.plan.steps] == \
        [(i.name, kind) for i, kind in compiled.plan.steps]
    reference = dynhlo.compile(text, backend="cpu")
    rng = np.random.default_rng(3)
    for n in (shape[0], 1, 0):
        x = rng.standard_normal((n,) + shape[1:]).astype(np.float32) / 4
        np.testing.assert_allclose(loaded.run([x]), reference(x), rtol=1e-5, atol=1e-6)


def test_a_payload_of_the_first_format_is_refused_with_recompile():
    payload = {"gpu_program.json": json.dumps({"format": 1, "target": "sm_90",
                                                "kernels": []}).encode()}
    with pytest.raises(dynhlo.ArtifactError, match="format 1 is not .*recompile"):
        compiler.load_program(compiler.checked(SOFTMAX), "gpu", payload, "sm_90")


@functools.cache
def _softmax_payload() -> dict:
    return dynhlo.compile(SOFTMAX, backend="gpu", target="sm_90").program.to_payload()


def _crafted(payload: dict, edit) -> dict:
    meta = json.loads(payload["gpu_program.json"])
    edit(meta)
    return {**payload, "gpu_program.json": json.dumps(meta).encode()}


def _cubin_meta(meta) -> dict:
    return meta["cubins"][meta["kernels"][0]["cubin"]]


def _set_index(meta, value):
    next(iter(meta["plan"]["kernels"].values()))["index"] = value


@pytest.mark.parametrize("edit", [
    lambda m: _set_index(m, -1),          # another kernel's cubin (Python's m[-1])
    lambda m: _set_index(m, 7),
    lambda m: _set_index(m, "0"),
    lambda m: _cubin_meta(m).pop("name"),
    lambda m: _cubin_meta(m).update(num_warps=0),
    lambda m: _cubin_meta(m).update(shared=-1),
    lambda m: next(iter(m["plan"]["kernels"].values()))["block"].update(
        {k: -4 for k in next(iter(m["plan"]["kernels"].values()))["block"]}),
    lambda m: m.pop("plan"),
    lambda m: m.update(kernels={}),
], ids=["index-1", "index7", "index-str", "no-name", "warps0", "shared-1", "block-neg",
        "no-plan", "kernels-dict"])
def test_a_crafted_gpu_plan_is_an_artifact_error_and_launches_nothing(edit, monkeypatch):
    payload = _softmax_payload()
    launched = []
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(aot, "cubin_launcher", lambda cubin, meta: launched.append(cubin))
    with pytest.raises(dynhlo.ArtifactError, match="recompile the artifact"):
        compiler.load_program(compiler.checked(SOFTMAX), "gpu", _crafted(payload, edit),
                              "sm_90")
    assert launched == []
    not_a_program = {**payload, "gpu_program.json": b"[1]"}
    with pytest.raises(dynhlo.ArtifactError, match="not a program"):
        compiler.load_program(compiler.checked(SOFTMAX), "gpu", not_a_program, "sm_90")


SUB = """HloModule sub
ENTRY e {
  x = f32[<=8] parameter(0)
  y = f32[<=8] parameter(1)
  ey = f32[<=8] exponential(y)
  ROOT r = f32[<=8] subtract(x, ey)
}
"""


def _sub_kernel(meta) -> dict:
    return meta["plan"]["kernels"]["r"]


# Each edit keeps the plan readable and its launches consistent with the cubin (same
# signature, warps and blocks): only the module can tell it is not the module's plan.
PLAN_EDITS = {
    "swapped-inputs": (lambda m: _sub_kernel(m).update(inputs=["y", "x"]),
                       r"gives kernel 'r' the inputs \['y', 'x'\]; the module makes "
                       r"\['x', 'y'\]"),
    "nothing-fused": (lambda m: m["plan"].update(fused=[]),
                      r"gives kernel 'r' the inputs \['x', 'y'\]; the module makes "
                      r"\['x', 'ey'\]"),
    "parameter-fused": (lambda m: m["plan"]["fused"].append("x"),
                        r"computes 'x' \(parameter\) in a kernel, which no kernel may"),
    "root-fused": (lambda m: m["plan"]["fused"].append("r"),
                   "keeps 'r' inside kernels only, but it is read from memory"),
    "another-order": (lambda m: m["plan"].update(order=["y", "x", "ey", "r"]),
                      "runs its instructions in another order than the module.s schedule"),
    "a-step-dropped": (lambda m: m["plan"]["steps"].pop(0), "has other steps than its kernels"),
    "another-root": (lambda m: _sub_kernel(m).update(root="ey"),
                     "stores kernel 'r' under another root, 'ey'"),
}


@pytest.mark.parametrize("edit,message", PLAN_EDITS.values(), ids=PLAN_EDITS.keys())
def test_a_stored_plan_that_is_not_the_modules_is_an_artifact_error(edit, message,
                                                                    monkeypatch):
    """A plan is read from the artifact; a cubin computes in0 - exp(in1) whatever it is
    handed, so a plan with the kernel's inputs swapped computed y - exp(x) for
    x - exp(y). What the module determines (run order, fusible instructions, each
    kernel's inputs, steps) is rebuilt on load and compared."""
    payload = dynhlo.compile(SUB, backend="gpu", target="sm_90").program.to_payload()
    launched = []
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(aot, "cubin_launcher", lambda cubin, meta: launched.append(cubin))
    if INTERPRET:
        monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))
    module = compiler.checked(SUB)
    compiler.load_program(module, "gpu", payload, "sm_90")   # the untouched plan loads
    assert len(launched) == 1
    with pytest.raises(dynhlo.ArtifactError, match="gpu payload plan of computation 'e' is "
                                                   "not its module's: it " + message):
        compiler.load_program(module, "gpu", _crafted(payload, edit), "sm_90")
    assert len(launched) == 1


def _stand_in_cubins(compiled_exes, monkeypatch) -> None:
    """Load as on an sm_90 device: each stored cubin launches the compiled program's
    launcher of the same kernel (the interpreter here)."""
    by_cubin = {}
    for exe in compiled_exes:
        payload = exe.program.to_payload()
        meta = json.loads(payload["gpu_program.json"])
        by_cubin.update({payload[f"cubin_{meta['kernels'][i]['cubin']}.cubin"]:
                         exe.program.runner.launchers[id(k)]
                         for i, k in enumerate(exe.program.kernels)})
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(aot, "cubin_launcher", lambda cubin, meta: by_cubin[cubin])
    if INTERPRET:
        monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))


def test_a_gpu_artifact_keeps_jaxs_shape_assertions(monkeypatch):
    """A jax.export module's n >= 1 is checked by the loaded GPU executable as by the
    compiled one (the artifact lost it before format version 2), single and bucketed."""
    pytest.importorskip("jax")
    from tests.runtime.test_artifact_assertions import DATA, SIN_SUM, center, refusal
    single = dynhlo.compile(dynhlo.parse_stablehlo((DATA / "center.mlir").read_text()),
                            backend="gpu", target="sm_90")
    bucketed = dynhlo.compile(dynhlo.parse_stablehlo(SIN_SUM), backend="gpu", target="sm_90",
                              buckets=[4, 8])
    _stand_in_cubins([single, *bucketed.executables.values()], monkeypatch)
    for exe, want in ((single, center), (bucketed, lambda x: np.sin(x).sum(axis=1))):
        loaded = dynhlo.deserialize(exe.serialize())
        assert refusal(loaded) == refusal(exe)
        x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
        np.testing.assert_allclose(loaded(x), want(x), rtol=1e-5, atol=1e-5)
