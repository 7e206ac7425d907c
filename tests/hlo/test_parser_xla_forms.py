"""Forms XLA's own parser reads that a line-by-line reader misses: an instruction over several
lines, the shape and the opcode on different lines, shape-less instructions whose shape XLA
infers, and attributes an opcode does not take (refused at line:column, as XLA refuses them).

Modules in the style of xla/tests/dynamic_ops_test.cc and dynamic_padder_test.cc.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import dynhlo
from dynhlo.errors import HloParseError, HloVerifyError
from dynhlo.hlo import parse_hlo
from dynhlo.hlo.ir import modules_equal

# dynamic_padder_test.cc writes set-dimension-size's attribute on the next line.
MULTILINE = """HloModule m

ENTRY main {
  param = s32[5] parameter(0)
  size = s32[] parameter(1)
  dyn = s32[<=5] set-dimension-size(param, size),
    dimensions={0}
  one = s32[] constant(1)
  ones = s32[<=5]
    broadcast(one), dimensions={}
  add.0 = s32[<=5] add(dyn,
                       ones)
  add.1 = multiply(dyn, dyn)
  ROOT out = tuple(add.0, add.1)
}
"""


def test_multiline_instruction_and_shapeless_tuple_run_as_xla_runs_them():
    module = parse_hlo(MULTILINE)
    root = module.entry.root
    assert str(root.shape) == "(s32[<=5], s32[<=5])"
    assert module.entry.root.operands[1].attrs == {}
    exe = dynhlo.compile(MULTILINE)
    x = np.arange(5, dtype=np.int32)
    a, b = exe(x, np.int32(3))
    np.testing.assert_array_equal(a, x[:3] + 1)
    np.testing.assert_array_equal(b, x[:3] * x[:3])


def test_a_comma_at_the_start_of_the_next_line_continues_the_instruction():
    text = ("HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] reverse(p)\n"
            "    , dimensions={0}\n}\n")
    root = parse_hlo(text).entry.root
    assert root.attrs == {"dimensions": "{0}"}
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(dynhlo.compile(text)(x), x[::-1])


# XLA's instruction list is token based (hlo_parser.cc ParseInstructionList: instructions up to
# '}', newlines not significant); jaxlib 0.10's parser reads each of these.
ONE_LINE_MODULES = [
    "HloModule m\nENTRY e {\n a = f32[3] parameter(0) b = f32[3] add(a, a)\n"
    " ROOT c = f32[3] multiply(b, a)\n}\n",
    "HloModule m\nENTRY e {\n a = f32[3] parameter(0)\n b = f32[3] add(a, a) "
    "ROOT c = f32[3] multiply(b, a) }\n",
    "HloModule m ENTRY e { a = f32[3] parameter(0) b = f32[3] add(a, a) "
    "ROOT c = f32[3] multiply(b, a) }",
    "HloModule m\nENTRY e {\n a = f32[3] parameter(0) k = f32[3] constant({1, 2, 3}) "
    "b = f32[3] add(a, a), metadata={op_name=\"x\"} c = f32[3] reverse(b), dimensions={0} "
    "ROOT d = f32[3] multiply(c, k)\n}\n",
    "HloModule m\nadd { x = f32[] parameter(0) y = f32[] parameter(1) ROOT s = f32[] add(x, y) }"
    " ENTRY e { a = f32[3] parameter(0) z = f32[] constant(0) r = f32[] reduce(a, z), "
    "dimensions={0}, to_apply=add ROOT o = f32[3] broadcast(r), dimensions={} }",
]
ONE_LINE_EXPECTED = [
    lambda x: 2 * x * x,
    lambda x: 2 * x * x,
    lambda x: 2 * x * x,
    lambda x: (2 * x)[::-1] * np.array([1, 2, 3], np.float32),
    lambda x: np.full(3, x.sum(), np.float32),
]


@pytest.mark.parametrize("index", range(len(ONE_LINE_MODULES)))
def test_several_instructions_on_one_line_parse_as_xla_parses_them(index):
    text = ONE_LINE_MODULES[index]
    x = np.array([1.5, -2.0, 4.0], np.float32)
    np.testing.assert_allclose(dynhlo.compile(text)(x), ONE_LINE_EXPECTED[index](x))
    assert modules_equal(parse_hlo(parse_hlo(text).to_text()), parse_hlo(text))


def test_a_value_with_a_space_before_a_bracket_continues_on_the_line():
    """XLA's mesh replica groups (`mesh['x'=1] {'x'}`) hold a space; the next instruction on
    the same line still starts after the value."""
    text = ("HloModule m\nadd { x = f32[] parameter(0) y = f32[] parameter(1) "
            "ROOT s = f32[] add(x, y) }\nENTRY e { a = f32[3] parameter(0) r = f32[3] "
            "all-reduce(a), replica_groups=mesh['x'=1] {'x'}, to_apply=add "
            "ROOT n = f32[3] negate(r) }\n")
    module = parse_hlo(text)
    assert module.entry.root.operands[0].attrs["replica_groups"] == "mesh['x'=1] {'x'}"
    x = np.array([1.5, -2.0, 4.0], np.float32)
    np.testing.assert_array_equal(dynhlo.compile(text)(x), -x)


@pytest.mark.parametrize("line,column,message", [
    # XLA: "4:24: error: expects attribute name" at the ROOT after the comma.
    (" b = f32[3] add(a, a), ROOT c = f32[3] multiply(b, a)", 24, "attribute name after ','"),
    (" b = f32[3] add(a, a) junk", 23, "expected an instruction"),
    (' b = f32[3] add(a, a), metadata={op_name="x"} c = f32[3] negate(b) ROOT d = f32[3] oops(c)',
     84, "unknown opcode 'oops'"),
])
def test_what_follows_an_instruction_on_its_line_is_refused_at_its_column(line, column, message):
    text = f"HloModule m\nENTRY e {{\n a = f32[3] parameter(0)\n{line}\n}}\n"
    with pytest.raises(HloParseError, match=message) as info:
        parse_hlo(text)
    assert (info.value.line, info.value.column) == (4, column)


@pytest.mark.parametrize("body,shape", [
    ("ROOT r = compare(p, p), direction=LT", "pred[<=6,2]"),
    ("ROOT r = transpose(p), dimensions={1,0}", "f32[2,<=6]"),
    ("ROOT r = reduce(p, z), dimensions={1}, to_apply=add", "f32[<=6]"),
    ("ROOT r = concatenate(p, p), dimensions={0}", "f32[<=12,2]"),
    ("ROOT r = pad(p, z), padding=1_2x0_0", "f32[<=9,2]"),
    ("ROOT r = get-dimension-size(p), dimensions={0}", "s32[]"),
    ("t = tuple(p, z)\n  ROOT r = get-tuple-element(t), index=1", "f32[]"),
    ("ROOT r = call(p, z), to_apply=scale", "f32[<=6,2]"),
    ("ROOT r = dot(p, p), lhs_contracting_dims={0}, rhs_contracting_dims={0}", "f32[2,2]"),
    # ShapeInference::InferReduceWindowShape: floor((pad + dilated base - dilated window)
    # / stride) + 1 per dimension, the operand's dynamic marks kept
    ("ROOT r = reduce-window(p, z), window={size=2x1}, to_apply=add", "f32[<=5,2]"),
    ("ROOT r = reduce-window(p, z), window={size=3x2 stride=2x1 pad=1_1x0_0}, to_apply=add",
     "f32[<=3,1]"),
    ("ROOT r = reduce-window(p, z), window={size=2x1 lhs_dilate=2x1 rhs_dilate=3x1}, "
     "to_apply=add", "f32[<=8,2]"),
    ("ROOT r = reduce-window(p, z), window={size=9x1}, to_apply=add", "f32[<=0,2]"),
    # ShapeInference::InferFftShape
    ("c = c64[<=6,2] convert(p)\n  ROOT r = fft(c), fft_type=FFT, fft_length={2}",
     "c64[<=6,2]"),
    ("ROOT r = fft(p), fft_type=RFFT, fft_length={6,2}", "c64[<=6,2]"),
    ("q = f32[<=6,4] concatenate(p, p), dimensions={1}\n"
     "  ROOT r = fft(q), fft_type=RFFT, fft_length={4}", "c64[<=6,3]"),
    ("c = c64[<=6,2] convert(p)\n  ROOT r = fft(c), fft_type=IRFFT, fft_length={2}",
     "f32[<=6,2]"),
])
def test_shapeless_instructions_get_xlas_inferred_shape(body, shape):
    text = f"""HloModule m
add {{
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = add(x, y)
}}
scale {{
  a = f32[<=6,2] parameter(0)
  b = f32[] parameter(1)
  bb = f32[<=6,2] broadcast(b), dimensions={{}}
  ROOT m = multiply(a, bb)
}}
ENTRY e {{
  p = f32[<=6,2] parameter(0)
  z = f32[] constant(0)
  {body}
}}
"""
    assert str(parse_hlo(text).entry.root.shape) == shape


def test_shapeless_instruction_xla_cannot_infer_is_refused_at_its_opcode():
    text = "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT c = convert(p)\n}\n"
    with pytest.raises(HloParseError) as info:
        parse_hlo(text)
    assert (info.value.line, info.value.column) == (4, 12)
    assert "cannot infer shape for opcode: convert" in str(info.value)


def test_shapeless_reduce_window_runs_at_every_size():
    text = """HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = add(x, y)
}
ENTRY e {
  p = f32[<=6] parameter(0)
  z = f32[] constant(0)
  ROOT r = reduce-window(p, z), window={size=3 stride=2 pad=1_1}, to_apply=add
}
"""
    exe = dynhlo.compile(text)
    for n in (1, 2, 5, 6):
        x = np.arange(1, n + 1, dtype=np.float32)
        padded = np.concatenate([[0], x, [0]]).astype(np.float32)
        expected = [padded[i:i + 3].sum() for i in range(0, n, 2)]  # ceil(n / 2) windows
        np.testing.assert_array_equal(exe(x), np.float32(expected))


@pytest.mark.parametrize("attrs", ["window={size=0x1}", "window={size=2x1 stride=0x1}",
                                   "window={size=2}", "window={size=axb}"])
def test_shapeless_reduce_window_with_a_bad_window_is_a_parse_error(attrs):
    text = ("HloModule m\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
            "  ROOT s = add(x, y)\n}\nENTRY e {\n  p = f32[<=6,2] parameter(0)\n"
            f"  z = f32[] constant(0)\n  ROOT r = reduce-window(p, z), {attrs}, to_apply=add\n}}\n")
    with pytest.raises(HloParseError) as info:
        parse_hlo(text)
    assert (info.value.line, info.value.column) == (10, 3)
    assert "reduce-window" in str(info.value)


@pytest.mark.parametrize("line, message", [
    ("ROOT r = concatenate(p, p)", "concatenate takes one dimension in dimensions=, got none"),
    ("ROOT r = concatenate(p, p), dimensions={0,1}",
     "concatenate takes one dimension in dimensions=, got {0,1}"),
    ("ROOT r = set-dimension-size(p, n)",
     "set-dimension-size takes one dimension in dimensions=, got none"),
    ("ROOT r = set-dimension-size(p, n), dimensions={x}", "do not fit set-dimension-size"),
    ("ROOT r = transpose(p), dimensions={0,y}", "do not fit transpose"),
])
def test_shapeless_instruction_with_a_missing_or_bad_attribute_is_a_parse_error(line, message):
    # the shape rule's unpacking ValueError escaped: the parser expected (instruction, reason)
    text = ("HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  n = s32[] constant(2)\n  "
            + line + "\n}\n")
    with pytest.raises(HloParseError, match=re.escape(message)) as info:
        parse_hlo(text)
    assert (info.value.line, info.value.column) == (5, 3)
    assert "cannot infer the shape of 'r'" in str(info.value)


@pytest.mark.parametrize("line", [
    "  ROOT r = f32[4] add(p, p), bogus_attr={1}",
    "  ROOT r = f32[4] negate(p), dimensions={0}",
    "  ROOT r = f32[4] reverse(p), dimensions={0},\n     bogus_attr={1}",
])
def test_an_attribute_the_opcode_does_not_take_is_a_parse_error(line):
    text = "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n" + line + "\n}\n"
    with pytest.raises(HloParseError, match="takes no attribute") as info:
        parse_hlo(text)
    key = "bogus_attr" if "bogus_attr" in line else "dimensions"
    lines = text.splitlines()
    row = next(k for k, t in enumerate(lines) if key + "=" in t)
    assert (info.value.line, info.value.column) == (row + 1, lines[row].index(key) + 1)


def test_attributes_every_instruction_may_carry_are_accepted():
    text = ("HloModule m\nENTRY e {\n  p = f32[4] parameter(0), sharding={replicated}\n"
            "  ROOT r = f32[4] negate(p), metadata={op_name=\"x\"}, frontend_attributes={a=\"b\"},"
            " backend_config=\"{}\", statistics={visualizing_index=1,stat-1=1}\n}\n")
    assert parse_hlo(text).entry.root.attrs["backend_config"] == '"{}"'


def test_verify_errors_name_the_instructions_line_and_column():
    text = ("HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n"
            "    ROOT a = f32[5] add(p, p)\n}\n")
    with pytest.raises(HloVerifyError) as info:
        dynhlo.compile(text)
    assert (info.value.line, info.value.column) == (4, 5)
    assert str(info.value).startswith("4:5: instruction 'a': ")


def test_verify_errors_in_a_called_computation_point_into_it():
    text = """HloModule m
body {
  x = f32[4] parameter(0)
  ROOT y = f32[5] add(x, x)
}
ENTRY e {
  p = f32[4] parameter(0)
  ROOT c = f32[4] call(p), to_apply=body
}
"""
    with pytest.raises(HloVerifyError) as info:
        dynhlo.compile(text)
    assert (info.value.instruction, info.value.line, info.value.column) == ("y", 4, 3)
