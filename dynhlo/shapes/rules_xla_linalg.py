"""Shape rules of XLA's own linear-algebra custom calls, the ones its expander passes rewrite
before a backend sees them: `Qr` and `ProductOfElementaryHouseholderReflectors`
(xla/hlo/transforms/expanders/qr_expander.cc) and `Eigh` (eigh_expander.cc). TensorFlow's
tf2xla bridge emits them for tf.linalg.qr, solve, inv, expm (Qr) and tf.linalg.eigh (Eigh).

The contracts, on logical values (batch dimensions leading), for a of f16, bf16, f32, f64, c64
or c128 (XLA's floating-point and complex types):

- Qr (a [..., m, n]) -> (a overwritten: R on and above the diagonal, the Householder vectors
  below it; taus [..., min(m, n)]), both of a's type. LAPACK geqrf's conventions (beta =
  -sign(re alpha) * norm, H_j = I - tau_j v_j v_j^H, tau = 0 where the column below the
  diagonal is zero and alpha is real).
- ProductOfElementaryHouseholderReflectors (a [..., m, n], taus [..., k]) -> Q [..., m, n] of
  a's type: the first n columns of H_1 ... H_k, the vectors read below a's diagonal; XLA
  refuses m < n, and reads columns 0..k-1 of a, so k <= n <= m (LAPACK orgqr/ungqr's rule).
- Eigh (a [..., n, n]; backend_config "lower,sort_eigenvalues,max_iter,tol", e.g.
  "1,1,100,0.000001") -> (v [..., n, n] of a's type: the eigenvectors as columns, w [..., n] of
  a's real type): the Hermitian matrix read from its lower (lower != 0) or upper triangle,
  a v = v diag(w).

A call of another form (an operand too many or few, another type, a rank below 2, taus of
another rank, batch or type, k > n or n > m by the bounds, a non-square Eigh, a backend_config
that is not four comma-separated numbers, results of other types or arity) is an
HloVerifyError naming the instruction; dynamic sizes that break these rules at run time are
the lowerings' DynamicSizeError.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from ..errors import HloVerifyError
from ..hlo import attrs
from .lapack_calls import check_operands, check_result_types, check_square
from .rules_lapack import householder_product_rule, qr_rule
from .rules import CUSTOM_CALL_RULES

QR, HOUSEHOLDER, EIGH = "Qr", "ProductOfElementaryHouseholderReflectors", "Eigh"

# XLA's types for these expansions (IsFloatingPointType or IsComplexType), each with the type
# its eigenvalues have (ComplexComponentType of a complex one).
REAL_TYPES = {"f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64", "c64": "f32",
              "c128": "f64"}


class EighConfig(NamedTuple):
    """Eigh's backend_config: which triangle holds the matrix, whether the eigenvalues are
    sorted ascending, and the Jacobi sweeps' limit and relative tolerance."""
    lower: bool
    sort_eigenvalues: bool
    max_iter: int
    tol: float


def eigh_config(inst) -> EighConfig:
    """The decoded backend_config of an Eigh call: "lower,sort,max_iter,tol" (integers, as
    absl::SimpleAtoi reads them, nonzero for true; a float tol). HloVerifyError naming the
    instruction for any other text (XLA's EighExpander refuses it too)."""
    def decode(i):
        text = attrs.string(i, "backend_config", "")
        parts = [p.strip() for p in text.split(",")]
        try:
            lower, sort, max_iter = (int(p) for p in parts[:3])
            tol = float(parts[3])
            if len(parts) != 4:
                raise ValueError
        except (ValueError, IndexError):
            raise HloVerifyError(
                f"Eigh needs backend_config=\"lower,sort_eigenvalues,max_iter,tol\" (like "
                f"\"1,1,100,0.000001\"), not {text!r}", i.name) from None
        return EighConfig(lower != 0, sort != 0, max_iter, tol)
    return inst.decoded(("eigh_config",), decode)


def _eigh_rule(ctx, inst, operands):
    element = check_operands(ctx, inst, operands, 1, REAL_TYPES)
    check_square(ctx, inst, operands)
    eigh_config(inst)
    check_result_types(ctx, inst, [element, REAL_TYPES[element]])
    a = operands[0]
    return [a, a[:-2] + (a[-1],)]


CUSTOM_CALL_RULES.update({QR: partial(qr_rule, allowed=REAL_TYPES),
                          HOUSEHOLDER: partial(householder_product_rule, allowed=REAL_TYPES),
                          EIGH: _eigh_rule})
