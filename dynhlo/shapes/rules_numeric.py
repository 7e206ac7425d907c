"""Shape rules of the numeric family (the CPU's ops_numeric.py, the GPU's library/numeric.py):
batch normalization, rng, rng-bit-generator and rng-get-and-update-state.

Batch norm keeps its operand's dims (the statistics are per feature, so a dynamic batch or
spatial dim only changes how many elements enter them). Semantics: XLA operation semantics
(BatchNorm*, Rng, RngBitGenerator).
"""

from __future__ import annotations

from ..hlo import attrs
from ..hlo.opcodes import Opcode
from .rules import elementwise, rule, sizeless
from .rules_collective import static_tree
from .sizes import dim_text, unify


def _feature(ctx, inst, operand) -> int:
    f = attrs.integer(inst, "feature_index")
    if not 0 <= f < len(operand):
        raise ctx.error(f"feature_index={f} out of range for a rank-{len(operand)} operand")
    return f


def _per_feature(ctx, dims: list, what: list[str]):
    """The one feature dim shared by the operand's feature dim and the 1-d operands."""
    joined = dims[0]
    for dim, name in zip(dims[1:], what[1:], strict=True):
        out = unify(joined, dim)
        if out is None:
            raise ctx.error(f"{name} has {dim_text(dim)} features but the operand has "
                            f"{dim_text(joined)}")
        joined = out
    return joined


def _vectors(ctx, operands, names):
    for tree, name in zip(operands, names, strict=True):
        if isinstance(tree, list) or len(tree) != 1:
            raise ctx.error(f"{name} must be a 1-d array of one value per feature")
    return [t[0] for t in operands]


@rule(Opcode.BATCH_NORM_TRAINING)
def _batch_norm_training(ctx, inst, operands):
    operand, scale, offset = operands
    f = _feature(ctx, inst, operand)
    vecs = _vectors(ctx, [scale, offset], ["scale", "offset"])
    feature = _per_feature(ctx, [operand[f]] + vecs, ["operand", "scale", "offset"])
    out = operand[:f] + (feature,) + operand[f + 1:]
    return [out, (feature,), (feature,)]


@rule(Opcode.BATCH_NORM_INFERENCE)
def _batch_norm_inference(ctx, inst, operands):
    operand = operands[0]
    f = _feature(ctx, inst, operand)
    names = ["scale", "offset", "mean", "variance"]
    vecs = _vectors(ctx, operands[1:], names)
    feature = _per_feature(ctx, [operand[f]] + vecs, ["operand"] + names)
    return operand[:f] + (feature,) + operand[f + 1:]


@rule(Opcode.BATCH_NORM_GRAD)
def _batch_norm_grad(ctx, inst, operands):
    operand, scale, mean, variance, grad_output = operands
    joined = elementwise(ctx, [operand, grad_output], join=unify)
    f = _feature(ctx, inst, joined)
    names = ["scale", "mean", "variance"]
    vecs = _vectors(ctx, [scale, mean, variance], names)
    feature = _per_feature(ctx, [joined[f]] + vecs, ["operand"] + names)
    out = joined[:f] + (feature,) + joined[f + 1:]
    return [out, (feature,), (feature,)]


rule(Opcode.RNG)(sizeless)


@rule(Opcode.RNG_GET_AND_UPDATE_STATE)
def _declared(ctx, inst, operands):
    return static_tree(inst.shape)


@rule(Opcode.RNG_BIT_GENERATOR)
def _rng_bit_generator(ctx, inst, operands):
    (state,) = operands
    if not inst.shape.is_tuple or len(inst.shape.elements) != 2:
        raise ctx.error("rng-bit-generator's shape is (new state, random bits)")
    return [state, static_tree(inst.shape.elements[1])]
