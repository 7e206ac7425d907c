"""Pass inline-calls: HLO in, HLO out (tests/passes/inline_calls/NAME.hlo -> NAME.expected.hlo).

Each input is in XLA's dump style (`%` names, signatures, typed operands, fusion kinds); the
expected output is the pass's result in dynhlo's short form, checked by hand once and then
compared as text and structurally. Values: the input and the inlined module run on the CPU
backend at several sizes (0 and 1 among them) and both equal NumPy computed by hand.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import dynhlo
from dynhlo.errors import HloVerifyError
from dynhlo.hlo import modules_equal
from dynhlo.hlo.opcodes import Opcode
from dynhlo.passes.inline_calls import inline_calls
from dynhlo.shapes.dynamic import infer_module, is_dynamic_tree
from tests.support.passcases import check_defined_before_use

CASES_DIR = Path(__file__).resolve().parent / "inline_calls"
CASES = sorted(p.name[:-len(".hlo")] for p in CASES_DIR.glob("*.hlo")
               if not p.name.endswith(".expected.hlo"))


def _load(name: str, suffix: str = ".hlo"):
    return dynhlo.parse_hlo((CASES_DIR / (name + suffix)).read_text())


def test_every_case_has_its_expected_output():
    assert CASES == ["async", "conditional", "dynamic_fusion", "nested", "while_fusion"]
    for name in CASES:
        assert (CASES_DIR / f"{name}.expected.hlo").is_file(), name


@pytest.mark.parametrize("name", CASES)
def test_output_is_the_expected_text(name):
    got = inline_calls(_load(name))
    want = _load(name, ".expected.hlo")
    check_defined_before_use(got)
    assert got.to_text() == want.to_text()
    assert modules_equal(got, want)
    assert modules_equal(dynhlo.parse_hlo(got.to_text()), got)  # parse(print(m)) == m


def _snapshot(module):
    """Everything the pass could touch, by identity and value."""
    return [(c, c.root, list(c.instructions),
             [(i.name, i.shape, list(i.operands), dict(i.attrs),
               {k: list(v) for k, v in i.called.items()}) for i in c.instructions])
            for c in module.computations]


@pytest.mark.parametrize("name", CASES)
def test_input_module_is_not_mutated(name):
    module = _load(name)
    text, before = module.to_text(), _snapshot(module)
    result = inline_calls(module)
    assert result is not module
    assert module.to_text() == text
    assert _snapshot(module) == before
    originals = {id(i) for i in module.instructions()}
    assert not any(id(i) in originals for i in result.instructions())


@pytest.mark.parametrize("name", CASES)
def test_no_call_or_fusion_is_left(name):
    result = inline_calls(_load(name))
    left = [i.name for i in result.instructions()
            if i.opcode in (Opcode.CALL, Opcode.FUSION, Opcode.ASYNC_UPDATE)]
    assert left == []


def test_an_async_start_read_directly_is_kept():
    # async.hlo: `peek` reads start.1's tuple, so start.1 and done.1 stay (as XLA wrote them).
    result = inline_calls(_load("async"))
    kept = {i.name: i for i in result.entry.instructions}
    assert kept["start.1"].opcode is Opcode.ASYNC_START
    assert [c.name for c in kept["start.1"].called["calls"]] == ["wrapped_exp"]
    assert kept["done"].opcode is Opcode.NEGATE  # the first pair is gone


def test_reducers_are_kept_as_computations():
    result = inline_calls(_load("dynamic_fusion"))
    (reduce,) = [i for i in result.entry.instructions if i.opcode is Opcode.REDUCE]
    (reducer,) = reduce.called["to_apply"]
    assert reducer.name == "max_f32" and reducer.root.opcode is Opcode.MAXIMUM
    assert [c.name for c in result.computations] == ["max_f32", "main"]


def test_sizes_are_inferred_from_the_parameters_after_inlining():
    result = inline_calls(_load("dynamic_fusion"))
    info = infer_module(result)
    (dim,) = info.dims[result.entry.root]
    x_dim = info.dims[result.entry.parameters[0]][0]
    assert is_dynamic_tree((dim,)) and dim.root() is x_dim.root()


def _rows(n, cols=None, seed=0):
    shape = (n,) if cols is None else (n, cols)
    return np.random.default_rng(seed + n).uniform(-2, 2, shape).astype(np.float32)


def _nested(p):
    square = (2 * p) ** 2  # fusion: (add - p) doubled, squared
    call = (2 * square) ** 2  # call: inner again
    return call, np.float32(call.sum(dtype=np.float32))


# case -> [(arguments, expected outputs by hand)]
RUNS = {
    "nested": [([p], _nested(p)) for p in [_rows(4, seed=1)]],
    "dynamic_fusion": [([x, w], np.max(np.exp(x * w), axis=1, initial=-np.inf))
                       for n in (0, 1, 5, 8) for x, w in [(_rows(n, 4), _rows(4, seed=9))]],
    "while_fusion": [([x], x * np.float32(1.5) ** 3) for n in (0, 1, 8) for x in [_rows(n)]],
    "async": [([x], (np.exp(-x), np.exp(-x))) for n in (0, 1, 6) for x in [_rows(n)]],
    "conditional": [([np.int32(k), x], x * (3 if k == 0 else 2))
                    for k in (0, 1, 7) for n in (0, 1, 5) for x in [_rows(n)]],
}


def _same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            _same(g, w)
        return
    got = np.asarray(got)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", CASES)
def test_inlined_module_computes_the_same_values_on_cpu(name):
    module = _load(name)
    before, after = dynhlo.compile(module), dynhlo.compile(inline_calls(module))
    assert RUNS[name]
    for args, want in RUNS[name]:
        _same(before(*args), want)
        _same(after(*args), want)


def test_a_call_with_the_wrong_number_of_operands_names_the_call():
    module = dynhlo.parse_hlo("""HloModule bad
two {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY main {
  x = f32[] parameter(0)
  ROOT f = f32[] fusion(x), kind=kLoop, calls=two
}
""")
    with pytest.raises(HloVerifyError, match=r"instruction 'f': calls 'two' \(2 parameters\)"):
        inline_calls(module)


def test_one_computation_called_twice_gets_distinct_names():
    module = dynhlo.parse_hlo("""HloModule twice
sq {
  a = f32[<=3] parameter(0)
  t = f32[<=3] multiply(a, a)
  ROOT u = f32[<=3] negate(t)
}
ENTRY main {
  x = f32[<=3] parameter(0)
  c1 = f32[<=3] call(x), to_apply=sq
  t = f32[<=3] add(c1, c1)
  ROOT c2 = f32[<=3] call(t), to_apply=sq
}
""")
    result = inline_calls(module)
    assert [i.name for i in result.entry.instructions] == ["x", "t.1", "c1", "t", "t.2", "c2"]
    x = _rows(3)
    _same(dynhlo.compile(result)(x), -(2 * -(x * x)) ** 2)
