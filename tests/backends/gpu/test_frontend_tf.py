"""from_tf's modules on the GPU backend (Triton's interpreter in CI, the real GPU with -m gpu
on the device), from TensorFlow's stored lowerings (tests/data/tf_lowerings), against
TensorFlow's stored outputs: random bits drawn per the axis XLA pairs (ThreeFry), normals
in pairs of rows, the first n of 2n rows, and a range TensorFlow refuses at n = 0."""

from __future__ import annotations

import os

import numpy as np
import pytest

from tests.support.gpucheck import GPU  # skips without torch/triton; interpreter mode first

import dynhlo  # noqa: E402
from dynhlo.frontends.tf import module_from_lowerings  # noqa: E402
from tests.frontends.test_tf_lowerings import DATA, _lowering, _rows  # noqa: E402


def _gpu(name: str):
    return dynhlo.compile(module_from_lowerings(_lowering(name), ["f32[n,3]"], {"n": 8}), **GPU)


def _numpy(out):
    return out.cpu().numpy() if hasattr(out, "cpu") else np.asarray(out)


@pytest.mark.parametrize("name", ["random_threefry", "normal_rows", "random_uniform",
                                  "range_from_one"])
def test_from_tf_gpu_matches_tensorflows_outputs(name):
    exe = _gpu(name)
    data = np.load(os.path.join(DATA, f"{name}.expected.npz"))
    for n in data["sizes"]:
        got, want = _numpy(exe(data[f"in{n}"])), data[f"out{n}"]
        assert got.shape == want.shape and got.dtype == want.dtype, (name, n)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=f"n={n}")


def test_from_tf_gpu_reads_the_first_n_rows_and_refuses_what_tensorflow_refuses():
    exe = _gpu("concat_first_rows")
    for n in (0, 1, 5, 8):
        np.testing.assert_array_equal(_numpy(exe(_rows(n, 3))), _rows(n, 3) * 2 + 1)
    with pytest.raises(dynhlo.ArgumentError, match="it needs at least 1"):
        _gpu("range_from_one")(np.zeros((0, 3), np.float32))
