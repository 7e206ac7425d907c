"""The opcode spec table and every rule table keyed by it: complete, registered once, and
in one family per opcode.

An opcode's IR facts are its OpSpec (dynhlo/hlo/opcodes.py); each layer keeps one table keyed
by the opcode: the shape rules (dynhlo/shapes/rules.py), the CPU lowerings
(dynhlo/backends/cpu/lowering.py), the GPU rules (dynhlo/backends/gpu/rules.py). Each table
covers every opcode or says why not, takes each key once, and an opcode's entries sit in
files of one family name (shapes/rules_<f>.py, cpu/ops_<f>.py, gpu/library/<f>.py).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from dynhlo import parse_hlo
from dynhlo.backends.cpu.lowering import CUSTOM_CALLS, LOWERINGS, NOT_LOWERED, lowering
from dynhlo.backends.cpu.ops_collective import DISTRIBUTED
from dynhlo.errors import HloParseError, HloVerifyError
from dynhlo.hlo.opcodes import OP_SPECS, Group, OnceTable, Opcode, Trait
from dynhlo.hlo.opcodes_attrs import ATTRIBUTES, COMMON
from dynhlo.hlo.verify import verify_module
from dynhlo.passes.inline_calls import INLINED
from dynhlo.shapes import dynamic  # noqa: F401  (every family's rules registered)
from dynhlo.shapes.rules import (CUSTOM_CALL_RULES, RULES, custom_call_rule, default_rule,
                                 rule, rule_of)

ROOT = Path(__file__).resolve().parents[2]
_ELEMENTWISE = (Group.UNARY, Group.BINARY, Group.TERNARY)


def _gpu_rules():
    try:
        from dynhlo.backends.gpu import rules
    except ImportError:  # torch or triton absent
        pytest.skip("the GPU backend does not import here")
    return rules


# --- the spec table ---------------------------------------------------------------------------

def test_every_opcode_has_a_spec():
    assert set(OP_SPECS) == set(Opcode)


@pytest.mark.parametrize("op", list(Opcode), ids=lambda op: op.value)
def test_spec_fields_agree(op):
    spec = OP_SPECS[op]
    if spec.attrs is not None:  # the attributes that name computations are attributes
        assert set(spec.calls) <= spec.attrs, op
    for alternatives in spec.needs:  # what it needs, it calls
        assert set(alternatives) <= set(spec.calls), op
    if spec.least:
        assert spec.arity is None, f"{op.value}: a fixed arity has no least"
    if spec.same_type is not None or spec.indices is not None:
        # the verifier reads these only for KEEPS_TYPE opcodes (verify.types._check_keeps_type)
        assert Trait.KEEPS_TYPE in spec.traits, op
    if spec.group in _ELEMENTWISE:
        assert Trait.KEEPS_TYPE not in spec.traits and Trait.ARRAY_RESULT not in spec.traits
    else:
        assert Trait.CHANGES_TYPE not in spec.traits, op
    assert spec.result in ("", "operands", "called") or spec.result.endswith("[]") or (
        spec.result.startswith("operand ") and spec.result.split()[1].isdigit()), op
    assert spec.reducer in ("", "inits", "updates", "binary"), op
    assert spec.resizes in ("", "gathers", "scatters", "exchanges"), op
    if spec.resizes:  # a collective resizes along its `dimensions`
        assert spec.group is Group.COLLECTIVE and "dimensions" in spec.attrs, op
    if spec.reducer:  # the reducer is its to_apply, which it needs
        assert ("to_apply",) in spec.needs, op
    if spec.result.startswith("operand ") and spec.arity is not None:
        assert int(spec.result.split()[1]) < spec.arity, op
    # the attributes the spec's facts name are attributes it takes
    named = [key for key, _ in spec.choices] + [spec.distinct, spec.result_dimension]
    assert set(filter(None, named)) <= (spec.attrs or set()), op
    assert all(values for _, values in spec.choices), op
    if spec.result_dimension:  # a dimension of its one array result
        assert Trait.ARRAY_RESULT in spec.traits, op
    if spec.result == "called" and Trait.CALL_ARGUMENTS in spec.traits:
        # verify.types checks the arguments against calls[0]'s parameters
        assert spec.calls and (spec.calls[0],) in spec.needs, op
    if Trait.CARRIES_OPERANDS in spec.traits:  # the -start half of an asynchronous pair
        assert op.value.endswith("-start") and Trait.TUPLE_OPERANDS in spec.traits, op


def test_attributes_are_the_specs():
    for op, spec in OP_SPECS.items():
        want = None if spec.attrs is None else COMMON | spec.attrs
        assert ATTRIBUTES[op] == want, op


# Facts of the spec checked against XLA's behaviour on small modules (hlo_parser.cc,
# hlo_verifier.cc, shape_inference.cc), by hand.
_BODY = """HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4,3] parameter(0)
  %s
}
"""


def _module(text: str):
    return parse_hlo(_BODY % text)


def test_spec_needs_refuses_a_reduce_without_its_computation():
    module = _module("z = f32[] constant(0)\n  ROOT r = f32[3] reduce(x, z), dimensions={0}")
    with pytest.raises(HloVerifyError, match="reduce needs a called computation: to_apply="):
        verify_module(module)


def test_spec_attrs_refuse_an_attribute_of_another_opcode():
    with pytest.raises(HloParseError, match="iota_dimension"):
        _module("ROOT r = f32[3,4] transpose(x), dimensions={1,0}, iota_dimension=0")


def test_spec_keeps_type_refuses_a_reverse_that_converts():
    module = _module("ROOT r = s32[4,3] reverse(x), dimensions={0}")
    with pytest.raises(HloVerifyError, match="reverse of f32 gives f32, declared s32"):
        verify_module(module)


def test_spec_result_infers_shape_less_instructions():
    module = _module("r = reverse(x), dimensions={0}\n  p = partition-id()\n"
                     "  ROOT t = tuple(r, p)")
    root = module.entry.root
    assert str(root.operands[0].shape) == "f32[4,3]"  # reverse: operand 0's shape
    assert str(root.operands[1].shape) == "u32[]"  # partition-id: u32[]
    verify_module(module)


def test_spec_result_type_is_verified():
    module = _module("p = s32[] partition-id()\n  ROOT t = (f32[4,3], s32[]) tuple(x, p)")
    with pytest.raises(HloVerifyError, match=r"partition-id gives u32\[\], declared s32\[\]"):
        verify_module(module)


# field -> (an instruction that breaks it, what the verifier says): XLA refuses each.
_REFUSED_BY_FIELD = {
    "distinct": ("ROOT r = f32[4,3] reverse(x), dimensions={0,0}",
                 r"dimensions=\{0,0\} repeats a dimension"),
    "operand_type": ("ROOT t = token[] after-all(x)", "operand 0 'x' of after-all is f32"),
    "choices": ("z = f32[] constant(0)\n  ROOT r = f32[3] rng(z, z), distribution=rng_other",
                "rng distribution=rng_other is not rng_uniform or rng_normal"),
    "result_dimension": ("ROOT i = s32[3] iota(), iota_dimension=1",
                         "iota_dimension=1 is not a dimension of the rank-1 result"),
}


@pytest.mark.parametrize("field", list(_REFUSED_BY_FIELD))
def test_spec_field_refuses_what_xla_refuses(field):
    text, message = _REFUSED_BY_FIELD[field]
    with pytest.raises(HloVerifyError, match=message):
        verify_module(_module(text))


def test_spec_called_result_refuses_a_fusion_declared_unlike_its_root():
    text = _BODY.replace("ENTRY e {", "f {\n  p = f32[4,3] parameter(0)\n  ROOT n = f32[4,3] "
                         "negate(p)\n}\nENTRY e {") % (
        "ROOT r = s32[4,3] fusion(x), kind=kLoop, calls=f")
    with pytest.raises(HloVerifyError, match="'f' returns f32\\[4,3\\], declared s32"):
        verify_module(parse_hlo(text))


# CARRIES_OPERANDS (all-gather-start's element 1): tests/hlo/test_verify_collective_shapes.py


# --- registration: each key once ----------------------------------------------------------------

def test_once_table_refuses_a_second_entry():
    table = OnceTable("t")
    table[Opcode.DOT] = len
    with pytest.raises(ValueError, match="t: dot is registered twice"):
        table[Opcode.DOT] = abs
    with pytest.raises(ValueError, match="registered twice"):
        table.update({Opcode.DOT: abs})
    assert table[Opcode.DOT] is len


def _tables():
    tables = {"shape rules": RULES, "custom-call shape rules": CUSTOM_CALL_RULES,
              "CPU lowerings": LOWERINGS, "CPU custom calls": CUSTOM_CALLS,
              "CPU distributed lowerings": DISTRIBUTED}
    try:
        from dynhlo.backends.gpu import rules
    except ImportError:
        return tables
    return tables | {"GPU rules": rules.RULES, "GPU custom calls": rules.CUSTOM_CALLS}


@pytest.mark.parametrize("name", list(_tables()))
def test_every_rule_table_takes_a_key_once(name):
    assert isinstance(_tables()[name], OnceTable)


def test_a_second_registration_raises_and_keeps_the_first():
    first = RULES[Opcode.DOT]
    with pytest.raises(ValueError, match="shape rules: dot is registered twice"):
        rule(Opcode.DOT)(default_rule)
    assert RULES[Opcode.DOT] is first
    with pytest.raises(ValueError, match="custom-call shape rules: PadToStatic"):
        custom_call_rule("PadToStatic")(default_rule)
    with pytest.raises(ValueError, match="CPU lowerings: sort is registered twice"):
        lowering(Opcode.SORT)(len)


def _opcode_key(node: ast.expr) -> str | None:
    if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "Opcode"):
        return node.attr
    return None


def test_no_dict_literal_keyed_by_opcode_repeats_a_key():
    """Tables written as dict literals (verify.types._RULES, text.infer._RULES, support.NOTES,
    ...) keep the last of two equal keys silently: none may have two."""
    repeated = []
    paths = sorted((ROOT / "dynhlo").rglob("*.py"))
    assert len(paths) > 100, ROOT  # the package's files, not an empty glob
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                keys = [k for k in map(_opcode_key, filter(None, node.keys)) if k]
                repeated += [f"{path.relative_to(ROOT)}:{node.lineno} {k}"
                             for k in sorted(set(keys)) if keys.count(k) > 1]
    assert repeated == []


# --- completeness: every opcode in every table, or a reason ----------------------------------

@pytest.mark.parametrize("op", list(Opcode), ids=lambda op: op.value)
def test_shape_rules_cover_every_lowered_opcode(op):
    """A lowered opcode has a rule (elementwise ones share one); the declared shape
    (default_rule) is left to the opcodes no backend lowers."""
    if op in NOT_LOWERED:
        return
    assert rule_of(op) is not default_rule, f"{op.value} has no shape rule"


def test_cpu_lowers_every_opcode_or_says_why():
    assert not set(LOWERINGS) & set(NOT_LOWERED)
    assert set(LOWERINGS) | set(NOT_LOWERED) == set(Opcode)
    assert all(NOT_LOWERED.values())


def test_gpu_runs_every_cpu_opcode_or_says_why():
    """A rule (kernel, library or plan), a pass that removes the opcode before planning, or a
    reason to run it on the host tier."""
    rules = _gpu_rules()
    assert not set(rules.HOST) & set(rules.RULES)
    missing = set(LOWERINGS) - set(rules.RULES) - INLINED - set(rules.HOST)
    assert sorted(op.value for op in missing) == []


def test_custom_call_tables_agree():
    """Every target the CPU runs has a shape rule, and the other tables hold no target the
    CPU does not run (the reference for each)."""
    assert set(CUSTOM_CALLS) == set(CUSTOM_CALL_RULES)
    rules = _gpu_rules()
    assert set(rules.CUSTOM_CALLS) <= set(CUSTOM_CALLS)


# --- one family name per opcode ---------------------------------------------------------------

def _family(fn, package: str) -> str | None:
    while isinstance(fn, functools.partial):
        fn = fn.func
    module = getattr(fn, "__module__", "") or ""
    return module[len(package):] if module.startswith(package) else None


@pytest.mark.parametrize("op", sorted(RULES, key=lambda o: o.value), ids=lambda op: op.value)
def test_an_opcode_has_one_family(op):
    """shapes/rules_<f>.py, cpu/ops_<f>.py and gpu/library/<f>.py: one <f> per opcode (a rule
    shared from shapes/rules.py, as `sizeless`, is registered by the family's file)."""
    shape = _family(RULES[op], "dynhlo.shapes.rules_")
    cpu = _family(LOWERINGS.get(op), "dynhlo.backends.cpu.ops_")
    if shape is not None:
        assert shape == cpu, f"{op.value}: shapes/rules_{shape}.py, cpu/ops_{cpu}.py"
    rules = _gpu_rules()
    gpu = rules.RULES.get(op)
    library = _family(gpu.library, "dynhlo.backends.gpu.library.") if gpu else None
    if library is not None:
        assert library == cpu, f"{op.value}: gpu/library/{library}.py, cpu/ops_{cpu}.py"


# XLA's Qr and Householder custom calls (the xla_linalg family) reuse the lapack family's
# geqrf and orgqr rules (rules_xla_linalg.py registers them): the rule's file is not theirs.
_TARGETS_WITH_A_SHARED_RULE = frozenset({"Qr", "ProductOfElementaryHouseholderReflectors"})


def test_a_custom_call_target_has_one_family():
    """As test_an_opcode_has_one_family, for custom-call targets."""
    rules = _gpu_rules()
    split = set()
    for target, fn in CUSTOM_CALL_RULES.items():
        shape = _family(fn, "dynhlo.shapes.rules_")
        cpu = _family(CUSTOM_CALLS.get(target), "dynhlo.backends.cpu.ops_")
        library = _family(rules.CUSTOM_CALLS.get(target), "dynhlo.backends.gpu.library.")
        if (shape is not None and shape != cpu) or (library is not None and library != cpu):
            split.add(target)
    assert sorted(split - _TARGETS_WITH_A_SHARED_RULE) == []
