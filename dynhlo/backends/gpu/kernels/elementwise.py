"""Fused lowerings of elementwise opcodes: one Triton expression per op, at the given index.

Operands are read at the same index as the result (a rank-0 operand at the empty index).
Low-precision floats compute in f32, as XLA's GPU backend does, then round to the type
(types.cast: every conversion, XLA's rounding).
Integer division and remainder truncate toward zero (Triton's `//` and `%` on integers are
C's, as XLA's). Transcendentals come from `M` (libdevice on the GPU, plain-tl versions in
the interpreter). Semantics: XLA operation semantics, element-wise operations.
"""

from __future__ import annotations

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from .types import cast, is_float, is_unsigned


def same_index(emit):
    """Mark an emitter that reads every operand at the result's index (codegen.py emits
    those operands first, without recursion)."""
    emit.same_index = True
    return emit


def operands(k, inst, idx):
    """The operands' variables at the result's index (codegen's operand_index: a rank-0
    operand at the empty index, a dynamic size 1 meeting a larger one broadcast)."""
    return [k.value(o, k.operand_index(inst, o, idx)) for o in inst.operands]


def _compute(k, inst, x: str) -> str:
    """`x` as the type arithmetic happens in (f32 for f16/bf16)."""
    if inst.operands[0].shape.element_type in ("f16", "bf16"):
        return cast(x, "tl.float32")
    return x


def _result(k, inst, expr: str) -> str:
    return k.let(cast(expr, k.ttype(inst.shape.element_type)))


UNARY = {
    Opcode.EXP: "M.exp({})", Opcode.LOG: "M.log({})", Opcode.SQRT: "M.sqrt({})",
    Opcode.RSQRT: "tl.rsqrt({})", Opcode.TANH: "M.tanh({})", Opcode.SINE: "M.sin({})",
    Opcode.COSINE: "M.cos({})", Opcode.TAN: "M.tan({})", Opcode.FLOOR: "tl.floor({})",
    Opcode.CEIL: "tl.ceil({})", Opcode.LOGISTIC: "M.sigmoid({})",
    Opcode.LOG1P: "M.log1p({})", Opcode.EXPM1: "M.expm1({})", Opcode.ERF: "M.erf({})",
    Opcode.CBRT: "M.cbrt({})", Opcode.ROUND_NEAREST_AFZ: "M.round_afz({})",
    Opcode.ROUND_NEAREST_EVEN: "M.rint({})",
    Opcode.ACOS: "M.acos({})", Opcode.ACOSH: "M.acosh({})", Opcode.ASIN: "M.asin({})",
    Opcode.ASINH: "M.asinh({})", Opcode.ATAN: "M.atan({})", Opcode.ATANH: "M.atanh({})",
    Opcode.COSH: "M.cosh({})", Opcode.SINH: "M.sinh({})",
}


def float_only(inst) -> bool:
    return is_float(inst.shape.element_type)


@same_index
def unary_math(k, inst, idx):
    (x,) = operands(k, inst, idx)
    return _result(k, inst, UNARY[inst.opcode].format(_compute(k, inst, x)))


@same_index
def negate(k, inst, idx):
    (x,) = operands(k, inst, idx)
    if not float_only(inst):
        return _result(k, inst, f"-{x}")
    # XLA's negate flips the sign bit, of NaN too (jnp.signbit(-x) reads it). Triton's
    # unary minus is 0 - x (+0 for +0) and x * -1.0 gives the GPU's canonical NaN, so the
    # bit is flipped in the float's own width (exact: no rounding, payloads kept).
    t = inst.shape.element_type
    bits = _SIGN_BITS[t]
    return k.let(f"({x}.to(tl.int{bits}, bitcast=True) ^ tl.full([], {-(1 << (bits - 1))}, "
                 f"tl.int{bits})).to({k.ttype(t)}, bitcast=True)")


_SIGN_BITS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


@same_index
def abs_(k, inst, idx):
    (x,) = operands(k, inst, idx)
    return _result(k, inst, f"tl.abs({_compute(k, inst, x)})")


@same_index
def sign(k, inst, idx):
    (x,) = operands(k, inst, idx)
    t = inst.shape.element_type
    if is_unsigned(t):  # Triton refuses -1 next to an unsigned value
        return _result(k, inst, f"{x} != 0")
    x = _compute(k, inst, x)
    if is_float(t):  # NaN and -0.0 stay themselves
        return _result(k, inst, f"tl.where({x} > 0, 1, tl.where({x} < 0, -1, {x}))")
    tt = k.ttype(t)
    one, zero = f"tl.full([], 1, {tt})", f"tl.full([], 0, {tt})"
    return k.let(f"tl.where({x} > {zero}, {one}, tl.where({x} < {zero}, -{one}, {zero}))")


@same_index
def is_finite(k, inst, idx):
    (x,) = operands(k, inst, idx)
    x = _compute(k, inst, x)
    return k.let(f"({x} == {x}) & (tl.abs({x}) != float('inf'))")


@same_index
def not_(k, inst, idx):
    (x,) = operands(k, inst, idx)
    t = inst.shape.element_type
    if t == "pred":
        return k.let(f"{x} == 0")
    # all ones of the type: Triton's `~` xors with -1, which it refuses for unsigned types
    ones = (1 << _WIDTH[t]) - 1 if is_unsigned(t) else -1
    return k.let(f"{x} ^ tl.full([], {ones}, {k.ttype(t)})")


def _arith(symbol):
    @same_index
    def emit(k, inst, idx):
        x, y = operands(k, inst, idx)
        return _result(k, inst, f"{_compute(k, inst, x)} {symbol} {_compute(k, inst, y)}")
    return emit


add, subtract, multiply = _arith("+"), _arith("-"), _arith("*")
and_, or_, xor = _arith("&"), _arith("|"), _arith("^")


@same_index
def divide(k, inst, idx):
    x, y = operands(k, inst, idx)
    if inst.shape.element_type == "f64":
        return _result(k, inst, f"{x} / {y}")
    return _result(k, inst, f"tl.div_rn({_compute(k, inst, x)}, {_compute(k, inst, y)})")


@same_index
def remainder(k, inst, idx):
    x, y = operands(k, inst, idx)
    return _result(k, inst, f"M.fmod({_compute(k, inst, x)}, {_compute(k, inst, y)})")


@same_index
def power(k, inst, idx):
    x, y = operands(k, inst, idx)
    return _result(k, inst, f"M.pow({_compute(k, inst, x)}, {_compute(k, inst, y)})")


@same_index
def atan2(k, inst, idx):
    x, y = operands(k, inst, idx)
    return _result(k, inst, f"M.atan2({_compute(k, inst, x)}, {_compute(k, inst, y)})")


def _minmax(fn):
    @same_index
    def emit(k, inst, idx):
        x, y = operands(k, inst, idx)
        if is_float(inst.shape.element_type):
            x, y = _compute(k, inst, x), _compute(k, inst, y)
            # XLA's maximum/minimum: NaN propagates, -0 < +0 (kmath/common.py)
            return _result(k, inst, f"M.{fn}({x}, {y})")
        return k.let(f"tl.{fn}({x}, {y})")
    return emit


maximum, minimum = _minmax("maximum"), _minmax("minimum")

_COMPARE = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}


def plain_compare(inst) -> bool:
    return attrs.string(inst, "direction") in _COMPARE and attrs.string(
        inst, "type") != "TOTALORDER"


@same_index
def compare(k, inst, idx):
    x, y = operands(k, inst, idx)
    x, y = _compute(k, inst, x), _compute(k, inst, y)
    return k.let(f"{x} {_COMPARE[attrs.string(inst, 'direction')]} {y}")


@same_index
def select(k, inst, idx):
    p, x, y = operands(k, inst, idx)
    return _result(k, inst, f"tl.where({p}, {x}, {y})")


@same_index
def clamp(k, inst, idx):
    lo, x, hi = operands(k, inst, idx)
    if is_float(inst.shape.element_type):  # NaN propagates, -0 < +0, as in XLA
        lo, x, hi = (_compute(k, inst, v) for v in (lo, x, hi))
        return _result(k, inst, f"M.minimum(M.maximum({x}, {lo}), {hi})")
    return _result(k, inst, f"tl.minimum(tl.maximum({x}, {lo}), {hi})")


def convert_ok(inst) -> bool:
    src, dst = inst.operands[0].shape.element_type, inst.shape.element_type
    return not (is_float(src) and not is_float(dst) and dst != "pred")


@same_index
def convert(k, inst, idx):
    (x,) = operands(k, inst, idx)
    if inst.shape.element_type == "pred":
        return k.let(f"{_compute(k, inst, x)} != 0")
    return k.let(cast(x, k.ttype(inst.shape.element_type)))


@same_index
def copy(k, inst, idx):
    (x,) = operands(k, inst, idx)
    return x


_UNSIGNED = {8: "tl.uint8", 16: "tl.uint16", 32: "tl.uint32", 64: "tl.uint64"}
_SIGNED = {8: "tl.int8", 16: "tl.int16", 32: "tl.int32", 64: "tl.int64"}
_WIDTH = {"s8": 8, "u8": 8, "s16": 16, "u16": 16, "s32": 32, "u32": 32, "s64": 64, "u64": 64}


def _shift(kind):
    """XLA's shifts (elemental_ir_emitter SaturateShiftIfNecessary): the amount is read as
    unsigned; an amount >= the bit width gives 0 (left, logical) or the sign fill
    (arithmetic, which shifts the bits as signed whatever the type). LLVM's shl/lshr/ashr
    by >= the width are poison, so the amount is masked before the shift."""
    @same_index
    def emit(k, inst, idx):
        x, y = operands(k, inst, idx)
        t = inst.shape.element_type
        bits = _WIDTH[t]
        u, s, out = _UNSIGNED[bits], _SIGNED[bits], k.ttype(t)
        ux, uy = k.let(f"{x}.to({u}, bitcast=True)"), k.let(f"{y}.to({u}, bitcast=True)")
        big = k.let(f"{uy} >= tl.full([], {bits}, {u})")
        amount = k.let(f"tl.where({big}, tl.full([], 0, {u}), {uy})")
        if kind == "left":
            expr = f"tl.where({big}, tl.full([], 0, {u}), {ux} << {amount})"
        elif kind == "logical":
            expr = f"tl.where({big}, tl.full([], 0, {u}), {ux} >> {amount})"
        else:
            sx = k.let(f"{x}.to({s}, bitcast=True)")
            fill = f"tl.where({sx} < tl.full([], 0, {s}), tl.full([], -1, {s}), tl.full([], 0, {s}))"
            shifted = f"{sx} >> {amount}.to({s}, bitcast=True)"
            return k.let(f"tl.where({big}, {fill}, {shifted}).to({out}, bitcast=True)")
        return k.let(f"({expr}).to({out}, bitcast=True)")
    return emit


@same_index
def mulhi(k, inst, idx):
    """XLA kMulhi: the high half of the double-width product, bit-exact: below 64 bits
    through the 64-bit product (signed or unsigned as the type), 64 bits from 32-bit halves
    (kmath.umulhi64/smulhi64)."""
    x, y = operands(k, inst, idx)
    t = inst.shape.element_type
    bits, out = _WIDTH[t], k.ttype(t)
    if bits == 64:
        fn = "M.umulhi64" if is_unsigned(t) else "M.smulhi64"
        return k.let(f"{fn}({x}, {y}).to({out}, bitcast=True)")
    wide = "tl.uint64" if is_unsigned(t) else "tl.int64"
    return k.let(f"(({x}.to({wide}) * {y}.to({wide})) >> tl.full([], {bits}, {wide}))"
                 f".to({out})")


def int_only(inst) -> bool:
    return not is_float(inst.shape.element_type) and inst.shape.element_type != "pred"


shift_left = _shift("left")
shift_right_logical, shift_right_arithmetic = _shift("logical"), _shift("arith")


def float_result(inst) -> bool:
    return is_float(inst.shape.element_type)


def float_operand(inst) -> bool:
    return is_float(inst.operands[0].shape.element_type)
