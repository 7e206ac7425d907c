"""The stored from_torch modules of tests/data/torch (written by export_torch.py there):
each reference model's StableHLO module and, per size, its arguments and eager PyTorch's
outputs. Shared by the CPU and GPU tests of those modules."""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parents[1] / "data" / "torch"
MODELS = ("bert", "gpt2", "llama")


def module_bytes(name: str) -> bytes:
    return (HERE / f"{name}.mlirbc").read_bytes()


def case(name: str, size: str) -> tuple[list, list]:
    """(arguments, expected output leaves) of model `name` at size "BxT"."""
    data = np.load(HERE / f"{name}.npz")

    def group(prefix):
        keys = [k for k in data.files if k.startswith(prefix) and k.endswith(f"_{size}")]
        return [data[k] for k in sorted(keys, key=lambda k: int(k[len(prefix):].split("_")[0]))]
    args, outs = group("arg"), group("out")
    assert args and outs, f"no stored case {name} at {size}"
    return args, outs
