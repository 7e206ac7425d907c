"""StableHLO's dynamic-shape ops as HLO with bounded dynamic dimensions.

A result size computed at run time becomes an HLO dynamic dimension: the op is written at the
bound (the size expression's upper end, shape_exprs.upper_bound) and `set-dimension-size`
gives it the actual size, read from the shape tensor the program computed. So
`dynamic_broadcast_in_dim(x, [n, 16])` is `broadcast` to `f32[<=64,16]` then
`set-dimension-size(.., n)`, and a mean over that axis divides by n at run time, not by 64.
`get_dimension_size` is HLO's `get-dimension-size`; `shape_assertion` custom calls become
checks of the argument shapes made before each call (dynhlo.frontends.jax).
"""

from __future__ import annotations

from ...hlo.shape import UNBOUNDED, Shape, TupleShape
from ...hlo.shape_assertions import ShapeAssertion
from ...shapes.rules_dynamic_shape import DYNAMIC_PAD, DYNAMIC_RNG_BIT_GENERATOR, DYNAMIC_TOP_K
from . import shape_exprs as sx
from .convert import OpContext, bounded, converts
from .emit import Val, dims_text
from .misc import PASS_THROUGH, pass_through
from .ops import BINARY, UNARY, broadcast, gather, iota
from .regions import approx_top_k, dynamic_reduce_window
from .sizes import (S32, dimension_expr, element, result_bounds, samples,
                    set_sizes, shape_elements)


@converts("stablehlo.get_dimension_size")
def _get_dimension_size(cx):
    (x,) = cx.operands
    d = int(cx.attr("dimension").value)
    val = cx.comp.emit(S32, "get-dimension-size", [x], f"dimensions={{{d}}}")
    val.exprs = [dimension_expr(cx, x, d)]
    return [val]


@converts("stablehlo.set_dimension_size")
def _set_dimension_size(cx):
    x, size = cx.operands
    d = int(cx.attr("dimension").value)
    shape = bounded(cx.result_shape(), list(x.shape.dims))
    return [cx.comp.emit(shape, "set-dimension-size", [x, size], f"dimensions={{{d}}}")]


@converts("stablehlo.dynamic_broadcast_in_dim")
def _dynamic_broadcast_in_dim(cx):
    x, dims_tensor = cx.operands
    exprs = shape_elements(cx, dims_tensor, "output shape")
    shape = cx.result_shape()
    shape = bounded(shape, result_bounds(cx, exprs, shape))
    out = broadcast(cx, x, shape, list(cx.attr("broadcast_dimensions")))
    return [set_sizes(cx, out, dims_tensor, shape)]


@converts("stablehlo.dynamic_iota")
def _dynamic_iota(cx):
    (dims_tensor,) = cx.operands
    exprs = shape_elements(cx, dims_tensor, "output shape")
    shape = cx.result_shape()
    shape = bounded(shape, result_bounds(cx, exprs, shape))
    d = int(cx.attr("iota_dimension").value)
    static = Shape(shape.element_type, shape.dims, (False,) * shape.rank)
    out = iota(cx, static, d)
    val = set_sizes(cx, out, dims_tensor, shape)
    if shape.rank == 1 and shape.is_static and val.shape.element_type.startswith("s") \
            and shape.dims[0] <= sx.MAX_TRACKED_ELEMENTS:
        val.exprs = [sx.const(i) for i in range(shape.dims[0])]
    return [val]


@converts("stablehlo.dynamic_reshape")
def _dynamic_reshape(cx):
    x, dims_tensor = cx.operands
    exprs = shape_elements(cx, dims_tensor, "output shape")
    shape = cx.result_shape()
    shape = bounded(shape, result_bounds(cx, exprs, shape))
    sizes = [element(cx, dims_tensor, d) for d in range(shape.rank)]
    val = cx.comp.emit(shape, "dynamic-reshape", [x, *sizes])
    if x.exprs is not None and shape.rank <= 1 and shape.is_static:
        val.exprs = list(x.exprs)
    return [val]


@converts("stablehlo.real_dynamic_slice")
def _real_dynamic_slice(cx):
    x, starts, limits, strides = cx.operands
    st = shape_elements(cx, strides, "strides")
    s, spans = _starts_and_spans(cx, starts, limits)
    declared = cx.result_shape()
    sizes, size_vals = [], []
    steps = []
    for d in range(x.shape.rank):
        # a stride computed from the sizes (JAX's x[::1 + b // 4]) must be positive at every
        # size the arguments may have
        exact = sx.over_range([st[d]]) if st[d][0] != "c" else None
        least = sx.interval(st[d])[0] if exact is None or not len(exact[0]) \
            else int(exact[0].min())
        if least < 1:
            raise cx.error(f"dimension {d} needs a positive stride; it is computed from the "
                           f"sizes and may be {least}")
        step = st[d][1] if st[d][0] == "c" else element(cx, strides, d)
        steps.append(step)
        step_val = cx.comp.scalar(step) if isinstance(step, int) else step
        less_one = sx.fold("sub", st[d], sx.const(1))
        span = sx.fold("add", spans[d], less_one)
        # a static result dimension is the size (JAX's x[n-1:n] is 1 where the expression
        # (n - (n-1)) does not fold)
        sizes.append(sx.const(declared.dims[d]) if not declared.dynamic[d]
                     else sx.fold("div", span, st[d]))
        # the same arithmetic on the values the program computed: (limit - start + st-1)/st
        value = cx.comp.emit(S32, "subtract", [element(cx, limits, d), element(cx, starts, d)])
        value = cx.comp.emit(S32, "add", [value, cx.comp.emit(
            S32, "subtract", [step_val, cx.comp.scalar(1)])])
        size_vals.append(cx.comp.emit(S32, "divide", [value, step_val]))
    return [window(cx, x, starts, s, sizes, size_vals, steps, _read_by_kernels(cx))]


_ELEMENTWISE = frozenset(f"stablehlo.{name}" for name in (*UNARY, *BINARY))


def _read_by_kernels(cx) -> bool:
    """Whether every reader of the op's result is elementwise: a fused kernel reads a slice
    of its operand in place, where a reader that moves the window (a dynamic_reshape
    before a product: JAX's qkv split) reads the gather's dense copy faster."""
    uses = list(cx.op.result.uses)
    return bool(uses) and all(use.owner.name in _ELEMENTWISE for use in uses)


def _starts_and_spans(cx, starts: Val, limits: Val) -> tuple[list, list]:
    """(start, limit - start) expressions per dimension. A start computed from data (JAX's
    dynamic_slice at a loop index: limit = start + sizes) has the sizes' expressions as its
    spans and an unknown start."""
    if starts.exprs is not None:
        lim = shape_elements(cx, limits, "limit")
        return starts.exprs, [sx.fold("sub", a, b) for a, b in zip(lim, starts.exprs, strict=True)]
    limit_op = cx.op.operands[2].owner
    if getattr(limit_op, "name", None) == "stablehlo.add":
        a, b = limit_op.operands
        added = b if a == cx.op.operands[1] else a if b == cx.op.operands[1] else None
        if added is not None and cx.scope.get(added).exprs is not None:
            spans = cx.scope.get(added).exprs
            return [("size", "start", 0, 0, 0)] * len(spans), spans
    raise cx.error("the start is computed from data, not from argument shapes, and the "
                   "limit is not that start plus sizes that are; dynhlo needs sizes it can "
                   "bound")


def window(cx: OpContext, x: Val, starts: Val, s: list, sizes: list, size_vals: list,
           strides: list, as_slice: bool = False) -> Val:
    """x[start_d : start_d + size_d*stride_d : stride_d] per dim, with run-time starts and
    sizes (`size_vals`, s32[] values; `sizes` their expressions) and strides (ints, or s32[]
    values computed from the sizes): one gather per dimension not taken whole, with indices
    `start + stride*iota` cut to the size. `as_slice`: a slice where the start and size
    are constants and the window lies in a static dimension (JAX's split of an LSTM's gates
    over a polymorphic batch, read by elementwise ops): the same elements, and a view the
    kernels fuse instead of a copy."""
    points = samples(cx)
    for d in range(x.shape.rank):
        whole = (s[d] == sx.const(0) and isinstance(strides[d], int) and strides[d] == 1
                 and sx.same_function(sizes[d], dimension_expr(cx, x, d), points))
        if whole:
            continue
        fixed = _fixed_window(x, d, s[d], sizes[d], strides[d]) if as_slice else None
        if fixed is not None:
            x = _slice_dim(cx, x, d, *fixed)
        else:
            x = _gather_dim(cx, x, d, element(cx, starts, d), sizes[d], size_vals[d],
                            strides[d])
    return x


def _fixed_window(x: Val, d: int, start: tuple, size: tuple, stride) -> tuple | None:
    """(start, limit, stride) of a window of dimension d that is a plain slice: constant
    start and size, an int stride, inside a static dimension (no index the gather would
    clamp); else None."""
    if start[0] != "c" or size[0] != "c" or not isinstance(stride, int) or \
            x.shape.dynamic[d] or x.shape.dims[d] == UNBOUNDED:
        return None
    first, n = start[1], size[1]
    limit = first + (n - 1) * stride + 1
    if n < 1 or first < 0 or limit > x.shape.dims[d]:
        return None
    return first, limit, stride


def _slice_dim(cx, x: Val, d: int, start: int, limit: int, stride: int) -> Val:
    """x[start:limit:stride] along d, every other dimension whole (a dynamic one keeps its
    size: XLA's slice of a dynamic dimension over its whole bound)."""
    dims = list(x.shape.dims)
    dims[d] = len(range(start, limit, stride))
    text = ", ".join(f"[{start}:{limit}:{stride}]" if k == d else f"[0:{n}:1]"
                     for k, n in enumerate(x.shape.dims))
    return cx.comp.emit(Shape(x.shape.element_type, tuple(dims), x.shape.dynamic), "slice",
                        [x], f"slice={{{text}}}")


def _gather_dim(cx, x: Val, d: int, start: Val, size: tuple, size_val: Val,
                stride: int | Val) -> Val:
    # a window of x is never larger than x: its bound caps the expression's
    bound, limit = sx.upper_bound(size), x.shape.dims[d]
    if limit != UNBOUNDED:
        bound = limit if bound is None else min(bound, limit)
    if bound is None:
        raise cx.error(f"the size of dimension {d} has no upper bound")
    dynamic = not (size[0] == "c")
    counts = iota(cx, Shape("s32", (bound,), (False,)), 0)
    idx = cx.comp.emit(Shape("s32", (bound,), (False,)), "multiply",
                       [counts, _splat(cx, cx.comp.scalar(stride) if isinstance(stride, int)
                                     else stride, bound)])
    idx = cx.comp.emit(Shape("s32", (bound,), (False,)), "add",
                       [idx, _splat(cx, start, bound)])
    idx = cx.comp.emit(Shape("s32", (bound, 1), (False, False)), "reshape", [idx])
    if dynamic:
        idx = cx.comp.emit(Shape("s32", (bound, 1), (True, False)), "set-dimension-size",
                           [idx, size_val], "dimensions={0}")
    rank = x.shape.rank
    slice_sizes = [1 if k == d else x.shape.dims[k] for k in range(rank)]
    offset = [k for k in range(rank) if k != d]
    dims = list(x.shape.dims)
    dims[d] = bound
    dyn = list(x.shape.dynamic)
    dyn[d] = dynamic
    attrs = (f"offset_dims={dims_text(offset)}, collapsed_slice_dims={{{d}}}, "
             f"start_index_map={{{d}}}, index_vector_dim=1, "
             f"slice_sizes={dims_text(slice_sizes)}")
    return cx.comp.emit(Shape(x.shape.element_type, tuple(dims), tuple(dyn)), "gather",
                        [x, idx], attrs)


def _splat(cx, scalar: Val, n: int) -> Val:
    return cx.comp.emit(Shape("s32", (n,), (False,)), "broadcast", [scalar], "dimensions={}")


@converts("stablehlo.dynamic_gather")
def _dynamic_gather(cx):
    from jaxlib.mlir.dialects import stablehlo
    x, idx, slice_sizes = cx.operands
    g = stablehlo.GatherDimensionNumbers(cx.attr("dimension_numbers"))
    sizes = shape_elements(cx, slice_sizes, "slice sizes")
    ivd = int(g.index_vector_dim)
    if idx.shape.rank - (1 if ivd < idx.shape.rank else 0) != 0 or list(g.operand_batching_dims):
        return [_gather_prefix_windows(cx, x, idx, slice_sizes, sizes, g)]
    starts = [sx.const(0)] * x.shape.rank
    start_vals = [cx.comp.scalar(0)] * x.shape.rank
    for k, d in enumerate(g.start_index_map):
        start_vals[d] = element(cx, idx, k)
        starts[d] = start_vals[d].exprs[0] if start_vals[d].exprs else ("size", "?", 0, 0, 0)
    size_vals = [element(cx, slice_sizes, d) for d in range(x.shape.rank)]
    # XLA clamps a window's start into [0, size - window]
    for d in g.start_index_map:
        actual = cx.comp.emit(S32, "get-dimension-size", [x], f"dimensions={{{d}}}")
        limit = cx.comp.emit(S32, "subtract", [actual, size_vals[d]])
        start_vals[d] = cx.comp.emit(S32, "clamp", [cx.comp.scalar(0), start_vals[d], limit])
    vector = cx.comp.emit(Shape("s32", (x.shape.rank,), (False,)), "concatenate",
                          [cx.comp.emit(Shape("s32", (1,), (False,)), "reshape", [v]) for v in start_vals],
                          "dimensions={0}")
    out = window(cx, x, vector, [("size", "start", 0, 0, 0)] * x.shape.rank, sizes,
                 size_vals, [1] * x.shape.rank)
    collapsed = list(g.collapsed_slice_dims)
    if collapsed:
        shape = cx.result_shape()
        shape = bounded(shape, [out.shape.dims[k] for k in range(x.shape.rank)
                                if k not in collapsed])
        out = cx.comp.emit(shape, "reshape", [out])
    return [out]


def _gather_prefix_windows(cx, x: Val, idx: Val, slice_sizes: Val, sizes: list, g) -> Val:
    """A dynamic_gather of several windows (or with batching dimensions): each run-time
    slice size must be constant, on a dimension the indices do not address, or the whole
    dimension (XLA clamps its start to 0); such a window starts at 0. It is gathered whole
    (the bound as its slice size; XLA's dynamic dimension inference gives it the operand's
    dynamic size) and cut to the slice size with set-dimension-size. JAX's `vmap` of a
    diagonal (jnp.linalg.det) or of dynamic_index_in_dim writes one."""
    static, cuts = [], []
    points = samples(cx)
    for d, size in enumerate(sizes):
        if d in g.collapsed_slice_dims or d in g.operand_batching_dims:
            static.append(1)   # one element wide (StableHLO's gather verifier)
        elif size[0] == "c" and size[1] <= x.shape.dims[d]:
            static.append(size[1])
        elif d not in g.start_index_map or sx.same_function(size, dimension_expr(cx, x, d),
                                                            points):
            static.append(x.shape.dims[d])
            cuts.append(d)
        else:
            raise cx.error(f"the slice size of operand dimension {d} in a gather of several "
                           "windows is computed at run time, is not the whole dimension, "
                           "and the indices address that dimension")
    out = gather(cx, x, idx, static)
    windows = [d for d in range(x.shape.rank)
               if d not in g.collapsed_slice_dims and d not in g.operand_batching_dims]
    for d in cuts:
        at = list(g.offset_dims)[windows.index(d)]
        actual = cx.comp.emit(S32, "get-dimension-size", [x], f"dimensions={{{d}}}")
        size = cx.comp.emit(S32, "minimum", [element(cx, slice_sizes, d), actual])
        dynamic = tuple(k == at or flag for k, flag in enumerate(out.shape.dynamic))
        out = cx.comp.emit(Shape(out.shape.element_type, out.shape.dims, dynamic),
                           "set-dimension-size", [out, size], f"dimensions={{{at}}}")
    return out


@converts("stablehlo.dynamic_pad")
def _dynamic_pad(cx):
    """A plain pad where the amounts are constants; else a custom call of this name with the
    same operands, its amounts read at each call (shapes/rules_dynamic_shape.py)."""
    x, value, lo, hi, interior = cx.operands
    amounts = [shape_elements(cx, t, "padding") for t in (lo, hi, interior)]
    if any(e[0] != "c" for t in amounts for e in t):
        bounds = []
        for d in range(x.shape.rank):
            # the operand's bound where the amounts are constants; else the size's largest
            # value (an interval's end where it reads several sizes: QR's n + (m - n))
            n = dimension_expr(cx, x, d) if any(t[d][0] != "c" for t in amounts) \
                else sx.const(x.shape.dims[d])
            gaps = sx.fold("max", sx.fold("sub", n, sx.const(1)), sx.const(0))
            size = sx.fold("add", sx.fold("add", amounts[0][d], amounts[1][d]),
                           sx.fold("add", n, sx.fold("mul", gaps, amounts[2][d])))
            bounds.append(sx.upper_bound(size))
        return [cx.comp.emit(bounded(cx.result_shape(), bounds), "custom-call",
                             [x, value, lo, hi, interior],
                             f'custom_call_target="{DYNAMIC_PAD}"')]
    lo_, hi_, in_ = ([e[1] for e in t] for t in amounts)
    text = "x".join(f"{a}_{b}_{c}" for a, b, c in zip(lo_, hi_, in_, strict=True))
    bounds = [None if b == UNBOUNDED else b + lo_[d] + hi_[d] + max(b - 1, 0) * in_[d]
              for d, b in enumerate(x.shape.dims)]
    return [cx.comp.emit(bounded(cx.result_shape(), bounds), "pad", [x, value],
                         f"padding={text}")]


def _dynamic_top_k(cx):
    """`stablehlo.dynamic_top_k(x, k)`: a custom call of that name, k read at each call
    (shapes/rules_dynamic_shape.py); its bound is k's, at most the last dimension's."""
    x, k = cx.operands
    bound = x.shape.dims[-1]
    if k.exprs is not None:
        most = sx.upper_bound(k.exprs[0])
        bound = most if bound == UNBOUNDED or (most is not None and most < bound) else bound
    shapes = [bounded(cx.result_shape(i), [None] * (x.shape.rank - 1)
                      + [None if bound == UNBOUNDED else bound]) for i in (0, 1)]
    out = cx.comp.emit(TupleShape(tuple(shapes)), "custom-call", [x, k],
                       f'custom_call_target="{DYNAMIC_TOP_K}"')
    return cx.converter.unpack(cx.comp, out, 2)


_ALGORITHMS = {"DEFAULT": "rng_default", "THREE_FRY": "rng_three_fry", "PHILOX": "rng_philox"}


def _dynamic_rng_bit_generator(cx):
    """`stablehlo.dynamic_rng_bit_generator(state, shape)`: a custom call of that name, the
    bits made at the shape the operand holds at each call (the bits depend on the whole
    shape, not only on its elements: backends/cpu/ops_numeric.py)."""
    state, shape_t = cx.operands
    exprs = shape_elements(cx, shape_t, "output shape")
    bits = cx.result_shape(1)
    shapes = (cx.result_shape(0), bounded(bits, result_bounds(cx, exprs, bits)))
    algorithm = str(cx.attr("rng_algorithm")).rstrip(">").split()[-1]
    if algorithm not in _ALGORITHMS:
        raise cx.error(f"rng_algorithm {algorithm} is not one of {sorted(_ALGORITHMS)}")
    out = cx.comp.emit(TupleShape(shapes), "custom-call", [state, shape_t],
                       f'custom_call_target="{DYNAMIC_RNG_BIT_GENERATOR}", '
                       f'backend_config="{_ALGORITHMS[algorithm]}"')
    return cx.converter.unpack(cx.comp, out, 2)


@converts("stablehlo.custom_call")
def _custom_call(cx):
    target = cx.string("call_target_name")
    if target == "shape_assertion":
        return _shape_assertion(cx)
    if target == "stablehlo.dynamic_reduce_window":
        return dynamic_reduce_window(cx)
    if target == DYNAMIC_TOP_K:
        return _dynamic_top_k(cx)
    if target == DYNAMIC_RNG_BIT_GENERATOR:
        return _dynamic_rng_bit_generator(cx)
    if target in ("ApproxTopK", "stablehlo.dynamic_approx_top_k"):
        return approx_top_k(cx)
    if target in PASS_THROUGH:
        return pass_through(cx, target)
    raise cx.error(f"custom call target '{target}' is not supported")


def _shape_assertion(cx):
    if not cx.op.operands:
        raise cx.error("a shape assertion without its predicate operand")
    pred, *args = cx.operands
    for i, v in enumerate([pred, *args]):  # only element 0 is read: a vector's others were lost
        if v.shape.is_tuple or v.shape.rank != 0 or (i == 0 and v.shape.element_type != "pred"):
            raise cx.error(f"operand {i} of a shape assertion is {v.shape}; it takes a scalar "
                           f"{'pred (i1)' if i == 0 else 'integer'}")
    if pred.exprs is None or any(a.exprs is None for a in args):
        raise cx.error("a shape assertion that depends on data")
    message = cx.string("error_message")
    cx.converter.assertions.append(ShapeAssertion(pred.exprs[0], message,
                                             [a.exprs[0] for a in args]))
    return []
