"""The stored real-library programs (tests/data/reallibs: flax, equinox, haiku, keras 3,
optax, plain JAX, HuggingFace through from_torch) on the GPU backend (Triton's interpreter
where there is no GPU), against the stored jax.jit / eager PyTorch outputs.

A subset of the sizes tests/frontends/test_real_libraries.py runs on the CPU: every size of the
small programs; 1 and the middle size of the attention models, and size 1 of the 12-layer model,
whose larger sizes take tens of seconds each in the interpreter (all sizes passed there once:
bench/real_libraries.py --backend gpu)."""

from __future__ import annotations

import pytest

from tests.support.gpucheck import GPU, torch  # skips without torch/triton; interpreter mode first

import dynhlo  # noqa: E402

pytest.importorskip("jax")

from tests.support.reallibs_data import MANIFEST, case, check_outputs, module_text  # noqa: E402

ALL = ("flax_nnx_mlp", "equinox_mlp", "haiku_mlp", "keras_dense_layernorm", "equinox_conv",
       "keras_conv1d_stride2", "optax_adam_step")
FIRST_TWO = ("haiku_lstm", "flax_linen_block", "hf_bert", "hf_gpt2", "hf_llama")
CASES = [(n, s) for n in ALL for s in MANIFEST[n]["sizes"]] + \
    [(n, s) for n in FIRST_TWO for s in MANIFEST[n]["sizes"][:2]] + \
    [("jax_transformer_12", 1)]


@pytest.fixture(scope="module")
def compiled():
    cache: dict = {}

    def get(name):
        if name not in cache:
            cache[name] = dynhlo.compile(dynhlo.parse_stablehlo(module_text(name)), **GPU)
        return cache[name]
    return get


@pytest.mark.parametrize("name,size", CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_stored_program_on_the_gpu_matches_its_reference(compiled, name, size):
    args, expected = case(name, size)
    out = compiled(name)(*[torch.from_numpy(a) for a in args])
    got = list(out) if isinstance(out, tuple) else [out]
    assert all(isinstance(g, torch.Tensor) for g in got)
    check_outputs(name, [g.cpu().numpy() for g in got], expected)
