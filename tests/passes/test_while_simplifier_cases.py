"""Pass while-loop-simplifier, HLO in, HLO out (tests/passes/while_simplifier/NAME.hlo ->
NAME.expected.hlo).

Each expected text is the input with the loops XLA's WhileLoopSimplifier removes
(dynhlo/passes/while_simplifier.py) written out, read by hand against the pass's docstring:
a loop of one trip counting up and one counting down by an add of -1 with the constant on
the left (once), a loop whose counter starts past its limit (never), a removable loop inside
the body of another, itself removable at one caller and kept at the other (nested), and a
body whose parameter is declared dynamic where the init is static (shapes_differ: the
body's get-tuple-element stays, reading the init tuple), and values used on lines before
the ones defining them, as HLO text allows (forward: a loop of one trip and one of none,
read before they are written). `kept` holds only loops the pass
must keep: two trips, a body drawing random numbers, a counter starting at a parameter, a
counter stepped by other than a constant add; it is returned as it is.
Values: both modules on the CPU backend against NumPy by hand, sizes 0 and 1 among them.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.hlo import modules_equal
from dynhlo.hlo.opcodes import Opcode
from dynhlo.passes.pipelines import CPU_PIPELINE, GPU_PIPELINE, run_pipeline
from dynhlo.passes.while_simplifier import simplify_while_loops
from tests.support.passcases import (PASSES_DIR, case_names, check_output, check_untouched,
                                     load, rows, same)

CASES_DIR = PASSES_DIR / "while_simplifier"
CASES = case_names(CASES_DIR)
REWRITTEN = [n for n in CASES if n != "kept"]
IN_ORDER = [n for n in REWRITTEN if n != "forward"]   # (forward's text reads ahead)


def test_every_case_has_its_expected_output():
    assert CASES == ["forward", "kept", "nested", "never", "once", "shapes_differ"]
    for name in REWRITTEN:
        assert (CASES_DIR / f"{name}.expected.hlo").is_file(), name


@pytest.mark.parametrize("name", IN_ORDER)
def test_output_is_the_expected_text_and_the_input_is_kept(name):
    module = load(CASES_DIR, name)
    check_output(check_untouched(module, simplify_while_loops), CASES_DIR, name)


def test_values_read_before_their_lines_are_redirected_to_what_replaced_them():
    module = load(CASES_DIR, "forward")
    got = check_untouched(module, simplify_while_loops)
    assert got.to_text() == load(CASES_DIR, "forward", expected=True).to_text()
    assert modules_equal(dynhlo.parse_hlo(got.to_text()), got)   # no removed name read
    for pipeline in (CPU_PIPELINE, GPU_PIPELINE):   # (the passes after it reprint it)
        run_pipeline(module, pipeline, verify=True)


def test_loops_it_cannot_prove_or_with_side_effects_stay():
    module = load(CASES_DIR, "kept")
    assert simplify_while_loops(module) is module


def test_a_body_written_in_its_caller_leaves_no_loop_behind():
    out = simplify_while_loops(load(CASES_DIR, "nested"))
    whiles = [i.name for c in out.computations for i in c.instructions
              if i.opcode is Opcode.WHILE]
    assert whiles == ["thrice_outer"]   # the one of three trips, its inner loop written out


def _placed(x):
    out = np.zeros(6, np.float32)
    out[:x.shape[0]] = np.exp(x)
    return out


def _half_square(v, times):
    for _ in range(times):
        v = v * v * np.float32(0.5)
    return v


# case -> [(arguments, expected outputs by hand)]
RUNS = {
    "once": [([x], (_placed(x), -x)) for n in (0, 1, 4) for x in [rows((n,))]],
    "never": [([x], (np.int32(5), x)) for n in (0, 1, 5) for x in [rows((n,))]],
    "nested": [([x], (_half_square(x, 1), _half_square(x, 3))) for n in (0, 1, 4)
               for x in [rows((n,))]],
    "shapes_differ": [([x], -x) for x in [rows((6,))]],
    "forward": [([x], (2 * x, x)) for x in [rows((2,))]],
}


@pytest.mark.parametrize("name", REWRITTEN)
def test_both_modules_compute_the_values_by_hand_on_cpu(name):
    module = load(CASES_DIR, name)
    before, after = dynhlo.compile(module), dynhlo.compile(simplify_while_loops(module))
    assert RUNS[name]
    for args, want in RUNS[name]:
        same(before(*args), want)
        same(after(*args), want)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_the_kept_loops_compute_the_values_by_hand(n):
    x, start = rows((n,)), np.int32(-2)
    two_trips, drawn, from_n, stepped = dynhlo.compile(load(CASES_DIR, "kept"))(x, start)
    same(two_trips, 4 * x)
    same(from_n, x * 2 ** 3)   # from -2 to 1: three trips of v + v
    same(stepped, -x)          # -1, then 1 * 1: one negation
    shift = np.asarray(drawn) - x   # one uniform draw in [0, 1) added to every element
    assert np.all((shift >= 0) & (shift < 1))
    assert n == 0 or np.ptp(shift) < 1e-6
