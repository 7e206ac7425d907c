"""The GPU backend's bitcast between element types of different widths (one byte size, as
XLA's verifier allows: tests/ops/test_bitcast_widths.py) against the CPU backend, at a static
shape, a non-default layout and dynamic sizes 0, 1 and more."""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU, torch


def _module(param: str, result: str) -> str:
    return (f"HloModule m\nENTRY e {{\n  a = {param} parameter(0)\n"
            f"  ROOT r = {result} bitcast(a)\n}}\n")


def _host(value) -> np.ndarray:
    return value.cpu().numpy() if isinstance(value, torch.Tensor) else np.asarray(value)


RNG = np.random.default_rng(7)


@pytest.mark.parametrize("param, result, x", [
    ("f32[2]", "s16[4]", np.array([1.0, -2.5], np.float32)),
    ("f32[2,2]{0,1}", "u8[2,8]", RNG.standard_normal((2, 2)).astype(np.float32)),
    ("u16[4]", "f32[2]", np.array([0, 0x3F80, 0, 0xC020], np.uint16)),
    ("f32[<=4]", "s16[<=8]", RNG.standard_normal(3).astype(np.float32)),
    ("f32[<=4]", "s16[<=8]", np.zeros(0, np.float32)),
    ("f32[<=4]", "s16[<=8]", np.float32([7.0])),
])
def test_gpu_width_changing_bitcast_matches_the_cpu(param, result, x):
    text = _module(param, result)
    expected = dynhlo.compile(text)(x)
    out = _host(dynhlo.compile(text, **GPU)(x))
    assert out.dtype == expected.dtype and out.shape == expected.shape
    np.testing.assert_array_equal(out, expected)
