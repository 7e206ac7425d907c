"""Modules whose sizes are built from thousands of instructions, against NumPy by hand.

A chain of concatenates adds one size per link; a chain of slices nests one size inside the
next. Before: every call of a 1,000-link chain was refused as "computations call each other"
(the module has no calls: sizes were evaluated recursively), the GPU backend raised a raw
RecursionError, and `inspect` of a 4,000-link chain printed 96 MB. Sizes are one algebra now
(shapes/algebra.py): shared, evaluated without recursion, printed within a budget.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.common import hlo_module, run_cli


def concatenate_chain(links: int) -> str:
    """c_k = concatenate(c_{k-1}, x): c_links is x repeated links + 1 times."""
    lines = ["ENTRY m {", "  x = f32[<=4] parameter(0)", "  c0 = f32[<=4] copy(x)"]
    for k in range(1, links + 1):
        root = "ROOT " if k == links else ""
        lines.append(f"  {root}c{k} = f32[<={4 * (k + 1)}] concatenate(c{k - 1}, x), "
                     "dimensions={0}")
    return hlo_module("\n".join(lines + ["}"]))


def slice_chain(links: int, bound: int) -> str:
    """s_k = s_{k-1}[1:]: s_links is x[links:]."""
    lines = ["ENTRY m {", f"  x = f32[<={bound}] parameter(0)", f"  s0 = f32[<={bound}] copy(x)"]
    for k in range(1, links + 1):
        root = "ROOT " if k == links else ""
        lines.append(f"  {root}s{k} = f32[<={bound - k}] slice(s{k - 1}), "
                     f"slice={{[1:{bound - k + 1}]}}")
    return hlo_module("\n".join(lines + ["}"]))


@pytest.mark.parametrize("links", [1000, 4000])
def test_a_chain_of_concatenates_runs(links):
    exe = dynhlo.compile(concatenate_chain(links))
    for n in (0, 3, 4):
        x = np.arange(1, n + 1, dtype=np.float32)
        np.testing.assert_array_equal(exe(x), np.tile(x, links + 1))


def test_a_chain_of_slices_runs():
    exe = dynhlo.compile(slice_chain(1000, 1500))
    for n in (0, 999, 1000, 1001, 1500):
        x = np.arange(n, dtype=np.float32)
        np.testing.assert_array_equal(exe(x), x[1000:])


def test_a_chain_of_concatenates_runs_on_the_gpu_backend():
    from tests.support.gpucheck import GPU
    exe = dynhlo.compile(concatenate_chain(1000), **GPU)
    for n in (0, 3):
        x = np.arange(1, n + 1, dtype=np.float32)
        np.testing.assert_array_equal(np.asarray(exe(x)), np.tile(x, 1001))


def test_inspect_of_deep_chains_stays_small(tmp_path):
    """One line per instruction, each size printed within a budget: a few hundred KB at
    most for 4,000 links (it was 96 MB)."""
    for name, text in (("concatenates", concatenate_chain(4000)),
                       ("slices", slice_chain(4000, 5000))):
        path = tmp_path / f"{name}.hlo"
        path.write_text(text)
        result = run_cli("inspect", str(path))
        assert result.returncode == 0, result.stderr
        assert len(result.stdout) < 2_000_000, (name, len(result.stdout))
        assert max(map(len, result.stdout.splitlines())) < 1000
