"""A product's precision in StableHLO (dot_general, dot, convolution) as HLO attributes.

`precision_config = [#stablehlo<precision HIGHEST>, ...]` becomes `operand_precision=
{highest,...}` and `algorithm = <lhs_precision_type = f32, ...>` becomes `algorithm=
dot_f32_f32_f32`, the names XLA's HLO text uses (xla_data.proto PrecisionConfig, lowercase
in HLO text; the algorithm's name is its preset's: dot_<lhs>_<rhs>_<accumulation>, `_x<n>`
for n primitive operations, f8 types as any_f8). The CPU backend computes every product
alike; the GPU's `precision="default"` reads them to decide where TF32 may run
(dynhlo/backends/gpu/precision.py), so dropping them would turn a HIGHEST dot into TF32.
"""

from __future__ import annotations

from .convert import OpContext


def precision_attrs(cx: OpContext) -> str:
    """`, operand_precision={...}` and `, algorithm=...` for the op's attributes ("" when
    it has neither: XLA's DEFAULT)."""
    out = ""
    config = cx.attr("precision_config")
    if config is not None and len(config):
        words = [str(p).rstrip(">").split()[-1].lower() for p in config]
        out += f", operand_precision={{{','.join(words)}}}"
    algorithm = cx.attr("algorithm")
    if algorithm is not None:
        out += f", algorithm={_algorithm_name(cx, algorithm)}"
    return out


def _algorithm_name(cx: OpContext, attr) -> str:
    from jaxlib.mlir.dialects import stablehlo
    alg = stablehlo.DotAlgorithm(attr)
    if alg.lhs_component_count != 1 or alg.rhs_component_count != 1:
        raise cx.error(f"dot algorithm {attr} has no XLA name (component counts other "
                       "than 1)")
    types = [_type_name(t) for t in (alg.lhs_precision_type, alg.rhs_precision_type,
                                     alg.accumulation_type)]
    n = alg.num_primitive_operations
    name = "dot_" + "_".join(types) + (f"_x{n}" if n > 1 else "")
    return name + ("_fast_accum" if alg.allow_imprecise_accumulation else "")


def _type_name(mlir_type) -> str:
    text = str(mlir_type)
    return "any_f8" if text.startswith("f8") else text.lower()


__all__ = ["precision_attrs"]
