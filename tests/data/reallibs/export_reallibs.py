"""Writes this folder: the programs of tests/support/reallibs_programs.py (flax, equinox, haiku,
keras 3 on JAX, optax, plain JAX, HuggingFace transformers) exported with their variable size
symbolic, with the reference outputs at each tested size.

For each program NAME:
- NAME.mlir: the StableHLO module as text (debug locations dropped). JAX programs: what
  `jax.export.export(jax.jit(fn), platforms=("cpu",))` writes at the program's specs, its
  size bounded by the specs' constraints (`b <= 32`); torch programs: what from_torch exports
  (torch.export with a Dim, torchax, jax.export), weights as constants.
- NAME.npz: the flat arguments (jax.tree_util / torch pytree leaf order) `arg{i}_{size}`, or
  `arg{i}` for one that is the same at every size (weights), and the reference output leaves
  `out{j}_{size}`: jax.jit's for JAX programs, eager PyTorch's (no_grad) for torch programs.
- manifest.json: each program's library and version, variable size, bound, sizes and kind.

tests/frontends/test_real_libraries.py runs the stored modules without these libraries. Run from the
repository root in an environment with jax==0.10.2 and the libraries (see manifest.json for
the versions used), KERAS_BACKEND=jax:

    python tests/data/reallibs/export_reallibs.py [NAME ...]
"""

from __future__ import annotations

import importlib.metadata as md
import json
import os
import sys
from pathlib import Path

import numpy as np

os.environ.setdefault("KERAS_BACKEND", "jax")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))      # the repository: dynhlo and tests.support

from tests.support.reallibs_programs import PROGRAMS  # noqa: E402

DISTRIBUTIONS = {"flax": "flax", "jax": "jax", "equinox": "equinox", "haiku": "dm-haiku",
                 "keras": "keras", "optax": "optax", "transformers": "transformers"}


def module_text(exported) -> str:
    """The exported module as MLIR text without debug locations (they name this machine's
    files and make the text several times larger)."""
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir
    with mlir.make_ir_context() as ctx:
        module = ir.Module.parse(exported.mlir_module(), context=ctx)
        return module.operation.get_asm(enable_debug_info=False)


def export_jax(program):
    import jax
    from jax import export
    fn, specs, arguments = program.build()
    exported = export.export(jax.jit(fn), platforms=("cpu",))(*specs)
    cases = {}
    for n in program.sizes:
        args = arguments(n)
        outs = jax.jit(fn)(*args)
        cases[n] = ([np.asarray(a) for a in jax.tree_util.tree_leaves(args)],
                    [np.asarray(o) for o in jax.tree_util.tree_leaves(outs)])
    return exported, cases


def export_torch(program):
    import torch
    from torch.utils import _pytree

    from dynhlo.frontends.torch_export import export_torch as export
    module, dynamic_shapes, arguments = program.build()
    middle = program.sizes[1]
    exported = export(module, arguments(middle), dynamic_shapes, {}, "constants").exported
    cases = {}
    for n in program.sizes:
        args = arguments(n)
        with torch.no_grad():
            outs = _pytree.tree_leaves(module(*args))
        cases[n] = ([a.numpy() for a in args], [o.numpy() for o in outs])
    return exported, cases


def store(program, exported, cases) -> dict:
    text = module_text(exported)
    (HERE / f"{program.name}.mlir").write_text(text)
    arrays = {}
    first = cases[program.sizes[0]][0]
    for i, a in enumerate(first):
        same = all(np.array_equal(cases[n][0][i], a) and cases[n][0][i].shape == a.shape
                   for n in program.sizes)
        if same:
            arrays[f"arg{i}"] = a
        else:
            for n in program.sizes:
                arrays[f"arg{i}_{n}"] = cases[n][0][i]
    for n in program.sizes:
        for j, o in enumerate(cases[n][1]):
            arrays[f"out{j}_{n}"] = o
    np.savez_compressed(HERE / f"{program.name}.npz", **arrays)
    return {"library": program.library,
            "version": md.version(DISTRIBUTIONS[program.library]),
            "kind": program.kind, "dim": program.dim, "bound": program.bound,
            "sizes": list(program.sizes), "about": program.about,
            "arguments": len(first), "outputs": len(cases[program.sizes[0]][1]),
            "module_chars": len(text)}


def main(names) -> None:
    manifest_path = HERE / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    for name in names or PROGRAMS:
        program = PROGRAMS[name]
        exporter = export_jax if program.kind == "jax" else export_torch
        exported, cases = exporter(program)
        manifest[name] = store(program, exported, cases)
        print(name, manifest[name])
    manifest["_environment"] = {d: md.version(d) for d in
                                ("jax", "jaxlib", "torch", "torchax", "numpy")}
    manifest_path.write_text(json.dumps(dict(sorted(manifest.items())), indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
