"""Text-in/text-out cases of a pass (tests/passes/<pass>/NAME.hlo -> NAME.expected.hlo).

A case is an input module and the text the pass must print for it, written by hand and read
against the pass's docstring. The drivers (tests/passes/test_<pass>_cases.py) compare the
printed result with the expected text and structurally, check that the input is left as it
was, and run both modules on the CPU backend against NumPy computed by hand.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import dynhlo
from dynhlo.hlo import modules_equal

PASSES_DIR = Path(__file__).resolve().parents[1] / "passes"


def case_names(directory: Path) -> list[str]:
    """The case names of a directory: each NAME.hlo with its NAME.expected.hlo."""
    return sorted(p.name[:-len(".hlo")] for p in directory.glob("*.hlo")
                  if not p.name.endswith(".expected.hlo"))


def load(directory: Path, name: str, expected: bool = False):
    """The case's input module, or its expected output with `expected`."""
    suffix = ".expected.hlo" if expected else ".hlo"
    return dynhlo.parse_hlo((directory / (name + suffix)).read_text(encoding="utf-8"))


def check_output(got, directory: Path, name: str) -> None:
    """`got` prints as the expected text, equals it as a module, round-trips, and defines
    every value before its uses (XLA's parser reads nothing else)."""
    check_defined_before_use(got)
    want = load(directory, name, expected=True)
    assert got.to_text() == want.to_text()
    assert modules_equal(got, want)
    assert modules_equal(dynhlo.parse_hlo(got.to_text()), got)


def check_defined_before_use(module) -> None:
    """Each instruction's operands come before it in its computation's list, and the root
    is one of the list."""
    for comp in module.computations:
        seen: set = set()
        for inst in comp.instructions:
            late = [o.name for o in inst.operands if id(o) not in seen]
            assert not late, f"{comp.name}: '{inst.name}' reads {late} before their definition"
            seen.add(id(inst))
        assert id(comp.root) in seen, comp.name


def check_untouched(module, run) -> object:
    """Run the pass (`run(module)`) and check the input prints as before; the result."""
    text = module.to_text()
    result = run(module)
    assert module.to_text() == text
    return result


def same(got, want) -> None:
    """Outputs (arrays, tuples of them) equal to NumPy's by hand."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            same(g, w)
        return
    got = np.asarray(got)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def rows(shape, seed: int = 0) -> np.ndarray:
    """f32 values in [-2, 2) of `shape`, a different draw per shape and seed."""
    rng = np.random.default_rng([seed, *shape])
    return rng.uniform(-2, 2, shape).astype(np.float32)
