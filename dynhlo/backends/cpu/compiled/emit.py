"""LLVM IR of one elementwise instruction on register values, with XLA's semantics.

Only correctly rounded operations are here, so a kernel's results are the reference's bit
for bit: IEEE + - * /, sqrt, rsqrt as 1 / sqrt (the reference's two steps), fmod (exact),
sign, floor, ceil, the two roundings, comparisons, select, clamp,
maximum/minimum (NaN propagates, -0 below +0: LLVM's llvm.maximum/llvm.minimum are IEEE
754-2019's, as minmax.py's), f32 power by a constant exponent of 2, 3, 4, -1 or -2 (the
reference's f64 products rounded once, float_power.py), integer arithmetic (wrapping; x/0 = -1, MIN/-1 = MIN as the
reference), bitwise ops and conversions (float to integer saturating, NaN to 0: LLVM's
fptosi.sat). Transcendental functions stay NumPy's (docs/DESIGN.md, compiled CPU path).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ..float_power import EXACT_EXPONENTS

I1 = ir.IntType(1)
FLOATS = {"f32": ir.FloatType(), "f64": ir.DoubleType()}
INTS = {"s8": 8, "s16": 16, "s32": 32, "s64": 64, "u8": 8, "u16": 16, "u32": 32, "u64": 64}
TYPES = frozenset({"pred", *FLOATS, *INTS})
_SUFFIX = {"f32": "f32", "f64": "f64"}


def ir_type(element_type: str) -> ir.Type:
    """The register type of an element type: i1 for pred, iN, float or double."""
    if element_type == "pred":
        return I1
    return FLOATS.get(element_type) or ir.IntType(INTS[element_type])


def _intrinsic(module, name: str, element_type: str, arity: int = 1, result=None):
    full = f"llvm.{name}.{_SUFFIX[element_type]}"
    if full in module.globals:
        return module.globals[full]
    t = ir_type(element_type)
    return ir.Function(module, ir.FunctionType(result or t, [t] * arity), full)


def _kind(element_type: str) -> str:
    return "f" if element_type in FLOATS else "b" if element_type == "pred" else \
        "u" if element_type.startswith("u") else "s"


def _float_to_int(b, module, x, source: str, target: str):
    signed = _kind(target) == "s"
    bits = INTS[target]
    name = f"llvm.fpto{'s' if signed else 'u'}i.sat.i{bits}.{_SUFFIX[source]}"
    fn = module.globals.get(name) or ir.Function(
        module, ir.FunctionType(ir.IntType(bits), [ir_type(source)]), name)
    return b.call(fn, [x])


def _convert(b, module, x, source: str, target: str):
    sk, tk, tt = _kind(source), _kind(target), ir_type(target)
    if source == target:
        return x
    if tk == "b":
        zero = ir.Constant(ir_type(source), 0)
        return b.fcmp_unordered("!=", x, zero) if sk == "f" else b.icmp_unsigned("!=", x, zero)
    if sk == "b":
        return b.uitofp(x, tt) if tk == "f" else b.zext(x, tt)
    if sk == "f" and tk == "f":
        return b.fpext(x, tt) if target == "f64" else b.fptrunc(x, tt)
    if sk == "f":
        return _float_to_int(b, module, x, source, target)
    if tk == "f":
        return b.sitofp(x, tt) if sk == "s" else b.uitofp(x, tt)
    sb, tb = INTS[source], INTS[target]
    if tb < sb:
        return b.trunc(x, tt)
    if tb > sb:
        return b.sext(x, tt) if sk == "s" else b.zext(x, tt)
    return x


def _divide(b, x, y, element_type: str):
    kind = _kind(element_type)
    if kind == "f":
        return b.fdiv(x, y)
    t = ir_type(element_type)
    zero, one, ones = ir.Constant(t, 0), ir.Constant(t, 1), ir.Constant(t, -1)
    by_zero = b.icmp_unsigned("==", y, zero)
    if kind == "u":
        return b.select(by_zero, ones, b.udiv(x, b.select(by_zero, one, y)))
    low = ir.Constant(t, -(1 << (INTS[element_type] - 1)))
    wraps = b.and_(b.icmp_signed("==", x, low), b.icmp_signed("==", y, ones))
    safe = b.select(b.or_(by_zero, wraps), one, y)
    return b.select(by_zero, ones, b.select(wraps, low, b.sdiv(x, safe)))


def _extreme(b, module, x, y, element_type: str, maximum: bool):
    kind = _kind(element_type)
    if kind == "f":
        return b.call(_intrinsic(module, "maximum" if maximum else "minimum", element_type, 2),
                      [x, y])
    if kind == "b":
        return b.or_(x, y) if maximum else b.and_(x, y)
    cmp = b.icmp_signed if kind == "s" else b.icmp_unsigned
    return b.select(cmp(">" if maximum else "<", x, y), x, y)


_FLOAT_CMP = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}


def _compare(b, inst, x, y):
    direction = attrs.string(inst, "direction")
    op = _FLOAT_CMP[direction]
    kind = _kind(inst.operands[0].shape.element_type)
    if kind == "f":   # NumPy's !=: true for NaN (unordered); the others ordered
        return b.fcmp_unordered(op, x, y) if direction == "NE" else b.fcmp_ordered(op, x, y)
    return b.icmp_signed(op, x, y) if kind == "s" else b.icmp_unsigned(op, x, y)


_UNARY_FLOAT = {Opcode.SQRT: "sqrt", Opcode.FLOOR: "floor", Opcode.CEIL: "ceil",
                Opcode.ROUND_NEAREST_EVEN: "roundeven", Opcode.ROUND_NEAREST_AFZ: "round"}


def _unary(b, module, op, x, element_type: str):
    kind = _kind(element_type)
    if op in _UNARY_FLOAT:
        return b.call(_intrinsic(module, _UNARY_FLOAT[op], element_type), [x])
    if op is Opcode.RSQRT:   # the reference's 1 / sqrt(x): two correctly rounded steps
        root = b.call(_intrinsic(module, "sqrt", element_type), [x])
        return b.fdiv(ir.Constant(x.type, 1.0), root)
    if op is Opcode.SIGN:
        return _sign(b, x, kind)
    if op is Opcode.NEGATE:
        return x if kind == "b" else b.fneg(x) if kind == "f" else b.neg(x)
    if op is Opcode.ABS:
        if kind == "f":
            return b.call(_intrinsic(module, "fabs", element_type), [x])
        if kind == "s":
            return b.select(b.icmp_signed("<", x, ir.Constant(x.type, 0)), b.neg(x), x)
        return x
    if op is Opcode.NOT:
        return b.xor(x, ir.Constant(x.type, -1 if kind != "b" else 1))
    raise AssertionError(op)


def _sign(b, x, kind: str):
    """XLA's sign as the reference's: -1, 0 or 1; a float's zeros and NaN are themselves
    (sign(-0) = -0); an unsigned integer's is 0 or 1, pred's itself."""
    zero = ir.Constant(x.type, 0)
    if kind == "b":
        return x
    if kind == "u":
        return b.zext(b.icmp_unsigned("!=", x, zero), x.type)
    if kind == "f":
        unit = b.select(b.fcmp_ordered(">", x, zero), ir.Constant(x.type, 1.0),
                        ir.Constant(x.type, -1.0))
        return b.select(b.fcmp_unordered("==", x, zero), x, unit)
    negative = b.select(b.icmp_signed("<", x, zero), ir.Constant(x.type, -1), zero)
    return b.select(b.icmp_signed(">", x, zero), ir.Constant(x.type, 1), negative)


def _remainder(b, x, y, element_type: str):
    """The reference's remainder: C's fmod for floats (exact); for integers the truncated
    remainder (the dividend's sign), x where y = 0, and 0 for y = -1 (MIN % -1 included)."""
    kind = _kind(element_type)
    if kind == "f":
        return b.frem(x, y)
    t = ir_type(element_type)
    zero, one = ir.Constant(t, 0), ir.Constant(t, 1)
    by_zero = b.icmp_unsigned("==", y, zero)
    if kind == "u":
        return b.select(by_zero, x, b.urem(x, b.select(by_zero, one, y)))
    safe = b.select(b.or_(by_zero, b.icmp_signed("==", y, ir.Constant(t, -1))), one, y)
    return b.select(by_zero, x, b.srem(x, safe))


def _binary(b, module, op, x, y, element_type: str):
    kind = _kind(element_type)
    if op is Opcode.ADD:
        return b.or_(x, y) if kind == "b" else b.fadd(x, y) if kind == "f" else b.add(x, y)
    if op is Opcode.SUBTRACT:
        return b.xor(x, y) if kind == "b" else b.fsub(x, y) if kind == "f" else b.sub(x, y)
    if op is Opcode.MULTIPLY:
        return b.and_(x, y) if kind == "b" else b.fmul(x, y) if kind == "f" else b.mul(x, y)
    if op is Opcode.DIVIDE:
        return _divide(b, x, y, element_type)
    if op is Opcode.REMAINDER:
        return _remainder(b, x, y, element_type)
    if op in (Opcode.MAXIMUM, Opcode.MINIMUM):
        return _extreme(b, module, x, y, element_type, op is Opcode.MAXIMUM)
    if op is Opcode.AND:
        return b.and_(x, y)
    if op is Opcode.OR:
        return b.or_(x, y)
    if op is Opcode.XOR:
        return b.xor(x, y)
    raise AssertionError(op)


# the operands an exponent's constant is read through: each passes its operand's value on
_EXPONENT_VIEWS = frozenset({Opcode.BROADCAST, Opcode.RESHAPE, Opcode.COPY, Opcode.TRANSPOSE,
                             Opcode.SLICE, Opcode.SET_DIMENSION_SIZE})


def constant_exponent(inst) -> float | None:
    """The exponent of f32 power `inst` where it is one constant of EXACT_EXPONENTS (a
    scalar or uniform constant seen through broadcasts, reshapes and the like), else None."""
    if inst.opcode is not Opcode.POWER or inst.shape.element_type != "f32":
        return None
    y = inst.operands[1]
    while y.opcode in _EXPONENT_VIEWS:
        y = y.operands[0]
    literal = y.literal if y.opcode is Opcode.CONSTANT else None
    if literal is None or isinstance(literal, tuple) or y.shape.element_type != "f32" or \
            not np.size(literal):
        return None
    flat = np.asarray(literal).reshape(-1)
    value = float(flat[0])
    return value if value in EXACT_EXPONENTS and bool((flat == flat[0]).all()) else None


def _power(b, x, exponent: float):
    """float_power.EXACT_EXPONENTS's form in f64 (no fast-math flags: nothing reassociates
    or contracts), rounded once to f32: the reference's bits."""
    double = ir.DoubleType()
    wide = b.fpext(x, double)
    square = b.fmul(wide, wide)
    one = ir.Constant(double, 1.0)
    value = {2.0: lambda: square, 3.0: lambda: b.fmul(square, wide),
             4.0: lambda: b.fmul(square, square), -1.0: lambda: b.fdiv(one, wide),
             -2.0: lambda: b.fdiv(one, square)}[exponent]()
    return b.fptrunc(value, x.type)


UNARY = frozenset({*_UNARY_FLOAT, Opcode.NEGATE, Opcode.ABS, Opcode.NOT, Opcode.RSQRT,
                   Opcode.SIGN})
BINARY = frozenset({Opcode.ADD, Opcode.SUBTRACT, Opcode.MULTIPLY, Opcode.DIVIDE,
                    Opcode.REMAINDER,
                    Opcode.MAXIMUM, Opcode.MINIMUM, Opcode.AND, Opcode.OR, Opcode.XOR})
OTHER = frozenset({Opcode.COMPARE, Opcode.SELECT, Opcode.CLAMP, Opcode.CONVERT, Opcode.COPY,
                   Opcode.POWER})


def emit(b: ir.IRBuilder, module: ir.Module, inst, args: list):
    """The value of elementwise `inst` from its operands' values `args`."""
    op = inst.opcode
    element_type = inst.shape.element_type
    if op in (Opcode.BROADCAST, Opcode.TRANSPOSE, Opcode.SLICE, Opcode.COPY,
              Opcode.SET_DIMENSION_SIZE, Opcode.RESHAPE):
        return args[0]
    if op in UNARY:
        return _unary(b, module, op, args[0], element_type)
    if op in BINARY:
        return _binary(b, module, op, args[0], args[1], element_type)
    if op is Opcode.POWER:
        return _power(b, args[0], constant_exponent(inst))
    if op is Opcode.COMPARE:
        return _compare(b, inst, *args)
    if op is Opcode.SELECT:
        return b.select(*args)
    if op is Opcode.CLAMP:
        low, x, high = args
        high_first = _extreme(b, module, x, low, element_type, True)
        return _extreme(b, module, high_first, high, element_type, False)
    if op is Opcode.CONVERT:
        return _convert(b, module, args[0], inst.operands[0].shape.element_type, element_type)
    raise AssertionError(op)


def combine(b: ir.IRBuilder, module: ir.Module, op, acc, x, element_type: str):
    """A reduction's accumulator `acc` combined with the next element `x` by `op` (add,
    multiply, maximum, minimum). A float sum or product is marked `reassoc`: LLVM may keep
    several partial accumulators (vector lanes) and combine them at the end, so the order
    differs from NumPy's pairwise one (results agree within rounding, not bit for bit);
    maximum and minimum, and all integer reductions, are exact in any order."""
    if op in (Opcode.ADD, Opcode.MULTIPLY) and _kind(element_type) == "f":
        value = b.fadd(acc, x) if op is Opcode.ADD else b.fmul(acc, x)
        value.flags.append("reassoc")
        return value
    return _binary(b, module, op, acc, x, element_type)
