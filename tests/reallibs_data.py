"""The stored real-library programs of tests/data/reallibs (written by export_reallibs.py
there): each program's StableHLO text, its arguments and reference outputs per size, and the
manifest (library, version, variable size, bound, sizes). Shared by the CPU and GPU tests and
bench/real_libraries.py; needs only NumPy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent / "data" / "reallibs"
MANIFEST = {k: v for k, v in json.loads((HERE / "manifest.json").read_text()).items()
            if not k.startswith("_")}


def module_text(name: str) -> str:
    return (HERE / f"{name}.mlir").read_text()


def varying(name: str) -> list[int]:
    """The indices of the flat arguments stored per size (those with the variable size)."""
    with np.load(HERE / f"{name}.npz") as data:
        return [i for i in range(MANIFEST[name]["arguments"]) if f"arg{i}" not in data.files]


def case(name: str, size: int) -> tuple[list, list]:
    """(flat arguments, reference output leaves) of program `name` at its variable size."""
    entry = MANIFEST[name]
    with np.load(HERE / f"{name}.npz") as data:
        args = [data[f"arg{i}_{size}"] if f"arg{i}_{size}" in data.files else data[f"arg{i}"]
                for i in range(entry["arguments"])]
        outs = [data[f"out{j}_{size}"] for j in range(entry["outputs"])]
    return args, outs


# Tolerances against the reference (jax.jit's XLA, or eager PyTorch), as (rtol, atol), per
# program. Everything is f32 and the references sum in another order than dynhlo (XLA's and
# PyTorch's blocked dot and reduce kernels against NumPy's), so the gap is rounding: about
# eps = 1.2e-7 times the largest partial sum per accumulation, growing with depth. Measured
# largest absolute errors at every stored size are in bench/RESULTS.md (real-library table);
# each bound leaves ten times that or more, and stays far below what a wrong element, a
# wrong size or a dropped mask would give (errors of order 1e-2 and up).
TOLERANCES = {
    # outputs of order 1, two or three dots of at most 32 terms: a few eps
    "flax_nnx_mlp": (1e-5, 2e-6),
    "equinox_mlp": (1e-5, 2e-6),
    "haiku_mlp": (1e-5, 2e-6),
    "keras_dense_layernorm": (1e-5, 5e-6),    # LayerNorm's 1/std scales rounding by ~3
    # an LSTM over 12 steps: tanh/sigmoid gates keep errors from growing with the steps
    "haiku_lstm": (1e-5, 2e-6),
    # one Adam step: new params, moments, count (exact) and the loss; the update divides by
    # sqrt(v) + eps with v of order 1e-3, which scales gradient rounding by ~30
    "optax_adam_step": (1e-5, 5e-6),
    # convolutions of at most 48 terms, then a mean over the length
    "equinox_conv": (1e-5, 2e-6),
    "keras_conv1d_stride2": (1e-5, 2e-6),
    # attention blocks: residual stream of order 3, softmax over up to 64 keys
    "flax_linen_block": (1e-5, 1e-5),
    # 12 of them: rounding compounds through the residual stream, ~2e-6 measured
    "jax_transformer_12": (1e-5, 5e-5),
    # 2-layer HF models (eager attention, LayerNorm/RMSNorm), logits of order 1
    "hf_bert": (1e-5, 1e-5),
    "hf_gpt2": (1e-5, 1e-5),
    "hf_llama": (1e-5, 1e-5),
    # convolutions of 10 and 48 terms and a group norm over up to 319 steps
    "hf_wav2vec2_features": (1e-5, 2e-6),
}


def check_outputs(name: str, got: list, expected: list) -> float:
    """Assert `got` (output leaves) equals the reference within the program's tolerance:
    same shapes and dtypes, integers exactly. Returns the largest absolute error."""
    rtol, atol = TOLERANCES[name]
    assert len(got) == len(expected), f"{name}: {len(got)} outputs, expected {len(expected)}"
    worst = 0.0
    for j, (g, e) in enumerate(zip(got, expected)):
        g = np.asarray(g)
        assert g.shape == e.shape and g.dtype == e.dtype, \
            f"{name} output {j}: {g.dtype}{list(g.shape)}, expected {e.dtype}{list(e.shape)}"
        if np.issubdtype(e.dtype, np.floating):
            np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, err_msg=f"{name} out{j}")
            if e.size:
                worst = max(worst, float(np.max(np.abs(g.astype(np.float64) - e))))
        else:
            np.testing.assert_array_equal(g, e, err_msg=f"{name} out{j}")
    return worst
