"""Shape rule of JAX's LAPACK SVD calls (lapack_{s,d,c,z}{gesdd,gesvd}_ffi); the CPU's
ops_lapack_svd.py and the GPU's library/lapack_svd.py run them. Source: jax/_src/lax/linalg.py
`_svd_cpu_gpu_lowering`.
"""

from __future__ import annotations

from ..hlo import attrs
from .lapack_calls import check_operands, check_result_types
from .rules import custom_call_rule
from .rules_lapack import matrix, min_dim


def svd_mode(inst) -> tuple[str, bool]:
    """(mode, full) of JAX's SVD call (SVD_TARGETS) over [..., m, n] matrices, for the lowerings.

    Results (A overwritten, s [..., min(m,n)], u, vt, info [...]), as jax/_src/lax/linalg.py
    `_svd_cpu_gpu_lowering` declares them. The typed-FFI attribute `mode` is 'A' (full u
    [m,m], vt [n,n]), 'S' (reduced, min(m,n) columns / rows) or 'N' (singular values only; u
    and vt are zeros of the declared shapes, full or not). `full`: whether u and vt are full,
    read from the declared shapes at A's bounds (so that the shape rule and the lowerings at
    every run-time size agree; where both readings fit, full, as JAX's default).
    JAX's GPU solver SVDs (shapes/rules_gpu_solver.py) say it with the bools compute_uv and
    full_matrices instead.
    """
    if "compute_uv" in inst.attrs.get("backend_config", ""):  # a GPU solver's SVD
        full = attrs.ffi_bool(inst, "full_matrices", True)
        return ("A" if full else "S") if attrs.ffi_bool(inst, "compute_uv", True) else "N", full
    mode = attrs.ffi_char(inst, "mode", "A")
    if mode != "N":
        return mode, mode == "A"
    m, n = inst.operands[0].shape.dims[-2:]
    u, vt = inst.shape.elements[2].dims, inst.shape.elements[3].dims
    return mode, (u[-2:], vt[-2:]) == ((m, m), (n, n))


SVD_TARGETS = tuple(f"lapack_{k}{name}_ffi" for k in "sdcz" for name in ("gesdd", "gesvd"))


def _svd_rule(ctx, inst, operands):
    """(A, s [..., k], u [..., m, m|k], vt [..., n|k, n], info [...]) of A [..., m, n],
    k = min(m, n), full or not as svd_mode reads it at the bounds: sizes follow A's (a
    matrix of run-time size m has s, u and vt of run-time sizes, as JAX's shape operands
    say under shape polymorphism)."""
    element = check_operands(ctx, inst, operands, 1)
    mode = attrs.ffi_char(inst, "mode", "A")
    if mode not in ("A", "S", "N"):
        raise ctx.error(f"JAX's SVD call needs mode = 65 ('A'), 83 ('S') or 78 ('N') : ui8, "
                        f"not {inst.attrs.get('backend_config')}")
    real = {"c64": "f32", "c128": "f64"}.get(element, element)
    check_result_types(ctx, inst, [element, real, element, element, "s32"])
    batch, m, n = matrix(ctx, operands[0])
    k = min_dim(m, n)
    _, full = svd_mode(inst)
    return [operands[0], batch + (k,), batch + (m, m if full else k),
            batch + (n if full else k, n), batch]


custom_call_rule(*SVD_TARGETS)(_svd_rule)
