"""The GPU's answers to the registry's questions (dynhlo/backends/__init__.py): how it runs
each opcode, how it runs a program, and its arguments where it reads them."""

from __future__ import annotations

import numpy as np

import dynhlo
from dynhlo.backends import get
from dynhlo.hlo.opcodes import Opcode
from tests.support.gpucheck import GPU, INTERPRET, torch

MODULE = """HloModule m
ENTRY main {
  x = f32[<=8] parameter(0)
  y = f32[<=8] add(x, x)
  ROOT z = f32[<=8] multiply(y, x)
}
"""


def test_gpu_support_names_a_tier_per_opcode():
    gpu = get("gpu").support()
    assert gpu.how[Opcode.ADD] == "kernel"            # elementwise: generated kernels
    assert gpu.how[Opcode.FUSION] == "inlined"        # XLA's wrapper, removed by a pass
    assert gpu.how[Opcode.WHILE] == gpu.how[Opcode.PARAMETER] == "plan"
    assert gpu.how[Opcode.RNG] == "host" and gpu.why[Opcode.RNG]
    assert Opcode.INFEED not in gpu.how               # not on the CPU either
    assert "PadToStatic" in gpu.custom_calls


def test_gpu_describe_is_the_graph_summary():
    exe = dynhlo.compile(MODULE, **GPU)
    assert get("gpu").describe(exe.program).startswith("gpu graph: ")


def test_gpu_to_device_gives_what_the_program_reads():
    exe = dynhlo.compile(MODULE, **GPU)
    x = np.arange(6, dtype=np.float32)
    args, sync = get("gpu").to_device(exe.program, [x])
    if INTERPRET:
        assert args[0] is x
    else:
        assert isinstance(args[0], torch.Tensor) and args[0].device.type == "cuda"
    sync()
    out = exe(*args)
    out = out.cpu().numpy() if isinstance(out, torch.Tensor) else out
    np.testing.assert_array_equal(out, (x + x) * x)
