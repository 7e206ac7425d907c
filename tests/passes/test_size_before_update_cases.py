"""Pass size-before-update, HLO in, HLO out (tests/passes/size_before_update/NAME.hlo ->
NAME.expected.hlo).

Each expected text is written by hand from the pass's rule (dynhlo/passes/size_before_update.py):
`set-dimension-size(dynamic-update-slice(b, u, ...), n)` becomes
`dynamic-update-slice(set-dimension-size(b, n), u, ...)`, named `<g>.size` and `<g>.update`
in the set-dimension-size's place. push: a row pushed at the size, the update read by nothing
else goes; shared: the update has another reader and stays; stack_loop: XLA's
dynamic_padder_test WhileLoopStack, a push per iteration inside a while body; untouched: an
update spanning the whole bound and one of a dynamic size do not qualify.
Values: both modules on the CPU backend against NumPy by hand (what XLA's buffers at the
bound give: the pushed row shows once the size grows over it).
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.passes.size_before_update import size_before_update
from tests.support.passcases import (PASSES_DIR, case_names, check_output, check_untouched,
                                     load, rows, same)

CASES_DIR = PASSES_DIR / "size_before_update"
CASES = case_names(CASES_DIR)


def test_every_case_has_its_expected_output():
    assert CASES == ["push", "shared", "stack_loop", "untouched"]
    for name in CASES:
        assert (CASES_DIR / f"{name}.expected.hlo").is_file(), name


@pytest.mark.parametrize("name", CASES)
def test_output_is_the_expected_text_and_the_input_is_kept(name):
    module = load(CASES_DIR, name)
    check_output(check_untouched(module, size_before_update), CASES_DIR, name)


def test_a_module_with_nothing_to_move_is_returned_as_it_is():
    module = load(CASES_DIR, "untouched")
    assert size_before_update(module) is module


BOUND = 6   # of every f32[<=6,2] in push, shared and untouched


def _written(value, u, i):
    """XLA's dynamic-update-slice of a dynamic operand: the start is clamped against the
    buffer at the bound (BOUND - len(u)), not the actual size; rows written past the actual
    size are not seen."""
    buffer = np.zeros((BOUND, value.shape[1]), np.float32)
    buffer[:len(value)] = value
    start = min(max(i, 0), BOUND - len(u))
    buffer[start:start + len(u)] = u
    return buffer[:len(value)]


def _pushed(b, u, i):
    """u written into b's buffer, then the size grown by one row over it (the row past b's
    size that u does not cover is zero)."""
    return _written(np.vstack([b, np.zeros((1, b.shape[1]), np.float32)]), u, i)


def _updated(b, u, i):
    return _written(b, u, i)


U = np.full((1, 2), 9, np.float32)
RUNS = {
    "push": [([b, U, np.int32(i)], _pushed(b, U, i))
             for n in (0, 1, 5) for i in (-1, 0, n, 7) for b in [rows((n, 2))]],
    "shared": [([b, U, np.int32(i)], (_pushed(b, U, i), _updated(b, U, i)))
               for n in (1, 3, 5) for i in (0, n - 1, n) for b in [rows((n, 2))]],
    "stack_loop": [([np.int32(p)], np.arange(p, dtype=np.float32)) for p in (0, 1, 3, 4)],
    "untouched": [([b, w, part, np.int32(i)], (w[:n], _updated(b, part, i)))
                  for n, m in ((2, 1), (4, 3), (6, 3)) for i in (0, 1, 5)
                  for b, w, part in [(rows((n, 2)), rows((6, 2), 1), rows((m, 2), 2))]],
}


@pytest.mark.parametrize("name", CASES)
def test_both_modules_compute_the_values_by_hand_on_cpu(name):
    module = load(CASES_DIR, name)
    before, after = dynhlo.compile(module), dynhlo.compile(size_before_update(module))
    assert RUNS[name]
    for args, want in RUNS[name]:
        same(before(*args), want)
        same(after(*args), want)
