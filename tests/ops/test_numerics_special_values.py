"""Every elementwise and reduction opcode over special values on the CPU backend, against XLA.

The table is tests/support/numerics_table.py: ±0, ±inf, NaN, subnormals, halves, odd integers past
2^p, integer extremes, at f16, bf16, f32, f64 and the integer types; a case is one opcode
(compare direction, convert pair, reducer) at one type with all its values in one array.
Expected values are XLA's CPU answers stored by tools/gen_numerics_expected.py (its
docstring says which few elements are computed by hand instead, and why), compared bit for
bit (NaN equal to NaN, -0 not +0) except the approximate opcodes (within a few ulp; NaN,
infinities and zeros still exact). tests/backends/gpu/kernels/test_numerics_special_values.py runs
the same cases on the GPU backend.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.numerics_table import (CASES, groups, inputs_digest, load_expected, mismatches,
                            run_xla)

EXPECTED = load_expected()


def expected(name: str, arrays: list[np.ndarray]) -> np.ndarray:
    want, _, digest = EXPECTED[name]
    assert digest == inputs_digest(arrays), \
        f"{name}: the table's inputs changed; run tools/gen_numerics_expected.py"
    return want


def test_stored_values_cover_every_case():
    assert list(EXPECTED) == list(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_cpu_backend_matches_xla_on_special_values(name):
    case = CASES[name]
    arrays = case.inputs()
    got = dynhlo.compile(case.hlo(), backend="cpu")(*arrays)
    bad = mismatches(case, arrays, got, expected(name, arrays))
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", list(CASES))
def test_compiled_cpu_path_matches_xla_on_special_values(name):
    """The same cases through the compiled CPU path (reference=False: LLVM kernels for what
    they compute, the reference for the rest), at a bounded dynamic size too."""
    case = CASES[name]
    arrays = case.inputs()
    want = expected(name, arrays)
    text = case.hlo()
    n = arrays[0].shape[0]
    for module in (text, text.replace(f"[{n}", f"[<={n}")):
        got = dynhlo.compile(module, backend="cpu", reference=False)(*arrays)
        bad = mismatches(case, arrays, got, want)
        assert not bad, "\n".join(bad)


@pytest.mark.parametrize("group", list(groups()))
def test_stored_values_are_xlas_answers(group):
    """Where jax is installed: XLA today gives the stored values (every element not marked
    as computed by hand), so the stored file cannot drift from XLA unnoticed."""
    pytest.importorskip("jax")
    cases = groups()[group]
    answers = run_xla(cases)
    for case in cases:
        arrays = case.inputs()
        want, by_hand, _ = EXPECTED[case.name]
        bad = mismatches(case, arrays, answers[case.name], want, only=~by_hand)
        assert not bad, "\n".join(bad)
