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

A call that jaxlib's handler would refuse (an operand too many or few, a result tuple of
other arity or element types, a missing or non-bool `lower`/`full_matrices`/`compute_uv`/
`transposed`, an `algorithm` outside 0-2, a non-square potrf/syevd, a tau longer than n or
an orgqr with m < n, SVD results of other dims, non-s32 pivots) is an HloVerifyError
naming the instruction when the module compiles.

Other GPU solver targets (sytrd, ormqr, geev, the Cholesky update, the sparse solvers) stay
unknown targets; a type whose LAPACK counterpart dynhlo does not run would be an
UnsupportedError when the module compiles (backends/common/gpu_solver.py; each of the four types
has one now, complex orgqr being LAPACK's ungqr).
"""

from __future__ import annotations

import re

from ..errors import UnsupportedError
from ..hlo import attrs
from .rules import default_rule
from .rules import CUSTOM_CALL_RULES
from .sizes import Sym, bound_of
from .square import square

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


# solver name -> the typed-FFI bool attributes its handler binds (jaxlib's .Attr<bool>)
_BOOL_ATTRS = {"potrf": ("lower",), "syevd": ("lower",),
               "gesvdj": ("full_matrices", "compute_uv"), "gesvdp": ("full_matrices", "compute_uv"),
               "gesvd": ("full_matrices", "compute_uv", "transposed")}
# solver name -> its results' element types: x (the matrix's), r (its real type) or s32
_RESULT_TYPES = {"potrf": ("x", "s32"), "getrf": ("x", "s32", "s32"), "geqrf": ("x", "x"),
                 "orgqr": ("x",), "syevd": ("x", "r", "s32")}
_REAL = {"f32": "f32", "f64": "f64", "c64": "f32", "c128": "f64"}


def _check_call(ctx, inst, operands) -> None:
    """The call as jaxlib's handler binds it (solver_kernels_ffi.cc), else HloVerifyError
    naming the instruction: operand count and rank, the bool attributes (and syevd's
    algorithm 0-2), the results' element types, square potrf/syevd, orgqr's tau, the SVDs'
    result shapes."""
    name = solver_name(inst)
    want = 2 if name == "orgqr" else 1
    if len(operands) != want:
        raise ctx.error(f"{attrs.string(inst, 'custom_call_target')} takes {want} "
                        f"operand(s), not {len(operands)}")
    if isinstance(operands[0], list) or len(operands[0]) < 2:
        raise ctx.error(f"{name} needs a matrix operand of rank >= 2 (batch..., m, n), not "
                        f"{inst.operands[0].shape}")
    _check_attrs(ctx, name, inst.attrs.get("backend_config", ""))
    _check_result_types(ctx, inst, name)
    a = inst.operands[0].shape
    if name in ("potrf", "syevd"):
        square(inst, operands[0])
        if a.dims[-1] != a.dims[-2]:
            raise ctx.error(f"{name} needs square matrices, not {a}")
    if name == "orgqr":
        _check_orgqr(ctx, inst)
    if name in SVD_NAMES:
        _check_svd_shapes(ctx, inst, name)


def _check_attrs(ctx, name: str, config: str) -> None:
    for attr in _BOOL_ATTRS.get(name, ()):
        if not re.search(rf"\b{attr}\s*=\s*(true|false)\b", config):
            raise ctx.error(f"{name} needs the bool attribute {attr} (backend_config="
                            f"{{{attr} = true}} or false), not {config or 'none'}")
    if name == "syevd" and not re.search(r"\balgorithm\s*=\s*[012]\s*:\s*ui8\b", config):
        raise ctx.error(f"syevd needs algorithm = 0, 1 or 2 : ui8 (default, QR, Jacobi), "
                        f"not {config or 'none'}")


def _check_result_types(ctx, inst, name: str) -> None:
    element = inst.operands[0].shape.element_type
    types = {"x": element, "r": _REAL.get(element, element), "s32": "s32"}
    want = [types[k] for k in _RESULT_TYPES.get(name, ("x", "r", "x", "x", "s32"))]
    if name == "orgqr":
        got = None if inst.shape.is_tuple else [inst.shape.element_type]
    else:
        got = [r.element_type for r in inst.shape.elements] if inst.shape.is_tuple else None
    if got != want:
        what = "an array" if name == "orgqr" else f"a tuple of {len(want)}"
        raise ctx.error(f"{name} of {inst.operands[0].shape} gives {what} of element types "
                        f"({', '.join(want)}), not {inst.shape}")


def _check_orgqr(ctx, inst) -> None:
    """orgqr (a [..., m, n], tau [..., k]): tau of a's type and batch, k <= n <= m."""
    a, tau = inst.operands[0].shape, inst.operands[1].shape
    if tau.element_type != a.element_type or tau.rank != a.rank - 1 or \
            tau.dims[:-1] != a.dims[:-2] or tau.dims[-1] > a.dims[-1] or \
            a.dims[-1] > a.dims[-2]:
        raise ctx.error(f"orgqr takes a [..., m, n] and tau [..., k] of its type and batch "
                        f"with k <= n <= m, not {a} and {tau}")


def _check_svd_shapes(ctx, inst, name: str) -> None:
    """s [..., k] and the bounds of u and v (vt) as jaxlib checks them, from A's r x c (k =
    min): U [..., r, r|k] and V [..., c, c|k] (gesvdj/gesvdp, whatever compute_uv);
    VT [..., c|k, c] (gesvd: after U, or before it where transposed; both rank 0, as JAX
    declares them, without compute_uv)."""
    a = inst.operands[0].shape
    batch, (r, c) = a.dims[:-2], a.dims[-2:]
    k, full = min(r, c), attrs.ffi_bool(inst, "full_matrices", True)
    u = batch + (r, r if full else k)
    if name != "gesvd":
        want = [u, batch + (c, c if full else k)]
    elif not attrs.ffi_bool(inst, "compute_uv", True):
        want = [(), ()]
    else:
        vt = batch + (c if full else k, c)
        want = [vt, u] if attrs.ffi_bool(inst, "transposed", False) else [u, vt]
    want = [batch + (k,)] + want
    if [inst.shape.elements[i].dims for i in (1, 2, 3)] != want:
        raise ctx.error(f"{attrs.string(inst, 'custom_call_target')} of {a} with "
                        f"{inst.attrs.get('backend_config', '')} gives s, u, v of dims "
                        f"{', '.join(map(str, want))}, not {inst.shape}")


def _solver_rule(ctx, inst, operands):
    """The LAPACK target's rule, where it has one (the SVDs take the declared shapes)."""
    _check_call(ctx, inst, operands)
    if solver_name(inst) in SVD_NAMES:   # their own layouts (_check_svd_shapes)
        return default_rule(ctx, inst, operands)
    fn = CUSTOM_CALL_RULES.get(lapack_target(inst))
    return default_rule(ctx, inst, operands) if fn is None else fn(ctx, inst, operands)


def _pivots_rule(ctx, inst, operands):
    """s32[..., k] -> s32[..., m]: the batch of the pivots, m as declared; a dynamic m is the
    rows of the LU whose min(m, n) pivots these are (a getrf in the module), else it must be
    the pivots' own k (a square LU), the only size the call can know. (jax.export modules
    pass m as a shape operand: the import cuts a permutation at the bound to it.)"""
    target = attrs.string(inst, "custom_call_target")
    if len(operands) != 1:
        raise ctx.error(f"{target} takes 1 operand (the pivots), not {len(operands)}")
    (pivots,) = operands
    if inst.operands[0].shape.element_type != "s32" or inst.shape.element_type != "s32":
        raise ctx.error(f"{target} takes and gives s32 arrays, not {inst.operands[0].shape} "
                        f"-> {inst.shape}")
    if isinstance(pivots, list) or len(pivots) < 1:
        raise ctx.error("lu_pivots_to_permutation needs pivots of rank >= 1 (batch..., k)")
    if inst.shape.is_tuple or inst.shape.rank != len(pivots):
        raise ctx.error(f"lu_pivots_to_permutation of {inst.operands[0].shape} gives an "
                        f"array of the same rank, not {inst.shape}")
    m, k = inst.shape.dims[-1], pivots[-1]
    if inst.shape.dynamic[-1]:
        rows = _rows_of_lu(k)
        if rows is not None and bound_of(rows) == m:
            return pivots[:-1] + (rows,)
        if m != bound_of(k):
            raise UnsupportedError(
                f"custom-call '{inst.name}': a dynamic permutation size (<={m}) is known only "
                f"when it is the pivots' size (bound {bound_of(k)}): a square LU")
        return pivots
    if bound_of(k) > m:
        raise ctx.error(f"lu_pivots_to_permutation: {bound_of(k)} pivots do not fit a "
                        f"permutation of size {m}")
    return pivots[:-1] + (m,)


def _rows_of_lu(k):
    """m where the pivots' count k is an LU's min(m, n) (the getrf rule's formula, carried
    through elementwise ops on the pivots), else None: the permutation has m entries."""
    made = k.root().made if isinstance(k, Sym) else None
    if made is not None and made[0] == "min" and len(made[1]) == 2:
        return made[1][0]
    return None


for _target in SOLVER_TARGETS:
    CUSTOM_CALL_RULES[_target] = _solver_rule
for _target in PIVOT_TARGETS:
    CUSTOM_CALL_RULES[_target] = _pivots_rule
