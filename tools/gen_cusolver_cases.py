"""Writes tests/data/cusolver: HLO that JAX lowers for the CUDA platform (cuSOLVER custom
calls: getrf (real and complex), cu_lu_pivots_to_permutation, potrf, geqrf, orgqr, syevd, gesvdj, gesvd), with
inputs and JAX's own outputs computed on the CPU, for
tests/backends/gpu/library/test_solver_calls.py.

    /work/venv/bin/python tools/gen_cusolver_cases.py

No GPU is needed: `jax.jit(f).trace(...).lower(lowering_platforms=("cuda",))` writes the GPU
module on any machine. A case whose batch dimension is marked dynamic (`<=B`, leading every
shape of that size) stores inputs at batch sizes 0, 1, a middle size and B; the others store
one input set. Outputs are JAX's at each size (`out<n>_<i>`).
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "data" / "cusolver"
B = 3  # the bound of the dynamic batch
BATCH_SIZES = (0, 1, 2, B)
RNG = np.random.default_rng(0)  # reseeded per case (write), so a new case changes no other


def _general(*shape, dtype=np.float32):
    x = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dtype)


def _spd(*shape, dtype=np.float32):
    x = _general(*shape, dtype=dtype)
    n = shape[-1]
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n)).astype(dtype)


def _svd_qr(full, uv=True):
    return lambda a: lax.linalg.svd(a, full_matrices=full, compute_uv=uv,
                                    algorithm=lax.linalg.SvdAlgorithm.QR)


# name -> (function, input makers taking the batch size (None: unbatched), batched?)
CASES = {
    "solve": (jnp.linalg.solve, [lambda b: _general(b, 4, 4), lambda b: _general(b, 4, 2)]),
    "solve_c64": (jnp.linalg.solve, [lambda b: _general(b, 3, 3, dtype=np.complex64),
                                     lambda b: _general(b, 3, 1, dtype=np.complex64)]),
    "inv_f64": (jnp.linalg.inv, [lambda b: _general(3, 3, dtype=np.float64)]),
    "inv_c128": (jnp.linalg.inv, [lambda b: _general(4, 4, dtype=np.complex128)]),
    "det": (jnp.linalg.det, [lambda b: _general(b, 4, 4)]),
    "lu_wide": (jax.scipy.linalg.lu, [lambda b: _general(3, 5)]),
    "lu_tall": (jax.scipy.linalg.lu, [lambda b: _general(5, 3)]),
    "cholesky": (jnp.linalg.cholesky, [lambda b: _spd(b, 4, 4)]),
    "cholesky_c64": (jnp.linalg.cholesky, [lambda b: _spd(4, 4, dtype=np.complex64)]),
    "qr": (jnp.linalg.qr, [lambda b: _general(b, 5, 3)]),
    "qr_complete": (lambda a: jnp.linalg.qr(a, mode="complete"), [lambda b: _general(3, 5)]),
    "eigh": (jnp.linalg.eigh, [lambda b: _spd(b, 4, 4)]),
    "eigh_upper_f64": (lambda a: jnp.linalg.eigh(a, UPLO="U"),
                       [lambda b: _general(5, 5, dtype=np.float64)]),
    "eigh_c64": (jnp.linalg.eigh, [lambda b: _spd(4, 4, dtype=np.complex64)]),
    "svd": (jnp.linalg.svd, [lambda b: _general(b, 5, 3)]),
    "svd_reduced_wide": (lambda a: jnp.linalg.svd(a, full_matrices=False),
                         [lambda b: _general(3, 5)]),
    "svd_c64": (jnp.linalg.svd, [lambda b: _general(4, 3, dtype=np.complex64)]),
    "svdvals": (lambda a: jnp.linalg.svd(a, compute_uv=False), [lambda b: _general(b, 5, 3)]),
    "svd_qr_wide": (_svd_qr(True), [lambda b: _general(3, 5)]),
    "svd_qr_tall_reduced": (_svd_qr(False), [lambda b: _general(5, 3)]),
    "svd_qr_values": (_svd_qr(False, uv=False), [lambda b: _general(5, 3)]),
    "pinv": (jnp.linalg.pinv, [lambda b: _general(4, 3)]),
}


def _batched(makers) -> bool:
    """Whether the inputs take the batch size (a leading dimension of size B)."""
    return makers[0](B).shape[0] == B and makers[0](B).ndim == 3


def _mark_dynamic(text: str) -> str:
    """Every dimension of size B that leads a shape becomes `<=B`."""
    return re.sub(rf"(\b[a-z][a-z0-9]*)\[{B}([,\]])", rf"\1[<={B}\2", text)


def write(name: str) -> None:
    global RNG
    RNG = np.random.default_rng(zlib.crc32(name.encode()))
    fn, makers = CASES[name]
    batched = _batched(makers)
    specs = [jax.ShapeDtypeStruct(m(B).shape, m(B).dtype) for m in makers]
    text = jax.jit(fn).trace(*specs).lower(lowering_platforms=("cuda",)).as_text(dialect="hlo")
    assert "cusolver_" in text, name
    if batched:
        text = _mark_dynamic(text)
    (OUT / f"{name}.hlo").write_text(text)
    arrays = {"bound": np.int64(B if batched else 0)}
    for n in BATCH_SIZES if batched else (None,):
        args = [m(n) for m in makers]
        with jax.default_device(jax.devices("cpu")[0]):
            outs = jax.tree_util.tree_leaves(fn(*args))
        tag = "" if n is None else str(n)
        arrays.update({f"in{tag}_{i}": a for i, a in enumerate(args)})
        arrays.update({f"out{tag}_{i}": np.asarray(o) for i, o in enumerate(outs)})
    np.savez_compressed(OUT / f"{name}.npz", **arrays)


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for case in sorted(CASES):
        write(case)
    print("wrote", len(CASES), "modules to", OUT)
