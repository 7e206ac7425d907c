"""TensorFlow's bridge (tf2xla, TF 2.21): modules lowered from TF functions over bounded inputs,
run at several sizes and compared with TF's eager answer on the valid rows (saved data:
tests/data/tf, made by tools/gen_tf_cases.py; CI has no TensorFlow)."""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

import dynhlo

DATA = os.path.join(os.path.dirname(__file__), "data", "tf")
CASES = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(DATA, "*.hlo")))


def _runs(name):
    data = np.load(os.path.join(DATA, name + ".npz"))
    for n in data["sizes"]:
        n = int(n)
        args = [data[k] for k in sorted((k for k in data if k.startswith(f"in{n}_")),
                                        key=lambda k: int(k.split("_")[1]))]
        outs = [data[k] for k in sorted((k for k in data if k.startswith(f"out{n}_")),
                                        key=lambda k: int(k.split("_")[1]))]
        yield n, args, outs


@pytest.mark.parametrize("name", CASES)
def test_tf_bridge_case_matches_tf_eager(name):
    with open(os.path.join(DATA, name + ".hlo")) as f:
        exe = dynhlo.compile(f.read())
    for n, args, expected in _runs(name):
        sizes = [np.int32(n)] * len(args)
        got = exe(*args, *sizes)
        got = list(got) if isinstance(got, tuple) else [got]
        assert len(got) == len(expected), name
        for g, e in zip(got, expected):
            g = np.asarray(g)
            assert g.shape == e.shape, (name, n, g.shape, e.shape)
            np.testing.assert_allclose(g.astype(e.dtype), e, rtol=1e-5, atol=1e-5,
                                       err_msg=f"{name} at size {n}")
