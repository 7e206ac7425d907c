"""The registry answers what its clients ask (dynhlo/backends/__init__.py): which opcodes a
backend runs (support), how it runs a program (describe: `dynhlo inspect --backend`), and its
arguments where it reads them (to_device: `dynhlo bench`). The GPU's answers:
tests/backends/gpu/test_registry.py."""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo import cli
from dynhlo.backends import BACKENDS, OpSupport, get
from dynhlo.hlo.opcodes import Opcode

ADD = """HloModule m
ENTRY main {
  x = f32[<=8] parameter(0)
  y = f32[<=8] add(x, x)
  ROOT z = f32[<=8] multiply(y, x)
}
"""


def test_every_backend_is_asked_through_the_registry():
    assert set(BACKENDS) == {"cpu", "gpu"}
    with pytest.raises(dynhlo.UnsupportedError, match="unknown backend 'tpu'"):
        get("tpu")


def test_cpu_support_says_what_xla_runs_on_one_device():
    # XLA's semantics, not dynhlo's tables: one device adds and sorts; all-reduce has a
    # one-device form; infeed talks to a host the evaluator does not have.
    cpu = get("cpu").support()
    assert isinstance(cpu, OpSupport)
    assert cpu.how[Opcode.ADD] == cpu.how[Opcode.SORT] == cpu.how[Opcode.PARAMETER] == "yes"
    assert Opcode.ALL_REDUCE in cpu.single_device and Opcode.ADD not in cpu.single_device
    assert Opcode.INFEED not in cpu.how and cpu.why[Opcode.INFEED]
    assert {"PadToStatic", "SliceToDynamic", "lapack_sgetrf_ffi"} <= cpu.custom_calls


def test_cpu_describe_counts_the_instructions_it_runs():
    exe = dynhlo.compile(ADD, reference=True)
    assert get("cpu").describe(exe.program) == (
        "cpu: 3 instructions; the reference evaluator (NumPy), one lowering per instruction\n")
    exe = dynhlo.compile(ADD, reference=False)
    assert get("cpu").describe(exe.program) == (
        "cpu: 3 instructions; fused groups compiled to machine code, the other instructions "
        "on the reference lowering\n")


def test_cpu_to_device_keeps_the_arrays_and_waits_for_nothing():
    exe = dynhlo.compile(ADD)
    x = np.arange(5, dtype=np.float32)
    args, sync = get("cpu").to_device(exe.program, [x])
    assert args[0] is x and sync() is None
    np.testing.assert_array_equal(exe(*args), (x + x) * x)


def test_inspect_with_the_cpu_backend_says_how_it_runs(tmp_path, capsys):
    path = tmp_path / "m.hlo"
    path.write_text(ADD, encoding="utf-8")
    assert cli.main(["inspect", "--backend", "cpu", "--reference", str(path)]) == 0
    assert capsys.readouterr().out.endswith(
        "\ncpu: 3 instructions; the reference evaluator (NumPy), one lowering per instruction\n")
