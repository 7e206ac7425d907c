"""Writes this folder: the reference models of tests/support/torch_models.py (BERT, GPT-2 and
Llama style, 2 layers) exported as from_torch exports them, with eager PyTorch's outputs.

For each model NAME: NAME.mlirbc, the StableHLO module (jax.export's serialized form, weights
as constants, batch B <= 4 and sequence T <= 64 symbolic), and NAME.npz with, for each tested
size (B, T) in SIZES, the arguments `arg{i}_{B}x{T}` and eager PyTorch's output leaves
`out{j}_{B}x{T}` (torch's pytree order). tests/frontends/test_torch_data.py runs them without
torch or torchax. Run from the repository root (needs torch, jax and torchax):

    python tests/data/torch/export_torch.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import torch
from torch.utils import _pytree

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))      # the repository: dynhlo and tests.support

from tests.support import torch_models as tm  # noqa: E402

from dynhlo.frontends.torch_export import export_torch  # noqa: E402

BATCH_B = 4       # the batch's bound
SIZES = ((1, 1), (2, 23), (1, tm.BOUND), (BATCH_B, tm.BOUND))


def main() -> None:
    for name in ("bert", "gpt2", "llama"):
        model = tm.build(name)
        export = export_torch(model, tm.example(name, 2, 8), tm.dynamic_shapes(
            name, BATCH_B), {}, "constants")
        (HERE / f"{name}.mlirbc").write_bytes(export.exported.mlir_module_serialized)
        arrays = {}
        for b, t in SIZES:
            args = tm.example(name, b, t)
            with torch.no_grad():
                leaves = _pytree.tree_leaves(model(*args))
            for i, a in enumerate(args):
                arrays[f"arg{i}_{b}x{t}"] = a.numpy()
            for j, leaf in enumerate(leaves):
                arrays[f"out{j}_{b}x{t}"] = leaf.numpy()
        np.savez_compressed(HERE / f"{name}.npz", **arrays)
        print(name, {k: v.shape for k, v in arrays.items()})


if __name__ == "__main__":
    main()
