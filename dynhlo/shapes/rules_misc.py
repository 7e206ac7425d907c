"""Shape rules: normalization, single-device collectives, structure ops, rng, custom calls.

Dynamic dimensions pass straight through these ops: batch norm keeps its operand's dims (the
statistics are per feature, so a dynamic batch or spatial dim only changes how many elements
enter them); a collective on one device returns its operand's dims; async wrappers take the
dims of the computation they wrap. Collectives over replica groups of more than one device
change shapes and values in ways one device cannot compute: UnsupportedError, at compile time.
Semantics: XLA operation semantics (BatchNorm*, AllGather, AllReduce, AllToAll,
CollectivePermute, ReduceScatter, AfterAll, RngBitGenerator, Async*).
"""

from __future__ import annotations

import re

from ..errors import UnsupportedError
from ..hlo import attrs
from ..hlo.opcodes import Opcode
from ..hlo.shape import AnyShape
from .rules import RULES, default_rule, elementwise, rule
from .sizes import Sym, bound_of, dim_text, formula, unify
from .trees import declared_tree


def _static_tree(shape: AnyShape):
    """The declared tree of `shape`, each `<=` dim a free Sym (no run-time source)."""
    return declared_tree(shape, lambda path, d, bound: Sym(bound))


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


# --- collectives, one device -------------------------------------------------------------

_IOTA_GROUPS = re.compile(r"\[\s*(\d+)\s*,\s*(\d+)\s*\]\s*<=")


def group_size(inst) -> int:
    """Devices per replica group: `{}` (all replicas: here one), `{{0},{1}}`, `[2,4]<=[8]`."""
    text = inst.attrs.get("replica_groups", "{}").strip()
    iota = _IOTA_GROUPS.match(text)
    if iota:
        return int(iota.group(2))
    groups = re.findall(r"\{([^{}]*)\}", text)
    sizes = [len([x for x in g.split(",") if x.strip()]) for g in groups]
    return max(sizes + [1])


def check_one_device(inst) -> None:
    """UnsupportedError when the instruction's replica groups span more than one device."""
    n = group_size(inst)
    if n > 1:
        raise UnsupportedError(
            f"instruction '{inst.name}': {inst.opcode.value} over replica groups "
            f"{inst.attrs['replica_groups']} needs {n} devices; dynhlo runs modules on one "
            "device (groups of one device each: replica_groups={{0}} or {})")


def _operands_tree(operands):
    return operands[0] if len(operands) == 1 else list(operands)


def _start_tree(inst, operands, result):
    """An async `-start` result: (operands, result, context...) when declared as a tuple."""
    if not inst.shape.is_tuple:
        return result
    rest = [_static_tree(s) for s in inst.shape.elements[2:]]
    return [_operands_tree(operands), result] + rest


@rule(Opcode.ALL_REDUCE, Opcode.ALL_REDUCE_START, Opcode.ALL_GATHER, Opcode.ALL_GATHER_START,
      Opcode.REDUCE_SCATTER, Opcode.ALL_TO_ALL, Opcode.COLLECTIVE_BROADCAST,
      Opcode.COLLECTIVE_PERMUTE, Opcode.COLLECTIVE_PERMUTE_START)
def _collective(ctx, inst, operands):
    if inst.opcode not in (Opcode.COLLECTIVE_PERMUTE, Opcode.COLLECTIVE_PERMUTE_START):
        check_one_device(inst)
    elif len(operands) != 1:
        raise UnsupportedError(f"instruction '{inst.name}': the in-place form of "
                               f"{inst.opcode.value} (4 operands) is not supported")
    result = _operands_tree(operands)
    if inst.opcode in (Opcode.ALL_GATHER_START, Opcode.COLLECTIVE_PERMUTE_START):
        return _start_tree(inst, operands, result)
    _check_same_bounds(inst, result)
    return result


def _check_same_bounds(inst, result) -> None:
    """On one device a collective keeps its operand's shape; another one means more devices."""
    if inst.shape.is_tuple or isinstance(result, list):
        return
    bounds = [bound_of(d) for d in result]
    if list(inst.shape.dims) != bounds:
        raise UnsupportedError(
            f"instruction '{inst.name}': {inst.opcode.value} from {bounds} to "
            f"{list(inst.shape.dims)} gathers or scatters over several devices; dynhlo runs "
            "modules on one device")


@rule(Opcode.ALL_REDUCE_DONE)
def _all_reduce_done(ctx, inst, operands):
    return operands[0]


@rule(Opcode.ALL_GATHER_DONE, Opcode.COLLECTIVE_PERMUTE_DONE, Opcode.ASYNC_DONE)
def _done(ctx, inst, operands):
    (started,) = operands
    if not isinstance(started, list) or len(started) < 2:
        raise ctx.error(f"{inst.opcode.value} needs the tuple its -start produced")
    return started[1]


@rule(Opcode.ASYNC_START)
def _async_start(ctx, inst, operands):
    (comp,) = inst.called.get("calls") or [None]
    if comp is None:
        raise ctx.error("async-start needs calls=")
    result = ctx.call(comp, list(operands)).dims[comp.root]
    if not inst.shape.is_tuple or len(inst.shape.elements) < 2:
        raise ctx.error("async-start's shape is ((operands), result, context...)")
    rest = [_static_tree(s) for s in inst.shape.elements[2:]]
    return [list(operands), result] + rest


@rule(Opcode.ASYNC_UPDATE, Opcode.ADD_DEPENDENCY, Opcode.DOMAIN)
def _first_operand(ctx, inst, operands):
    if not operands:
        raise ctx.error(f"{inst.opcode.value} needs an operand")
    return operands[0]


@rule(Opcode.OPTIMIZATION_BARRIER)
def _opt_barrier(ctx, inst, operands):
    return _operands_tree(operands)


@rule(Opcode.AFTER_ALL, Opcode.RNG_GET_AND_UPDATE_STATE)
def _declared(ctx, inst, operands):
    return _static_tree(inst.shape)


@rule(Opcode.RNG_BIT_GENERATOR)
def _rng_bit_generator(ctx, inst, operands):
    (state,) = operands
    if not inst.shape.is_tuple or len(inst.shape.elements) != 2:
        raise ctx.error("rng-bit-generator's shape is (new state, random bits)")
    return [state, _static_tree(inst.shape.elements[1])]


# --- custom calls --------------------------------------------------------------------------

# Custom-call targets that are the identity on one device (sharding and placement marks).
IDENTITY_TARGETS = ("Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape",
                    "annotate_device_placement", "MoveToHost", "MoveToDevice",
                    "LayoutConstraint", "xla.sdy.GlobalToLocalShape",
                    "xla.sdy.LocalToGlobalShape", "xla.sdy.FuncResultSharding")

CUSTOM_CALL_RULES: dict = {}


def _identity_rule(ctx, inst, operands):
    return _operands_tree(operands)


for _target in IDENTITY_TARGETS:
    CUSTOM_CALL_RULES[_target] = _identity_rule


def _lapack(kinds: str, name: str):
    """Register a rule for lapack_{s,d,c,z}NAME_ffi (the kinds given)."""
    def register(fn):
        for k in kinds:
            CUSTOM_CALL_RULES[f"lapack_{k}{name}_ffi"] = fn
        return fn
    return register


def _matrix(ctx, operand):
    if isinstance(operand, list) or len(operand) < 2:
        raise ctx.error("the LAPACK custom call needs an array of rank >= 2 (batch..., m, n)")
    return operand[:-2], operand[-2], operand[-1]


def _min_dim(m, n):
    return formula(min, (m, n), f"min({dim_text(m)},{dim_text(n)})",
                   min(bound_of(m), bound_of(n)))


@_lapack("sdcz", "potrf")
def _potrf_rule(ctx, inst, operands):
    batch, m, n = _matrix(ctx, operands[0])
    return [operands[0], batch]


@_lapack("sdcz", "getrf")
def _getrf_rule(ctx, inst, operands):
    batch, m, n = _matrix(ctx, operands[0])
    return [operands[0], batch + (_min_dim(m, n),), batch]


@_lapack("sd", "syevd")
@_lapack("cz", "heevd")
def _syevd_rule(ctx, inst, operands):
    batch, m, n = _matrix(ctx, operands[0])
    return [operands[0], batch + (n,), batch]


@_lapack("sd", "geqrf")
def _geqrf_rule(ctx, inst, operands):
    batch, m, n = _matrix(ctx, operands[0])
    return [operands[0], batch + (_min_dim(m, n),)]


@_lapack("sd", "orgqr")
def _orgqr_rule(ctx, inst, operands):
    return operands[0]


@_lapack("sdcz", "trsm")
def _trsm_rule(ctx, inst, operands):
    return operands[1]


for _k in "sdcz":
    CUSTOM_CALL_RULES[f"blas_{_k}trsm_ffi"] = _trsm_rule

_previous_custom_call_rule = RULES.get(Opcode.CUSTOM_CALL, default_rule)


@rule(Opcode.CUSTOM_CALL)
def _custom_call(ctx, inst, operands):
    """Targets listed here get their rule; the rest keep the rule registered before."""
    fn = CUSTOM_CALL_RULES.get(attrs.string(inst, "custom_call_target"))
    if fn is None:
        return _previous_custom_call_rule(ctx, inst, operands)
    return fn(ctx, inst, operands)
