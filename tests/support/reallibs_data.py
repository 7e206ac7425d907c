"""The stored real-library programs of tests/data/reallibs (written by export_reallibs.py
there): each program's StableHLO text, its arguments and reference outputs per size, and the
manifest (library, version, variable size, bound, sizes). Shared by the CPU and GPU tests and
bench/real_libraries.py; needs only NumPy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parents[1] / "data" / "reallibs"
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
# program. Everything is f32 and the references sum in another order than dynhlo does (XLA's
# and PyTorch's blocked dot and reduce kernels against NumPy's on the CPU backend, Triton's
# tiles on the GPU backend), so the gap is rounding: a few eps (1.2e-7) of the values, per
# accumulation, compounding with depth. Each atol is at least ten times the largest absolute
# error measured at any stored size on either backend (bench/RESULTS.md, the real-library
# table), and far below what a wrong element, size or mask gives (1e-2 and up).
TOLERANCES = {
    # MLPs, an LSTM, convolutions, an Adam step: dots of at most 48 terms, values of order
    # 1; measured at most 3.6e-7
    **{name: (1e-5, 5e-6) for name in (
        "flax_nnx_mlp", "equinox_mlp", "haiku_mlp", "haiku_lstm", "optax_adam_step",
        "equinox_conv", "keras_conv1d_stride2", "hf_wav2vec2_features")},
    # LayerNorm's 1/std and attention's softmax over up to 64 keys, residual streams of
    # order 3: measured at most 9.5e-7
    **{name: (1e-5, 1e-5) for name in (
        "keras_dense_layernorm", "flax_linen_block", "hf_bert", "hf_gpt2", "hf_llama")},
    # 12 such blocks: rounding compounds through the residual stream, measured 2.8e-6
    "jax_transformer_12": (1e-5, 5e-5),
}


def check_outputs(name: str, got: list, expected: list) -> float:
    """Assert `got` (output leaves) equals the reference within the program's tolerance:
    same shapes and dtypes, integers exactly. Returns the largest absolute error."""
    rtol, atol = TOLERANCES[name]
    assert len(got) == len(expected), f"{name}: {len(got)} outputs, expected {len(expected)}"
    worst = 0.0
    for j, (g, e) in enumerate(zip(got, expected, strict=True)):
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
