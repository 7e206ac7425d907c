"""A new user's and an attacker's pass over the frontends and the compile options (review of
2026-12-01): each test is a case that escaped as a raw exception, hung, or was silently ignored.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo import UnsupportedError

SEED = "HloModule Test\nENTRY main {\n  a = f32[<=5,5] parameter(0)\n  ROOT b = f32[<=5,5] copy(a)\n}\n"
F32 = "tensor<3xf32>"


def _func(name: str, body: str, public: bool = False) -> str:
    vis = "public" if public else "private"
    return f"func.func {vis} @{name}(%a: {F32}) -> {F32} {{\n{body}\n}}"


def _call(callee: str, result: str = "%c0") -> str:
    return f"{result} = func.call @{callee}(%a) : ({F32}) -> {F32}"


def test_misspelt_compile_option_is_refused_not_ignored():
    # max_while_iteration (no s) used to be accepted and change nothing: no loop limit
    with pytest.raises(UnsupportedError, match="max_while_iteration;.*max_while_iterations"):
        dynhlo.compile(SEED, max_while_iteration=5)
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    # the GPU's options stay accepted on the CPU (they change nothing there)
    np.testing.assert_array_equal(dynhlo.compile(SEED, interpret=True)(x), x)


def test_stablehlo_recursion_is_refused_naming_the_cycle():
    pytest.importorskip("jax")
    text = "module {\n" + _func("main", f"{_call('f')}\nreturn %c0 : {F32}", True) + "\n" \
        + _func("f", f"{_call('main')}\nreturn %c0 : {F32}") + "\n}"
    with pytest.raises(UnsupportedError, match="recursive call @main -> @f -> @main"):
        dynhlo.parse_stablehlo(text)


def _chain(n: int, fan: int) -> str:
    """@main calls f1 `fan` times, f1 calls f2 `fan` times, ..., f{n} returns its argument."""
    funcs = []
    for i in range(n):
        calls = "\n".join(_call(f"f{i + 1}", f"%c{j}") for j in range(fan))
        last = f"%s = stablehlo.add %c0, %c{fan - 1} : {F32}\nreturn %s : {F32}" if fan > 1 \
            else f"return %c0 : {F32}"
        funcs.append(_func("main" if i == 0 else f"f{i}", f"{calls}\n{last}", i == 0))
    funcs.append(_func(f"f{n}", f"return %a : {F32}"))
    return "module {\n" + "\n".join(funcs) + "\n}"


def test_stablehlo_call_fan_out_is_refused_before_inlining():
    pytest.importorskip("jax")
    # 700 bytes that inline to 2**24 copies: MLIR's inliner used to run for minutes
    with pytest.raises(UnsupportedError, match="inlining the calls .* would make"):
        dynhlo.parse_stablehlo(_chain(24, 2))
    # a small fan-out still inlines and computes: 2**3 copies of a summed
    x = np.array([1, 2, 3], np.float32)
    np.testing.assert_array_equal(dynhlo.compile(dynhlo.parse_stablehlo(_chain(3, 2)))(x), 8 * x)


def test_stablehlo_deep_call_chain_is_an_unsupported_error():
    pytest.importorskip("jax")
    # 2000 nested calls were a RecursionError in the converter
    with pytest.raises(UnsupportedError, match="calls nested more than 100 deep"):
        dynhlo.parse_stablehlo(_chain(2000, 1))


@pytest.mark.parametrize("bounds, message", [
    ([1, 2], "bounds takes"),
    ({0: {"x": 3}}, "argument 0 dimension 'x'"),
    ({0: {5: 3}}, "argument 0 dimension 5, which the entry function does not have"),
    ({7: {0: 3}}, "argument 7 dimension 0, which the entry function does not have"),
    ({0: {0: 10**30}}, "whole number in 0..999999999999999999"),
])
def test_stablehlo_bounds_that_name_nothing_are_refused(bounds, message):
    pytest.importorskip("jax")
    text = "module { func.func public @main(%a: tensor<?xf32>) -> tensor<?xf32> { " \
           "return %a : tensor<?xf32> } }"
    with pytest.raises(UnsupportedError, match=message):
        dynhlo.parse_stablehlo(text, bounds=bounds)
    # the right form bounds the dimension
    assert str(dynhlo.parse_stablehlo(text, bounds={0: {0: 3}}).entry.parameters[0].shape) \
        .startswith("f32[<=3]")


@pytest.mark.parametrize("bounds, message", [
    ({"n": "x"}, "bound for 'n' must be a whole number in 1.."),
    ([1, 2], "bounds maps size names"),
    ({"n": 0}, "bound for 'n' must be a whole number in 1.."),
    ({"n": 2.5}, "bound for 'n'"),
    ({"n": 10**30}, "bound for 'n'"),
])
def test_from_jax_bad_bounds_are_unsupported_errors(bounds, message):
    pytest.importorskip("jax")
    with pytest.raises(UnsupportedError, match=message):
        dynhlo.from_jax(lambda x: x - x.mean(0), "f32[n,4]", bounds=bounds)


def test_cli_garbage_bytecode_is_one_error_line(tmp_path):
    pytest.importorskip("jax")
    from tests.support.common import run_cli
    bad = tmp_path / "g.mlirbc"
    bad.write_bytes(b"ML\xefRgarbage")
    np.save(tmp_path / "x.npy", np.ones(3, np.float32))
    done = run_cli("run", str(bad), str(tmp_path / "x.npy"))
    # MLIR's own diagnostics ("loc(...): error: bytecode version ...") used to come first
    assert done.returncode == 1
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("dynhlo: error: ") and "not a StableHLO module" in done.stderr


@pytest.mark.parametrize("command", ["run", "inspect", "compile"])
def test_cli_refuses_a_device_as_module_file(command, tmp_path):
    from tests.support.common import run_cli
    # /dev/zero was read until memory ran out (the process was killed)
    args = ["-o", str(tmp_path / "m.dynhlo")] if command == "compile" else []
    done = run_cli(command, "/dev/zero", *args, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip() == ("dynhlo: error: /dev/zero: is a device, expected a module "
                                   "file (or - for stdin)")
    assert not (tmp_path / "m.dynhlo").exists()
