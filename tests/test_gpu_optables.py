"""The CPU backend's op tables (tests/test_ops_*.py) run through backend="gpu".

Each OpCase carries its own expected value computed by NumPy by hand; here the same cases
run on the GPU backend (Triton's interpreter without a GPU): fused ops through generated
kernels, the rest through torch or the host fallback. At the bound, 0 and one size between.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import gpucheck  # noqa: F401  (skips without torch or triton; picks interpreter mode)
from opcheck import compare, compiled

from pathlib import Path

from opcheck import OpCase

# Every op-case table (a list of OpCase) of every family's test module is run here; a
# module that fails to import fails this module instead of being skipped.
FAMILIES = sorted(p.stem for p in Path(__file__).parent.glob("test_ops_*.py"))


def _tables() -> dict[str, dict[str, list]]:
    tables = {}
    for module_name in FAMILIES:
        module = importlib.import_module(module_name)
        found = {name: value for name, value in vars(module).items()
                 if isinstance(value, list) and value and
                 all(isinstance(c, OpCase) for c in value)}
        if found:
            tables[module_name] = found
    return tables


TABLES = _tables()


def test_the_families_with_op_case_tables_all_run_here():
    assert set(TABLES) >= {"test_ops_data", "test_ops_control", "test_ops_indexing",
                           "test_ops_linalg", "test_ops_sort", "test_ops_window"}


def _params():
    params = []
    for module_name, lists in TABLES.items():
        for list_name, cases in lists.items():
            for case in cases:
                sizes = sorted(set(case.sizes))
                picked = {sizes[0], sizes[-1], sizes[len(sizes) // 2]}
                for n in sorted(picked):
                    params.append(pytest.param(case, n, id=f"{module_name[9:]}-{case.name}-n{n}"))
    return params


@pytest.mark.parametrize("case,n", _params())
def test_op_table_case_on_gpu_backend(case, n):
    exe = compiled(case.text, "gpu")
    rng = np.random.default_rng(n)
    args = case.args(n, rng)
    compare(exe(*[np.asarray(a) for a in args]), case.expect(*args), case.name, tol=2e-6)
