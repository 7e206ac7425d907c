"""The CPU backend's op tables (tests/test_ops_*.py) run through backend="gpu".

Each OpCase carries its own expected value computed by NumPy by hand; here the same cases
run on the GPU backend (Triton's interpreter without a GPU): fused ops through generated
kernels, the rest through torch or the host fallback. At the bound, 0 and one size between.
"""

from __future__ import annotations

import importlib
import importlib.util

import numpy as np
import pytest

torch = pytest.importorskip("torch")
if importlib.util.find_spec("triton") is None:
    pytest.skip("the gpu backend needs triton", allow_module_level=True)

import dynhlo  # noqa: E402
from dynhlo.backends import gpu  # noqa: E402,F401  (picks interpreter mode first)

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


_EXES: dict = {}


def _compare(got, want, where):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), where
        for g, w in zip(got, want):
            _compare(g, w, where)
        return
    want, got = np.asarray(want), np.asarray(got)
    assert got.shape == want.shape, f"{where}: shape {got.shape} != {want.shape}"
    assert got.dtype == want.dtype, f"{where}: dtype {got.dtype} != {want.dtype}"
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6, err_msg=where)
    else:
        np.testing.assert_array_equal(got, want, err_msg=where)


@pytest.mark.parametrize("case,n", _params())
def test_op_table_case_on_gpu_backend(case, n):
    exe = _EXES.get(case.text)
    if exe is None:
        exe = _EXES[case.text] = dynhlo.compile(case.text, backend="gpu")
    rng = np.random.default_rng(n)
    args = case.args(n, rng)
    _compare(exe(*[np.asarray(a) for a in args]), case.expect(*args), case.name)
