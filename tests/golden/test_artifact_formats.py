"""Artifacts written by earlier format versions keep loading and running in every later dynhlo.

Each file in tests/data/golden_v*.artifact was saved by the dynhlo of its format version and
is never rewritten (named .artifact: the repository ignores *.dynhlo outputs). Expected
values are NumPy by hand; a stored size check must still refuse what it refused when saved.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import dynhlo
from dynhlo.runtime import artifact
from tests.support.common import DATA

# jax.export's message for a size below the module's `n >= 1` assertion
N_GE_1 = "Expected value >= 1 for dimension variable 'n'"
# tf.pad(x, [[2, 1], [1, 1]], mode="REFLECT"): TensorFlow requires each pad < n, so n >= 3
REFLECT_PADS = ((2, 1), (1, 1))


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _rows(n: int, cols: int) -> np.ndarray:
    return (np.arange(n * cols, dtype=np.float32).reshape(n, cols) * 0.5 - 3) ** 2


def _format_version(path) -> int:
    return artifact.read_artifact(path.read_bytes()).format_version


def test_golden_version_1_artifact_keeps_loading():
    """A file written by format version 1 (2026-11-30): softmax rows, buckets 2 and 4."""
    exe = dynhlo.load(DATA / "golden_v1_softmax_buckets.artifact")
    assert list(exe.executables) == [2, 4]
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(3, 8)
    np.testing.assert_allclose(exe(x), _softmax(x), rtol=1e-6)


def test_golden_version_2_artifact_keeps_loading_with_its_assertions():
    """A file written by format version 2 (2026-12-02) from center.mlir (n <= 64, n >= 1); it
    must load, and refuse n = 0, in every later dynhlo."""
    exe = dynhlo.load(DATA / "golden_v2_center_assertions.artifact")
    with pytest.raises(dynhlo.ArgumentError, match=N_GE_1) as info:
        exe(np.zeros((0, 4), np.float32))
    assert "'n' = 0 from specification" in str(info.value)
    x = np.linspace(-1, 1, 20, dtype=np.float32).reshape(5, 4)
    np.testing.assert_allclose(exe(x), x - x.mean(0) + np.cumsum(x, 0), rtol=1e-6, atol=1e-6)


def test_golden_version_3_artifact_with_a_large_constant_as_text_keeps_loading():
    """Written by format version 3 (2026-12-02): its f32[16,32] weight as decimal text."""
    path = DATA / "golden_v3_large_constant.artifact"
    assert _format_version(path) == 3
    exe = dynhlo.load(path)
    w = (np.arange(16 * 32, dtype=np.float32).reshape(16, 32) - 200) / 64
    np.testing.assert_array_equal(exe.module.entry.instructions[1].literal, w)
    x = np.linspace(-1, 1, 3 * 16, dtype=np.float32).reshape(3, 16)
    np.testing.assert_allclose(exe(x), x.astype(np.float64) @ w, rtol=1e-5, atol=1e-5)


def test_golden_version_3_artifact_keeps_loading_with_its_requirement():
    """A file written by format version 3 (2026-12-02) from tf.pad(x, [[2, 1], [1, 1]],
    "REFLECT") at n <= 8; it must load, and refuse n < 3 as TensorFlow does, in every later
    dynhlo."""
    path = DATA / "golden_v3_pad_requirements.artifact"
    assert _format_version(path) == 3
    exe = dynhlo.load(path)
    with pytest.raises(dynhlo.ArgumentError) as info:
        exe(_rows(2, 3))
    assert "which has 2: it needs at least 3 (TensorFlow refuses" in str(info.value)
    np.testing.assert_array_equal(exe(_rows(4, 3)),
                                  np.pad(_rows(4, 3), REFLECT_PADS, mode="reflect"))


def test_golden_version_4_compiled_cpu_artifact_keeps_loading():
    """A compiled CPU program written by format version 4 (2026-12-05): its kernels' x86-64
    object code, keyed by the compiler identity of the dynhlo that wrote it. Where that
    identity is this host's, the stored code runs; anywhere else (another CPU, LLVM, or a
    later dynhlo whose kernel writer changed) the kernels are compiled again from the stored
    module with a warning that says so. Either way the results are sqrt(|x/2 + b|) - x."""
    path = DATA / "golden_v4_cpu_compiled.artifact"
    assert _format_version(path) == 4
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exe = dynhlo.load(path)
    notes = [str(w.message) for w in caught]
    assert all("compiling them again for this host" in note for note in notes), notes
    assert not exe.program.reference
    x = np.linspace(-4, 4, 5 * 4, dtype=np.float32).reshape(5, 4)
    b = np.array([0.25, -1, 3, -0.0], np.float32)
    expected = np.sqrt(np.abs(x * np.float32(0.5) + b)) - x
    np.testing.assert_array_equal(exe(x, b), expected)
    assert exe(x[:0], b).shape == (0, 4)
