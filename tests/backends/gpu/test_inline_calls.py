"""Modules in XLA's after-optimizations dump style on the GPU backend: fusions run on the device.

XLA's optimized modules wrap almost every instruction in `fusion` (and `async-start`/-done);
the GPU backend inlines them (GPU_PIPELINE) and fuses the result itself. Each module runs at
several sizes (0 and 1 among them) on the GPU (Triton's interpreter without a GPU) and on the
CPU backend (the reference, which runs the fusions as calls); the results agree and the
`gpu_host_fallback` counter does not move. Without the pipeline the same modules do take the
host fallback, so the counter check is not vacuous.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU, gpu, torch  # skips without torch/triton; interpreter mode
from dynhlo.hlo.opcodes import Opcode  # noqa: E402
from dynhlo import backends, stats  # noqa: E402
from tests.backends.gpu.library.test_library_ops import check  # noqa: E402

LOOP = """HloModule jit_loop, is_scheduled=true, entry_computation_layout={(f32[<=8,4]{1,0})->f32[<=8,4]{1,0}}

%fused_computation (param_0: f32[<=8,4]) -> f32[<=8,4] {
  %param_0 = f32[<=8,4]{1,0} parameter(0)
  %multiply.1 = f32[<=8,4]{1,0} multiply(f32[<=8,4]{1,0} %param_0, f32[<=8,4]{1,0} %param_0)
  ROOT %tanh.1 = f32[<=8,4]{1,0} tanh(f32[<=8,4]{1,0} %multiply.1)
}

ENTRY %main.4 (p0: f32[<=8,4]) -> f32[<=8,4] {
  %p0 = f32[<=8,4]{1,0} parameter(0)
  ROOT %fusion = f32[<=8,4]{1,0} fusion(f32[<=8,4]{1,0} %p0), kind=kLoop, calls=%fused_computation
}
"""

SOFTMAX = """HloModule jit_softmax, is_scheduled=true, entry_computation_layout={(f32[<=8,4]{1,0})->f32[<=8,4]{1,0}}

%region_max (Arg_0: f32[], Arg_1: f32[]) -> f32[] {
  %Arg_0 = f32[] parameter(0)
  %Arg_1 = f32[] parameter(1)
  ROOT %maximum = f32[] maximum(f32[] %Arg_0, f32[] %Arg_1)
}

%region_add (Arg_0.1: f32[], Arg_1.1: f32[]) -> f32[] {
  %Arg_0.1 = f32[] parameter(0)
  %Arg_1.1 = f32[] parameter(1)
  ROOT %add = f32[] add(f32[] %Arg_0.1, f32[] %Arg_1.1)
}

%fused_reduce (param_0.1: f32[<=8,4]) -> f32[<=8] {
  %param_0.1 = f32[<=8,4]{1,0} parameter(0)
  %constant.2 = f32[] constant(-inf)
  ROOT %reduce.1 = f32[<=8]{0} reduce(f32[<=8,4]{1,0} %param_0.1, f32[] %constant.2), dimensions={1}, to_apply=%region_max
}

%fused_exp (param_0.2: f32[<=8,4], param_1.2: f32[<=8]) -> f32[<=8,4] {
  %param_0.2 = f32[<=8,4]{1,0} parameter(0)
  %param_1.2 = f32[<=8]{0} parameter(1)
  %broadcast.3 = f32[<=8,4]{1,0} broadcast(f32[<=8]{0} %param_1.2), dimensions={0}
  %subtract.1 = f32[<=8,4]{1,0} subtract(f32[<=8,4]{1,0} %param_0.2, f32[<=8,4]{1,0} %broadcast.3)
  ROOT %exponential.1 = f32[<=8,4]{1,0} exponential(f32[<=8,4]{1,0} %subtract.1)
}

%fused_sum (param_0.3: f32[<=8,4]) -> f32[<=8] {
  %param_0.3 = f32[<=8,4]{1,0} parameter(0)
  %constant.3 = f32[] constant(0)
  ROOT %reduce.2 = f32[<=8]{0} reduce(f32[<=8,4]{1,0} %param_0.3, f32[] %constant.3), dimensions={1}, to_apply=%region_add
}

%fused_divide (param_0.4: f32[<=8,4], param_1.4: f32[<=8]) -> f32[<=8,4] {
  %param_0.4 = f32[<=8,4]{1,0} parameter(0)
  %param_1.4 = f32[<=8]{0} parameter(1)
  %broadcast.4 = f32[<=8,4]{1,0} broadcast(f32[<=8]{0} %param_1.4), dimensions={0}
  ROOT %divide.1 = f32[<=8,4]{1,0} divide(f32[<=8,4]{1,0} %param_0.4, f32[<=8,4]{1,0} %broadcast.4)
}

%wrapped_divide (w0: f32[<=8,4], w1: f32[<=8]) -> f32[<=8,4] {
  %w0 = f32[<=8,4]{1,0} parameter(0)
  %w1 = f32[<=8]{0} parameter(1)
  ROOT %fusion.3 = f32[<=8,4]{1,0} fusion(f32[<=8,4]{1,0} %w0, f32[<=8]{0} %w1), kind=kLoop, calls=%fused_divide
}

ENTRY %main.20 (x: f32[<=8,4]) -> f32[<=8,4] {
  %x = f32[<=8,4]{1,0} parameter(0)
  %fusion = f32[<=8]{0} fusion(f32[<=8,4]{1,0} %x), kind=kInput, calls=%fused_reduce
  %fusion.1 = f32[<=8,4]{1,0} fusion(f32[<=8,4]{1,0} %x, f32[<=8]{0} %fusion), kind=kLoop, calls=%fused_exp
  %fusion.2 = f32[<=8]{0} fusion(f32[<=8,4]{1,0} %fusion.1), kind=kInput, calls=%fused_sum
  %start = ((f32[<=8,4]{1,0}, f32[<=8]{0}), f32[<=8,4]{1,0}, u32[]) async-start(f32[<=8,4]{1,0} %fusion.1, f32[<=8]{0} %fusion.2), calls=%wrapped_divide
  ROOT %done = f32[<=8,4]{1,0} async-done(((f32[<=8,4]{1,0}, f32[<=8]{0}), f32[<=8,4]{1,0}, u32[]) %start), calls=%wrapped_divide
}
"""

WHILE = """HloModule jit_loop_body, entry_computation_layout={(f32[<=8,4]{1,0})->f32[<=8,4]{1,0}}

%fused_step (param_0: f32[<=8,4]) -> f32[<=8,4] {
  %param_0 = f32[<=8,4]{1,0} parameter(0)
  %constant = f32[] constant(0.5)
  %broadcast = f32[<=8,4]{1,0} broadcast(f32[] %constant), dimensions={}
  %multiply = f32[<=8,4]{1,0} multiply(f32[<=8,4]{1,0} %param_0, f32[<=8,4]{1,0} %broadcast)
  ROOT %sine = f32[<=8,4]{1,0} sine(f32[<=8,4]{1,0} %multiply)
}

%body (state: (s32[], f32[<=8,4])) -> (s32[], f32[<=8,4]) {
  %state = (s32[], f32[<=8,4]{1,0}) parameter(0)
  %i = s32[] get-tuple-element((s32[], f32[<=8,4]{1,0}) %state), index=0
  %v = f32[<=8,4]{1,0} get-tuple-element((s32[], f32[<=8,4]{1,0}) %state), index=1
  %one = s32[] constant(1)
  %next = s32[] add(s32[] %i, s32[] %one)
  %fusion = f32[<=8,4]{1,0} fusion(f32[<=8,4]{1,0} %v), kind=kLoop, calls=%fused_step
  ROOT %tuple = (s32[], f32[<=8,4]{1,0}) tuple(s32[] %next, f32[<=8,4]{1,0} %fusion)
}

%cond (state.1: (s32[], f32[<=8,4])) -> pred[] {
  %state.1 = (s32[], f32[<=8,4]{1,0}) parameter(0)
  %i.1 = s32[] get-tuple-element((s32[], f32[<=8,4]{1,0}) %state.1), index=0
  %three = s32[] constant(3)
  ROOT %lt = pred[] compare(s32[] %i.1, s32[] %three), direction=LT
}

ENTRY %main (x: f32[<=8,4]) -> f32[<=8,4] {
  %x = f32[<=8,4]{1,0} parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[<=8,4]{1,0}) tuple(s32[] %zero, f32[<=8,4]{1,0} %x)
  %while = (s32[], f32[<=8,4]{1,0}) while((s32[], f32[<=8,4]{1,0}) %init), condition=%cond, body=%body
  ROOT %out = f32[<=8,4]{1,0} get-tuple-element((s32[], f32[<=8,4]{1,0}) %while), index=1
}
"""

MODULES = {"loop": LOOP, "softmax": SOFTMAX, "while": WHILE}
SIZES = (0, 1, 5, 8)


def _x(n: int) -> np.ndarray:
    return np.random.default_rng(n).uniform(-3, 3, (n, 4)).astype(np.float32)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("name", sorted(MODULES))
def test_xla_dump_module_runs_on_the_device_like_cpu(name, n):
    assert check(MODULES[name], [_x(n)], f"{name} at n={n}") == 0


def test_fusions_are_gone_from_what_the_gpu_plans():
    program = dynhlo.compile(SOFTMAX, **GPU).program
    opcodes = {i.opcode for i in program.module.instructions()}
    assert not opcodes & {Opcode.FUSION, Opcode.ASYNC_START, Opcode.ASYNC_DONE}
    assert program.kernels  # the inlined instructions are fused into generated kernels


@pytest.mark.parametrize("name", sorted(MODULES))
def test_without_the_pipeline_fusions_take_the_host_fallback(name, monkeypatch):
    without = dataclasses.replace(backends.BACKENDS["gpu"], pipeline=[])
    monkeypatch.setitem(backends.BACKENDS, "gpu", without)
    exe = dynhlo.compile(MODULES[name], **GPU)
    before = stats.snapshot().get("gpu_host_fallback", 0)
    exe(_x(3))
    assert stats.snapshot().get("gpu_host_fallback", 0) > before


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("name", sorted(MODULES))
def test_aot_payload_of_an_xla_dump_module_loads_with_zero_compilations(name):
    from dynhlo.compiler import load_program
    text = MODULES[name]
    payload = dynhlo.compile(text, **GPU, target="sm_90").program.to_payload()
    module = dynhlo.parse_hlo(text)  # what the artifact stores: the module as the user gave it
    before = stats.snapshot()
    program = load_program(module, "gpu", payload, "sm_90")
    reference = dynhlo.compile(text)
    for n in SIZES:
        got = program.run([_x(n)])
        np.testing.assert_allclose(got, reference(_x(n)), rtol=1e-5, atol=1e-6)
    after = stats.snapshot()
    assert after.get("kernel_compile", 0) == before.get("kernel_compile", 0)
    assert after.get("gpu_host_fallback", 0) == before.get("gpu_host_fallback", 0)
