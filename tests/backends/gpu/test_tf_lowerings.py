"""from_tf's rewrites of TensorFlow's roll, mirror pad, ranges, the size as a float, a loop
over the dynamic axis and random numbers of the size (tests/frontends/test_tf_lowerings.py) on the
GPU backend, against the CPU backend: the same values, and the same ArgumentError where
TensorFlow refuses a pad."""

from __future__ import annotations

import numpy as np
import pytest
from tests.support.gpucheck import GPU  # skips without torch/triton; interpreter mode first

import dynhlo  # noqa: E402
from dynhlo.frontends.tf import module_from_lowerings  # noqa: E402
from tests.frontends.test_tf_lowerings import _lowering, _rows  # noqa: E402


@pytest.mark.parametrize("name", ["roll", "pad_reflect", "range_mask", "mean_by_hand",
                                  "range_step", "scan", "random_uniform"])
def test_gpu_runs_tf_rewrites_as_the_cpu_does(name):
    module = module_from_lowerings(_lowering(name), ["f32[n,3]"], {"n": 8})
    cpu, gpu = dynhlo.compile(module), dynhlo.compile(module, **GPU)
    for n in (0, 1, 3, 8):
        x = _rows(n, 3)
        if name == "pad_reflect" and n < 3:   # TensorFlow: each pad < n
            for exe in (cpu, gpu):
                with pytest.raises(dynhlo.ArgumentError, match="MirrorPad"):
                    exe(x)
            continue
        if name == "scan" and n == 0:
            # tf.scan reads x[0]: TensorFlow refuses, XLA reads its padding, dynhlo zeros
            # (both backends alike, below); padding_reads="error" names the read
            for options in ({}, GPU):
                with pytest.raises(dynhlo.DynamicSizeError, match="TensorListGetItem"):
                    dynhlo.compile(module, padding_reads="error", **options)(x)
        got = gpu(x)
        np.testing.assert_allclose(np.asarray(got.cpu() if hasattr(got, "cpu") else got),
                                   cpu(x), rtol=1e-6, err_msg=f"n={n}")
