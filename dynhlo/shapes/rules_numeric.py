"""Shape rules of the numeric family (the CPU's ops_numeric.py, the GPU's library/numeric.py):
batch normalization, rng, rng-bit-generator, rng-get-and-update-state, and the LAPACK/BLAS
custom calls potrf, getrf, syevd/heevd and trsm.

Batch norm keeps its operand's dims (the statistics are per feature, so a dynamic batch or
spatial dim only changes how many elements enter them). Semantics: XLA operation semantics
(BatchNorm*, Rng, RngBitGenerator); LAPACK's and JAX's typed-FFI calls
(jaxlib/cpu/lapack_kernels.h).
"""

from __future__ import annotations

from ..hlo import attrs
from ..hlo.opcodes import Opcode
from . import algebra
from .rules import custom_call_rule, elementwise, rule, sizeless
from .rules_collective import static_tree
from .sizes import bound_of, derive, dim_text, unify
from .square import one_kind, square


def _feature(ctx, inst, operand) -> int:
    f = attrs.integer(inst, "feature_index")
    if not 0 <= f < len(operand):
        raise ctx.error(f"feature_index={f} out of range for a rank-{len(operand)} operand")
    return f


def _per_feature(ctx, dims: list, what: list[str]):
    """The one feature dim shared by the operand's feature dim and the 1-d operands."""
    joined = dims[0]
    for dim, name in zip(dims[1:], what[1:]):
        out = unify(joined, dim)
        if out is None:
            raise ctx.error(f"{name} has {dim_text(dim)} features but the operand has "
                            f"{dim_text(joined)}")
        joined = out
    return joined


def _vectors(ctx, operands, names):
    for tree, name in zip(operands, names):
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


# --- LAPACK and BLAS custom calls ----------------------------------------------------------

def lapack(kinds: str, name: str):
    """Register a rule for lapack_{s,d,c,z}NAME_ffi (the kinds given)."""
    def register(fn):
        return custom_call_rule(*(f"lapack_{k}{name}_ffi" for k in kinds))(fn)
    return register


def matrix(ctx, operand):
    """(batch dims, m, n) of a LAPACK call's [batch..., m, n] operand dims."""
    if isinstance(operand, list) or len(operand) < 2:
        raise ctx.error("the LAPACK custom call needs an array of rank >= 2 (batch..., m, n)")
    return operand[:-2], operand[-2], operand[-1]


def min_dim(m, n):
    """min(m, n) of two Dims, dynamic when either is."""
    return derive(algebra.minimum, (m, n), min(bound_of(m), bound_of(n)), key="min")


@lapack("sdcz", "potrf")
def _potrf_rule(ctx, inst, operands):
    batch, m, n = matrix(ctx, operands[0])
    square(inst, operands[0])  # an [n of <=8, 8] matrix factored garbage (info n)
    return [operands[0], batch]


@lapack("sdcz", "getrf")
def _getrf_rule(ctx, inst, operands):
    batch, m, n = matrix(ctx, operands[0])
    return [operands[0], batch + (min_dim(m, n),), batch]


@lapack("sd", "syevd")
@lapack("cz", "heevd")
def _syevd_rule(ctx, inst, operands):
    batch, m, n = matrix(ctx, operands[0])
    square(inst, operands[0])
    return [operands[0], batch + (n,), batch]


@lapack("sdcz", "trsm")
def _trsm_rule(ctx, inst, operands):
    """x of b's dims; a is square and pairs with b's rows (side L) or columns (side R), as
    in BLAS trsm (a half-dynamic a was an IndexError at run time)."""
    a, b = matrix(ctx, operands[0]), matrix(ctx, operands[1])
    square(inst, operands[0])
    names = [o.name for o in inst.operands]
    left = attrs.ffi_char(inst, "side", "L") == "L"
    rank_b = len(operands[1])
    one_kind(inst, [((a[2], f"operand 0 '{names[0]}' dimension {len(operands[0]) - 1}"),
                     (b[1] if left else b[2],
                      f"operand 1 '{names[1]}' dimension {rank_b - 2 if left else rank_b - 1}"))],
             f"trsm (side {'L' if left else 'R'})")
    return operands[1]


custom_call_rule(*(f"blas_{k}trsm_ffi" for k in "sdcz"))(_trsm_rule)
