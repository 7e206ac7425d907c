"""The compile driver (dynhlo/compiler.py) and the backend registry (dynhlo/backends/).

A stand-in backend, registered as one BACKENDS entry, records what the driver hands it: the
pipeline's output and that module's own inference, for compiling and for loading alike.
"""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

import dynhlo
from dynhlo import backends, compiler
from dynhlo.hlo.ir import HloModule
from dynhlo.options import CompileOptions
from dynhlo.passes.pipelines import Step

SOFTMAX_ROWS = """HloModule m
ENTRY main {
  x = f32[<=8,4] parameter(0)
  ROOT y = f32[<=8,4] exponential(x)
}"""


def _renamed(module: HloModule) -> HloModule:
    """A pass that returns a new module (a copy under another name)."""
    copy = dynhlo.parse_hlo(module.to_text())
    copy.name = module.name + "_lowered"
    return copy


@pytest.fixture
def recorder(monkeypatch):
    """A backend `rec` whose pipeline renames the module; its calls are recorded."""
    calls = []

    def compile_module(module, info, options):
        calls.append(("compile", module, info, options))
        return "program"

    def load_program(module, info, payload, target):
        calls.append(("load", module, info, payload, target))
        return "loaded"

    package = types.ModuleType("rec_backend")
    package.compile_module, package.load_program = compile_module, load_program
    monkeypatch.setitem(sys.modules, "rec_backend", package)
    step = Step("rename", _renamed, "a pass that rewrites the module")
    monkeypatch.setitem(backends.BACKENDS, "rec", backends.Backend("rec", [step], "rec_backend"))
    return calls


def _count_inference(monkeypatch) -> list:
    seen = []
    real = compiler.infer_module

    def counting(module):
        seen.append(module.name)
        return real(module)
    monkeypatch.setattr(compiler, "infer_module", counting)
    return seen


def test_backend_gets_the_pipelines_output_and_its_inference(recorder, monkeypatch):
    inferred = _count_inference(monkeypatch)
    assert compiler.compile_program(SOFTMAX_ROWS, "rec", target="x") == "program"
    ((what, module, info, options),) = recorder
    assert (what, module.name, options) == ("compile", "m_lowered", CompileOptions(target="x"))
    assert info.computation is module.entry  # the inference of the module it runs
    assert inferred == ["m", "m_lowered"]   # once per module: as given, then as rewritten


def test_loading_takes_the_same_path(recorder, monkeypatch):
    inferred = _count_inference(monkeypatch)
    payload = {"program": b"bytes"}
    module = compiler.checked(SOFTMAX_ROWS)
    assert compiler.load_program(module, "rec", payload, "t") == "loaded"
    ((what, module, info, got, target),) = recorder
    assert (what, module.name, got, target) == ("load", "m_lowered", payload, "t")
    assert info.computation is module.entry
    assert inferred == ["m", "m_lowered"]


def test_a_pipeline_that_changes_nothing_costs_no_second_inference(monkeypatch):
    inferred = _count_inference(monkeypatch)
    exe = dynhlo.compile(SOFTMAX_ROWS)  # the CPU pipeline is empty
    assert inferred == ["m"]
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / 10
    np.testing.assert_allclose(exe(x), np.exp(x), rtol=1e-6)


@pytest.mark.parametrize("name", ["tpu", "", None, 3])
def test_an_unknown_backend_lists_the_backends(name):
    with pytest.raises(dynhlo.UnsupportedError, match="choose one of cpu, gpu"):
        dynhlo.compile(SOFTMAX_ROWS, backend=name)


def test_a_backend_that_cannot_import_says_what_it_needs(monkeypatch):
    missing = backends.Backend("far", [], "dynhlo_no_such_backend_package", needs="a far device")
    monkeypatch.setitem(backends.BACKENDS, "far", missing)
    with pytest.raises(dynhlo.UnsupportedError, match="the far backend needs a far device"):
        dynhlo.compile(SOFTMAX_ROWS, backend="far")
