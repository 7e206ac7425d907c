"""Bad input of every kind beyond malformed text is a DynHloError that names the place.

Bad arguments are ArgumentErrors naming the parameter; inconsistent shapes are
HloVerifyErrors naming the instruction; what the CPU backend cannot run is an UnsupportedError
raised at compile time; sizes that break the contract at run time are DynamicSizeErrors; the
command line prints one line and exits 1. (Malformed HLO text is tested with the parser.)
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.common import EXAMPLES, assert_one_line_error, run_cli

TWO_PARAMS = """HloModule two_params
ENTRY main {
  x = f32[<=4,3]{1,0} parameter(0)
  i = s32[] parameter(1)
  ix = f32[] convert(i)
  b = f32[<=4,3]{1,0} broadcast(ix), dimensions={}
  ROOT y = f32[<=4,3]{1,0} add(x, b)
}
"""

GOOD_X = np.zeros((2, 3), np.float32)
GOOD_I = np.int32(1)


class _NotAnArray:
    def __array__(self, *args, **kwargs):
        raise RuntimeError("refuses to be an array")


# (id, arguments, parameter index at fault or None, dimension, size, bound)
BAD_ARGUMENTS = [
    ("too-few", (GOOD_X,), None, None, None, None),
    ("too-many", (GOOD_X, GOOD_I, GOOD_I), None, None, None, None),
    ("none-of-them", (), None, None, None, None),
    ("float64", (GOOD_X.astype(np.float64), GOOD_I), 0, None, None, None),
    ("int-for-float", (GOOD_X.astype(np.int32), GOOD_I), 0, None, None, None),
    ("bf16-for-f32", (GOOD_X.astype(dynhlo.hlo.types.to_numpy_dtype("bf16")), GOOD_I), 0,
     None, None, None),
    ("complex-for-float", (GOOD_X.astype(np.complex64), GOOD_I), 0, None, None, None),
    ("float-for-s32", (GOOD_X, np.float32(1)), 1, None, None, None),
    ("bool-for-s32", (GOOD_X, True), 1, None, None, None),
    ("python-int-over-s32", (GOOD_X, 2**40), 1, None, None, None),
    ("rank-too-low", (np.zeros(3, np.float32), GOOD_I), 0, None, None, None),
    ("rank-too-high", (np.zeros((2, 3, 1), np.float32), GOOD_I), 0, None, None, None),
    ("array-for-scalar", (GOOD_X, np.zeros(2, np.int32)), 1, None, None, None),
    ("static-dim-mismatch", (np.zeros((2, 4), np.float32), GOOD_I), 0, 1, 4, 3),
    ("dynamic-over-bound", (np.zeros((5, 3), np.float32), GOOD_I), 0, 0, 5, 4),
    ("none", (None, GOOD_I), 0, None, None, None),
    ("string", ("f32[2,3]", GOOD_I), 0, None, None, None),
    ("dict", ({"x": 1}, GOOD_I), 0, None, None, None),
    ("object-array", (np.array([object()] * 3, dtype=object).reshape(1, 3), GOOD_I), 0,
     None, None, None),
    ("ragged-list", ([[1.0], [1.0, 2.0]], GOOD_I), 0, None, None, None),
    ("refuses-array", (_NotAnArray(), GOOD_I), 0, None, None, None),
]


@pytest.mark.parametrize("args,parameter,dimension,size,bound",
                         [pytest.param(*case[1:], id=case[0]) for case in BAD_ARGUMENTS])
def test_bad_arguments(args, parameter, dimension, size, bound):
    exe = dynhlo.compile(TWO_PARAMS)
    with pytest.raises(dynhlo.ArgumentError) as info:
        exe(*args)
    err = info.value
    message = str(err)
    assert "\n" not in message
    if parameter is None:  # a wrong count lists what the module takes
        assert "expected 2 argument" in message and "'x'" in message and "'i'" in message
        return
    name = ["x", "i"][parameter]
    assert (err.parameter, err.name) == (parameter, name)
    assert f"parameter {parameter} '{name}'" in message
    if dimension is not None:
        assert (err.dimension, err.size, err.bound) == (dimension, size, bound)
        assert f"dimension {dimension}" in message and str(size) in message


def test_the_good_arguments_do_run():
    # The baseline the bad cases deviate from: 2 of 4 rows, plus one.
    out = dynhlo.compile(TWO_PARAMS)(GOOD_X, GOOD_I)
    np.testing.assert_array_equal(out, np.ones((2, 3), np.float32))


def _module(body: str, extra: str = "") -> str:
    return f"HloModule bad\n{extra}\nENTRY main {{\n{body}\n}}\n"


ADD_F32 = ("add_f32 {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n"
           "  ROOT s = f32[] add(p, q)\n}")

# (id, module text, the instruction the error must name)
VERIFY_ERRORS = [
    ("add-sizes-differ", _module("  a = f32[2] parameter(0)\n  b = f32[3] parameter(1)\n"
                                 "  ROOT c = f32[2] add(a, b)"), "c"),
    ("add-ranks-differ", _module("  a = f32[2] parameter(0)\n  b = f32[2,1] parameter(1)\n"
                                 "  ROOT c = f32[2] add(a, b)"), "c"),
    ("add-bounds-differ", _module("  a = f32[<=2] parameter(0)\n  b = f32[<=3] parameter(1)\n"
                                  "  ROOT c = f32[<=3] add(a, b)"), "c"),
    ("declared-shape-wrong", _module("  a = f32[2] parameter(0)\n  ROOT b = f32[3] negate(a)"),
     "b"),
    ("declared-bound-wrong", _module("  a = f32[<=4] parameter(0)\n"
                                     "  ROOT b = f32[<=5] negate(a)"), "b"),
    ("transpose-not-a-permutation", _module(
        "  a = f32[2,3] parameter(0)\n  ROOT t = f32[3,2] transpose(a), dimensions={0,0}"), "t"),
    ("transpose-too-few-dims", _module(
        "  a = f32[2,3] parameter(0)\n  ROOT t = f32[3,2] transpose(a), dimensions={1}"), "t"),
    ("dot-contracting-mismatch", _module(
        "  a = f32[2,3] parameter(0)\n  b = f32[4,5] parameter(1)\n  ROOT d = f32[2,5] dot(a, b),"
        " lhs_contracting_dims={1}, rhs_contracting_dims={0}"), "d"),
    ("dot-dims-out-of-range", _module(
        "  a = f32[2,3] parameter(0)\n  b = f32[3,5] parameter(1)\n  ROOT d = f32[2,5] dot(a, b),"
        " lhs_contracting_dims={2}, rhs_contracting_dims={0}"), "d"),
    ("broadcast-dim-out-of-range", _module(
        "  a = f32[3] parameter(0)\n  ROOT b = f32[2,3] broadcast(a), dimensions={2}"), "b"),
    ("broadcast-dims-count", _module(
        "  a = f32[3] parameter(0)\n  ROOT b = f32[2,3] broadcast(a), dimensions={0,1}"), "b"),
    ("broadcast-size-mismatch", _module(
        "  a = f32[3] parameter(0)\n  ROOT b = f32[2,4] broadcast(a), dimensions={1}"), "b"),
    ("reshape-element-count", _module(
        "  a = f32[2,3] parameter(0)\n  ROOT r = f32[7] reshape(a)"), "r"),
    ("reshape-dynamic-element-count", _module(
        "  a = f32[<=4,3] parameter(0)\n  ROOT r = f32[<=13] reshape(a)"), "r"),
    ("gte-out-of-range", _module(
        "  a = f32[2] parameter(0)\n  t = (f32[2], f32[2]) tuple(a, a)\n"
        "  ROOT g = f32[2] get-tuple-element(t), index=2"), "g"),
    ("gte-of-an-array", _module(
        "  a = f32[2] parameter(0)\n  ROOT g = f32[2] get-tuple-element(a), index=0"), "g"),
    ("reduce-dim-out-of-range", _module(
        "  a = f32[2,3] parameter(0)\n  z = f32[] constant(0)\n"
        "  ROOT r = f32[2] reduce(a, z), dimensions={2}, to_apply=add_f32", ADD_F32), "r"),
    ("reduce-result-shape", _module(
        "  a = f32[2,3] parameter(0)\n  z = f32[] constant(0)\n"
        "  ROOT r = f32[3] reduce(a, z), dimensions={1}, to_apply=add_f32", ADD_F32), "r"),
    ("concatenate-dim-out-of-range", _module(
        "  a = f32[2] parameter(0)\n  ROOT c = f32[4] concatenate(a, a), dimensions={1}"), "c"),
    ("concatenate-result-size", _module(
        "  a = f32[2] parameter(0)\n  ROOT c = f32[5] concatenate(a, a), dimensions={0}"), "c"),
    ("concatenate-ranks-differ", _module(
        "  a = f32[2] parameter(0)\n  s = f32[] parameter(1)\n"
        "  ROOT c = f32[3] concatenate(a, s), dimensions={0}"), "c"),
    ("slice-past-the-end", _module(
        "  a = f32[4] parameter(0)\n  ROOT s = f32[3] slice(a), slice={[2:5]}"), "s"),
    ("set-dimension-size-dim", _module(
        "  a = f32[<=4] parameter(0)\n  n = s32[] parameter(1)\n"
        "  ROOT s = f32[<=4] set-dimension-size(a, n), dimensions={1}"), "s"),
    ("get-dimension-size-dim", _module(
        "  a = f32[<=4] parameter(0)\n  ROOT s = s32[] get-dimension-size(a), dimensions={3}"),
     "s"),
]


@pytest.mark.parametrize("text,instruction",
                         [pytest.param(*case[1:], id=case[0]) for case in VERIFY_ERRORS])
def test_verifier_errors_name_the_instruction(text, instruction):
    with pytest.raises(dynhlo.HloVerifyError) as info:
        dynhlo.compile(text)
    assert info.value.instruction == instruction
    assert f"'{instruction}'" in str(info.value)


@pytest.mark.parametrize("operands, rank", [("v, s", 0), ("v, v, m", 2)])
def test_concatenate_of_operands_of_another_rank_names_the_operand(operands, rank):
    """XLA's InferConcatOpShape: every operand has operand 0's rank. A scalar after a vector
    was a raw IndexError from the shape rule."""
    text = _module("  v = f32[<=2] parameter(0)\n  s = f32[] parameter(1)\n"
                   "  m = f32[2,1] parameter(2)\n"
                   f"  ROOT c = f32[<=6] concatenate({operands}), dimensions={{0}}")
    with pytest.raises(dynhlo.HloVerifyError) as info:
        dynhlo.compile(text)
    index = operands.count(",")
    name = operands.split(", ")[-1]
    assert info.value.instruction == "c"
    assert f"operand {index} '{name}' has rank {rank}, operand 0 'v' rank 1" in str(info.value)


UNSUPPORTED_TARGET = _module(
    "  a = f32[2] parameter(0)\n"
    "  ROOT c = f32[2] custom-call(a), custom_call_target=\"dynhlo_no_such_target\"")


def test_unsupported_custom_call_target_at_compile_time():
    with pytest.raises(dynhlo.UnsupportedError) as info:
        dynhlo.compile(UNSUPPORTED_TARGET)
    message = str(info.value)
    assert "dynhlo_no_such_target" in message and "'c'" in message


def test_unsupported_opcode_at_compile_time(monkeypatch):
    # No opcode is guaranteed to stay unsupported, so take one out of the CPU table: the
    # compile-time check must name it and its instruction, whatever the opcode.
    from dynhlo.backends.cpu import lowering
    from dynhlo.hlo.opcodes import Opcode
    monkeypatch.delitem(lowering.LOWERINGS, Opcode.NEGATE)
    with pytest.raises(dynhlo.UnsupportedError) as info:
        dynhlo.compile(_module("  a = f32[2] parameter(0)\n  ROOT n = f32[2] negate(a)"))
    message = str(info.value)
    assert "negate" in message and "'n'" in message and "cpu" in message


MEET = _module("  x = f32[<=4] parameter(0)\n  y = f32[<=4] parameter(1)\n"
               "  ROOT z = f32[<=4] add(x, y)")
SET_SIZE = _module("  x = f32[<=4] parameter(0)\n  n = s32[] parameter(1)\n"
                   "  ROOT s = f32[<=4] set-dimension-size(x, n), dimensions={0}")
SPLIT_ROWS = _module("  x = f32[<=6] parameter(0)\n  ROOT r = f32[<=3,2] reshape(x)")


def test_two_dynamic_sizes_meeting_in_an_add():
    """XLA's rule: different sizes give the smaller; a size of 1 broadcasts."""
    exe = dynhlo.compile(MEET)
    np.testing.assert_array_equal(exe(np.ones(3, np.float32), np.ones(3, np.float32)),
                                  [2, 2, 2])
    np.testing.assert_array_equal(exe(np.float32([1, 2]), np.float32([5, 6, 7])), [6, 8])
    np.testing.assert_array_equal(exe(np.float32([1]), np.float32([5, 6, 7])), [6, 7, 8])
    np.testing.assert_array_equal(exe(np.float32([]), np.float32([5, 6, 7])), [])


@pytest.mark.parametrize("n", [5, 100, -1])
def test_set_dimension_size_out_of_range(n):
    with pytest.raises(dynhlo.DynamicSizeError) as info:
        dynhlo.compile(SET_SIZE)(np.ones(4, np.float32), np.int32(n))
    assert "'s'" in str(info.value) and str(n) in str(info.value)


def test_dynamic_reshape_that_does_not_divide():
    exe = dynhlo.compile(SPLIT_ROWS)
    np.testing.assert_array_equal(exe(np.arange(4, dtype=np.float32)), [[0, 1], [2, 3]])
    with pytest.raises(dynhlo.DynamicSizeError) as info:
        exe(np.arange(5, dtype=np.float32))
    assert "'r'" in str(info.value)


# -- the command line ----------------------------------------------------------------------

SEED = str(EXAMPLES / "seed.hlo")


@pytest.mark.parametrize("argv,fragments", [
    pytest.param(["run", "no/such/module.hlo"], ["no/such/module.hlo", "no such file"],
                 id="missing-module"),
    pytest.param(["inspect", "no/such/module.hlo"], ["no such file"], id="inspect-missing"),
    pytest.param(["run", str(EXAMPLES)], ["is a directory"], id="module-is-a-directory"),
    pytest.param(["run", SEED, "f32[3,5] {1,2}"], ["argument 0", "f32[3,5]"],
                 id="bad-literal"),
    pytest.param(["run", SEED, "f32[3,5 {1,2}"], ["argument 0"], id="bad-literal-shape"),
    pytest.param(["run", SEED, "q99[2] {1,2}"], ["argument 0", "q99"], id="bad-element-type"),
    pytest.param(["run", SEED, "f32[<=5,5] {{1,2,3,4,5}}"], ["argument 0", "actual shape"],
                 id="literal-at-the-bound"),
    pytest.param(["run", SEED, "(f32[2], s32[]) ({1,2}, 3)"], ["argument 0", "tuple"],
                 id="tuple-literal"),
    pytest.param(["run", SEED], ["expected 1 argument", "got 0"], id="too-few-args"),
    pytest.param(["run", SEED, "f32[1,5] {{1,2,3,4,5}}", "s32[] 1"], ["got 2"],
                 id="too-many-args"),
    pytest.param(["run", SEED, "s32[1,5] {{1,2,3,4,5}}"], ["parameter 0 'a'", "f32"],
                 id="wrong-dtype"),
    pytest.param(["run", SEED, "missing.npy"], ["argument 0", "missing.npy", "no such file"],
                 id="missing-npy"),
])
def test_cli_errors(argv, fragments):
    assert_one_line_error(run_cli(*argv), *fragments)


def test_cli_not_a_npy_file(tmp_path):
    path = tmp_path / "x.npy"
    path.write_bytes(b"this is not numpy\n")
    assert_one_line_error(run_cli("run", SEED, str(path)), "argument 0", "not a .npy file")


def test_cli_truncated_npy_file(tmp_path):
    path = tmp_path / "x.npy"
    np.save(path, np.ones((3, 5), np.float32))
    path.write_bytes(path.read_bytes()[:-7])
    assert_one_line_error(run_cli("run", SEED, str(path)), "argument 0")


def test_cli_module_that_is_not_text(tmp_path):
    path = tmp_path / "m.hlo"
    path.write_bytes(b"HloModule m\n\xff\xfe\x00garbage")
    assert_one_line_error(run_cli("inspect", str(path)), str(path))


def test_cli_verify_error(tmp_path):
    path = tmp_path / "m.hlo"
    path.write_text(VERIFY_ERRORS[0][1])
    assert_one_line_error(run_cli("run", str(path), "f32[2] {1,2}", "f32[3] {1,2,3}"), "'c'")


def test_cli_unwritable_output(tmp_path):
    assert_one_line_error(run_cli("run", SEED, "f32[1,5] {{1,2,3,4,5}}", "-o",
                                  str(tmp_path / "no" / "dir" / "o.npz")), "cannot write")
