"""HLO text parser: short form, XLA's dump form, shapes, attributes, calls, round trips."""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

from dynhlo.hlo import UNBOUNDED, Opcode, parse_hlo, print_module
from dynhlo.hlo.text import parser as parser_module
from dynhlo.hlo.types import ELEMENT_TYPES
from tests.support.common import DATA

SHARED = str(DATA)
CORPUS = sorted(glob.glob(os.path.join(SHARED, "models", "*", "module*.hlo")))
LARGE = os.path.join(SHARED, "large", "transformer_48_layers.hlo")

SEED = """HloModule Test
ENTRY main {
  a = f32[<=5, 5]{1,0} parameter(0)
  ROOT b = f32[<=5, 5]{0,1} copy(a)
}
"""

# Written by hand in the style of XLA's dump (`--xla_dump_to`, HloModule::ToString()).
DUMP = """HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[8,3]{1,0}, s32[])->f32[8,3]{1,0}}

%add.clone (x.1: f32[], y.1: f32[]) -> f32[] {
  %x.1 = f32[] parameter(0)
  %y.1 = f32[] parameter(1)
  ROOT %add.2 = f32[] add(f32[] %x.1, f32[] %y.1)
}

%fused_computation (param_0: f32[8,3]) -> f32[8,3] {
  %param_0 = f32[8,3]{1,0} parameter(0)
  ROOT %neg.1 = f32[8,3]{1,0} negate(f32[8,3]{1,0} %param_0), metadata={op_type="neg" op_name="jit(f)/neg" source_file="f.py" source_line=3}
}

%cond (p.0: (s32[], f32[8,3])) -> pred[] {
  %p.0 = (s32[], f32[8,3]{1,0}) parameter(0)
  %i.0 = s32[] get-tuple-element((s32[], f32[8,3]{1,0}) %p.0), index=0
  %n.0 = s32[] constant(4)
  ROOT %lt = pred[] compare(s32[] %i.0, s32[] %n.0), direction=LT
}

%body (p.1: (s32[], f32[8,3])) -> (s32[], f32[8,3]) {
  %p.1 = (s32[], f32[8,3]{1,0}) parameter(0)
  %i.1 = s32[] get-tuple-element((s32[], f32[8,3]{1,0}) %p.1), index=0
  %v.1 = f32[8,3]{1,0} get-tuple-element((s32[], f32[8,3]{1,0}) %p.1), index=1
  %one = s32[] constant(1)
  %i.2 = s32[] add(s32[] %i.1, s32[] %one)
  %v.2 = f32[8,3]{1,0} fusion(f32[8,3]{1,0} %v.1), kind=kLoop, calls=%fused_computation
  ROOT %t.1 = (s32[], f32[8,3]{1,0}) tuple(s32[] %i.2, f32[8,3]{1,0} %v.2)
}

%branch_0 (b0: f32[8,3]) -> f32[8,3] {
  ROOT %b0 = f32[8,3]{1,0} parameter(0)
}

%branch_1 (b1: f32[8,3]) -> f32[8,3] {
  %b1 = f32[8,3]{1,0} parameter(0)
  ROOT %b1.neg = f32[8,3]{1,0} negate(f32[8,3]{1,0} %b1)
}, execution_thread="main"

ENTRY %main.9 (Arg_0.1: f32[8,3], Arg_1.2: s32[]) -> f32[8,3] {
  %Arg_0.1 = f32[8,3]{1,0:T(8,128)S(1)} parameter(0), sharding={devices=[2,1]0,1}
  %Arg_1.2 = s32[] parameter(1), frontend_attributes={_xla_compute_type="host"}
  %zero = s32[] constant(0)
  %t.0 = (s32[], f32[8,3]{1,0}) tuple(s32[] %zero, f32[8,3]{1,0} %Arg_0.1)
  %w = (s32[], f32[8,3]{1,0}) while((s32[], f32[8,3]{1,0}) %t.0), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"4"}}
  %v = f32[8,3]{1,0} get-tuple-element((s32[], f32[8,3]{1,0}) %w), index=1
  %init = f32[] constant(0)
  %r = f32[8]{0} reduce(f32[8,3]{1,0} %v, f32[] %init), dimensions={1}, to_apply=%add.clone, backend_config="{\\"a\\":1}"
  %c = f32[8,3]{1,0} conditional(s32[] %Arg_1.2, f32[8,3]{1,0} %v, /*index=2*/f32[8,3]{1,0} %v), branch_computations={%branch_0, %branch_1}, backend_config={"a":1}
  ROOT %out = f32[8,3]{1,0} add(f32[8,3]{1,0} %c, f32[8,3]{1,0} %v) // a trailing comment
}
"""


def _inst(module, name):
    return next(i for i in module.instructions() if i.name == name)


def test_short_form_seed_module():
    module = parse_hlo(SEED)
    a, b = module.entry.instructions
    assert module.name == "Test" and module.entry.name == "main" and module.entry.is_entry
    assert a.shape.dims == (5, 5) and a.shape.dynamic == (True, False)
    assert a.shape.layout.minor_to_major == (1, 0)
    assert b.shape.layout.minor_to_major == (0, 1)
    assert a.opcode is Opcode.PARAMETER and a.parameter_number == 0
    assert b.opcode is Opcode.COPY and b.operands == [a] and module.entry.root is b
    assert module.line_of(b) == 4


def test_dump_form_names_shapes_and_operands():
    module = parse_hlo(DUMP)
    assert [c.name for c in module.computations] == [
        "add.clone", "fused_computation", "cond", "body", "branch_0", "branch_1", "main.9"]
    assert module.entry.name == "main.9" and module.entry.root.name == "out"
    add = _inst(module, "add.2")
    assert [o.name for o in add.operands] == ["x.1", "y.1"]
    c = _inst(module, "c")
    assert [o.name for o in c.operands] == ["Arg_1.2", "v", "v"]
    p = _inst(module, "p.1")
    assert p.shape.is_tuple and [e.dims for e in p.shape.elements] == [(), (8, 3)]


def test_dump_form_module_and_computation_attributes():
    module = parse_hlo(DUMP)
    assert module.attrs == {
        "is_scheduled": "true",
        "entry_computation_layout": "{(f32[8,3]{1,0}, s32[])->f32[8,3]{1,0}}"}
    assert module.computation("branch_1").execution_thread == "main"
    assert module.computation("branch_0").execution_thread is None


def test_dump_form_attributes_kept_as_written():
    module = parse_hlo(DUMP)
    assert _inst(module, "neg.1").attrs == {"metadata": '{op_type="neg" op_name="jit(f)/neg" '
                                                       'source_file="f.py" source_line=3}'}
    assert _inst(module, "Arg_0.1").attrs == {"sharding": "{devices=[2,1]0,1}"}
    assert _inst(module, "Arg_1.2").attrs == {
        "frontend_attributes": '{_xla_compute_type="host"}'}
    assert _inst(module, "r").attrs == {"dimensions": "{1}", "to_apply": "add.clone",
                                        "backend_config": '"{\\"a\\":1}"'}
    assert _inst(module, "c").attrs["backend_config"] == '{"a":1}'
    assert _inst(module, "w").attrs["backend_config"] == '{"known_trip_count":{"n":"4"}}'
    assert _inst(module, "lt").attrs == {"direction": "LT"}


def test_dump_form_called_computations():
    module = parse_hlo(DUMP)
    called = {i.name: {k: [c.name for c in v] for k, v in i.called.items()}
              for i in module.instructions() if i.called}
    assert called == {
        "v.2": {"calls": ["fused_computation"]},
        "w": {"condition": ["cond"], "body": ["body"]},
        "r": {"to_apply": ["add.clone"]},
        "c": {"branch_computations": ["branch_0", "branch_1"]},
    }
    assert _inst(module, "w").called["body"][0] is module.computation("body")


def test_layout_with_tiling_and_memory_space():
    layout = _inst(parse_hlo(DUMP), "Arg_0.1").shape.layout
    assert layout.minor_to_major == (1, 0) and layout.tail == "T(8,128)S(1)"
    assert str(layout) == "{1,0:T(8,128)S(1)}"


def test_select_and_scatter_and_true_false_computations():
    text = """HloModule m
ge { a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE }
add { a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b) }
neg { a = f32[] parameter(0)
  ROOT n = f32[] negate(a) }
ENTRY e {
  x = f32[4] parameter(0)
  s = f32[2] parameter(1)
  z = f32[] constant(0)
  p = pred[] parameter(2)
  sas = f32[4] select-and-scatter(x, s, z), window={size=2 stride=2}, select=ge, scatter=add
  ROOT k = f32[] conditional(p, z, z), true_computation=neg, false_computation=%neg
}
"""
    module = parse_hlo(text)
    sas, k = _inst(module, "sas"), _inst(module, "k")
    assert [c.name for c in sas.called["select"]] == ["ge"]
    assert [c.name for c in sas.called["scatter"]] == ["add"]
    assert sas.attrs["window"] == "{size=2 stride=2}"
    assert k.called["true_computation"] == k.called["false_computation"] == [
        module.computation("neg")]
    assert k.attrs["false_computation"] == "neg"
    assert module.entry.name == "e"


def test_custom_call_called_computations_and_opaque_strings():
    text = """HloModule m
f { ROOT a = f32[] parameter(0) }
g { ROOT a = f32[] parameter(0) }
ENTRY e {
  x = f32[] parameter(0)
  ROOT y = f32[] custom-call(x), custom_call_target="foo, bar{", called_computations={f, g}
}
"""
    y = _inst(parse_hlo(text), "y")
    assert y.attrs["custom_call_target"] == '"foo, bar{"'
    assert [c.name for c in y.called["called_computations"]] == ["f", "g"]


@pytest.mark.parametrize("element_type", sorted(ELEMENT_TYPES))
def test_every_element_type(element_type):
    dims = "[]" if element_type in ("token", "opaque") else "[2,<=3]{0,1}"
    module = parse_hlo(f"HloModule m\nENTRY e {{\n  ROOT p = {element_type}{dims} parameter(0)\n}}")
    shape = module.entry.root.shape
    assert shape.element_type == element_type
    if dims != "[]":
        assert shape.dims == (2, 3) and shape.dynamic == (False, True)
        assert shape.layout.minor_to_major == (0, 1)


def test_unbounded_tuple_and_token_shapes():
    text = """HloModule m
ENTRY e {
  a = f32[?,<=4,7] parameter(0)
  t = token[] after-all()
  b = s32[] get-dimension-size(a), dimensions={0}
  ROOT r = (f32[?,<=4,7], (token[], s32[])) tuple(a, t, b)
}
"""
    module = parse_hlo(text)
    a, t, _, r = module.entry.instructions
    assert a.shape.dims == (UNBOUNDED, 4, 7) and a.shape.dynamic == (True, True, False)
    assert a.shape.is_unbounded and str(a.shape) == "f32[?,<=4,7]"
    assert t.shape.element_type == "token" and t.shape.dims == ()
    outer, inner = r.shape.elements
    assert outer is not None and outer.dims == (UNBOUNDED, 4, 7)
    assert inner.is_tuple and [e.element_type for e in inner.elements] == ["token", "s32"]


def _constant(shape: str, literal: str):
    module = parse_hlo(f"HloModule m\nENTRY e {{\n  ROOT c = {shape} constant({literal})\n}}")
    return module.entry.root.literal


def test_constant_nested_arrays():
    value = _constant("s32[2,3]", "{ {1, 2, 3}, {4, 5, -6} }")
    assert value.dtype == np.int32 and value.tolist() == [[1, 2, 3], [4, 5, -6]]
    value = _constant("f32[2,1,2]{2,1,0}", "{ { {1.5, 2} }, { {-3e-2, 4E3} } }")
    np.testing.assert_array_equal(value, np.array([[[1.5, 2]], [[-0.03, 4000]]], np.float32))


def test_constant_special_floats():
    value = _constant("f32[4]", "{nan, -nan, inf, -inf}")
    assert np.isnan(value[0]) and np.isnan(value[1]) and np.signbit(value[1])
    assert value[2] == np.inf and value[3] == -np.inf
    assert np.isnan(_constant("f32[]", "nan(0x7fc00001)"))


def test_constant_half_precision_types():
    bf16 = _constant("bf16[2]", "{0.1, -2.5}")
    assert str(bf16.dtype) == "bfloat16" and bf16.astype(np.float32).tolist() == [
        pytest.approx(0.1, rel=1e-2), -2.5]
    f16 = _constant("f16[2]", "{0.1, 65504}")
    assert f16.dtype == np.float16 and f16.tolist() == [np.float16(0.1), 65504.0]


def test_constant_pred_complex_and_sub_byte():
    assert _constant("pred[3]", "{true, false, 1}").tolist() == [True, False, True]
    c = _constant("c64[2]", "{(1, 2), (-0.5, inf)}")
    assert c.dtype == np.complex64 and c.tolist() == [1 + 2j, complex(-0.5, np.inf)]
    s4 = _constant("s4[3]", "{-8, 7, 0}")
    assert str(s4.dtype) == "int4" and s4.astype(np.int8).tolist() == [-8, 7, 0]
    u4 = _constant("u4[2]", "{0, 15}")
    assert str(u4.dtype) == "uint4" and u4.astype(np.int8).tolist() == [0, 15]


def test_constant_empty_and_tuple():
    empty = _constant("f32[0]", "{}")
    assert empty.shape == (0,) and empty.dtype == np.float32
    assert _constant("f32[2,0]", "{ {}, {} }").shape == (2, 0)
    value = _constant("(f32[2], s32[])", "( {1, 2}, 3 )")
    assert isinstance(value, tuple) and value[0].tolist() == [1.0, 2.0] and value[1] == 3
    assert _constant("(s32[], f32[1])", "(s32[] 4, f32[1] {2})")[0] == 4


def test_comments_crlf_and_tabs():
    text = SEED.replace("\n", "\r\n").replace("  ", "\t")
    text = text.replace("ENTRY main {", "/* the entry */ ENTRY main { // hi")
    module = parse_hlo(text)
    assert module == parse_hlo(SEED)


def test_bytes_are_read_as_utf8():
    assert parse_hlo(SEED.encode()) == parse_hlo(SEED)


def test_stack_frame_index_is_accepted():
    text = SEED.replace("HloModule Test\n", """HloModule Test

FileNames
1 "/tmp/f.py"

FunctionNames
1 "f"

FileLocations
1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=1 end_column=9}

StackFrames
1 {file_location_id=1 parent_frame_id=1}

""")
    assert parse_hlo(text) == parse_hlo(SEED)


def test_inline_computations_of_the_canonical_form():
    text = """HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(f32[4] x, f32[] z), dimensions={0}, to_apply=
  {
    a = f32[] parameter(0)
    b = f32[] parameter(1)
    ROOT c = f32[] add(f32[] a, f32[] b)
  }
}
"""
    module = parse_hlo(text)
    reducer = module.entry.root.called["to_apply"][0]
    assert [c.name for c in module.computations] == [reducer.name, "e"]
    assert reducer.root.opcode is Opcode.ADD and module.entry.root.attrs["to_apply"] == "_.0"
    assert parse_hlo(print_module(module)) == module


def test_entry_defaults_to_the_last_computation():
    module = parse_hlo("HloModule m\nf {\n  ROOT a = f32[] parameter(0)\n}\n"
                       "g {\n  ROOT a = f32[] parameter(0)\n}\n")
    assert module.entry.name == "g" and module.entry.is_entry


def test_operands_may_come_later_in_the_text():
    text = "HloModule m\nENTRY e {\n  ROOT b = f32[] negate(a)\n  a = f32[] parameter(0)\n}\n"
    module = parse_hlo(text)
    assert module.entry.root.name == "b" and module.entry.root.operands[0].name == "a"


@pytest.mark.parametrize("path", CORPUS + [LARGE], ids=os.path.basename)
def test_round_trip_shared_modules(path):
    with open(path) as f:
        module = parse_hlo(f.read())
    printed = print_module(module)
    again = parse_hlo(printed)
    assert again == module
    assert print_module(again) == printed


@pytest.mark.parametrize("text", [SEED, DUMP], ids=["short", "dump"])
def test_round_trip_hand_written(text):
    module = parse_hlo(text)
    assert parse_hlo(print_module(module)) == module


def test_round_trip_literals():
    text = """HloModule m
ENTRY e {
  a = bf16[3] constant({0.1, -2, inf})
  b = f16[2] constant({0.1, -nan})
  c = c128[1] constant({(0.1, -2)})
  d = pred[2] constant({true, false})
  e = s4[2] constant({-8, 7})
  f = u64[1] constant({18446744073709551615})
  g = f32[0] constant({})
  h = (f32[], (s32[2])) constant((1.5, ({1, 2})))
  ROOT t = (bf16[3], f16[2], c128[1], pred[2], s4[2], u64[1], f32[0]) tuple(a, b, c, d, e, f, g)
}
"""
    module = parse_hlo(text)
    again = parse_hlo(print_module(module))
    assert again == module
    assert again.entry.instructions[5].literal.tolist() == [2**64 - 1]


@pytest.mark.parametrize("path", CORPUS[:4] + [LARGE], ids=os.path.basename)
def test_fast_path_and_general_path_agree(path, monkeypatch):
    with open(path) as f:
        text = f.read()
    fast, fast_dump = parse_hlo(text), parse_hlo(DUMP)
    monkeypatch.setattr(parser_module._Parser, "fast_instruction", lambda self, m: None)
    assert parse_hlo(text) == fast
    assert parse_hlo(DUMP) == fast_dump


def test_dump_form_equals_short_form():
    short = DUMP.replace("%", "")
    for typed in ["f32[] ", "s32[] ", "f32[8,3]{1,0} ", "(s32[], f32[8,3]{1,0}) ", "/*index=2*/"]:
        short = short.replace("(" + typed, "(").replace(", " + typed, ", ")
    assert "f32[] x" not in short
    assert parse_hlo(short) == parse_hlo(DUMP)
