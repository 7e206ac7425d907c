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

TABLES = {
    "test_ops_data": ["CASES"],
    "test_ops_control": ["CASES"],
    "test_ops_indexing": ["SLICE_CASES", "GATHER_CASES", "SCATTER_CASES"],
    "test_ops_linalg": ["CONVOLUTION", "CHOLESKY", "TRIANGULAR_SOLVE", "FFT"],
    "test_ops_sort": ["SORT", "TOPK"],
    "test_ops_window": ["REDUCE_WINDOW", "SELECT_AND_SCATTER"],
}


def _params():
    params = []
    for module_name, lists in TABLES.items():
        try:
            module = importlib.import_module(module_name)
        except Exception:  # noqa: BLE001 - a table being rewritten elsewhere is skipped
            continue
        for list_name in lists:
            for case in getattr(module, list_name, []):
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
