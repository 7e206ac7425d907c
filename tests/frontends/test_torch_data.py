"""from_torch's stored modules (tests/data/torch: BERT, GPT-2 and Llama-style models exported
by torch.export and torchax, batch <= 4 and sequence <= 64 symbolic) run on the CPU backend
against eager PyTorch's stored outputs, without torch or torchax installed."""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo

pytest.importorskip("jax")

from tests.support.torch_data import MODELS, case, module_bytes  # noqa: E402

SIZES = ("1x1", "2x23", "1x64", "4x64")   # sizes 1, a middle size, the bound of T and of both


@pytest.fixture(scope="module", params=MODELS)
def model(request):
    return request.param, dynhlo.compile(dynhlo.parse_stablehlo(module_bytes(request.param)))


def test_stored_torch_modules_take_the_dims_maxima_as_bounds(model):
    # the Dims' maxima are the module's own constraints (B <= 4, T <= 64): no bounds= needed
    _, exe = model
    for p in exe.module.entry.parameters:
        assert str(p.shape) == "s64[<=4,<=64]"


@pytest.mark.parametrize("size", SIZES)
def test_stored_torch_modules_match_eager_pytorch(model, size):
    name, exe = model
    args, expected = case(name, size)
    out = exe(*args)
    got = list(out) if isinstance(out, tuple) else [out]
    for g, e in zip(got, expected, strict=True):
        assert g.shape == e.shape and g.dtype == e.dtype
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=5e-5)


def test_stored_torch_module_refuses_a_sequence_past_its_dim_max(model):
    name, exe = model
    args, _ = case(name, "1x64")
    longer = [np.concatenate([a, a[:, :1]], axis=1) for a in args]
    with pytest.raises(dynhlo.ArgumentError, match="65"):
        exe(*longer)
