"""Regenerate tests/data/frontends/ (StableHLO from jax.export; run with /work/venv's python).

center.mlir    x - x.mean(0) + cumsum(x, 0), x: f32[n,4] with n <= 64 (MLIR text, no locations)
center.mlirbc  the same module as jax.export's portable artifact (mlir_module_serialized)
The HloModuleProto files come from tools/make_frontend_tf_data.py (tensorflow).
"""

import pathlib

import jax
import jax.numpy as jnp
from jax import export
from jax._src.interpreters import mlir
from jaxlib.mlir import ir

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "frontends"


def center(x):
    return x - x.mean(0) + jnp.cumsum(x, 0)


def main():
    (n,) = export.symbolic_shape("n", constraints=["n <= 64"])
    exported = export.export(jax.jit(center))(jax.ShapeDtypeStruct((n, 4), jnp.float32))
    with mlir.make_ir_context() as ctx:
        module = ir.Module.parse(exported.mlir_module(), context=ctx)
        text = module.operation.get_asm(enable_debug_info=False)
    (OUT / "center.mlir").write_text(text)
    (OUT / "center.mlirbc").write_bytes(exported.mlir_module_serialized)


if __name__ == "__main__":
    main()
