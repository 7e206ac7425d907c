"""The pass pipelines: their order, verification between passes, and the corpus through them.

A pass that breaks the module is caught by run_pipeline(verify=True), which names the pass
and the instruction and shows the IR around it; the corpus modules go through GPU_PIPELINE
with verification on and still give JAX's outputs on the CPU backend.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import dynhlo
from dynhlo.errors import HloVerifyError
from dynhlo.hlo.shape import Shape
from dynhlo.passes import dead_code, inline_calls, size_before_update, while_simplifier
from dynhlo.passes.pipelines import CPU_PIPELINE, GPU_PIPELINE, Step, run_pipeline
from tests.support.common import MODELS

NAMES = sorted(p.name for p in MODELS.iterdir() if p.is_dir()) if MODELS.is_dir() else []

MODULE = """HloModule m
fused {
  p = f32[<=8,4] parameter(0)
  ROOT e = f32[<=8,4] exponential(p)
}
ENTRY main {
  x = f32[<=8,4] parameter(0)
  f = f32[<=8,4] fusion(x), kind=kLoop, calls=fused
  n = f32[<=8,4] negate(f)
  ROOT a = f32[<=8,4] add(n, x)
}
"""


def test_pipelines_are_ordered_steps_with_reasons():
    assert [s.run for s in GPU_PIPELINE] == [size_before_update.size_before_update,
                                             while_simplifier.simplify_while_loops,
                                             inline_calls.inline_calls, dead_code.dead_code]
    assert [s.name for s in GPU_PIPELINE] == ["size-before-update", "while-loop-simplifier",
                                              "inline-calls", "dead-code"]
    assert [s.name for s in CPU_PIPELINE] == ["size-before-update", "while-loop-simplifier",
                                              "dead-code"]
    assert all(s.reason for s in GPU_PIPELINE + CPU_PIPELINE)


def _widen_n(module):
    """A broken pass: declares `n` with bound 9 where its operand has 8."""
    copy = dynhlo.parse_hlo(module.to_text())
    (n,) = [i for i in copy.entry.instructions if i.name == "n"]
    n.shape = Shape("f32", (9, 4), (True, False), n.shape.layout)
    return copy


BROKEN = Step("widen-n", _widen_n, "a test pass that breaks the module")


def test_verify_names_the_pass_and_the_instruction_and_shows_the_ir():
    module = dynhlo.parse_hlo(MODULE)
    with pytest.raises(HloVerifyError) as caught:
        run_pipeline(module, GPU_PIPELINE + [BROKEN], verify=True)
    err = caught.value
    assert err.instruction == "n"
    lines = str(err).splitlines()
    assert lines[0].startswith("instruction 'n': after pass 'widen-n': declared f32[<=9,4]")
    assert ">   n = f32[<=9,4] negate(f)" in lines
    assert "    f = f32[<=8,4] exponential(x)" in lines  # the fusion, inlined by the 1st pass


def test_without_verify_a_broken_pass_is_not_checked():
    module = dynhlo.parse_hlo(MODULE)
    result = run_pipeline(module, [BROKEN])
    assert result.entry.instructions[2].shape.dims == (9, 4)


def test_a_broken_input_is_blamed_on_the_input_not_on_a_pass():
    module = _widen_n(dynhlo.parse_hlo(MODULE))
    with pytest.raises(HloVerifyError, match="after the pipeline's input"):
        run_pipeline(module, GPU_PIPELINE, verify=True)


def test_a_pipeline_with_nothing_to_rewrite_returns_its_module():
    module = dynhlo.parse_hlo(MODULE)
    assert run_pipeline(module, CPU_PIPELINE, verify=True) is module
    assert run_pipeline(module, [], verify=True) is module


STACK = """HloModule stack
ENTRY main {
  b = f32[<=6,2] parameter(0)
  u = f32[1,2] parameter(1)
  i = s32[] parameter(2)
  zero = s32[] constant(0)
  d = f32[<=6,2] dynamic-update-slice(b, u, i, zero)
  n = s32[] get-dimension-size(b), dimensions={0}
  one = s32[] constant(1)
  m = s32[] add(n, one)
  g = f32[<=6,2] set-dimension-size(d, m), dimensions={0}
  ROOT t = (f32[<=6,2], f32[<=6,2]) tuple(g, d)
}
"""


def test_size_before_update_keeps_a_row_written_past_the_size():
    """XLA: row i is written into the buffer at the bound and shown once the size grows.
    The update with another user (the tuple's second element) stays; the input module is
    not modified."""
    from dynhlo.hlo.text.printer import print_module
    module = dynhlo.parse_hlo(STACK)
    text = print_module(module)
    out = size_before_update.size_before_update(module)
    assert out is not module and print_module(module) == text
    assert sum(i.opcode.value == "dynamic-update-slice" for i in out.entry.instructions) == 2
    b = np.arange(6, dtype=np.float32).reshape(3, 2)
    grown, same = dynhlo.compile(STACK)(b, np.full((1, 2), 9, np.float32), np.int32(3))
    np.testing.assert_array_equal(grown, [[0, 1], [2, 3], [4, 5], [9, 9]])
    np.testing.assert_array_equal(same, b)   # row 3 is past the size of d itself


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("variant", ["module.hlo", "module_params_only.hlo"])
def test_corpus_through_the_gpu_pipeline_gives_jax_outputs_on_cpu(name, variant):
    module = dynhlo.parse_hlo((MODELS / name / variant).read_text())
    exe = dynhlo.compile(run_pipeline(module, GPU_PIPELINE, verify=True))
    meta = json.loads((MODELS / name / "cases.json").read_text())
    with np.load(MODELS / name / "cases.npz") as arrays:
        for case in meta["cases"]:
            result = exe(*[arrays[a["npz_key"]] for a in case["args"]])
            outputs = result if isinstance(result, tuple) else (result,)
            for got, spec in zip(outputs, case["outputs"], strict=True):
                want = arrays[spec["npz_key"]].astype(np.float64)
                got = np.asarray(got).astype(np.float64)
                assert got.shape == want.shape
                assert np.all(np.abs(got - want) <= case["atol"] + case["rtol"] * np.abs(want))
