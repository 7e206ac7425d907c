"""StableHLO ops with a direct HLO counterpart: elementwise, constants, data movement, dot.

Each rule writes the HLO instruction(s) for one op and returns the result Vals. Result dims
that are dynamic (`?` in StableHLO) get the bound that follows from the operands' bounds; where
a rule does not know it, `?` stays and dynamic dimension inference bounds it after parsing.
Small integer tensors carry size expressions (shape_exprs) through the ops JAX uses for shape
arithmetic.
"""

from __future__ import annotations

import re

import numpy as np

from ...errors import ResourceExhaustedError
from ...hlo.shape import UNBOUNDED, Shape, TupleShape
from ...hlo.types import to_numpy_dtype
from . import shape_exprs as sx
from .convert import OpContext, bounded, converts, where
from .emit import Val, dims_text, is_type
from .precision import precision_attrs
from .slices import clamp_gather_starts

UNARY = {
    "abs": "abs", "negate": "negate", "exponential": "exponential",
    "exponential_minus_one": "exponential-minus-one", "log": "log",
    "log_plus_one": "log-plus-one", "sqrt": "sqrt", "rsqrt": "rsqrt", "cbrt": "cbrt",
    "tanh": "tanh", "logistic": "logistic", "sine": "sine", "cosine": "cosine", "tan": "tan",
    "floor": "floor", "ceil": "ceil", "round_nearest_afz": "round-nearest-afz",
    "round_nearest_even": "round-nearest-even", "sign": "sign", "not": "not",
    "popcnt": "popcnt", "count_leading_zeros": "count-leading-zeros", "is_finite": "is-finite",
    "real": "real", "imag": "imag", "convert": "convert", "bitcast_convert": "bitcast-convert",
}
BINARY = {
    "add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "divide",
    "remainder": "remainder", "power": "power", "maximum": "maximum", "minimum": "minimum",
    "and": "and", "or": "or", "xor": "xor", "shift_left": "shift-left",
    "shift_right_arithmetic": "shift-right-arithmetic",
    "shift_right_logical": "shift-right-logical", "complex": "complex", "atan2": "atan2",
}
# stablehlo op -> shape_exprs op, for the integer arithmetic of shape computations
_EXPR_OPS = {"add": "add", "subtract": "sub", "multiply": "mul", "divide": "div",
             "remainder": "rem", "maximum": "max", "minimum": "min", "negate": "neg",
             "abs": "abs", "sign": "sign", "and": "and", "or": "or", "xor": "xor"}


def same_rank_bounds(shape: Shape, operands: list[Val]) -> list:
    """Bounds of `?` dims read off operands of the same rank (elementwise ops); none for a
    tuple."""
    if shape.is_tuple:
        return []
    out = []
    for d in range(shape.rank):
        known = [v.shape.dims[d] for v in operands if not v.shape.is_tuple
                 and v.shape.rank == shape.rank and v.shape.dims[d] != UNBOUNDED]
        out.append(max(known) if known else None)
    return out


def tracks(shape) -> bool:
    """Small integer tensors carry size expressions."""
    return (not shape.is_tuple and shape.element_type.startswith(("s", "u", "pred"))
            and shape.rank <= 2 and shape.is_static
            and int(np.prod(shape.dims)) <= sx.MAX_TRACKED_ELEMENTS)


def elementwise(cx: OpContext, opcode: str, attrs: str = "") -> list[Val]:
    operands = cx.operands
    shape = cx.result_shape()
    shape = bounded(shape, same_rank_bounds(shape, operands))
    val = cx.comp.emit(shape, opcode, operands, attrs, hint=cx.name.split(".")[-1])
    val.exprs = _expr_elementwise(cx.name.split(".")[-1], shape, operands)
    return [val]


def _expr_elementwise(kind: str, shape, operands):
    if not tracks(shape) or any(v.exprs is None for v in operands):
        return None
    n = max(len(v.exprs) for v in operands)
    cols = [v.exprs if len(v.exprs) == n else v.exprs * n for v in operands]
    if kind == "convert":
        return list(cols[0]) if not shape.element_type.startswith("f") else None
    if kind == "not" and shape.element_type == "pred":
        return [sx.fold("not1", a) for a in cols[0]]
    if kind == "compare":
        return None  # set by the compare rule
    if kind == "select":
        return [sx.fold("select", *es) for es in zip(*cols, strict=True)]
    op = _EXPR_OPS.get(kind)
    return None if op is None else [sx.fold(op, *es) for es in zip(*cols, strict=True)]


for _name, _hlo in {**UNARY, **BINARY}.items():
    converts("stablehlo." + _name)(lambda cx, _op=_hlo: elementwise(cx, _op))


@converts("stablehlo.select")
def _select(cx):
    return elementwise(cx, "select")


@converts("stablehlo.clamp")
def _clamp(cx):
    return elementwise(cx, "clamp")


@converts("stablehlo.compare")
def _compare(cx):
    from jaxlib.mlir.dialects import stablehlo
    direction = stablehlo.ComparisonDirectionAttr(cx.attr("comparison_direction")).value
    kind = cx.attr("compare_type")
    kind = stablehlo.ComparisonTypeAttr(kind).value if kind is not None else None
    attrs = f"direction={direction}" + (", type=TOTALORDER" if kind == "TOTALORDER" else "")
    (val,) = elementwise(cx, "compare", attrs)
    a, b = cx.operands
    if tracks(val.shape) and a.exprs is not None and b.exprs is not None:
        val.exprs = [sx.fold("cmp" + direction, x, y) for x, y in zip(a.exprs, b.exprs,
                                                                      strict=True)]
    return [val]


@converts("stablehlo.constant")
def _constant(cx):
    shape = cx.result_shape()
    array = dense_array(cx, shape)
    exprs = [sx.const(v) for v in array.reshape(-1).tolist()] if tracks(shape) else None
    return [cx.comp.constant(array, shape, exprs)]


def dense_array(cx, shape: Shape) -> np.ndarray:
    """The op's `value` as a NumPy array of the HLO element type: NumPy's buffer view where
    the bindings give one, else the op's text (bf16, f8, complex).

    A splat is its one element broadcast (a read-only view, no memory): Comp.constant writes
    it as a scalar constant and a broadcast, as XLA's prepare-for-export does, so a 2 KB
    module never becomes gigabytes. The other constants are read whole, within the host's
    free memory (`_take_memory`)."""
    from jaxlib.mlir import ir
    dtype = to_numpy_dtype(shape.element_type)
    try:
        attr = cx.attr("value")
    except TypeError:  # complex: the bindings cannot even hand the attribute out
        attr = None
    if attr is None:  # its values are all in the op's text: read, then counted
        array = _from_op_text(cx, dtype)
        if array.size != 1:
            _take_memory(cx, array.nbytes)
    elif is_type(attr, ir.DenseElementsAttr) and ir.DenseElementsAttr(attr).is_splat:
        # the bindings write a splat out whole: read a scalar attribute of its element
        dense = ir.DenseElementsAttr(attr)
        scalar = ir.RankedTensorType.get([], ir.ShapedType(dense.type).element_type,
                                         loc=cx.op.location)
        array = _read(cx, ir.DenseElementsAttr.get_splat(scalar, dense.get_splat_value()),
                      dtype)
    else:
        _take_memory(cx, int(np.prod(shape.dims, dtype=object)) * np.dtype(dtype).itemsize)
        array = _read(cx, attr, dtype)
    if array.size == 1:
        return np.broadcast_to(array.reshape(()), shape.dims)
    return array.reshape(shape.dims)


def _take_memory(cx, nbytes: int) -> None:
    """Count `nbytes` more of constants read whole; past the host's free memory (taken once
    per import) a ResourceExhaustedError names the op, never NumPy's MemoryError or a
    machine swapping itself to a halt."""
    conv = cx.converter
    conv.constant_bytes += nbytes
    if conv.constant_bytes > conv.constant_limit:
        raise ResourceExhaustedError(
            f"{cx.name}: the module's constants need {conv.constant_bytes} bytes up to this "
            f"one ({nbytes} bytes), more than the {conv.constant_limit} bytes of host memory "
            f"available ({where(cx.op)})")


def _read(cx, attr, dtype) -> np.ndarray:
    try:
        return np.asarray(np.array(attr)).astype(dtype)
    except (ValueError, TypeError, RuntimeError):  # an object array (bf16, f8), or none
        return _from_op_text(cx, dtype)


def _from_op_text(cx, dtype) -> np.ndarray:
    text = str(cx.op.operation)
    if "dense<" not in text:  # dense_resource<...>: blobs the bindings do not expose
        raise cx.error(f"cannot read the constant {text[:120]}")
    return _from_text(cx, text[text.index("dense<"):], dtype)


_ELEMENT = re.compile(r"0x[0-9A-Fa-f]+|[-+]?(?:inf|nan|\d+\.?\d*(?:[eE][-+]?\d+)?)|true|false")


def _from_text(cx, text: str, dtype) -> np.ndarray:
    """`dense<[(1.0,2.0), ...]> : tensor<..>`, `dense<0x7FC0>` or `dense<"0xABCD...">`."""
    body = text[text.index("<") + 1:text.rindex("> :")]
    if body.startswith('"0x'):  # the raw little-endian bytes of every element
        return np.frombuffer(bytes.fromhex(body[3:-1]), dtype=dtype).copy()
    # a complex constant writes each part on its own: (0x7FC00000,0x7FC00000) for c64
    part = np.finfo(dtype).dtype if np.dtype(dtype).kind == "c" else np.dtype(dtype)
    bits = np.dtype(f"u{part.itemsize}") if part.itemsize in (1, 2, 4, 8) else None
    values = []
    for tok in _ELEMENT.findall(body):
        if tok.startswith("0x") and bits is not None:
            values.append(np.array(int(tok, 16), bits).view(part)[()])
        elif tok in ("true", "false"):
            values.append(tok == "true")
        elif not tok.startswith("0x"):
            values.append(float(tok))
        else:
            raise cx.error(f"cannot read the constant {text[:80]}")
    if np.dtype(dtype).kind == "c" and not any(isinstance(v, np.complexfloating)
                                               for v in values):
        values = [complex(a, b) for a, b in zip(values[0::2], values[1::2], strict=False)]
    return np.array(values).astype(dtype)


@converts("stablehlo.iota")
def _iota(cx):
    return [iota(cx, cx.result_shape(), int(cx.attr("iota_dimension").value))]


def iota(cx, shape: Shape, dimension: int) -> Val:
    """An HLO iota of `shape` counting along `dimension` (its values 0, 1, ... there)."""
    return cx.comp.emit(shape, "iota", [], f"iota_dimension={dimension}")


@converts("stablehlo.broadcast_in_dim")
def _broadcast_in_dim(cx):
    (x,) = cx.operands
    dims = list(cx.attr("broadcast_dimensions"))
    shape = cx.result_shape()
    shape = bounded(shape, [x.shape.dims[dims.index(d)] if d in dims else None
                            for d in range(shape.rank)])
    val = broadcast(cx, x, shape, dims)
    if tracks(shape) and x.exprs is not None and len(x.exprs) == 1:
        val.exprs = x.exprs * int(np.prod(shape.dims))
    return [val]


def broadcast(cx, x: Val, shape: Shape, dims: list[int]) -> Val:
    """HLO broadcast of `x` into `shape`; operand dims of size 1 that StableHLO expands are
    reshaped away first (HLO's broadcast maps dims one to one)."""
    keep = [i for i, d in enumerate(dims)
            if not (x.shape.dims[i] == 1 and not x.shape.dynamic[i] and shape.dims[d] != 1)]
    if len(keep) != len(dims):
        reduced = Shape(x.shape.element_type, tuple(x.shape.dims[i] for i in keep),
                        tuple(x.shape.dynamic[i] for i in keep))
        x = cx.comp.emit(reduced, "reshape", [x])
        dims = [dims[i] for i in keep]
    return cx.comp.emit(shape, "broadcast", [x], f"dimensions={dims_text(dims)}")


@converts("stablehlo.reshape")
def _reshape(cx):
    (x,) = cx.operands
    shape = cx.result_shape()
    val = cx.comp.emit(shape, "reshape", [x])
    if tracks(shape) and x.exprs is not None:
        val.exprs = list(x.exprs)
    return [val]


@converts("stablehlo.transpose")
def _transpose(cx):
    (x,) = cx.operands
    perm = list(cx.attr("permutation"))
    shape = bounded(cx.result_shape(), [x.shape.dims[p] for p in perm])
    return [cx.comp.emit(shape, "transpose", [x], f"dimensions={dims_text(perm)}")]


@converts("stablehlo.concatenate")
def _concatenate(cx):
    operands = cx.operands
    axis = int(cx.attr("dimension").value)
    shape = cx.result_shape()
    bounds = same_rank_bounds(shape, operands)
    parts = [v.shape.dims[axis] for v in operands]
    bounds[axis] = None if UNBOUNDED in parts else sum(parts)
    val = cx.comp.emit(bounded(shape, bounds), "concatenate", operands,
                       f"dimensions={{{axis}}}")
    if tracks(shape) and axis == 0 and all(v.exprs is not None for v in operands):
        val.exprs = [e for v in operands for e in v.exprs]
    return [val]


@converts("stablehlo.slice")
def _slice(cx):
    (x,) = cx.operands
    starts, limits = list(cx.attr("start_indices")), list(cx.attr("limit_indices"))
    strides = list(cx.attr("strides"))
    text = ", ".join(f"[{s}:{lim}:{st}]" for s, lim, st in zip(starts, limits, strides,
                                                               strict=True))
    shape = cx.result_shape()
    val = cx.comp.emit(shape, "slice", [x], f"slice={{{text}}}")
    if tracks(shape) and x.exprs is not None and shape.rank == 1:
        val.exprs = x.exprs[starts[0]:limits[0]:strides[0]]
    return [val]


@converts("stablehlo.pad")
def _pad(cx):
    x, value = cx.operands
    lo, hi = list(cx.attr("edge_padding_low")), list(cx.attr("edge_padding_high"))
    interior = list(cx.attr("interior_padding"))
    bounds = [None if b == UNBOUNDED else b + lo[d] + hi[d] + max(b - 1, 0) * interior[d]
              for d, b in enumerate(x.shape.dims)]
    text = "x".join(f"{a}_{b}_{c}" for a, b, c in zip(lo, hi, interior, strict=True))
    return [cx.comp.emit(bounded(cx.result_shape(), bounds), "pad", [x, value],
                         f"padding={text}")]


@converts("stablehlo.reverse")
def _reverse(cx):
    (x,) = cx.operands
    return [cx.comp.emit(bounded(cx.result_shape(), list(x.shape.dims)), "reverse", [x],
                         f"dimensions={dims_text(cx.attr('dimensions'))}")]


@converts("stablehlo.get_tuple_element")
def _get_tuple_element(cx):
    (t,) = cx.operands
    i = int(cx.attr("index").value)
    return [cx.comp.emit(t.shape.elements[i], "get-tuple-element", [t], f"index={i}")]


@converts("stablehlo.tuple")
def _tuple(cx):
    operands = cx.operands
    return [cx.comp.emit(TupleShape(tuple(v.shape for v in operands)), "tuple", operands)]


@converts("stablehlo.optimization_barrier")
def _optimization_barrier(cx):
    return cx.operands  # values pass through; dynhlo does not reorder across it


@converts("stablehlo.dot_general")
def _dot_general(cx):
    from jaxlib.mlir.dialects import stablehlo
    a, b = cx.operands
    dn = stablehlo.DotDimensionNumbers(cx.attr("dot_dimension_numbers"))
    lb, lc = list(dn.lhs_batching_dimensions), list(dn.lhs_contracting_dimensions)
    rb, rc = list(dn.rhs_batching_dimensions), list(dn.rhs_contracting_dimensions)
    free_a = [d for d in range(a.shape.rank) if d not in lb + lc]
    free_b = [d for d in range(b.shape.rank) if d not in rb + rc]
    bounds = ([a.shape.dims[d] for d in lb] + [a.shape.dims[d] for d in free_a]
              + [b.shape.dims[d] for d in free_b])
    attrs = (f"lhs_batch_dims={dims_text(lb)}, lhs_contracting_dims={dims_text(lc)}, "
             f"rhs_batch_dims={dims_text(rb)}, rhs_contracting_dims={dims_text(rc)}"
             + precision_attrs(cx))
    return [cx.comp.emit(bounded(cx.result_shape(), [None if x == UNBOUNDED else x
                                                     for x in bounds]), "dot", [a, b], attrs)]


@converts("stablehlo.dot")
def _dot(cx):
    a, b = cx.operands
    bounds = [a.shape.dims[0]] if a.shape.rank == 2 else []
    bounds += [b.shape.dims[1]] if b.shape.rank == 2 else []
    attrs = (f"lhs_contracting_dims={{{a.shape.rank - 1}}}, rhs_contracting_dims={{0}}"
             + precision_attrs(cx))
    return [cx.comp.emit(bounded(cx.result_shape(), bounds), "dot", [a, b], attrs)]


@converts("stablehlo.gather")
def _gather(cx):
    x, idx = cx.operands
    return [gather(cx, x, idx, list(cx.attr("slice_sizes")))]


def gather(cx, x: Val, idx: Val, slice_sizes: list[int]) -> Val:
    from jaxlib.mlir.dialects import stablehlo
    g = stablehlo.GatherDimensionNumbers(cx.attr("dimension_numbers"))
    offset, ivd = list(g.offset_dims), int(g.index_vector_dim)
    attrs = [f"offset_dims={dims_text(offset)}",
             f"collapsed_slice_dims={dims_text(g.collapsed_slice_dims)}",
             f"start_index_map={dims_text(g.start_index_map)}", f"index_vector_dim={ivd}",
             f"slice_sizes={dims_text(slice_sizes)}"]
    if list(g.operand_batching_dims):
        attrs += [f"operand_batching_dims={dims_text(g.operand_batching_dims)}",
                  f"start_indices_batching_dims={dims_text(g.start_indices_batching_dims)}"]
    if cx.attr("indices_are_sorted") is not None and cx.attr("indices_are_sorted").value:
        attrs.append("indices_are_sorted=true")
    idx = clamp_gather_starts(cx, x, idx, list(g.start_index_map), ivd, slice_sizes)
    shape = cx.result_shape()
    batch = [idx.shape.dims[d] for d in range(idx.shape.rank) if d != ivd]
    windows = [s for k, s in enumerate(slice_sizes) if k not in g.collapsed_slice_dims
               and k not in g.operand_batching_dims]
    bounds, bi, wi = [], iter(batch), iter(windows)
    for d in range(shape.rank):
        b = next(wi) if d in offset else next(bi)
        bounds.append(None if b == UNBOUNDED else b)
    return cx.comp.emit(bounded(shape, bounds), "gather", [x, idx], ", ".join(attrs))
