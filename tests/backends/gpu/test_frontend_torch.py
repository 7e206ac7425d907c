"""from_torch on the GPU backend (Triton's interpreter where there is no GPU): the stored
BERT, GPT-2 and Llama-style modules against eager PyTorch's stored outputs, and a live
from_torch with torch tensors in and out where torchax is installed."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from tests.support.gpucheck import GPU, torch  # skips without torch/triton; interpreter mode first

import dynhlo  # noqa: E402

pytest.importorskip("jax")

from tests.support.torch_data import MODELS, case, module_bytes  # noqa: E402

# sizes 1, a middle size and the sequence's bound (batch 1 there: the interpreter is slow)
SIZES = ("1x1", "2x23", "1x64")


@pytest.fixture(scope="module", params=MODELS)
def model(request):
    module = dynhlo.parse_stablehlo(module_bytes(request.param))
    return request.param, dynhlo.compile(module, **GPU)


@pytest.mark.parametrize("size", SIZES)
def test_stored_torch_modules_on_the_gpu_match_eager_pytorch(model, size):
    name, exe = model
    args, expected = case(name, size)
    out = exe(*[torch.from_numpy(a) for a in args])
    got = list(out) if isinstance(out, tuple) else [out]
    for g, e in zip(got, expected, strict=True):
        assert isinstance(g, torch.Tensor)
        np.testing.assert_allclose(g.cpu().numpy(), e, rtol=1e-5, atol=5e-5)


@pytest.mark.skipif(importlib.util.find_spec("torchax") is None, reason="needs torchax")
def test_from_torch_on_the_gpu_takes_and_returns_torch_tensors():
    def f(x, y):
        return {"s": torch.softmax(x, -1) @ y, "n": x.shape[0] * x.sum(0)}
    n = torch.export.Dim("n", min=1, max=16)
    x, y = torch.randn(5, 8), torch.randn(8, 3)
    exe = dynhlo.from_torch(f, x, y, dynamic_shapes=({0: n}, None), **GPU)
    for rows in (1, 9, 16):
        x = torch.randn(rows, 8)
        got, want = exe(x, y), f(x, y)
        assert sorted(got) == ["n", "s"]
        for key in want:
            assert isinstance(got[key], torch.Tensor)
            torch.testing.assert_close(got[key].cpu(), want[key], rtol=1e-5, atol=1e-5)
