"""StableHLO ops JAX emits less often, each with a direct HLO counterpart: linear algebra
(cholesky, triangular_solve, fft), random bits, reduce_precision, select_and_scatter (the
gradient of max pooling), device ids, tokens; and custom calls whose target dynhlo runs
(LAPACK's typed-FFI calls from jnp.linalg on the CPU, sharding marks), passed through.
"""

from __future__ import annotations

import numpy as np

from ...hlo.shape import Shape, TupleShape
from ...shapes import dynamic  # noqa: F401  (every family's custom-call rules registered)
from ...shapes.rules import CUSTOM_CALL_RULES
from ...shapes.rules_collective import IDENTITY_TARGETS
from ...shapes.rules_gpu_solver import PIVOT_TARGETS
from .convert import bounded, converts
from .emit import dims_text, is_type
from .ops import same_rank_bounds
from .regions import region_computation, int_list, padding_pairs, window_attr
from .sizes import result_bounds, set_sizes

PASS_THROUGH = set(CUSTOM_CALL_RULES) | set(IDENTITY_TARGETS) | {"PadToStatic",
                                                                  "SliceToDynamic"}


def _flag(cx, key: str) -> bool:
    attr = cx.attr(key)
    return attr is not None and bool(attr.value)


def _enum(cx, key: str) -> str:
    """`#stablehlo<transpose NO_TRANSPOSE>` -> NO_TRANSPOSE."""
    return str(cx.attr(key)).rstrip(">").split()[-1]


@converts("stablehlo.cholesky")
def _cholesky(cx):
    (a,) = cx.operands
    lower = "true" if _flag(cx, "lower") else "false"
    return [cx.comp.emit(bounded(cx.result_shape(), list(a.shape.dims)), "cholesky", [a],
                         f"lower={lower}")]


@converts("stablehlo.triangular_solve")
def _triangular_solve(cx):
    a, b = cx.operands
    attrs = (f"left_side={'true' if _flag(cx, 'left_side') else 'false'}, "
             f"lower={'true' if _flag(cx, 'lower') else 'false'}, "
             f"unit_diagonal={'true' if _flag(cx, 'unit_diagonal') else 'false'}, "
             f"transpose_a={_enum(cx, 'transpose_a')}")
    return [cx.comp.emit(bounded(cx.result_shape(), list(b.shape.dims)), "triangular-solve",
                         [a, b], attrs)]


@converts("stablehlo.fft")
def _fft(cx):
    (x,) = cx.operands
    lengths = list(cx.attr("fft_length"))
    return [cx.comp.emit(cx.result_shape(), "fft", [x],
                         f"fft_type={_enum(cx, 'fft_type')}, fft_length={dims_text(lengths)}")]


@converts("stablehlo.reduce_precision")
def _reduce_precision(cx):
    (x,) = cx.operands
    e, m = int(cx.attr("exponent_bits").value), int(cx.attr("mantissa_bits").value)
    shape = bounded(cx.result_shape(), list(x.shape.dims))
    return [cx.comp.emit(shape, "reduce-precision", [x],
                         f"exponent_bits={e}, mantissa_bits={m}")]


@converts("stablehlo.rng_bit_generator")
def _rng_bit_generator(cx):
    (state,) = cx.operands
    algorithm = {"DEFAULT": "rng_default", "THREE_FRY": "rng_three_fry",
                 "PHILOX": "rng_philox"}[_enum(cx, "rng_algorithm")]
    shapes = [cx.result_shape(0), cx.result_shape(1)]
    out = cx.comp.emit(TupleShape(tuple(shapes)), "rng-bit-generator", [state],
                       f"algorithm={algorithm}")
    return cx.converter.unpack(cx.comp, out, 2)


@converts("stablehlo.select_and_scatter")
def _select_and_scatter(cx):
    x, source, init = cx.operands
    rank = x.shape.rank
    window = window_attr(int_list(cx.attr("window_dimensions"), rank),
                          int_list(cx.attr("window_strides"), rank), [1] * rank, [1] * rank,
                          padding_pairs(cx.attr("padding"), rank))
    scalar = [Shape(x.shape.element_type)] * 2
    select = region_computation(cx, 0, scalar, "select")
    scatter = region_computation(cx, 1, scalar, "scatter")
    return [cx.comp.emit(bounded(cx.result_shape(), list(x.shape.dims)), "select-and-scatter",
                         [x, source, init],
                         f"{window}, select={select.name}, scatter={scatter.name}")]


@converts("stablehlo.replica_id", "stablehlo.partition_id")
def _device_id(cx):
    opcode = "replica-id" if cx.name.endswith("replica_id") else "partition-id"
    return [cx.comp.emit(cx.result_shape(), opcode)]


@converts("stablehlo.after_all", "stablehlo.create_token")
def _token(cx):
    return [cx.comp.emit(Shape("token"), "after-all", cx.operands)]


def pass_through(cx, target: str):
    """A custom call dynhlo runs itself, written as HLO's custom-call with its attributes."""
    operands = cx.operands
    # JAX appends one shape tensor per result under shape polymorphism
    # (`indices_of_shape_operands`): they bound the results; the call itself does not take them
    shape_ops = _shape_operand_indices(cx)
    shape_tensors = [operands[i] for i in shape_ops]
    operands = [v for i, v in enumerate(operands) if i not in shape_ops]
    shapes = []
    for i in range(len(cx.op.results)):
        shape = cx.result_shape(i)
        if i < len(shape_tensors) and shape_tensors[i].exprs is not None:
            shapes.append(bounded(shape, result_bounds(cx, shape_tensors[i].exprs, shape)))
        else:
            shapes.append(bounded(shape, same_rank_bounds(shape, operands)))
    attrs = [f'custom_call_target="{target}"', *_backend_config(cx)]
    version = cx.attr("api_version")
    if version is not None and int(version.value) == 4:
        attrs.append("api_version=API_VERSION_TYPED_FFI")
    if target in PIVOT_TARGETS and shape_tensors and shapes[0].dynamic[-1]:
        return [_pivots_to_permutation(cx, operands, attrs, shapes[0], shape_tensors[0])]
    shape = shapes[0] if len(shapes) == 1 else TupleShape(tuple(shapes))
    out = cx.comp.emit(shape, "custom-call", operands, ", ".join(attrs))
    return cx.converter.unpack(cx.comp, out, len(shapes))


def _backend_config(cx) -> list[str]:
    """HLO's backend_config: a typed-FFI dictionary as written (XLA reads it raw), a string
    escaped (a `"` in it would end HLO's string); nothing else is one."""
    from jaxlib.mlir import ir
    key = "mhlo.backend_config" if cx.attr("mhlo.backend_config") is not None \
        else "backend_config"
    config = cx.attr(key)
    if config is None:
        return []
    if is_type(config, ir.DictAttr):
        return [f"backend_config={config}"]
    if not is_type(config, ir.StringAttr):
        raise cx.error(f"attribute {key} must be a string or a dictionary, got {config}")
    text = cx.string(key)
    if not text:
        return []
    return ['backend_config="' + text.replace("\\", "\\\\").replace('"', '\\"') + '"']


def _shape_operand_indices(cx) -> list[int]:
    """`indices_of_shape_operands`: a dense integer array of operand indices, or absent."""
    attr = cx.attr("indices_of_shape_operands")
    if attr is None:
        return []
    try:
        indices = np.array(attr).reshape(-1)
    except (TypeError, ValueError, RuntimeError):  # not a dense elements attribute
        indices = np.array([], np.float32)
    if indices.dtype.kind not in "iu" or not all(0 <= i < len(cx.op.operands) for i in indices):
        raise cx.error(f"indices_of_shape_operands must be indices of its "
                       f"{len(cx.op.operands)} operands, got {attr}")
    return [int(i) for i in indices]


def _pivots_to_permutation(cx, operands, attrs, shape, shape_tensor):
    """A permutation of dynamic size m: the LU's rows, which its pivots (k = min(m, n) of
    them) do not give. The call runs at the bound (pivots < m leave entries m.. where they
    are, so the first m are the size-m permutation) and set-dimension-size cuts it to the m
    of the shape tensor JAX passes."""
    static = Shape(shape.element_type, shape.dims, shape.dynamic[:-1] + (False,))
    out = cx.comp.emit(static, "custom-call", operands, ", ".join(attrs))
    return set_sizes(cx, out, shape_tensor, shape)


@converts("stablehlo.batch_norm_inference", "stablehlo.batch_norm_training",
          "stablehlo.batch_norm_grad")
def _batch_norm(cx):
    operands = cx.operands
    opcode = cx.name.split(".")[1].replace("_", "-")
    eps = float(cx.attr("epsilon").value)
    feature = int(cx.attr("feature_index").value)
    x = operands[0]
    shapes = [bounded(cx.result_shape(i), list(x.shape.dims) if i == 0 else [None])
              for i in range(len(cx.op.results))]
    shape = shapes[0] if len(shapes) == 1 else TupleShape(tuple(shapes))
    out = cx.comp.emit(shape, opcode, operands, f"epsilon={eps!r}, feature_index={feature}")
    return cx.converter.unpack(cx.comp, out, len(shapes))


@converts("stablehlo.broadcast")
def _broadcast(cx):
    """`broadcast` prepends `broadcast_sizes` dims: HLO broadcast onto the trailing ones."""
    (x,) = cx.operands
    added = len(list(cx.attr("broadcast_sizes")))
    shape = bounded(cx.result_shape(), [None] * added + list(x.shape.dims))
    dims = list(range(added, added + x.shape.rank))
    return [cx.comp.emit(shape, "broadcast", [x], f"dimensions={dims_text(dims)}")]


@converts("stablehlo.rng")
def _rng(cx):
    a, b, _shape = cx.operands
    kind = {"UNIFORM": "rng_uniform", "NORMAL": "rng_normal"}[_enum(cx, "rng_distribution")]
    return [cx.comp.emit(cx.result_shape(), "rng", [a, b], f"distribution={kind}")]


@converts("sdy.sharding_constraint", "sdy.reshard")
def _sharding(cx):
    """Shardy's placement marks: the identity on one device."""
    return cx.operands
