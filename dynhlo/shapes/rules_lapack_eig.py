"""Shape rule of JAX's nonsymmetric eigendecomposition on the CPU: `lapack_{s,d,c,z}geev_ffi`.

The contract, on logical values (batch dimensions leading; the column-major layout JAX asks
for changes storage only), from jax/_src/lax/linalg.py `_eig_cpu_lowering` and jaxlib's
EigenvalueDecomposition / EigenvalueDecompositionComplex handlers (lapack_kernels.cc):

- operand x [..., n, n] (f32, f64, c64 or c128); attributes compute_left and compute_right,
  each 'N' (78: not computed) or 'V' (86: computed), as ui8 (jaxlib's eig::ComputationMode).
- real x: results (wr [..., n], wi [..., n] of x's type, vl [..., n, n], vr [..., n, n] of its
  complex type, info s32[...]): the eigenvalues wr + i wi; the eigenvectors as columns,
  unpacked from LAPACK's real form into complex ones (a pair of columns j, j+1 with
  wi[j] != 0 holds re and im of v_j; v_{j+1} is its conjugate).
- complex x: results (w [..., n], vl, vr [..., n, n], info), all of x's type but info.
- info: LAPACK's (> 0: the QR algorithm did not converge), or -4 for a matrix holding a
  non-finite value, which jaxlib does not hand to LAPACK. JAX turns the results of a matrix
  with info != 0 into NaN itself, after the call.

The vectors are declared [..., n, n] whether computed or not. A call of another form (an
operand too many or few, a non-square or rank-1 matrix, other result types or dims, a
missing or unknown compute_left/compute_right) is an HloVerifyError naming the instruction.
"""

from __future__ import annotations

import re

from ..hlo import attrs
from .lapack_calls import COMPLEX_TYPES, check_operands, check_result_types, check_square
from .rules_lapack import lapack  # registers lapack_{s,d,c,z}NAME_ffi rules

MODES = {"N": False, "V": True}  # jaxlib's eig::ComputationMode: no vectors, vectors


def computes(inst, side: str) -> bool:
    """Whether a geev call computes its `side` ('left' or 'right') eigenvectors."""
    return MODES[attrs.ffi_char(inst, f"compute_{side}", "N")]


def _check_modes(ctx, inst) -> None:
    config = inst.attrs.get("backend_config", "")
    for side in ("left", "right"):
        found = re.search(rf"\bcompute_{side}\s*=\s*(\d+)\s*:\s*ui8\b", config)
        if found is None or int(found.group(1)) not in map(ord, MODES):
            raise ctx.error(f"geev needs compute_{side} = 78 : ui8 ('N') or 86 : ui8 ('V') "
                            f"in its backend_config, not {config or 'none'}")


@lapack("sdcz", "geev")
def _geev_rule(ctx, inst, operands):
    element = check_operands(ctx, inst, operands, 1)
    check_square(ctx, inst, operands)
    _check_modes(ctx, inst)
    vectors = COMPLEX_TYPES[element]
    values = [element, element] if element in ("f32", "f64") else [element]
    check_result_types(ctx, inst, values + [vectors, vectors, "s32"])
    x = operands[0]
    batch, n = x[:-2], x[-1]
    return [batch + (n,)] * len(values) + [batch + (n, n)] * 2 + [batch]
