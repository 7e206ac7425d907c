"""StableHLO ops with regions (reduce, sort, while, case, windows, scatter) and calls.

A region becomes an HLO computation. `while` and `case` pass the values their regions use
from outside as extra loop state or branch operands (HLO computations capture nothing); the
other regions may use outside constants only (re-emitted inside). `func.call` left after
MLIR's inliner and `stablehlo.composite` convert their callee's body in place.
"""

from __future__ import annotations

import numpy as np

from ...hlo.shape import UNBOUNDED, Shape, TupleShape
from . import shape_exprs as sx
from .convert import OpContext, Scope, bounded, converts, free_values
from .emit import Val, dims_text, is_type
from .precision import precision_attrs
from . import windows
from .sizes import element, samples, shape_elements


def _scalar_params(vals: list[Val]) -> list[Shape]:
    return [Shape(v.shape.element_type) for v in vals]


def _multi(cx: OpContext, shapes: list, opcode: str, operands: list[Val], attrs: str) -> list:
    conv = cx.converter
    shape = shapes[0] if len(shapes) == 1 else TupleShape(tuple(shapes))
    out = cx.comp.emit(shape, opcode, operands, attrs)
    return conv.unpack(cx.comp, out, len(shapes))


def region_computation(cx: OpContext, index: int, params: list[Shape], name: str):
    comp, results = cx.converter.region(cx.op.regions[index], name, params, cx.scope)
    comp.finish(cx.converter.pack(comp, results))
    return comp


@converts("stablehlo.reduce")
def _reduce(cx):
    vals = cx.operands
    n = len(vals) // 2
    dims = list(cx.attr("dimensions"))
    body = region_computation(cx, 0, _scalar_params(vals[n:]) * 2, "reduce_body")
    shapes = []
    for i in range(n):
        x = vals[i].shape
        kept = [x.dims[d] for d in range(x.rank) if d not in dims]
        shapes.append(bounded(cx.result_shape(i), [None if b == UNBOUNDED else b for b in kept]))
    return _multi(cx, shapes, "reduce", vals,
                  f"dimensions={dims_text(dims)}, to_apply={body.name}")


@converts("stablehlo.sort")
def _sort(cx):
    vals = cx.operands
    d = int(cx.attr("dimension").value)
    params = [s for v in vals for s in (Shape(v.shape.element_type),) * 2]
    body = region_computation(cx, 0, params, "compare")
    stable = cx.attr("is_stable") is not None and cx.attr("is_stable").value
    shapes = [bounded(cx.result_shape(i), list(v.shape.dims)) for i, v in enumerate(vals)]
    attrs = f"dimensions={{{d}}}, to_apply={body.name}" + (", is_stable=true" if stable else "")
    return _multi(cx, shapes, "sort", vals, attrs)


@converts("stablehlo.while")
def _while(cx):
    conv, vals = cx.converter, cx.operands
    captured = {}
    for region in cx.op.regions:
        for v in free_values(region):
            outer = cx.scope.get(v)
            if outer.literal is None and v not in captured:
                captured[v] = outer
    state = TupleShape(tuple(v.shape for v in vals) + tuple(v.shape for v in captured.values()))
    cap_shapes = {v: val.shape for v, val in captured.items()}
    cond, (pred,) = conv.region(cx.op.regions[0], "cond", [state], cx.scope, cap_shapes, True)
    cond.finish(pred)
    body, results = conv.region(cx.op.regions[1], "body", [state], cx.scope, cap_shapes, True)
    passed = [_captured_in(body, v) for v in captured]
    body.finish(body.emit(state, "tuple", results + passed))
    init = cx.comp.emit(state, "tuple", vals + list(captured.values()))
    out = cx.comp.emit(state, "while", [init], f"condition={cond.name}, body={body.name}")
    return [cx.comp.emit(state.elements[i], "get-tuple-element", [out], f"index={i}")
            for i in range(len(vals))]


def _captured_in(comp, value) -> Val:
    """The Val a region's computation reads a threaded outside value from (found by name)."""
    return comp.scope.captured[value]


@converts("stablehlo.case", "stablehlo.if")
def _case(cx):
    conv = cx.converter
    (index,) = cx.operands
    branches = []
    for k, region in enumerate(cx.op.regions):
        captured = [v for v in free_values(region) if cx.scope.get(v).literal is None]
        arg_vals = [cx.scope.get(v) for v in captured]
        shape = TupleShape(tuple(v.shape for v in arg_vals))
        comp, results = conv.region(region, f"branch{k}", [shape], cx.scope,
                                    {v: a.shape for v, a in zip(captured, arg_vals,
                                                                strict=True)}, True)
        comp.finish(conv.pack(comp, results))
        branches.append((comp, cx.comp.emit(shape, "tuple", arg_vals), results))
    shapes = [bounded(cx.result_shape(i), list(r.shape.dims))
              for i, r in enumerate(branches[0][2])]
    names = ", ".join(c.name for c, _, _ in branches)
    if cx.name == "stablehlo.if":
        attrs = f"true_computation={branches[0][0].name}, false_computation={branches[1][0].name}"
    else:
        attrs = f"branch_computations={{{names}}}"
    return _multi(cx, shapes, "conditional", [index] + [t for _, t, _ in branches], attrs)


def window_attr(sizes, strides, base, window_dil, padding) -> str:
    parts = [f"size={'x'.join(map(str, sizes))}"]
    if any(s != 1 for s in strides):
        parts.append(f"stride={'x'.join(map(str, strides))}")
    if any(p != (0, 0) for p in padding):
        parts.append("pad=" + "x".join(f"{a}_{b}" for a, b in padding))
    if any(b != 1 for b in base):
        parts.append(f"lhs_dilate={'x'.join(map(str, base))}")
    if any(w != 1 for w in window_dil):
        parts.append(f"rhs_dilate={'x'.join(map(str, window_dil))}")
    return "window={" + " ".join(parts) + "}"


def int_list(attr, n: int, default: int = 1) -> list[int]:
    return [default] * n if attr is None else [int(v) for v in attr]


def padding_pairs(attr, n: int) -> list[tuple[int, int]]:
    if attr is None:
        return [(0, 0)] * n
    flat = np.array(attr).reshape(-1).tolist()
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(n)]


@converts("stablehlo.reduce_window")
def _reduce_window(cx):
    vals = cx.operands
    n = len(vals) // 2
    rank = vals[0].shape.rank
    attr = window_attr(int_list(cx.attr("window_dimensions"), rank),
                        int_list(cx.attr("window_strides"), rank),
                        int_list(cx.attr("base_dilations"), rank),
                        int_list(cx.attr("window_dilations"), rank),
                        padding_pairs(cx.attr("padding"), rank))
    body = region_computation(cx, 0, _scalar_params(vals[n:]) * 2, "reduce_window_body")
    wins = zip(vals[0].shape.dims, int_list(cx.attr("window_dimensions"), rank),
               int_list(cx.attr("window_strides"), rank),
               padding_pairs(cx.attr("padding"), rank),
               int_list(cx.attr("base_dilations"), rank),
               int_list(cx.attr("window_dilations"), rank), strict=True)
    bounds = [windows.window_bound(b, k, s, lo, hi, bd, wd)
              for b, k, s, (lo, hi), bd, wd in wins]
    shapes = [bounded(cx.result_shape(i), bounds) for i in range(n)]
    return _multi(cx, shapes, "reduce-window", vals, f"{attr}, to_apply={body.name}")


def dynamic_reduce_window(cx):
    """`stablehlo.dynamic_reduce_window`. A plain reduce-window when each window number is
    constant, or the window is the whole dimension (JAX's cumsum/cumprod/cummax over a
    dynamic axis: window n, padding n-1 on one side): at the bound B, window B and padding
    B-1 give the same values for every n <= B, since the extra window positions hold the
    reduction's initial value. A window is taken as the whole dimension when its upper bound
    is the dimension's bound and its padding is the window less one. Any other window
    computed from the sizes (SAME pooling with a stride) stays a custom call, evaluated at
    each call (windows.py)."""
    count = len(cx.op.operands)
    n = (count - 5) // 2
    if n < 1 or count != 2 * n + 5:
        raise cx.error(f"dynamic_reduce_window takes N inputs, their N initial values, then "
                       f"window, strides, base and window dilations and padding, got {count} "
                       "operands")
    xs, inits, tensors = cx.operands[:n], cx.operands[n:2 * n], cx.operands[2 * n:]
    x = xs[0]
    exprs = [shape_elements(cx, t, "window") for t in tensors]
    windows_, strides, base, wdil, padding = exprs
    points, rank = samples(cx), x.shape.rank
    if any(len(e) != rank for e in (windows_, strides, base, wdil)) or len(padding) != 2 * rank:
        raise cx.error(f"window, strides and dilations of "
                       f"{[len(e) for e in (windows_, strides, base, wdil)]} elements and "
                       f"padding of {len(padding)} for an input of rank {rank}")
    body = _call_body(cx, _called_function(cx), _scalar_params(inits) * 2)
    sizes, pads = [], []
    for d in range(rank):
        w, b = windows_[d], x.shape.dims[d]
        pad = [padding[2 * d], padding[2 * d + 1]]
        less_one = sx.fold("sub", w, sx.const(1))
        if x.shape.dynamic[d] and w[0] != "c" and sx.upper_bound(w) == b and all(
                p[0] == "c" or sx.same_function(p, less_one, points) for p in pad):
            sizes.append(b)
            pads.append(tuple(b - 1 if p[0] != "c" else p[1] for p in pad))
        else:
            sizes.append(w)
            pads.append(tuple(pad))
    numbers = [sizes, strides, base, wdil] + [[p for pair in pads for p in pair]]
    if any(not isinstance(e, int) and e[0] != "c" for group in numbers for e in group):
        out = windows.dynamic_reduce_window(cx, xs, inits, tensors, exprs, body.name)
        return cx.converter.unpack(cx.comp, out, n)
    plain = [[e if isinstance(e, int) else e[1] for e in group] for group in numbers]
    attr = window_attr(*plain[:4], list(zip(plain[4][::2], plain[4][1::2], strict=True)))
    shapes = [bounded(cx.result_shape(i), list(v.shape.dims)) for i, v in enumerate(xs)]
    return _multi(cx, shapes, "reduce-window", xs + inits, f"{attr}, to_apply={body.name}")


def approx_top_k(cx):
    """`ApproxTopK` and `stablehlo.dynamic_approx_top_k` (inputs..., initial values...[, k,
    output shapes...]) as XLA computes them off TPU (ApproxTopKFallback, jax.lax.approx_max_k
    with is_fallback): a sort of the inputs along reduction_dim by the comparator, each cut to
    the result's size there: exact, so within any recall_target. The static call's size is its
    result type's (top_k, or the whole dimension for aggregate_to_topk=false at JAX's sizes);
    the dynamic call's is element reduction_dim of its output-shape operand, read at each call
    (set-dimension-size). XLA reduces with the comparator instead of sorting where the size is
    1: the same element unless the values tie or hold NaN."""
    from jaxlib.mlir import ir
    config = cx.attr("mhlo.backend_config")
    if config is None or not is_type(config, ir.DictAttr) or "reduction_dim" not in config:
        raise cx.error("ApproxTopK needs mhlo.backend_config with its reduction_dim")
    d = int(ir.IntegerAttr(config["reduction_dim"]).value)
    n = len(cx.op.results)
    inputs = cx.operands[:n]
    if len(cx.operands) < 2 * n or not 0 <= d < inputs[0].shape.rank:
        raise cx.error(f"ApproxTopK of {len(cx.operands)} operands and {n} results, "
                       f"reduction_dim {d}: it takes one initial value per input")
    params = [Shape(v.shape.element_type) for v in inputs for _ in (0, 1)]
    body = _call_body(cx, _called_function(cx), params)
    shapes = [Shape(v.shape.element_type, v.shape.dims, v.shape.dynamic) for v in inputs]
    ordered = _multi(cx, shapes, "sort", inputs,
                     f"dimensions={{{d}}}, to_apply={body.name}, is_stable=true")
    if cx.string("call_target_name") == "ApproxTopK":
        return [_cut(cx, v, d, cx.result_shape(i).dims[d]) for i, v in enumerate(ordered)]
    shape_at = [int(i) for i in cx.attr("indices_of_shape_operands")]
    if len(shape_at) != n:
        raise cx.error(f"indices_of_shape_operands names {len(shape_at)} operands for {n} "
                       "results")
    out = []
    for v, at in zip(ordered, shape_at, strict=True):
        size = element(cx, cx.operands[at], d)
        dynamic = tuple(k == d or f for k, f in enumerate(v.shape.dynamic))
        out.append(cx.comp.emit(Shape(v.shape.element_type, v.shape.dims, dynamic),
                                "set-dimension-size", [v, size], f"dimensions={{{d}}}"))
    return out


def _cut(cx, v: Val, d: int, size: int) -> Val:
    """v[..., :size, ...] along dimension d (a static size)."""
    if size == v.shape.dims[d] and not v.shape.dynamic[d]:
        return v
    spans = ",".join(f"[0:{size if k == d else b}]" for k, b in enumerate(v.shape.dims))
    dims = tuple(size if k == d else b for k, b in enumerate(v.shape.dims))
    dynamic = tuple(False if k == d else f for k, f in enumerate(v.shape.dynamic))
    return cx.comp.emit(Shape(v.shape.element_type, dims, dynamic), "slice", [v],
                        f"slice={{{spans}}}")


def _called_function(cx) -> str:
    """The one function a custom call's `called_computations` names."""
    from jaxlib.mlir import ir
    attr = cx.attr("called_computations")
    names = [str(a).lstrip("@").strip('"') for a in ir.ArrayAttr(attr)] \
        if attr is not None and is_type(attr, ir.ArrayAttr) else []
    if len(names) != 1:
        raise cx.error(f"called_computations must name one function, got {attr}")
    return names[0]


def _function(cx, name: str):
    """The func.func called `name`, with a body (a declaration cannot be inlined)."""
    func = cx.converter.functions.get(name)
    if func is None:
        raise cx.error(f"unknown function @{name}")
    if not len(func.regions[0].blocks):
        raise cx.error(f"@{name} is a declaration without a body")
    return func


def _call_body(cx, callee: str, params: list[Shape]):
    """The function `callee` as a computation of parameters `params`."""
    func = _function(cx, callee)
    arity = len(func.regions[0].blocks[0].arguments)
    if arity != len(params):
        raise cx.error(f"@{callee} takes {arity} arguments where {len(params)} are passed")
    comp, results = cx.converter.region(func.regions[0], callee, params, cx.scope)
    comp.finish(cx.converter.pack(comp, results))
    return comp


@converts("stablehlo.scatter")
def _scatter(cx):
    from jaxlib.mlir.dialects import stablehlo
    vals = cx.operands
    n = (len(vals) - 1) // 2
    s = stablehlo.ScatterDimensionNumbers(cx.attr("scatter_dimension_numbers"))
    attrs = [f"update_window_dims={dims_text(s.update_window_dims)}",
             f"inserted_window_dims={dims_text(s.inserted_window_dims)}",
             f"scatter_dims_to_operand_dims={dims_text(s.scattered_dims_to_operand_dims)}",
             f"index_vector_dim={int(s.index_vector_dim)}"]
    if list(s.input_batching_dims):
        attrs += [f"input_batching_dims={dims_text(s.input_batching_dims)}",
                  f"scatter_indices_batching_dims={dims_text(s.scatter_indices_batching_dims)}"]
    for key in ("indices_are_sorted", "unique_indices"):
        if cx.attr(key) is not None and cx.attr(key).value:
            attrs.append(f"{key}=true")
    body = region_computation(cx, 0, _scalar_params(vals[:n]) * 2, "scatter_body")
    shapes = [bounded(cx.result_shape(i), list(vals[i].shape.dims)) for i in range(n)]
    return _multi(cx, shapes, "scatter", vals, ", ".join(attrs) + f", to_apply={body.name}")


@converts("stablehlo.map")
def _map(cx):
    vals = cx.operands
    body = region_computation(cx, 0, _scalar_params(vals), "map_body")
    dims = list(cx.attr("dimensions"))
    shape = bounded(cx.result_shape(), list(vals[0].shape.dims))
    return [cx.comp.emit(shape, "map", vals, f"dimensions={dims_text(dims)}, "
                         f"to_apply={body.name}")]


@converts("func.call", "stablehlo.composite")
def _call(cx):
    """Convert the callee's body here, its arguments bound to the operands (an inline)."""
    key = "callee" if cx.name == "func.call" else "decomposition"
    callee = str(cx.attr(key)).lstrip("@").strip('"')
    func = _function(cx, callee)
    scope = Scope(cx.comp, cx.scope)
    block = func.regions[0].blocks[0]
    for arg, val in zip(block.arguments, cx.operands, strict=True):
        scope.vals[arg] = val
    return cx.converter.convert_block(block, scope)


@converts("stablehlo.convolution", "stablehlo.dynamic_conv")
def _convolution(cx):
    from jaxlib.mlir.dialects import stablehlo
    lhs, rhs, *rest = cx.operands
    c = stablehlo.ConvDimensionNumbers(cx.attr("dimension_numbers"))
    spatial = len(c.input_spatial_dimensions)
    strides = int_list(cx.attr("window_strides"), spatial)
    base = int_list(cx.attr("lhs_dilation"), spatial)
    wdil = int_list(cx.attr("rhs_dilation"), spatial)
    computed = None   # dynamic_conv's padding expressions, when they are not constants
    if cx.name == "stablehlo.dynamic_conv":
        flat = shape_elements(cx, rest[0], "padding")
        if all(e[0] == "c" for e in flat):
            padding = [(flat[2 * i][1], flat[2 * i + 1][1]) for i in range(spatial)]
        else:
            computed, padding = flat, [(0, 0)] * spatial
    else:
        padding = padding_pairs(cx.attr("padding"), spatial)
    sizes = [rhs.shape.dims[d] for d in c.kernel_spatial_dimensions]
    attr = window_attr(sizes, strides, base, wdil, padding)
    reversal = cx.attr("window_reversal")
    if reversal is not None and any(bool(v) for v in reversal):
        raise cx.error("window_reversal is not supported")
    labels = _dim_labels(c, spatial)
    groups = int(cx.attr("feature_group_count").value)
    batch_groups = int(cx.attr("batch_group_count").value)
    attrs = f"{attr}, dim_labels={labels}"
    attrs += f", feature_group_count={groups}" if groups != 1 else ""
    attrs += f", batch_group_count={batch_groups}" if batch_groups != 1 else ""
    attrs += precision_attrs(cx)
    pads = [(sx.const(lo), sx.const(hi)) for lo, hi in padding] if computed is None else \
        [(computed[2 * k], computed[2 * k + 1]) for k in range(spatial)]
    bounds = windows.conv_bounds(cx, c, lhs, rhs, [(strides[k], *pads[k], base[k], wdil[k])
                                                   for k in range(spatial)], batch_groups)
    if computed is not None:
        return [windows.dynamic_conv(cx, lhs, rhs, rest[0], attrs, bounds)]
    return [cx.comp.emit(bounded(cx.result_shape(), bounds), "convolution", [lhs, rhs],
                         attrs)]


def _dim_labels(c, spatial: int) -> str:
    def labels(rank, named, spatial_dims):
        out = ["?"] * rank
        for d, ch in named:
            out[d] = ch
        for i, d in enumerate(spatial_dims):
            out[d] = str(i)
        return "".join(out)
    n = spatial + 2
    lhs = labels(n, [(c.input_batch_dimension, "b"), (c.input_feature_dimension, "f")],
                 c.input_spatial_dimensions)
    rhs = labels(n, [(c.kernel_output_feature_dimension, "o"),
                     (c.kernel_input_feature_dimension, "i")], c.kernel_spatial_dimensions)
    out = labels(n, [(c.output_batch_dimension, "b"), (c.output_feature_dimension, "f")],
                 c.output_spatial_dimensions)
    return f"{lhs}_{rhs}->{out}"
