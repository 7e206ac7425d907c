"""Pass bound-unbounded, HLO in, HLO out (tests/passes/bound_unbounded/NAME.hlo ->
NAME.expected.hlo), every case with bucket 16 and the bounds ARGS gives.

Each expected text is written by hand from the pass's rule (dynhlo/passes/bound_unbounded.py):
an entry parameter's `?` takes its bound from `bounds`, else the bucket; an intermediate's `?`
takes the bound inference derives (a concatenate of two <=16 is <=32; a transpose swaps the
bounds); a `?` in a called computation takes its call site's; the entry layout header is
rewritten when it names `?` (elementwise). Values: the bounded module on the CPU backend
against NumPy by hand, at sizes up to the bounds, 0 and 1 among them.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.passes.bound_unbounded import bound_unbounded
from tests.support.passcases import (PASSES_DIR, case_names, check_output, check_untouched,
                                     load, rows, same)

CASES_DIR = PASSES_DIR / "bound_unbounded"
CASES = case_names(CASES_DIR)
BUCKET = 16
ARGS = {"bounds_given": {"bounds": {0: {1: 5}}}}   # parameter 0, dimension 1: <=5


def _bound(module, name: str):
    return bound_unbounded(module, BUCKET, **ARGS.get(name, {}))


def test_every_case_has_its_expected_output():
    assert CASES == ["bounds_given", "called", "concatenate", "elementwise"]
    for name in CASES:
        assert (CASES_DIR / f"{name}.expected.hlo").is_file(), name


@pytest.mark.parametrize("name", CASES)
def test_output_is_the_expected_text_and_the_input_is_kept(name):
    module = load(CASES_DIR, name)
    result = check_untouched(module, lambda m: _bound(m, name))
    assert result is not module
    check_output(result, CASES_DIR, name)


@pytest.mark.parametrize("name", CASES)
def test_a_bounded_module_is_bounded_again_unchanged(name):
    once = load(CASES_DIR, name, expected=True)
    assert _bound(once, name).to_text() == once.to_text()


def test_without_a_bucket_the_parameter_and_dimension_are_named():
    with pytest.raises(dynhlo.UnsupportedError, match="parameter 0 'x' dimension 1 is unbounded"):
        bound_unbounded(load(CASES_DIR, "bounds_given"), None, {0: {0: 4}})


def _concatenate(x, y):
    c = np.concatenate([x, y])
    return c, np.int32(len(c))


RUNS = {
    "elementwise": [([x], np.exp(x)) for n in (0, 1, 16) for x in [rows((n, 4))]],
    "concatenate": [([x, y], _concatenate(x, y)) for n, m in ((0, 0), (1, 16), (16, 16))
                    for x, y in [(rows((n,)), rows((m,), 1))]],
    "bounds_given": [([x], -x.T) for shape in ((0, 5), (1, 1), (16, 5), (7, 3))
                     for x in [rows(shape)]],
    "called": [([x, rows((3,), 1)], np.sin(2 * x)) for n in (0, 1, 16) for x in [rows((n,))]],
}


@pytest.mark.parametrize("name", CASES)
def test_the_bounded_module_computes_the_values_by_hand_on_cpu(name):
    exe = dynhlo.compile(_bound(load(CASES_DIR, name), name))
    assert RUNS[name]
    for args, want in RUNS[name]:
        same(exe(*args), want)
