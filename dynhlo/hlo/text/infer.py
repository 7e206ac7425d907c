"""Shapes of instructions written without one (`ROOT out = tuple(add.0, add.1)`).

XLA's parser accepts a shape-less instruction for the opcodes its `CanInferShape` lists and
infers the shape with ShapeInference once the operands are known; for the others it says
"cannot infer shape for opcode: X". dynhlo does the same after the module is read (callees
linked), for the opcodes below. Sources: xla/hlo/parser/hlo_parser.cc (`CanInferShape`,
`maybe_infer_shape`), xla/service/shape_inference.cc. Errors: ValueError with the reason; the
parser turns it into an HloParseError at the instruction.
"""

from __future__ import annotations

from typing import Callable

from ...errors import HloVerifyError
from ..attrs import window
from ..ir import Instruction
from ..opcodes import OP_SPECS, Group, Opcode, Trait
from ..shape import AnyShape, Shape, TupleShape, scalar

_COMPLEX_PART = {"c64": "f32", "c128": "f64"}
_REAL_TO_COMPLEX = {"f32": "c64", "f64": "c128"}

# XLA's CanInferShape: the opcodes an instruction may be written without a shape for (the
# INFERABLE trait of their OpSpec).
INFERABLE = frozenset(op for op, spec in OP_SPECS.items() if Trait.INFERABLE in spec.traits)


def infer_shapes(pending: list[Instruction]) -> None:
    """Give every instruction in `pending` (shape None) its inferred shape, operands first.

    Raises:
        ValueError: (instruction, reason) for a shape that cannot be inferred.
    """
    state: dict[int, int] = {}
    for inst in pending:
        _ensure(inst, state)


def _ensure(inst: Instruction, state: dict[int, int]) -> AnyShape:
    if inst.shape is not None:
        return inst.shape
    if state.get(id(inst)) == 1:
        raise ValueError(inst, "its shape depends on itself")
    state[id(inst)] = 1
    for operand in inst.operands:
        _ensure(operand, state)
    for comp in inst.called_computations():
        _ensure(comp.root, state)
    rule = _RULES.get(inst.opcode) or _from_spec(OP_SPECS[inst.opcode].result)
    if rule is None:
        raise ValueError(inst, f"dynhlo cannot infer the shape of {inst.opcode.value} "
                               "yet; write the shape")
    try:
        inst.shape = rule(inst, [o.shape for o in inst.operands])
    except (IndexError, KeyError, AttributeError, TypeError, ValueError, HloVerifyError) as exc:
        if isinstance(exc, ValueError) and exc.args[:1] == (inst,):
            raise  # a rule's own (instruction, reason)
        # a missing or malformed attribute too (`concatenate(a, b)` without dimensions=)
        raise ValueError(inst, f"its operands or attributes do not fit "
                               f"{inst.opcode.value} ({exc})") from None
    state[id(inst)] = 2
    return inst.shape


def _ints(inst: Instruction, key: str) -> list[int]:
    text = inst.attrs.get(key, "").strip().strip("{}")
    return [int(p) for p in text.split(",") if p.strip()]


def _one_int(inst: Instruction, key: str) -> int:
    values = _ints(inst, key)
    if len(values) != 1:
        raise ValueError(inst, f"{inst.opcode.value} takes one dimension in {key}=, got "
                               f"{inst.attrs.get(key, 'none')}")
    return values[0]


def _unary(inst, shapes):
    shape = shapes[0]
    if inst.opcode is Opcode.IS_FINITE:
        return shape.with_element_type("pred")
    if inst.opcode in (Opcode.ABS, Opcode.REAL, Opcode.IMAG) and \
            shape.element_type in _COMPLEX_PART:
        return shape.with_element_type(_COMPLEX_PART[shape.element_type])
    return shape


def _binary(inst, shapes):
    shape = max(shapes[:2], key=lambda s: s.rank)  # a scalar operand broadcasts
    if inst.opcode is Opcode.COMPARE:
        return shape.with_element_type("pred")
    if inst.opcode is Opcode.COMPLEX:
        return shape.with_element_type(_REAL_TO_COMPLEX[shape.element_type])
    return shape


def _ternary(inst, shapes):
    shape = max(shapes, key=lambda s: s.rank)
    return shape.with_element_type(shapes[1].element_type)


def _permuted(shape: Shape, order: list[int]) -> Shape:
    return Shape(shape.element_type, tuple(shape.dims[d] for d in order),
                 tuple(shape.dynamic[d] for d in order))


def _without(shape: Shape, dims: set[int]) -> Shape:
    keep = [d for d in range(shape.rank) if d not in dims]
    return _permuted(shape, keep)


def _one_or_tuple(shapes: list[AnyShape]) -> AnyShape:
    return shapes[0] if len(shapes) == 1 else TupleShape(tuple(shapes))


def _concatenate(inst, shapes):
    axis = _one_int(inst, "dimensions")
    first = shapes[0]
    dims = list(first.dims)
    dims[axis] = sum(s.dims[axis] for s in shapes)
    dynamic = list(first.dynamic)
    dynamic[axis] = any(s.dynamic[axis] for s in shapes)
    return Shape(first.element_type, tuple(dims), tuple(dynamic))


def _pad(inst, shapes):
    text = inst.attrs["padding"].strip()
    dims = []
    for n, part in zip(shapes[0].dims, text.split("x"), strict=False):
        lo, hi, *interior = (int(x) for x in part.split("_"))
        dims.append(max(0, lo + hi + n + max(n - 1, 0) * (interior[0] if interior else 0)))
    return Shape(shapes[0].element_type, tuple(dims), shapes[0].dynamic)


def _reduce(inst, shapes):
    n = len(shapes) // 2
    reduced = set(_ints(inst, "dimensions"))
    return _one_or_tuple([_without(s, reduced).with_element_type(init.element_type)
                          for s, init in zip(shapes[:n], shapes[n:], strict=True)])


def _reduce_window(inst, shapes):
    """ShapeInference::InferReduceWindowShape (InferWindowOutputShape per dimension)."""
    n = len(shapes) // 2
    base = shapes[0]
    w = window(inst)
    rank = base.rank
    size = w.get("size", [])
    stride = w.get("stride", [1] * rank)
    pad = w.get("pad", [(0, 0)] * rank)
    lhs, rhs = w.get("lhs_dilate", [1] * rank), w.get("rhs_dilate", [1] * rank)
    if any(len(v) != rank for v in (size, stride, pad, lhs, rhs)):
        raise ValueError(inst, f"its window has not one entry per dimension of the rank-{rank} "
                               "operand of reduce-window")
    if min(size + stride + lhs + rhs) < 1:
        raise ValueError(inst, "reduce-window's window sizes, strides and dilations must be "
                               "positive")
    dims = []
    for d in range(rank):
        padded = pad[d][0] + pad[d][1] + ((base.dims[d] - 1) * lhs[d] + 1 if base.dims[d] else 0)
        extent = (size[d] - 1) * rhs[d] + 1
        dims.append(0 if padded < extent else (padded - extent) // stride[d] + 1)
    return _one_or_tuple([Shape(init.element_type, tuple(dims), base.dynamic)
                          for init in shapes[n:]])


def _fft(inst, shapes):
    """ShapeInference::InferFftShape: RFFT halves the last length (+1), IRFFT restores it."""
    shape = shapes[0]
    kind = inst.attrs.get("fft_type", "FFT").strip()
    last = _ints(inst, "fft_length")[-1]
    if kind == "RFFT":
        dims = shape.dims[:-1] + (last // 2 + 1,)
        return Shape(_REAL_TO_COMPLEX[shape.element_type], dims, shape.dynamic)
    if kind == "IRFFT":
        dims = shape.dims[:-1] + (last,)
        return Shape(_COMPLEX_PART[shape.element_type], dims, shape.dynamic)
    return shape


def _dot(inst, shapes):
    lhs, rhs = shapes[0], shapes[-2] if inst.opcode is Opcode.SCALED_DOT else shapes[1]
    lb, rb = _ints(inst, "lhs_batch_dims"), _ints(inst, "rhs_batch_dims")
    lc, rc = _ints(inst, "lhs_contracting_dims"), _ints(inst, "rhs_contracting_dims")
    order = lb + [d for d in range(lhs.rank) if d not in lb + lc]
    rfree = [d for d in range(rhs.rank) if d not in rb + rc]
    left = _permuted(lhs, order)
    right = _permuted(rhs, rfree)
    return Shape(lhs.element_type, left.dims + right.dims, left.dynamic + right.dynamic)


def _set_dimension_size(inst, shapes):
    d = _one_int(inst, "dimensions")
    dynamic = list(shapes[0].dynamic)
    dynamic[d] = True
    return Shape(shapes[0].element_type, shapes[0].dims, tuple(dynamic))


def _topk(inst, shapes):
    k = int(inst.attrs["k"])
    shape = shapes[0]
    dims = shape.dims[:-1] + (k,)
    values = Shape(shape.element_type, dims, shape.dynamic[:-1] + (False,))
    return TupleShape((values, values.with_element_type("s32")))


def _from_spec(result: str) -> Callable | None:
    """The rule an OpSpec's `result` says (see dynhlo.hlo.opcodes.OpSpec), or None."""
    if result.startswith("operand "):
        return lambda inst, shapes, i=int(result.split()[1]): shapes[i]
    if result == "operands":
        return lambda inst, shapes: _one_or_tuple(shapes)
    if result == "called":
        return lambda inst, shapes: next(iter(inst.called.values()))[0].root.shape
    if result.endswith("[]"):
        return lambda inst, shapes: scalar(result[:-2])
    return None


def _map(inst, shapes):
    return shapes[0].with_element_type(inst.called["to_apply"][0].root.shape.element_type)


# The opcodes whose shape their OpSpec's `result` does not say (`_from_spec`).
_RULES: dict[Opcode, Callable] = {
    op: {Group.UNARY: _unary, Group.BINARY: _binary, Group.TERNARY: _ternary}[spec.group]
    for op, spec in OP_SPECS.items() if op in INFERABLE and spec.group in
    (Group.UNARY, Group.BINARY, Group.TERNARY)} | {
    Opcode.SET_DIMENSION_SIZE: _set_dimension_size,
    Opcode.TUPLE: lambda inst, shapes: TupleShape(tuple(shapes)),
    Opcode.GET_TUPLE_ELEMENT: lambda inst, shapes: shapes[0].elements[int(inst.attrs["index"])],
    Opcode.TRANSPOSE: lambda inst, shapes: _permuted(shapes[0], _ints(inst, "dimensions")),
    Opcode.CONCATENATE: _concatenate,
    Opcode.PAD: _pad,
    Opcode.REDUCE_WINDOW: _reduce_window,
    Opcode.FFT: _fft,
    Opcode.REDUCE: _reduce,
    Opcode.DOT: _dot,
    Opcode.TOPK: _topk,
    Opcode.MAP: _map,
    Opcode.SCATTER: lambda inst, shapes: _one_or_tuple(shapes[:len(shapes) // 2]),
}
