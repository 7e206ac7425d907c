"""What jaxlib's LAPACK FFI handlers bind, checked for the shape rules of their calls.

jaxlib/cpu/lapack_kernels.cc binds each `lapack_{s,d,c,z}NAME_ffi` handler to buffers of one
element type (the letter: s f32, d f64, c c64, z c128) and results of fixed arity and types;
XLA would refuse a call that does not fit when it runs. dynhlo refuses it when the module
compiles: an HloVerifyError naming the instruction (the dims themselves are checked by the
engine against what the rule returns). A GPU solver call (`cusolver_NAME_ffi`, one target for
every type) runs these rules too (rules_gpu_solver.py): its type comes from its operand.
"""

from __future__ import annotations

import re

from ..hlo import attrs
from .square import square

LETTER_TYPES = {"s": "f32", "d": "f64", "c": "c64", "z": "c128"}
COMPLEX_TYPES = {"f32": "c64", "f64": "c128", "c64": "c64", "c128": "c128"}
LAPACK_TYPES = tuple(COMPLEX_TYPES)   # the element types LAPACK's calls take


def check_operands(ctx, inst, operands, count: int, allowed=LAPACK_TYPES) -> str:
    """The element type of the call's matrices after checking: `count` operands, arrays all,
    the first of rank >= 2 (batch..., m, n), all of one type of `allowed` (by default f32,
    f64, c64, c128), the one its target's letter names (lapack_cgeev_ffi: c64).
    HloVerifyError otherwise."""
    target = attrs.string(inst, "custom_call_target")
    if len(operands) != count:
        raise ctx.error(f"{target} takes {count} operand(s), not {len(operands)}")
    if any(isinstance(o, list) for o in operands) or len(operands[0]) < 2:
        raise ctx.error(f"{target} needs a matrix operand of rank >= 2 (batch..., m, n), not "
                        f"{inst.operands[0].shape}")
    types = [o.shape.element_type for o in inst.operands]
    letter = re.fullmatch(r"lapack_([sdcz])\w+_ffi", target)
    want = LETTER_TYPES[letter.group(1)] if letter else types[0]
    if want not in allowed or any(t != want for t in types):
        what = want if letter else "one type of " + ", ".join(allowed) + " for its"
        raise ctx.error(f"{target} takes {what} operands, not "
                        f"{', '.join(str(o.shape) for o in inst.operands)}")
    return want


def check_result_types(ctx, inst, want: list[str]) -> None:
    """The call's results are a tuple of arrays of the element types `want` (one type: an
    array of it, not a tuple). HloVerifyError otherwise."""
    shape = inst.shape
    if len(want) == 1:
        got = None if shape.is_tuple else [shape.element_type]
    else:
        elements = shape.elements if shape.is_tuple else ()
        got = None if any(e.is_tuple for e in elements) else [e.element_type for e in elements]
    if got != want:
        what = "an array" if len(want) == 1 else f"a tuple of {len(want)}"
        raise ctx.error(f"{attrs.string(inst, 'custom_call_target')} of "
                        f"{inst.operands[0].shape} gives {what} of element types "
                        f"({', '.join(want)}), not {shape}")


def check_square(ctx, inst, operands) -> None:
    """Square matrices by their bounds (a dynamic m x n is checked again at run time), and
    never one dynamic and one static dimension (square.py: UnsupportedError)."""
    square(inst, operands[0])
    shape = inst.operands[0].shape
    if shape.dims[-1] != shape.dims[-2]:
        raise ctx.error(f"{attrs.string(inst, 'custom_call_target')} needs square matrices, "
                        f"not {shape}")
