"""JAX's GPU solver custom calls (cuSOLVER, hipSOLVER) as the LAPACK calls both backends run.

For the CUDA (ROCm) platform JAX lowers linear algebra to `cusolver_NAME_ffi`
(`hipsolver_NAME_ffi`): one target for every element type, where its CPU lowering writes
`lapack_{s,d,c,z}NAME_ffi`. The contracts, on logical values (the column-major layouts JAX
asks for change storage only), batch dimensions leading; from jax/_src/lax/linalg.py (the
`_*_cpu_gpu_lowering`s with target_name_prefix "cu"/"hip") and jaxlib/gpu/solver_kernels_ffi.cc
(the handlers' attributes, operands and results):

- potrf (x; lower) -> (factor, info [...]): LAPACK potrf with uplo L where lower.
- getrf (x) -> (lu, ipiv s32[..., min(m,n)] 1-based, info [...]): LAPACK getrf.
- geqrf (x) -> (R with the Householder vectors below it, tau [..., min(m,n)]): LAPACK geqrf.
- orgqr (x, tau) -> Q: LAPACK orgqr.
- syevd (x; lower, algorithm) -> (eigenvectors as columns, eigenvalues ascending, info):
  LAPACK syevd (heevd for complex); `algorithm` (0 default, 1 QR, 2 Jacobi) only picks
  cuSOLVER's method (syevd or syevj), both of which give that contract.
- gesvdj, gesvdp (x; full_matrices, compute_uv) -> (x, s, u [..., m, m|k], v [..., n, n|k],
  info): V itself, not V^H (JAX transposes and conjugates it after the call); u and v are
  there whatever compute_uv (unspecified without it: zeros here).
- gesvd (x; full_matrices, compute_uv, transposed) -> (x, s, u, vt, info), or (x, s, vt, u,
  info) where transposed (m < n: cuSOLVER's gesvd wants m >= n, so JAX hands it A^T through a
  row-major layout and swaps the two back); without compute_uv, u and vt are declared rank-0
  (zero here).
- {cu,hip}_lu_pivots_to_permutation (pivots s32[..., k], 0-based) -> s32[..., m]: the identity
  with entries i and pivots[i] swapped for i = 0, 1, ..., k-1 in turn, a pivot outside
  [0, m) skipped (jaxlib/gpu/linalg_kernels.cu.cc); m is the result's last dimension.

Other GPU solver targets (sytrd, ormqr, geev, the Cholesky update, the sparse solvers) stay
unknown targets, and a type whose LAPACK counterpart dynhlo does not run (complex geqrf and
orgqr) is an UnsupportedError when the module compiles.
"""

from __future__ import annotations

from ..errors import UnsupportedError
from ..hlo import attrs
from .rules import default_rule
from .rules_misc import CUSTOM_CALL_RULES
from .sizes import bound_of

PREFIXES = ("cusolver", "hipsolver")
# solver name -> (LAPACK name for real types, for complex types)
_LAPACK_NAMES = {"potrf": ("potrf", "potrf"), "getrf": ("getrf", "getrf"),
                 "geqrf": ("geqrf", "geqrf"), "orgqr": ("orgqr", "ungqr"),
                 "syevd": ("syevd", "heevd"), "gesvdj": ("gesvd", "gesvd"),
                 "gesvdp": ("gesvd", "gesvd"), "gesvd": ("gesvd", "gesvd")}
SVD_NAMES = ("gesvdj", "gesvdp", "gesvd")
# target -> solver name
SOLVER_TARGETS = {f"{prefix}_{name}_ffi": name for prefix in PREFIXES for name in _LAPACK_NAMES}
PIVOT_TARGETS = ("cu_lu_pivots_to_permutation", "hip_lu_pivots_to_permutation")
_LETTERS = {"f32": "s", "f64": "d", "c64": "c", "c128": "z"}


def solver_name(inst) -> str:
    """getrf, syevd, gesvdj, ... of a SOLVER_TARGETS call."""
    return SOLVER_TARGETS[attrs.string(inst, "custom_call_target")]


def lapack_target(inst) -> str:
    """The LAPACK target a SOLVER_TARGETS call stands for at its operand's element type:
    cusolver_syevd_ffi on c64 -> lapack_cheevd_ffi. UnsupportedError for a type cuSOLVER
    does not take (only f32, f64, c64, c128)."""
    element = inst.operands[0].shape.element_type
    if element not in _LETTERS:
        raise UnsupportedError(
            f"custom-call '{inst.name}' ({attrs.string(inst, 'custom_call_target')}) on "
            f"{element}: GPU solvers take f32, f64, c64 or c128 matrices")
    real, complex_ = _LAPACK_NAMES[solver_name(inst)]
    letter = _LETTERS[element]
    return f"lapack_{letter}{complex_ if letter in 'cz' else real}_ffi"


def _solver_rule(ctx, inst, operands):
    """The LAPACK target's rule, where it has one (the SVDs take the declared shapes)."""
    fn = CUSTOM_CALL_RULES.get(lapack_target(inst))
    return default_rule(ctx, inst, operands) if fn is None else fn(ctx, inst, operands)


def _pivots_rule(ctx, inst, operands):
    """s32[..., k] -> s32[..., m]: the batch of the pivots, m as declared; a dynamic m must be
    the pivots' own k (a square LU), the only size the call can know."""
    (pivots,) = operands
    if isinstance(pivots, list) or len(pivots) < 1:
        raise ctx.error("lu_pivots_to_permutation needs pivots of rank >= 1 (batch..., k)")
    if inst.shape.is_tuple or inst.shape.rank != len(pivots):
        raise ctx.error(f"lu_pivots_to_permutation of {inst.operands[0].shape} gives an "
                        f"array of the same rank, not {inst.shape}")
    m, k = inst.shape.dims[-1], pivots[-1]
    if inst.shape.dynamic[-1]:
        if m != bound_of(k):
            raise UnsupportedError(
                f"custom-call '{inst.name}': a dynamic permutation size (<={m}) is known only "
                f"when it is the pivots' size (bound {bound_of(k)}): a square LU")
        return pivots
    if bound_of(k) > m:
        raise ctx.error(f"lu_pivots_to_permutation: {bound_of(k)} pivots do not fit a "
                        f"permutation of size {m}")
    return pivots[:-1] + (m,)


for _target in SOLVER_TARGETS:
    CUSTOM_CALL_RULES[_target] = _solver_rule
for _target in PIVOT_TARGETS:
    CUSTOM_CALL_RULES[_target] = _pivots_rule
