"""Shape rules of the lapack family (the CPU's ops_lapack.py, the GPU's library/lapack.py):
JAX's LAPACK and BLAS custom calls potrf, getrf, syevd/heevd, trsm, and QR:
`lapack_{s,d,c,z}geqrf_ffi`, `lapack_{s,d}orgqr_ffi` and `lapack_{c,z}ungqr_ffi`
(jaxlib/cpu/lapack_kernels.h). `lapack`, `matrix` and `min_dim` serve the other LAPACK
families too (rules_lapack_eig.py, rules_lapack_svd.py).

The QR contracts, on logical values (batch dimensions leading), from jax/_src/lax/linalg.py
(`_geqrf_cpu_gpu_lowering`, `_householder_product_cpu_gpu_lowering`) and jaxlib's
QrFactorization / OrthogonalQr handlers (lapack_kernels.cc):

- geqrf (x [..., m, n]) -> (x overwritten: R on and above the diagonal, the Householder
  vectors below it; tau [..., min(m, n)]), both of x's type.
- orgqr / ungqr (x [..., m, n], tau [..., k]) -> Q [..., m, n] of x's type: the first n
  columns of H_1 ... H_k, k <= n <= m (LAPACK's orgqr/ungqr refuse other sizes).

A call of another form (an operand too many or few, a type other than the target's letter
names, a tau of another rank, batch or type, k > n or n > m by the bounds, results of other
types or dims) is an HloVerifyError naming the instruction; dynamic sizes that break
k <= n <= m at run time are the lowerings' DynamicSizeError.
"""

from __future__ import annotations

from ..hlo import attrs
from . import algebra
from .lapack_calls import LAPACK_TYPES, check_operands, check_result_types
from .rules import custom_call_rule
from .sizes import bound_of, derive
from .square import one_kind, square


def lapack(kinds: str, name: str):
    """Register a rule for lapack_{s,d,c,z}NAME_ffi (the kinds given)."""
    def register(fn):
        return custom_call_rule(*(f"lapack_{k}{name}_ffi" for k in kinds))(fn)
    return register


def matrix(ctx, operand):
    """(batch dims, m, n) of a LAPACK call's [batch..., m, n] operand dims."""
    if isinstance(operand, list) or len(operand) < 2:
        raise ctx.error("the LAPACK custom call needs an array of rank >= 2 (batch..., m, n)")
    return operand[:-2], operand[-2], operand[-1]


def min_dim(m, n):
    """min(m, n) of two Dims, dynamic when either is."""
    return derive(algebra.minimum, (m, n), min(bound_of(m), bound_of(n)), key="min")


@lapack("sdcz", "potrf")
def _potrf_rule(ctx, inst, operands):
    batch, m, n = matrix(ctx, operands[0])
    square(inst, operands[0])  # an [n of <=8, 8] matrix factored garbage (info n)
    return [operands[0], batch]


@lapack("sdcz", "getrf")
def _getrf_rule(ctx, inst, operands):
    batch, m, n = matrix(ctx, operands[0])
    return [operands[0], batch + (min_dim(m, n),), batch]


@lapack("sd", "syevd")
@lapack("cz", "heevd")
def _syevd_rule(ctx, inst, operands):
    batch, m, n = matrix(ctx, operands[0])
    square(inst, operands[0])
    return [operands[0], batch + (n,), batch]


@lapack("sdcz", "trsm")
def _trsm_rule(ctx, inst, operands):
    """x of b's dims; a is square and pairs with b's rows (side L) or columns (side R), as
    in BLAS trsm (a half-dynamic a was an IndexError at run time)."""
    a, b = matrix(ctx, operands[0]), matrix(ctx, operands[1])
    square(inst, operands[0])
    names = [o.name for o in inst.operands]
    left = attrs.ffi_char(inst, "side", "L") == "L"
    rank_b = len(operands[1])
    one_kind(inst, [((a[2], f"operand 0 '{names[0]}' dimension {len(operands[0]) - 1}"),
                     (b[1] if left else b[2],
                      f"operand 1 '{names[1]}' dimension {rank_b - 2 if left else rank_b - 1}"))],
             f"trsm (side {'L' if left else 'R'})")
    return operands[1]


custom_call_rule(*(f"blas_{k}trsm_ffi" for k in "sdcz"))(_trsm_rule)


def qr_rule(ctx, inst, operands, allowed=LAPACK_TYPES):
    """geqrf's rule; XLA's `Qr` call (rules_xla_linalg.py) has the same form."""
    element = check_operands(ctx, inst, operands, 1, allowed)
    check_result_types(ctx, inst, [element, element])
    x = operands[0]
    return [x, x[:-2] + (min_dim(x[-2], x[-1]),)]


def householder_product_rule(ctx, inst, operands, allowed=LAPACK_TYPES):
    """orgqr/ungqr's rule; XLA's `ProductOfElementaryHouseholderReflectors` has the same."""
    element = check_operands(ctx, inst, operands, 2, allowed)
    check_result_types(ctx, inst, [element])
    a, tau = (o.shape for o in inst.operands)
    # k <= n <= m between static sizes; a dynamic one's bound is not its size (the
    # lowerings check the sizes at run time)
    sizes = [(s.dims[d], s.dynamic[d]) for s, d in ((tau, -1), (a, -1), (a, -2))]
    if tau.rank != a.rank - 1 or tau.dims[:-1] != a.dims[:-2] or any(
            x > y for (x, dx), (y, dy) in zip(sizes, sizes[1:], strict=False) if not (dx or dy)):
        raise ctx.error(f"{attrs.string(inst, 'custom_call_target')} takes x [..., m, n] and "
                        f"tau [..., k] of its batch with k <= n <= m, not {a} and {tau}")
    return operands[0]


lapack("sdcz", "geqrf")(qr_rule)
lapack("sd", "orgqr")(householder_product_rule)
lapack("cz", "ungqr")(householder_product_rule)
