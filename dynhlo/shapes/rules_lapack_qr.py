"""Shape rules of JAX's QR on the CPU: `lapack_{s,d,c,z}geqrf_ffi`, `lapack_{s,d}orgqr_ffi`
and `lapack_{c,z}ungqr_ffi`.

The contracts, on logical values (batch dimensions leading), from jax/_src/lax/linalg.py
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
from .lapack_calls import LAPACK_TYPES, check_operands, check_result_types
from .rules_misc import _lapack, _min_dim  # rule registration; min(m, n) as getrf's


def qr_rule(ctx, inst, operands, allowed=LAPACK_TYPES):
    """geqrf's rule; XLA's `Qr` call (rules_xla_linalg.py) has the same form."""
    element = check_operands(ctx, inst, operands, 1, allowed)
    check_result_types(ctx, inst, [element, element])
    x = operands[0]
    return [x, x[:-2] + (_min_dim(x[-2], x[-1]),)]


def householder_product_rule(ctx, inst, operands, allowed=LAPACK_TYPES):
    """orgqr/ungqr's rule; XLA's `ProductOfElementaryHouseholderReflectors` has the same."""
    element = check_operands(ctx, inst, operands, 2, allowed)
    check_result_types(ctx, inst, [element])
    a, tau = (o.shape for o in inst.operands)
    # k <= n <= m between static sizes; a dynamic one's bound is not its size (the
    # lowerings check the sizes at run time)
    sizes = [(s.dims[d], s.dynamic[d]) for s, d in ((tau, -1), (a, -1), (a, -2))]
    if tau.rank != a.rank - 1 or tau.dims[:-1] != a.dims[:-2] or any(
            x > y for (x, dx), (y, dy) in zip(sizes, sizes[1:]) if not (dx or dy)):
        raise ctx.error(f"{attrs.string(inst, 'custom_call_target')} takes x [..., m, n] and "
                        f"tau [..., k] of its batch with k <= n <= m, not {a} and {tau}")
    return operands[0]


_lapack("sdcz", "geqrf")(qr_rule)
_lapack("sd", "orgqr")(householder_product_rule)
_lapack("cz", "ungqr")(householder_product_rule)
