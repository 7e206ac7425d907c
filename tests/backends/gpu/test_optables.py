"""The CPU backend's op tables (tests/ops/test_*.py) run through backend="gpu".

Each OpCase carries its own expected value computed by NumPy by hand; here the same cases
run on the GPU backend (Triton's interpreter without a GPU): fused ops through generated
kernels, the rest through torch or the host fallback. At the bound, 0 and one size between.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from tests.support import gpucheck  # noqa: F401  (skips without torch/triton; interpreter mode)
from tests.support.opcheck import OpCase, compare, compiled

OPS = Path(__file__).resolve().parents[2] / "ops"


def tables():
    """(family module, list name, cases) for every list of OpCases in tests/ops/test_*.py: a
    new family's table runs here without being named, and a module that does not import
    fails collection instead of being skipped."""
    found = []
    for path in sorted(OPS.glob("test_*.py")):
        module = importlib.import_module(f"tests.ops.{path.stem}")
        family = path.stem.removeprefix("test_")
        for name, value in vars(module).items():
            if isinstance(value, list) and value and all(isinstance(c, OpCase) for c in value):
                found.append((family, name, value))
    return found


def _params():
    params = []
    for module_name, _, cases in tables():
        for case in cases:
            sizes = sorted(set(case.sizes))
            picked = {sizes[0], sizes[-1], sizes[len(sizes) // 2]}
            for n in sorted(picked):
                params.append(pytest.param(case, n, id=f"{module_name}-{case.name}-n{n}"))
    return params


@pytest.mark.parametrize("case,n", _params())
def test_op_table_case_on_gpu_backend(case, n):
    exe = compiled(case.text, "gpu")
    rng = np.random.default_rng(n)
    args = case.args(n, rng)
    compare(exe(*[np.asarray(a) for a in args]), case.expect(*args), case.name, tol=2e-6)
