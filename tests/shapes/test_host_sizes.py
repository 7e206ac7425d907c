"""Sizes a program computes from sizes alone are known on the host (shapes/host_sizes.py).

torchax lowers a dynamic broadcast as a broadcast at the bound cut by set-dimension-size to
a size read out of a shape vector built from get-dimension-size (get-dimension-size,
convert, reshape, concatenate, slice, reshape). The GPU plan fuses such a set-dimension-size
(and a dynamic-reshape of such sizes) into a kernel and does not run the chain that builds
the size; sizes read from data are still read and checked against their bound. Answers are
checked against NumPy by hand and the CPU backend (the reference evaluator, which still
runs every instruction).
"""

from __future__ import annotations

from tests.support.gpucheck import GPU

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.gpu.graph import plan as graph_plan
from dynhlo.backends.gpu.plan.check import check_plan
from dynhlo.backends.gpu.plan.data import plan_from_data, plan_to_data
from dynhlo.backends.gpu.plan.fusion import kernels_of
from dynhlo.shapes.host_sizes import data_free, host_sizes
from dynhlo.shapes.sizes import size_of
from tests.support.torch_data import module_bytes

# torchax's form of `2 * x` over a dynamic first dimension
TORCHAX_BROADCAST = """HloModule m
ENTRY e {
  x = f32[<=8,4] parameter(0)
  c = f32[] constant(2)
  b = f32[<=8,4] broadcast(c), dimensions={}
  g = s32[] get-dimension-size(x), dimensions={0}
  g64 = s64[] convert(g)
  g32 = s32[] convert(g64)
  r1 = s32[1] reshape(g32)
  four = s32[1] constant({4})
  v = s32[2] concatenate(r1, four), dimensions={0}
  s0 = s32[1] slice(v), slice={[0:1]}
  n = s32[] reshape(s0)
  sb = f32[<=8,4] set-dimension-size(b, n), dimensions={0}
  ROOT m = f32[<=8,4] multiply(sb, x)
}
"""

# a dynamic-reshape to sizes computed from the argument's: a reshape
FLATTEN = """HloModule m
ENTRY e {
  x = f32[<=8,4] parameter(0)
  g = s32[] get-dimension-size(x), dimensions={0}
  four = s32[] constant(4)
  n = s32[] multiply(g, four)
  y = f32[<=32] dynamic-reshape(x, n)
  ROOT r = f32[<=32] negate(y)
}
"""

# a size read from data (a count): read when computed, checked against the bound
FROM_DATA = """HloModule m
ENTRY e {
  x = f32[8] parameter(0)
  n = s32[] parameter(1)
  y = f32[<=8] set-dimension-size(x, n), dimensions={0}
  ROOT r = f32[<=8] negate(y)
}
"""

# a size computed from sizes that may pass the bound (x.0 + 1 <= 9 > 8): checked at run time
PAST_BOUND = """HloModule m
ENTRY e {
  x = f32[<=8] parameter(0)
  g = s32[] get-dimension-size(x), dimensions={0}
  one = s32[] constant(1)
  n = s32[] add(g, one)
  z = f32[] constant(1)
  b = f32[8] broadcast(z), dimensions={}
  y = f32[<=8] set-dimension-size(b, n), dimensions={0}
  ROOT r = f32[<=8] negate(y)
}
"""

# set-dimension-size of x to the size of y: past x's size it reads zeros (XLA's padding)
OTHER_SIZE = """HloModule m
ENTRY e {
  x = f32[<=8] parameter(0)
  y = f32[<=8] parameter(1)
  g = s32[] get-dimension-size(y), dimensions={0}
  s = f32[<=8] set-dimension-size(x, g), dimensions={0}
  ROOT r = f32[<=8] negate(s)
}
"""


def _kinds(exe) -> list[str]:
    return [kind for _, kind in exe.program.plan.steps]


def _named(exe, name):
    (inst,) = [i for i in exe.program.plan.info.computation.instructions if i.name == name]
    return inst


@pytest.mark.parametrize("rows", [0, 1, 5, 8])
def test_torchax_broadcast_is_one_kernel_and_its_size_chain_does_not_run(rows):
    exe = dynhlo.compile(TORCHAX_BROADCAST, **GPU)
    plan = exe.program.plan
    assert _kinds(exe) == ["param", "kernel"]
    assert {i.name for i in plan.skipped} == {"g", "g64", "g32", "r1", "four", "v", "s0", "n"}
    (kernel,) = kernels_of(plan)
    assert [i.name for i in kernel.group.inputs] == ["x"]
    x = np.arange(rows * 4, dtype=np.float32).reshape(rows, 4) - 3
    np.testing.assert_array_equal(np.asarray(exe(x)), 2 * x)
    cpu = dynhlo.compile(TORCHAX_BROADCAST, backend="cpu")
    np.testing.assert_array_equal(np.asarray(cpu(x)), 2 * x)


def test_host_sizes_are_the_argument_sizes():
    exe = dynhlo.compile(TORCHAX_BROADCAST, **GPU)
    info = exe.program.plan.info
    sb = _named(exe, "sb")
    ((d, size),) = host_sizes(info, sb).items()
    assert d == 0 and size is size_of(info.dims[_named(exe, "x")][0])   # x's rows, one object
    assert data_free(info, sb)


@pytest.mark.parametrize("rows", [0, 3, 8])
def test_dynamic_reshape_of_sizes_from_sizes_is_a_kernel(rows):
    exe = dynhlo.compile(FLATTEN, **GPU)
    assert "library" not in _kinds(exe)
    x = np.arange(rows * 4, dtype=np.float32).reshape(rows, 4)
    np.testing.assert_array_equal(np.asarray(exe(x)), -x.reshape(-1))


def test_a_size_read_from_data_is_read_and_checked():
    exe = dynhlo.compile(FROM_DATA, **GPU)
    assert "library" in _kinds(exe)
    assert not data_free(exe.program.plan.info, _named(exe, "y"))
    x = np.arange(8, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(exe(x, np.int32(3))), -x[:3])
    cpu = dynhlo.compile(FROM_DATA, backend="cpu")
    for run in (exe, cpu):
        with pytest.raises(dynhlo.DynamicSizeError, match=r"dynamic size 9 .*\[0, 8\]"):
            run(x, np.int32(9))


def test_a_size_from_sizes_that_may_pass_the_bound_is_checked():
    exe = dynhlo.compile(PAST_BOUND, **GPU)
    assert not data_free(exe.program.plan.info, _named(exe, "y"))
    cpu = dynhlo.compile(PAST_BOUND, backend="cpu")
    for run in (exe, cpu):
        np.testing.assert_array_equal(np.asarray(run(np.zeros(5, np.float32))),
                                      -np.ones(6, np.float32))
        with pytest.raises(dynhlo.DynamicSizeError, match=r"dynamic size 9 .*\[0, 8\]"):
            run(np.zeros(8, np.float32))


@pytest.mark.parametrize("sizes", [(3, 5), (5, 3), (4, 4), (0, 2)])
def test_a_size_past_the_operand_reads_zeros(sizes):
    exe = dynhlo.compile(OTHER_SIZE, **GPU)
    assert not data_free(exe.program.plan.info, _named(exe, "s"))
    x = np.arange(1, sizes[0] + 1, dtype=np.float32)
    y = np.zeros(sizes[1], np.float32)
    want = -np.concatenate([x, np.zeros(8, np.float32)])[:sizes[1]]
    np.testing.assert_array_equal(np.asarray(exe(x, y)), want)
    cpu = dynhlo.compile(OTHER_SIZE, backend="cpu")
    np.testing.assert_array_equal(np.asarray(cpu(x, y)), want)


@pytest.mark.parametrize("text", [TORCHAX_BROADCAST, FLATTEN])
def test_a_stored_plan_skips_the_same_instructions(text):
    plan = dynhlo.compile(text, **GPU).program.plan
    index = {id(k): i for i, k in enumerate(kernels_of(plan))}
    loaded = plan_from_data(plan_to_data(plan, index), plan.info)
    assert loaded.skipped == plan.skipped and loaded.steps == plan.steps
    check_plan(loaded)


def test_the_kernel_reads_only_its_data_operand():
    (kernel,) = kernels_of(dynhlo.compile(TORCHAX_BROADCAST, **GPU).program.plan)
    assert kernel.source.count("tl.load(") == 1   # x; the broadcast constant is computed


def test_torchax_gpt2_runs_its_size_chains_on_the_host():
    """The stored GPT-2 export (torch.export -> torchax): before sizes were known on the
    host, its GPU plan had 2037 steps, 1079 of them library steps (296 set-dimension-size,
    194 concatenate building shape vectors)."""
    plan = dynhlo.compile(dynhlo.parse_stablehlo(module_bytes("gpt2")), **GPU).program.plan
    library = [i for i, kind in plan.steps if kind == "library"]
    assert not [i for i in library if i.opcode.value == "set-dimension-size"]
    assert len(library) < 100 and len(plan.steps) < 300


def test_the_graph_path_holds_a_size_the_host_knows():
    """A set-dimension-size read from data needs the host (tests/test_gpu_graph.py); one of
    an argument's size is a kernel whose size the graph reads from its size buffer."""
    exe = dynhlo.compile(TORCHAX_BROADCAST, **GPU, graph=True)
    prog = graph_plan.build(exe.program.plan, exe.program.info)
    assert len(prog.steps) == 1 and prog.steps[0].sizes == [(0, 0)]


@pytest.mark.parametrize("rows", [0, 1, 5, 8])
def test_the_compiled_cpu_path_skips_the_size_chain_too(rows):
    pytest.importorskip("llvmlite")
    exe = dynhlo.compile(TORCHAX_BROADCAST, backend="cpu", reference=False)
    x = np.arange(rows * 4, dtype=np.float32).reshape(rows, 4) + 1
    np.testing.assert_array_equal(np.asarray(exe(x)), 2 * x)
    steps = exe.program.evaluator._steps_of(exe.program.info)
    # one kernel (the parameter is bound before the steps)
    assert [inst.name for _, inst, *_ in steps] == ["m"]
