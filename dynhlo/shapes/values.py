"""Integer values a program computes its sizes from, followed as size expressions.

JAX's shape-polymorphic exports compute every run-time size with integer instructions:
get-dimension-size, arithmetic (floor division spelt out as divide, sign, remainder and
select), a shape vector built by reshape and concatenate and read back by slice, then
set-dimension-size. Followed through the size algebra, such a size is the same expression
as the dimension it came from, one object, not a value read at run time: the rows of every
block of a residual network are the argument's rows, and JAX's `(l - k) // s + 1` is the
convolution's window size. A size read from data (a count the program computes from values)
stays a value, checked against its bound when read (sizes.value_size).

May assume: the instruction's operands were analyzed (their dims are in `info.dims`).
Semantics: XLA operation semantics of the integer ops (division truncates toward zero).
"""

from __future__ import annotations

import math

import numpy as np

from ..hlo import attrs
from ..hlo.opcodes import Opcode
from . import algebra, algebra_ops
from .algebra import Size
from .sizes import Sym, size_of, value_size
from .trees import ComputationInfo

# The most elements of an integer array followed as expressions (a shape vector has one
# per dimension); a larger one is data, not sizes.
MAX_ELEMENTS = 256

_INTEGER = {"pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"}
_NUMPY_INTS = {"s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64,
               "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64}
_RANGES = {"pred": (0, 1), **{t: (int(np.iinfo(ty).min), int(np.iinfo(ty).max))
                              for t, ty in _NUMPY_INTS.items()}}

_BINARY = {
    Opcode.ADD: algebra.add, Opcode.SUBTRACT: algebra.sub, Opcode.MULTIPLY: algebra.mul,
    Opcode.DIVIDE: algebra_ops.trunc_div, Opcode.REMAINDER: algebra_ops.trunc_rem,
    Opcode.MAXIMUM: algebra.maximum, Opcode.MINIMUM: algebra.minimum,
}
_LOGICAL = {Opcode.AND: algebra_ops.logical_and, Opcode.OR: algebra_ops.logical_or}


def value_dim(info: ComputationInfo, inst, bound: int, user, dim: int) -> Sym:
    """The dimension `dim` of `user` whose size is the value of scalar `inst`.

    A value computed from sizes alone is that size expression, clamped to [0, bound] (the
    user's lowering refuses a value outside it, as XLA's set-dimension-size does); a value
    read from data is `value_size`, checked when read.
    """
    size = scalar(info, inst)
    if size.data:
        return Sym(bound, value_size(inst, bound, user, dim))
    return Sym(bound, algebra.clamp(size, 0, None if bound < 0 else bound))


def scalar(info: ComputationInfo, inst) -> Size:
    """The value of a scalar (or one-element) instruction as an expression."""
    elements = vector(info, inst)
    if elements is not None and len(elements) == 1:
        return elements[0]
    return _opaque(inst)


def vector(info: ComputationInfo, inst) -> list[Size] | None:
    """The elements of a small static integer array, row-major, as expressions; None when
    it is not one (floats, dynamic, too large)."""
    memo = info.values
    if inst in memo:
        return memo[inst]
    stack = [inst]
    while stack:   # operands first, without recursion (a chain of thousands of adds)
        top = stack[-1]
        if top in memo:
            stack.pop()
            continue
        todo = [o for o in _operands(top) if o not in memo]
        if todo:
            stack.extend(todo)
            continue
        memo[top] = _elements(info, top)
        stack.pop()
    return memo[inst]


def _trackable(inst) -> bool:
    shape = inst.shape
    return not shape.is_tuple and shape.element_type in _INTEGER and \
        not any(shape.dynamic) and math.prod(shape.dims) <= MAX_ELEMENTS


def _operands(inst) -> list:
    """The operands `_elements` reads (none where it reads no values)."""
    if not _trackable(inst) or inst.opcode in (Opcode.GET_DIMENSION_SIZE, Opcode.CONSTANT,
                                               Opcode.PARAMETER):
        return []
    if inst.opcode in _RULES or inst.opcode in _BINARY or inst.opcode in _LOGICAL:
        return list(inst.operands)
    return []


def _elements(info: ComputationInfo, inst) -> list[Size] | None:
    if not _trackable(inst):
        return None
    op = inst.opcode
    if op is Opcode.GET_DIMENSION_SIZE:
        (d,) = attrs.ints(inst, "dimensions")
        dims = info.dims.get(inst.operands[0])
        if isinstance(dims, tuple) and 0 <= d < len(dims):
            return [size_of(dims[d])]
        return _fallback(inst)
    if op is Opcode.CONSTANT:
        return _constant(inst)
    if op is Opcode.GET_TUPLE_ELEMENT and inst.operands[0].opcode is Opcode.PARAMETER:
        known = info.param_values.get((inst.operands[0].parameter_number,
                                       attrs.integer(inst, "index")))
        if known is not None:
            return [known]
    args = [info.values.get(o) for o in inst.operands]
    if op in _RULES or op in _BINARY or op in _LOGICAL:
        if any(a is None for a in args):
            return _fallback(inst)
        out = _apply(inst, args)
        return out if out is not None and _fits(inst, out) else _fallback(inst)
    return _fallback(inst)


def _fits(inst, out: list[Size]) -> bool:
    """Whether every expression's values lie in the range of `inst`'s integer type: the
    algebra computes with unbounded integers, so a product or sum that may wrap (XLA's
    integer arithmetic wraps), or a narrowing convert of a larger value, is not that
    expression. An infinite end is a size that is not bounded (a `?` dimension: sizes are
    taken to fit their type); a value read from data is read as it is."""
    lo, hi = _RANGES[inst.shape.element_type]
    return all(x.data or ((x.lo == -algebra.INF or x.lo >= lo) and
                          (x.hi == algebra.INF or x.hi <= hi)) for x in out)


def _fallback(inst) -> list[Size] | None:
    """An instruction not followed: its scalar value is read at run time."""
    return [_opaque(inst)] if math.prod(inst.shape.dims) == 1 and not inst.shape.is_tuple \
        and inst.shape.element_type in _INTEGER else None


def _opaque(inst) -> Size:
    kind = inst.shape.element_type if not inst.shape.is_tuple else ""
    lo = 0 if kind == "pred" or kind.startswith("u") else -algebra.INF
    hi = 1 if kind == "pred" else algebra.INF
    return algebra.source("scalar", (inst,), lo, hi)


def _constant(inst) -> list[Size] | None:
    literal = inst.literal
    if literal is None:
        return None
    try:
        flat = [int(v) for v in literal.reshape(-1)]
    except (AttributeError, TypeError, ValueError):
        return None
    return [algebra.const(v) for v in flat]


def _apply(inst, args: list) -> list[Size] | None:
    op = inst.opcode
    if op in _BINARY or op in _LOGICAL:
        a, b = args
        if len(a) != len(b):
            return None
        fn = _BINARY.get(op)
        if fn is None:   # and / or: logical on pred, else bitwise (not followed)
            if inst.shape.element_type != "pred":
                return None
            fn = _LOGICAL[op]
        return [fn(x, y) for x, y in zip(a, b, strict=True)]
    return _RULES[op](inst, args)


def _same(inst, args):
    return args[0]


def _convert(inst, args):
    if inst.shape.element_type == "pred":
        return [algebra_ops.compare("NE", x, algebra.ZERO) for x in args[0]]
    return args[0]


def _grid(operand, elements: list[Size]) -> np.ndarray:
    """The elements of `operand` as an object array of its shape (row-major)."""
    grid = np.empty(len(elements), dtype=object)
    grid[:] = elements
    return grid.reshape(operand.shape.dims)


def _slice(inst, args):
    spec = attrs.slices(inst)
    if spec is None or len(spec) != len(inst.shape.dims):
        return None
    grid = _grid(inst.operands[0], args[0])
    return list(grid[tuple(slice(a, b, c) for a, b, c in spec)].reshape(-1))


def _concatenate(inst, args):
    """Any rank (a padding tensor [rank, 2] is built by concatenating its rows)."""
    (d,) = attrs.ints(inst, "dimensions", (0,))
    grids = [_grid(o, a) for o, a in zip(inst.operands, args, strict=True)]
    return list(np.concatenate(grids, axis=d).reshape(-1))


def _broadcast(inst, args):
    (x,) = args
    count = math.prod(inst.shape.dims)
    return x * count if len(x) == 1 else None


def _compare(inst, args):
    a, b = args
    direction = attrs.string(inst, "direction")
    if len(a) != len(b) or direction not in ("EQ", "NE", "LT", "LE", "GT", "GE"):
        return None
    return [algebra_ops.compare(direction, x, y) for x, y in zip(a, b, strict=True)]


def _select(inst, args):
    p, a, b = args
    if len(p) == 1 and len(a) > 1:
        p = p * len(a)
    if not len(p) == len(a) == len(b):
        return None
    return [algebra_ops.select(*xs) for xs in zip(p, a, b, strict=True)]


def _unary(fn):
    return lambda inst, args: [fn(x) for x in args[0]]


_RULES = {
    Opcode.RESHAPE: _same, Opcode.COPY: _same, Opcode.CONVERT: _convert,
    Opcode.SLICE: _slice, Opcode.CONCATENATE: _concatenate, Opcode.BROADCAST: _broadcast,
    Opcode.COMPARE: _compare, Opcode.SELECT: _select,
    Opcode.NEGATE: _unary(algebra.neg), Opcode.SIGN: _unary(algebra_ops.sign),
    Opcode.NOT: lambda inst, args: [algebra_ops.logical_not(x) for x in args[0]]
    if inst.shape.element_type == "pred" else None,
}
