"""Malformed StableHLO against dynhlo.parse_stablehlo: every input ends in a DynHloError or a
module, never another exception, a crash of the process or a hang.

Seeds are modules jax.export writes with a symbolic size (text and portable artifact);
mutations are seeded (the seed and case are in every failure). Anything that could kill
the process (MLIR's C++ parsers abort or overflow their stack on some inputs) runs in a
child process, so a regression is a failing test, not a dead test run. Focused regression
tests of each bug the fuzzing found come first.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys

import numpy as np
import pytest

import dynhlo
from tests.support.common import REPO

jax = pytest.importorskip("jax")


ROOT = REPO


def _export(name: str):
    """A jax.export of one seed function with `n` (2 <= n <= 16) rows."""
    from jax import lax
    n, = jax.export.symbolic_shape("n", constraints=["n <= 16", "n >= 2"])
    S = jax.ShapeDtypeStruct
    fns = {
        "elementwise": (lambda x: jax.numpy.sin(x) * 2 + x, [S((n, 5), np.float32)]),
        "reduce": (lambda x: jax.numpy.sum(x, axis=0) + jax.numpy.max(x),
                   [S((n, 5), np.float32)]),
        "while": (lambda x: lax.fori_loop(0, 3, lambda i, c: c * 2 + i, x),
                  [S((n,), np.float32)]),
        "cumsum": (lambda x: jax.numpy.cumsum(x, axis=0), [S((n, 3), np.float32)]),
    }
    fn, args = fns[name]
    return jax.export.export(jax.jit(fn))(*args)


def _in_child(code: str, timeout: int = 120) -> subprocess.CompletedProcess:
    """Run `code` in a fresh Python with dynhlo and the tests package importable."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


def _text_module(sig: str, body: str, result: str) -> str:
    return f"module {{\n  func.func @main({sig}) -> {result} {{\n{body}\n  }}\n}}\n"


# ---------------------------------------------------------------- regressions, one a bug


def test_bytecode_whose_diagnostic_is_not_utf8_is_a_parse_error_not_an_abort():
    # A corrupt op name in the string table ("r\xffturn_v1") is quoted in MLIR's
    # diagnostic; the bindings' own capture converted it to str inside a C callback, threw,
    # and std::terminate aborted the process.
    code = """
import dynhlo
from tests.frontends.test_fuzz_stablehlo import _export
data = _export("reduce").mlir_module_serialized
assert b"return_v1" in data
try:
    dynhlo.parse_stablehlo(data.replace(b"return_v1", b"r\\xffturn_v1"))
except dynhlo.HloParseError as e:
    print("HloParseError", e)
"""
    done = _in_child(code)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("HloParseError") and "not a StableHLO module" in done.stdout


def _artifact_with_a_string_as_comparison_direction() -> bytes:
    """A portable artifact whose first vhlo.compare_v1 has a string where its direction
    belongs: StableHLO's VHLO legalization casts it unchecked and dies of SIGSEGV."""
    import io
    from jax._src.interpreters import mlir
    from jaxlib.mlir import ir
    ctx = mlir.make_ir_context()  # has the vhlo dialect
    with ctx:
        vhlo = ir.Module.parse(_export("reduce").mlir_module_serialized)
        text = vhlo.operation.get_asm(print_generic_op_form=True)
        bad = re.sub(r"comparison_direction = #vhlo<comparison_direction_v1 \w+>",
                     'comparison_direction = #vhlo.string_v1<"x">', text, count=1)
        assert bad != text
        out = io.BytesIO()
        ir.Module.parse(bad).operation.write_bytecode(out)
    return out.getvalue()


def test_artifact_that_crashes_stablehlos_deserializer_is_a_parse_error(tmp_path):
    path = tmp_path / "bad.mlirbc"
    path.write_bytes(_artifact_with_a_string_as_comparison_direction())
    code = f"""
import dynhlo
try:
    dynhlo.parse_stablehlo(open({str(path)!r}, "rb").read())
except dynhlo.HloParseError as e:
    print("HloParseError", e)
"""
    done = _in_child(code)
    assert done.returncode == 0, f"the process died: {done.returncode} {done.stderr[-2000:]}"
    assert done.stdout.startswith("HloParseError") and "crashed" in done.stdout


def test_good_bytecode_still_reads_through_the_child_process():
    exported = _export("cumsum")
    module = dynhlo.parse_stablehlo(exported.mlir_module_serialized)
    assert str(module.entry.parameters[0].shape) == "f32[<=16,3]"
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    np.testing.assert_allclose(dynhlo.compile(module)(x), np.cumsum(x, axis=0))


@pytest.mark.parametrize("opener", ["(", "[", "{", "<"])
def test_brackets_nested_thousands_deep_are_a_parse_error_not_a_segfault(opener):
    # MLIR's recursive-descent parser overflowed its C stack at ~15000 levels
    code = f"""
import dynhlo
text = ("module {{\\n  func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {{\\n"
        "    return %a : " + {opener!r} * 50000 + "\\n  }}\\n}}\\n")
try:
    dynhlo.parse_stablehlo(text)
except dynhlo.HloParseError as e:
    print("HloParseError", e.line, e.column, e)
"""
    done = _in_child(code)
    assert done.returncode == 0, f"the process died: {done.returncode} {done.stderr[-2000:]}"
    assert done.stdout.startswith("HloParseError 3 ") and "nested more than" in done.stdout


def test_nesting_in_strings_and_arrows_does_not_count():
    from dynhlo.frontends.mlir_load import MAX_NESTING, check_nesting
    check_nesting('"' + "(" * (MAX_NESTING + 5) + '"' + " -> " * 2000)
    check_nesting("// " + "{" * (MAX_NESTING + 5) + "\nx")
    with pytest.raises(dynhlo.HloParseError) as info:
        check_nesting("a\n  " + "[" * (MAX_NESTING + 1))
    assert (info.value.line, info.value.column) == (2, 3 + MAX_NESTING)


def test_a_lower_limit_on_a_dimension_variable_keeps_its_upper_bound():
    # `n >= 2` holds at huge sizes; it made the search for n's largest size give up, and
    # the module lost the bound `n <= 16` gives
    module = dynhlo.parse_stablehlo(_export("elementwise").mlir_module())
    assert str(module.entry.parameters[0].shape) == "f32[<=16,5]"


def _constant_module(pairs) -> str:
    """A module returning one `stablehlo.constant` per (value, type) pair."""
    types = ", ".join(t for _, t in pairs)
    body = "".join(f"    %c{k} = stablehlo.constant {v} : {t}\n" for k, (v, t) in enumerate(pairs))
    names = ", ".join(f"%c{k}" for k in range(len(pairs)))
    return _text_module("", f"{body}    return {names} : {types}", f"({types})")


def test_a_huge_splat_constant_is_a_scalar_broadcast_refused_when_run():
    # every splat was written out whole: 12 of 1 GiB each took 12 GiB, and past 2**28
    # elements the import refused the module; 4 TB of ones must cost nothing until run,
    # where the broadcast is sized before allocating
    huge = "tensor<1000000x1000000xf32>"
    module = dynhlo.parse_stablehlo(_constant_module([("dense<1.0>", huge)]))
    root = module.entry.root
    assert root.opcode.name == "BROADCAST" and root.shape.dims == (10**6, 10**6)
    assert [c.literal.tolist() for c in module.instructions() if c.literal is not None] == [1.0]
    with pytest.raises(dynhlo.ResourceExhaustedError,
                       match=rf"'{root.name}'.*\(4000000000000 bytes\)"):
        dynhlo.compile(module)()


def test_splat_constants_keep_their_values_and_types():
    # a NaN's payload included, and a complex constant of more than 64 elements (its
    # placeholder was written `c64[] constant(0)`, an HloParseError)
    nan = 0x7FC00001
    ramp = ", ".join(f"({k}.0, {-k}.0)" for k in range(65))
    module = dynhlo.parse_stablehlo(_constant_module([
        (f"dense<0x{nan:08X}>", "tensor<3x2xf32>"), ("dense<1.5>", "tensor<70xbf16>"),
        ("dense<true>", "tensor<4xi1>"), ("dense<-3>", "tensor<2x2xi4>"),
        ("dense<(1.0, -2.0)>", "tensor<100xcomplex<f32>>"),
        (f"dense<[{ramp}]>", "tensor<65xcomplex<f32>>")]))
    assert [c.literal.size for c in module.instructions()
            if c.literal is not None] == [1, 1, 1, 1, 1, 65]
    f32, bf16, pred, s4, c64, c64_ramp = dynhlo.compile(module)()
    assert f32.shape == (3, 2) and (f32.view(np.uint32) == nan).all()
    assert bf16.dtype.name == "bfloat16" and (bf16.astype(np.float32) == 1.5).all()
    assert pred.dtype == bool and pred.all() and pred.shape == (4,)
    assert s4.dtype.name == "int4" and (s4.astype(np.int8) == -3).all()
    np.testing.assert_array_equal(c64, np.full(100, 1 - 2j, np.complex64))
    np.testing.assert_array_equal(c64_ramp, np.arange(65) * (1 - 1j))


def test_constants_past_free_memory_are_refused_before_reading_naming_the_op(monkeypatch):
    # read whole, the constants of a module could take more memory than the host has
    import dynhlo.frontends.stablehlo.convert as convert
    monkeypatch.setattr(convert, "host_memory", lambda: 1000)
    ramps = [(f"dense<[{', '.join(f'{k}.0' for k in range(j, j + 100))}]>", "tensor<100xf32>")
             for j in range(3)]  # unequal: MLIR's inliner merges equal constants
    module = dynhlo.parse_stablehlo(_constant_module(ramps[:2] + [("dense<7.0>",
                                                                   "tensor<9999999xf32>")]))
    assert module.entry.root.shape.elements[2].dims == (9999999,)  # splats cost nothing
    with pytest.raises(dynhlo.ResourceExhaustedError,
                       match=r"^stablehlo.constant: .* need 1200 bytes .* \(400 bytes\), more "
                             r"than the 1000 bytes .* \(at line 5:"):
        dynhlo.parse_stablehlo(_constant_module(ramps))


ASSERTION = ('    %c = stablehlo.constant dense<true> : tensor<i1>\n'
             '    stablehlo.custom_call @shape_assertion(%c) {{{attrs}has_side_effect = true}}'
             ' : (tensor<i1>) -> ()\n    return %a : tensor<?xf32>')
REDUCE_WINDOW = ('    %c = stablehlo.constant dense<0.0> : tensor<f32>\n'
                 '    %w = stablehlo.constant dense<2> : tensor<1xi64>\n'
                 '    %r = stablehlo.custom_call @stablehlo.dynamic_reduce_window({operands}) :'
                 ' ({types}) -> tensor<?xf32>\n    return %r : tensor<?xf32>')
WINDOW_TYPES = "tensor<?xf32>, tensor<f32>" + ", tensor<1xi64>" * 5


def _custom(target: str, attrs: str) -> str:
    return _text_module("%a: tensor<?xf32>",
                        f"    %r = stablehlo.custom_call @{target}(%a) {{{attrs}}} :"
                        " (tensor<?xf32>) -> tensor<?xf32>\n    return %r : tensor<?xf32>",
                        "tensor<?xf32>")


MALFORMED = {
    # name: (text, the message it must give)
    "assertion without a message": (
        _text_module("%a: tensor<?xf32>", ASSERTION.format(attrs=""), "tensor<?xf32>"),
        r"attribute error_message must be a string, got None \(at line 4:"),
    "assertion message of another kind": (
        _text_module("%a: tensor<?xf32>", ASSERTION.format(attrs="error_message = 3 : i32, "),
                     "tensor<?xf32>"),
        "attribute error_message must be a string, got 3 : i32"),
    "assertion message not UTF-8": (
        _text_module("%a: tensor<?xf32>", ASSERTION.format(attrs='error_message = "a\\FFb", '),
                     "tensor<?xf32>"),
        "attribute error_message is not UTF-8 text"),
    "assertion without operands": (
        _text_module("%a: tensor<?xf32>",
                     '    stablehlo.custom_call @shape_assertion() {error_message = "m", '
                     'has_side_effect = true} : () -> ()\n    return %a : tensor<?xf32>',
                     "tensor<?xf32>"),
        "a shape assertion without its predicate operand"),
    "target not UTF-8": (
        _custom("\"a\\FFb\"", ""), "attribute call_target_name is not UTF-8 text"),
    "reduce window of one operand": (
        _text_module("%a: tensor<?xf32>", REDUCE_WINDOW.format(
            operands="%a", types="tensor<?xf32>"), "tensor<?xf32>"),
        "dynamic_reduce_window takes N inputs, their N initial values, then .*got 1 operands"),
    "reduce window without its body": (
        _text_module("%a: tensor<?xf32>", REDUCE_WINDOW.format(
            operands="%a, %c" + ", %w" * 5, types=WINDOW_TYPES), "tensor<?xf32>"),
        "padding of 1 for an input of rank 1"),
    "shape operand index out of range": (
        _custom("PadToStatic", "indices_of_shape_operands = dense<7> : tensor<1xi64>"),
        "indices_of_shape_operands must be indices of its 1 operands"),
    "shape operand indices as a string": (
        _custom("PadToStatic", 'indices_of_shape_operands = "x"'),
        "indices_of_shape_operands must be indices of its 1 operands"),
    "entry without a body": (
        "module {\n  func.func private @main(%a: tensor<2xf32>) -> tensor<2xf32>\n}\n",
        "the entry function @main is a declaration without a body"),
    "call of a declaration": (
        "module {\n  func.func private @f(tensor<2xf32>) -> tensor<2xf32>\n"
        "  func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
        "    %r = func.call @f(%a) : (tensor<2xf32>) -> tensor<2xf32>\n"
        "    return %r : tensor<2xf32>\n  }\n}\n",
        r"@f is a declaration without a body \(at line 4:"),
    "integer width HLO lacks": (
        _text_module("%a: tensor<5x?xi7>", "    return %a : tensor<5x?xi7>", "tensor<5x?xi7>"),
        "element type i7 has no HLO equivalent"),
    "size past HLO's largest": (
        _text_module("%a: tensor<4611686018427387904xf32>",
                     "    return %a : tensor<4611686018427387904xf32>",
                     "tensor<4611686018427387904xf32>"),
        "dimension 0 of tensor<4611686018427387904xf32> has size or bound 4611686018427387904"),
    "encoded bound past HLO's largest": (
        _text_module("%a: tensor<?xf32, #stablehlo.bounds<4611686018427387904>>",
                     "    return %a : tensor<?xf32, #stablehlo.bounds<4611686018427387904>>",
                     "tensor<?xf32, #stablehlo.bounds<4611686018427387904>>"),
        "has size or bound 4611686018427387904, more than HLO's largest"),
    "backend_config neither string nor dictionary": (
        _custom("PadToStatic", "mhlo.backend_config = 3 : i32"),
        "attribute mhlo.backend_config must be a string or a dictionary, got 3 : i32"),
    "assertion of a vector predicate": (
        _text_module("%a: tensor<?xf32>", ASSERTION.format(attrs='error_message = "m", ').replace(
            "dense<true> : tensor<i1>", "dense<[true, false]> : tensor<2xi1>").replace(
            "(tensor<i1>) -> ()", "(tensor<2xi1>) -> ()"), "tensor<?xf32>"),
        r"operand 0 of a shape assertion is pred\[2\]; it takes a scalar pred"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_but_parseable_module_is_an_unsupported_error(name):
    text, message = MALFORMED[name]
    with pytest.raises(dynhlo.UnsupportedError, match=message):
        dynhlo.parse_stablehlo(text)


def test_backend_config_with_quotes_stays_one_hlo_string():
    # written into HLO text unescaped, the quote ended the string and the rest became a
    # second custom_call_target attribute
    text = _custom("PadToStatic", 'backend_config = "a\\"), custom_call_target=\\"x"')
    module = dynhlo.parse_stablehlo(text)
    call = [i for i in module.entry.instructions if i.opcode.name == "CUSTOM_CALL"][0]
    assert call.attrs["custom_call_target"] == '"PadToStatic"'
    assert call.attrs["backend_config"] == r'"a\"), custom_call_target=\"x"'


def test_a_custom_call_with_one_tuple_result_is_imported():
    # the result `tuple<...>` reached the bounds of an array's dims: AttributeError (rank)
    bounded = "tensor<?xf32, #stablehlo.bounds<5>>"
    result = "tuple<tensor<5xf32>, tensor<i32>>"
    text = _text_module(f"%a: {bounded}", f"    %r = stablehlo.custom_call @PadToStatic(%a) :"
                        f" ({bounded}) -> {result}\n    return %r : {result}", result)
    padded, size = dynhlo.compile(dynhlo.parse_stablehlo(text))(np.arange(1, 4, dtype="f4"))
    np.testing.assert_array_equal(padded, [1, 2, 3, 0, 0])
    assert size == 3


@pytest.mark.parametrize("message, said", [
    ("n = {0}, {1}; {{0}}", "n = 3, {1}; {0}"),
    ("{0[1]} {0.real} {0:>99999999999}", "{0[1]} {0.real} {0:>99999999999}")])
def test_an_assertion_message_takes_only_its_numbered_fields(message, said):
    # str.format read the module's message: `{0[1]}` raised TypeError, `{0.real}` read an
    # attribute, a huge width raised MemoryError
    bounded = "tensor<?xf32, #stablehlo.bounds<5>>"
    text = _text_module(f"%a: {bounded}", (
        f"    %n = stablehlo.get_dimension_size %a, dim = 0 : ({bounded}) -> tensor<i32>\n"
        "    %c4 = stablehlo.constant dense<4> : tensor<i32>\n"
        "    %c = stablehlo.compare GE, %n, %c4 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        f"    stablehlo.custom_call @shape_assertion(%c, %n) {{error_message = \"{message}\", "
        "has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()\n"
        f"    return %a : {bounded}"), bounded)
    from dynhlo.runtime.arguments import check_assertions
    module = dynhlo.parse_stablehlo(text)
    check_assertions(module, [np.ones(4, np.float32)])
    with pytest.raises(dynhlo.ArgumentError) as info:
        check_assertions(module, [np.ones(3, np.float32)])
    assert str(info.value) == f"{said} (JAX shape assertion)"


# ---------------------------------------------------------------- seeded fuzzing

TYPES = ["tensor<5x?xi7>", "tensor<?x?xf32>", "tensor<f32>", "tensor<-3x5xf32>",
         "tensor<4611686018427387904x5xf32>", "tensor<0x5xf32>", "tensor<*xf32>",
         "tensor<?x5xcomplex<f32>>", "tensor<?x5xi1>", "tensor<3x5xf32, #stablehlo.bounds<?, 3>>",
         "tensor<?x5xf32, #stablehlo.bounds<4611686018427387904, ?>>"]
ATTRS = ["array<i64: 0, 1, 2, 3>", "array<i64>", "dense<1> : tensor<3xi64>", '"str"',
         "1.5 : f32", "unit", "[1, 2]", "-1 : i64", "array<i64: 4611686018427387904>"]
OPS = ["stablehlo.frobnicate", "foo.bar", "stablehlo.add", "stablehlo.custom_call",
       "chlo.erf", "stablehlo.while", "mhlo.add", "func.call"]
NUMBERS = [2**62, -1, 0, 2**31, 2**63, 7, 10**30]
_TOKEN = re.compile(r'\s+|[A-Za-z_%#@!.][\w.$#%-]*|\d+|"[^"]*"|.')


def _replace(text: str, rng: random.Random, pattern: str, choices: list, group: int = 0) -> str:
    found = list(re.finditer(pattern, text))
    if not found:
        return text
    m = rng.choice(found)
    return text[:m.start(group)] + str(rng.choice(choices)) + text[m.end(group):]


def mutate_text(text: str, rng: random.Random) -> str:
    """One of: a token deleted, duplicated, swapped or copied; a type, number, op name or
    attribute value changed; an operand dropped or doubled; a bracket or a long run of
    one character inserted."""
    kind = rng.randrange(12)
    if kind == 3:
        return _replace(text, rng, r"tensor<[^>]*>", TYPES)
    if kind == 4:
        return _replace(text, rng, r"\b\d+\b", NUMBERS)
    if kind == 7:
        return _replace(text, rng, r"\b(stablehlo|chlo|func)\.\w+", OPS)
    if kind == 8:
        return _replace(text, rng, r'\w+ = (array<i64[^>]*>|dense<[^>]*>|\d+ : i\d+|"[^"]*")',
                        ATTRS, group=1)
    if kind == 9:
        return re.sub(r"(%[\w#]+), (%[\w#]+)", r"\1", text, count=1 + rng.randrange(3))
    if kind == 10:
        return re.sub(r"(%[\w#]+)\)", r"\1, \1)", text, count=1 + rng.randrange(3))
    tokens = _TOKEN.findall(text)
    i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
    if kind == 0:
        del tokens[i]
    elif kind == 1:
        tokens.insert(i, tokens[i])
    elif kind == 2:
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == 5:
        tokens.insert(i, rng.choice("{}()<>[]\""))
    elif kind == 6:
        tokens.insert(i, rng.choice(["x", " ", "(", "[", "<", "?", "0", '"', "\\"])
                      * rng.choice([100, 5000, 50000]))
    else:
        tokens[i] = tokens[j]
    return "".join(tokens)


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """A truncation, or 1 to 16 bytes flipped, randomized or set to 0, 0x7f, 0x80, 0xff."""
    out = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0:
        return bytes(out[:rng.randrange(len(out))])
    for _ in range(rng.choice([1, 1, 2, 4, 16])):
        i = rng.randrange(len(out))
        out[i] = (out[i] ^ (1 << rng.randrange(8)) if kind == 1 else rng.randrange(256)
                  if kind == 2 else rng.choice([0, 0x7f, 0x80, 0xff]))
    return bytes(out)


def run_cases(form: str, seed: int, count: int) -> None:
    """In the child: `count` mutants of the seeds, one JSON line each; `start` lines first
    so that a crash names its case. SIGALRM turns a hang into a result."""
    import signal

    def hung(signum, frame):
        raise TimeoutError("no result in 20 s")

    signal.signal(signal.SIGALRM, hung)
    seeds = [_export(name) for name in ("elementwise", "reduce", "while", "cumsum")]
    rng = random.Random(seed)
    for case in range(count):
        exported = rng.choice(seeds)
        if form == "text":
            data = exported.mlir_module()
            for _ in range(rng.choice([1, 1, 2, 3])):
                data = mutate_text(data, rng)
        else:
            data = mutate_bytes(exported.mlir_module_serialized, rng)
        print(json.dumps({"start": case}), flush=True)
        signal.alarm(20)
        try:
            dynhlo.parse_stablehlo(data)
            result = "module"
        except dynhlo.DynHloError:
            result = "DynHloError"
        except BaseException as exc:  # what the test is looking for
            result = f"{type(exc).__name__}: {str(exc)[:300]}"
        finally:
            signal.alarm(0)
        print(json.dumps({"case": case, "result": result}), flush=True)


def _fuzz(form: str, seed: int, count: int) -> None:
    code = ("from tests.frontends.test_fuzz_stablehlo import run_cases\n"
            f"run_cases({form!r}, {seed}, {count})")
    done = _in_child(code, timeout=600)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    started = [line["start"] for line in lines if "start" in line]
    assert done.returncode == 0, (f"seed {seed}: the process died ({done.returncode}) in case "
                                  f"{started[-1] if started else None}: {done.stderr[-1500:]}")
    bad = [line for line in lines if line.get("result") not in (None, "module", "DynHloError")]
    assert not bad, f"seed {seed}: {bad[:5]}"
    assert len(started) == count


@pytest.mark.parametrize("seed", [20261202, 7])
def test_mutated_text_gives_modules_or_dynhlo_errors(seed):
    _fuzz("text", seed, 150)


def test_mutated_bytecode_gives_modules_or_dynhlo_errors():
    # each bytecode is read in its own child process (~0.5 s): fewer cases
    _fuzz("bytes", 20261203, 30)
