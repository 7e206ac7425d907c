"""from_tf's modules of TensorFlow programs (Keras layers, a SavedModel's signature, a
tf.Module, NMS, ragged masks, unique, segment sums, top_k: tests/support/tf_program_set.py) run
without TensorFlow: each stored module (its HLO text, as `exe.module.to_text()` printed it)
equals TensorFlow eager's stored outputs at sizes 1, 2, a middle size and the bound, and
refuses a size below the least TensorFlow takes, as the executable from_tf made does (the
least size is kept in the text: runtime/module_text.py). Data: tests/data/tf_programs, made
by tools/gen_tf_programs.py; tests/frontends/test_tf_programs.py runs from_tf itself against
TensorFlow where it is installed.
"""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

import dynhlo
from tests.support.common import TESTS

DATA = str(TESTS / "data" / "tf_programs")
NAMES = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(DATA, "*.hlo")))


def _listed(data, prefix: str) -> list:
    keys = sorted((k for k in data.files if k.startswith(prefix)),
                  key=lambda k: int(k[len(prefix):]))
    return [data[k] for k in keys]


@pytest.fixture(scope="module", params=NAMES)
def program(request):
    with open(os.path.join(DATA, request.param + ".hlo")) as f:
        exe = dynhlo.compile(f.read())
    return request.param, exe, np.load(os.path.join(DATA, request.param + ".npz"))


def test_the_program_set_is_stored():
    # what the test set names, each kept (a generator run that lost one fails here)
    assert {"saved_model", "nms", "ragged_mean", "unique", "segment_sum", "top_k",
            "keras_lstm", "keras_gru", "attention_masks", "keras_conv2d_valid",
            "keras_dense_btd"} <= set(NAMES)


def test_stored_tf_program_matches_tensorflow_eager(program):
    name, exe, data = program
    for n in data["sizes"]:
        args = _listed(data, f"in{n}_")
        if f"refused{n}" in data.files:
            with pytest.raises(dynhlo.DynamicSizeError, match="needs at least"):
                exe(*args)
            continue
        got = exe(*args)
        got = list(got) if isinstance(got, tuple) else [got]
        want = _listed(data, f"out{n}_")
        assert len(got) == len(want), name
        for j, (g, w) in enumerate(zip(got, want, strict=True)):
            assert g.shape == w.shape, f"{name} at n = {n}, output {j}"
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4,
                                       err_msg=f"{name} at n = {n}, output {j}")


def test_stored_programs_keep_tensorflows_least_sizes():
    # top_k(x, 3) and a VALID window of 3 refuse fewer rows, as TensorFlow does; the size
    # checks come back from the printed module's text
    refused = {n for n in NAMES
               if any(k.startswith("refused") for k in np.load(os.path.join(DATA, n + ".npz")))}
    assert {"top_k", "keras_conv1d_valid", "keras_conv2d_valid"} <= refused
