"""Pass dead-code, HLO in, HLO out (tests/passes/dead_code/NAME.hlo -> NAME.expected.hlo).

Each expected text is the input without what XLA's HloDCE drops (dynhlo/passes/dead_code.py),
written by hand: shape checks nothing reads (shape_checks), pure work beside side effects
that stay (effects: rng, a custom-call marked with a side effect, the parameters), dead work
inside called computations and a whole unread while loop, while one whose body draws random
numbers stays (called), and a module with nothing dead, returned as it is (nothing_dead).
Values: both modules on the CPU backend against NumPy by hand, sizes 0 and 1 among them.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.passes.dead_code import dead_code
from tests.support.passcases import (PASSES_DIR, case_names, check_output, check_untouched,
                                     load, rows, same)

CASES_DIR = PASSES_DIR / "dead_code"
CASES = case_names(CASES_DIR)


def test_every_case_has_its_expected_output():
    assert CASES == ["called", "effects", "nothing_dead", "shape_checks"]
    for name in CASES:
        assert (CASES_DIR / f"{name}.expected.hlo").is_file(), name


@pytest.mark.parametrize("name", CASES)
def test_output_is_the_expected_text_and_the_input_is_kept(name):
    module = load(CASES_DIR, name)
    check_output(check_untouched(module, dead_code), CASES_DIR, name)


def test_a_module_with_nothing_dead_is_returned_as_it_is():
    module = load(CASES_DIR, "nothing_dead")
    assert dead_code(module) is module


def test_dropped_computations_stay_declared():
    # the pass drops instructions, never computations: `quiet`'s body is `loop`'s too
    result = dead_code(load(CASES_DIR, "called"))
    assert [c.name for c in result.computations] == ["body", "cond", "noisy_body", "main"]


# case -> [(arguments, expected outputs by hand)]
RUNS = {
    "shape_checks": [([x], -np.exp(x)) for n in (0, 1, 8) for x in [rows((n, 4))]],
    "effects": [([x, rows((3,), 1)], np.abs(x)) for n in (0, 1, 5) for x in [rows((n,))]],
    # three iterations of v + v
    "called": [([x], 8 * x) for n in (0, 1, 4) for x in [rows((n,))]],
    "nothing_dead": [([x], x.sum(axis=1)) for n in (0, 1, 6) for x in [rows((n, 3))]],
}


@pytest.mark.parametrize("name", CASES)
def test_both_modules_compute_the_values_by_hand_on_cpu(name):
    module = load(CASES_DIR, name)
    before, after = dynhlo.compile(module), dynhlo.compile(dead_code(module))
    assert RUNS[name]
    for args, want in RUNS[name]:
        same(before(*args), want)
        same(after(*args), want)
