"""TensorFlow's bridge (tf2xla, TF 2.21): modules lowered from TF functions over bounded inputs
(TF's own `set_dynamic_dimension_size`), run at sizes 0, 1, a middle size and the bound, and
compared with TF's eager answer on the valid rows. Saved data: tests/data/tf, made by
tools/gen_tf_cases.py (CI has no TensorFlow).

Several lowerings read past the actual size and mask what they read away later; XLA reads
its padded buffer there, dynhlo reads zeros, and both give TF's eager answer (READS_PADDING:
the cases and sizes that read padding, which padding_reads="error" refuses):
- tf.where over a bound of at most 4 slices its flattened indices with stride 4 (length-1
  slices, static in XLA: `[3:4:4]` of s32[<=4] reads element 3 at any size); boolean_mask
  is tf.where then a gather;
- tf.unique below the bound gathers rows past the actual size (a static s32[N] iota sorted
  with the s32[<=N] keys indexes them);
- non-max suppression's loop runs to the bound (tf2xla bakes in 6) while fewer than 4 boxes
  are selected, reading box i's flag (a dynamic-slice of size 1, its start clamped against
  the bound): of 0 or 1 boxes it reads flags past the actual size.
Where XLA itself does not get TF's eager answer, the test says what XLA computes instead:
- tf.nn.avg_pool1d divides by window counts computed for the bound (a static array), so the
  last output row of a shorter input is divided by the full window size.
"""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

import dynhlo
from tests.support.common import TESTS

DATA = str(TESTS / "data" / "tf")
CASES = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(DATA, "*.hlo")))
READS_PADDING = {"unique": lambda n: n < 8, "unique_b6": lambda n: n < 6,
                 "where_b4": lambda n: n < 4, "boolean_mask_b3": lambda n: n < 3,
                 "nms": lambda n: n <= 1}


def _arrays(data, prefix):
    keys = sorted((k for k in data if k.startswith(prefix)), key=lambda k: int(k.split("_")[1]))
    return [data[k] for k in keys]


def _runs(name):
    data = np.load(os.path.join(DATA, name + ".npz"))
    for n in data["sizes"]:
        n = int(n)
        args = _arrays(data, f"in{n}_")
        sizes = [] if data["static"] else [np.int32(n)] * len(args)
        yield n, args + sizes, _arrays(data, f"out{n}_")


def _avg_pool_at_bound(expected, n, bound=7, window=3):
    """XLA's avg_pool1d: SAME window sums over the n rows, divided by the counts the module
    computes for the bound (edge rows of the bound, not of n)."""
    def counts(m):
        return np.array([min(i + 1, m - 1) - max(i - 1, 0) + 1 for i in range(m)], np.float32)
    return expected * (counts(n) / counts(bound)[:n])[None, :, None]


def _check(exe, name, n, args, expected):
    got = exe(*args)
    got = list(got) if isinstance(got, tuple) else [got]
    if name == "avg_pool":
        expected = [_avg_pool_at_bound(expected[0], n)]
    assert len(got) == len(expected), name
    for g, e in zip(got, expected, strict=True):
        g = np.asarray(g)
        if g.shape != e.shape and g.ndim == e.ndim:
            # a static result of XLA's (tf.unique's idx: s32[N]): TF's are its first rows
            g = g[tuple(slice(0, k) for k in e.shape)]
        assert g.shape == e.shape, (name, n, g.shape, e.shape)
        np.testing.assert_allclose(g.astype(e.dtype), e, rtol=1e-5, atol=1e-5,
                                   err_msg=f"{name} at size {n}")


def _compile(name, **options):
    with open(os.path.join(DATA, name + ".hlo")) as f:
        return dynhlo.compile(f.read(), **options)


@pytest.mark.parametrize("name", CASES)
def test_tf_bridge_case_matches_tf_eager(name):
    exe = _compile(name)
    for n, args, expected in _runs(name):
        _check(exe, name, n, args, expected)


@pytest.mark.parametrize("name", sorted(READS_PADDING))
def test_tf_bridge_padding_reads_are_refused_with_padding_reads_error(name):
    """The same modules compiled with padding_reads="error": each size that reads past the
    actual size is a DynamicSizeError naming the instruction; the others still run."""
    exe = _compile(name, padding_reads="error")
    for n, args, expected in _runs(name):
        if READS_PADDING[name](n):
            with pytest.raises(dynhlo.DynamicSizeError,
                               match=r"^instruction '[\w.-]+': .*padding_reads='error'"):
                exe(*args)
        else:
            _check(exe, name, n, args, expected)
