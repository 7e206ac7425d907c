"""A small helper for op tests: compile an HLO module from text once, run it on arrays.

    from tests.support.opcheck import run_hlo
    out = run_hlo(TEXT, np.arange(3, dtype=np.float32))

`run_hlo(text, *args)` compiles `text` for the CPU backend (cached per text, so a table of
sizes compiles once) and returns the result as NumPy (a tuple for tuple roots).
`compiled(text)` gives the cached Executable itself. `DynHloError`s propagate unchanged, so
tests can assert on them with `pytest.raises`. For op tables: `OpCase` (module, arguments at
size n, expected value by hand), `crossed(cases)` (pytest params: cases x sizes) and
`check_case(case, n)`; `compare(got, want, where, tol)` is its comparison. For tables parametrized by hand: `SIZES` (a static shape and dynamic
sizes 0, 1, some and the bound) and `dim(bound, n)`, the dimension text for one of them.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Callable

import numpy as np

import dynhlo


@functools.lru_cache(maxsize=256)
def compiled(text: str, backend: str = "cpu") -> dynhlo.Executable:
    """The Executable for HLO `text` (compiled on first use, then cached); the gpu backend
    runs in Triton's interpreter where there is no GPU (asked for explicitly: gpucheck)."""
    if backend == "gpu":
        from tests.support.gpucheck import GPU
        return dynhlo.compile(text, **GPU)
    return dynhlo.compile(text, backend=backend)


BOUND = 8
# (label, bound or None for a static shape, actual size)
SIZES = [("static", None, 5), ("dyn0", BOUND, 0), ("dyn1", BOUND, 1), ("dyn5", BOUND, 5),
         ("dyn-full", BOUND, BOUND)]


def dim(bound, n) -> str:
    """The dimension text for a SIZES row: `5` for a static shape, `<=8` for a dynamic one."""
    return str(n) if bound is None else f"<={bound}"


def run_hlo(text: str, *args):
    """Run the HLO module `text` on the CPU backend with NumPy `args` at their actual shapes."""
    return compiled(text)(*[np.asarray(a) for a in args])


@dataclasses.dataclass(frozen=True)
class OpCase:
    """One row of an op table: a module, how to make its arguments at size n, the answer.

    `args(n, rng)` gives the arguments at dynamic size n; `expect(*args)` computes the expected
    result independently (NumPy by hand); `sizes` are the dynamic sizes to run at (include
    the bound, 0 and 1 where the op allows them). With `static`, the case also runs with every
    `<=N` of the text made static `N`, at `sizes[0]` (which must then be the bound).
    """

    name: str
    text: str
    args: Callable
    expect: Callable
    sizes: tuple = (0, 1, 3)
    static: bool = True


STATIC = "static"


def crossed(cases):
    """pytest params: every case crossed with each of its sizes (ids like `reverse-n3`), plus
    its static form (id `reverse-static`) where the case allows it."""
    import pytest
    params = []
    for case in cases:
        params += [pytest.param(case, n, id=f"{case.name}-n{n}") for n in case.sizes]
        if case.static:
            params.append(pytest.param(case, STATIC, id=f"{case.name}-static"))
    return params


def check_case(case: OpCase, n, seed: int = 0) -> None:
    """Run `case` at size n (or STATIC: the text without `<=`, at the bound `sizes[0]`) and
    compare with its expected value (exact, or close for floats)."""
    text = case.text
    if n == STATIC:
        text, n = text.replace("<=", ""), case.sizes[0]
    rng = np.random.default_rng(seed + n)
    args = case.args(n, rng)
    got = run_hlo(text, *args)
    want = case.expect(*args)
    compare(got, want, case.name)


def compare(got, want, where: str, tol: float = 1e-6) -> None:
    """`got` equals `want` (nested tuples of arrays): shape and dtype exactly, values exactly
    for integers and bools, within `tol` (relative and absolute) for floats and complex."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), where
        for g, w in zip(got, want, strict=True):
            compare(g, w, where, tol)
        return
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.shape == want.shape, f"{where}: shape {got.shape} != {want.shape}"
    assert got.dtype == want.dtype, f"{where}: dtype {got.dtype} != {want.dtype}"
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=where)
    else:
        np.testing.assert_array_equal(got, want, err_msg=where)
