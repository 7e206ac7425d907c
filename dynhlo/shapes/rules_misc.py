"""Shape rules: normalization, collectives, structure ops, rng, custom calls.

Dynamic dimensions pass straight through these ops: batch norm keeps its operand's dims (the
statistics are per feature, so a dynamic batch or spatial dim only changes how many elements
enter them); a collective returns its operand's dims, with the sizes an all-gather,
reduce-scatter or all-to-all changes taken from its declared shape; async wrappers take the
dims of the computation they wrap. Which devices a collective needs is the backend's check
(dynhlo.hlo.collectives.check_one_device for one device), made at compile time.
Semantics: XLA operation semantics (BatchNorm*, AllGather, AllReduce, AllToAll,
CollectivePermute, ReduceScatter, AfterAll, RngBitGenerator, Async*).
"""

from __future__ import annotations


from ..errors import UnsupportedError
from ..hlo import attrs
from ..hlo.opcodes import Opcode
from ..hlo.shape import AnyShape
from .lapack_calls import check_operands, check_result_types
from .rules import RULES, default_rule, elementwise, rule
from . import algebra
from .sizes import Sym, bound_of, derive, dim_text, unify
from .square import one_kind, square
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


# --- collectives ---------------------------------------------------------------------------

# The collectives whose result sizes differ from their operand's over several devices: the
# declared shape says the new sizes (XLA's shape inference: all-gather multiplies the gather
# dimension by the group size, reduce-scatter divides the scatter dimension, array all-to-all
# divides its split dimension and multiplies its concat dimension).
_RESIZING = (Opcode.ALL_GATHER, Opcode.ALL_GATHER_START, Opcode.REDUCE_SCATTER,
             Opcode.ALL_TO_ALL)


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
    """The result's dims: the operand's, with the sizes a resizing collective changes taken
    from the declared shape. Whether the module's devices can run it (one device, or
    several through torch.distributed) is the backend's question, asked at compile time."""
    if inst.opcode in (Opcode.COLLECTIVE_PERMUTE, Opcode.COLLECTIVE_PERMUTE_START) and \
            len(operands) != 1:
        raise UnsupportedError(f"instruction '{inst.name}': the in-place form of "
                               f"{inst.opcode.value} (4 operands) is not supported")
    result = _operands_tree(operands)
    if inst.opcode in _RESIZING and not isinstance(result, list):
        result = _resized(inst, result)
    if inst.opcode in (Opcode.ALL_GATHER_START, Opcode.COLLECTIVE_PERMUTE_START):
        return _start_tree(inst, operands, result)
    return result


def _resized(inst, operand: tuple) -> tuple:
    """`operand` with each dim the collective resizes set to its declared size.

    A dynamic dim cannot be resized: XLA defines no collective on a dynamic operand (its
    dynamic dimension inference has no handler for any collective: DefaultAction,
    Unimplemented), and the pieces of an all-gather along a dynamic dim would sit at offsets
    no participant knows. Dynamic dims a collective keeps pass through (dynhlo checks at run
    time that the participants agree on them: backends/distributed.py).
    """
    declared = inst.shape.elements[1] if inst.shape.is_tuple else inst.shape
    if declared.is_tuple or len(declared.dims) != len(operand):
        return operand  # the verifier reports a rank change
    out = []
    for d, (dim, size) in enumerate(zip(operand, declared.dims, strict=True)):
        if bound_of(dim) == size and (isinstance(dim, int) or declared.dynamic[d]):
            out.append(dim)
        elif isinstance(dim, int):
            out.append(size)
        else:
            raise UnsupportedError(
                f"instruction '{inst.name}': {inst.opcode.value} resizes dimension {d}, "
                f"which is dynamic ({dim_text(dim)}, bound {bound_of(dim)}); XLA defines no "
                "collective along a dynamic dimension (its dynamic dimension inference "
                "refuses it): pad the operand to its bound and pass the sizes separately")
    return tuple(out)


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
    return derive(algebra.minimum, (m, n), min(bound_of(m), bound_of(n)), key="min")


@_lapack("sdcz", "potrf")
def _potrf_rule(ctx, inst, operands):
    batch, m, n = _matrix(ctx, operands[0])
    square(inst, operands[0])  # an [n of <=8, 8] matrix factored garbage (info n)
    return [operands[0], batch]


@_lapack("sdcz", "getrf")
def _getrf_rule(ctx, inst, operands):
    batch, m, n = _matrix(ctx, operands[0])
    return [operands[0], batch + (_min_dim(m, n),), batch]


@_lapack("sd", "syevd")
@_lapack("cz", "heevd")
def _syevd_rule(ctx, inst, operands):
    batch, m, n = _matrix(ctx, operands[0])
    square(inst, operands[0])
    return [operands[0], batch + (n,), batch]


@_lapack("sdcz", "trsm")
def _trsm_rule(ctx, inst, operands):
    """x of b's dims; a is square and pairs with b's rows (side L) or columns (side R), as
    in BLAS trsm (a half-dynamic a was an IndexError at run time)."""
    a, b = _matrix(ctx, operands[0]), _matrix(ctx, operands[1])
    square(inst, operands[0])
    names = [o.name for o in inst.operands]
    left = attrs.ffi_char(inst, "side", "L") == "L"
    rank_b = len(operands[1])
    one_kind(inst, [((a[2], f"operand 0 '{names[0]}' dimension {len(operands[0]) - 1}"),
                     (b[1] if left else b[2],
                      f"operand 1 '{names[1]}' dimension {rank_b - 2 if left else rank_b - 1}"))],
             f"trsm (side {'L' if left else 'R'})")
    return operands[1]


for _k in "sdcz":
    CUSTOM_CALL_RULES[f"blas_{_k}trsm_ffi"] = _trsm_rule



def svd_mode(inst) -> tuple[str, bool]:
    """(mode, full) of JAX's SVD call (SVD_TARGETS) over [..., m, n] matrices, for the lowerings.

    Results (A overwritten, s [..., min(m,n)], u, vt, info [...]), as jax/_src/lax/linalg.py
    `_svd_cpu_gpu_lowering` declares them. The typed-FFI attribute `mode` is 'A' (full u
    [m,m], vt [n,n]), 'S' (reduced, min(m,n) columns / rows) or 'N' (singular values only; u
    and vt are zeros of the declared shapes, full or not). `full`: whether u and vt are full,
    read from the declared shapes at A's bounds (so that the shape rule and the lowerings at
    every run-time size agree; where both readings fit, full, as JAX's default).
    JAX's GPU solver SVDs (shapes/rules_gpu_solver.py) say it with the bools compute_uv and
    full_matrices instead.
    """
    if "compute_uv" in inst.attrs.get("backend_config", ""):  # a GPU solver's SVD
        full = attrs.ffi_bool(inst, "full_matrices", True)
        return ("A" if full else "S") if attrs.ffi_bool(inst, "compute_uv", True) else "N", full
    mode = attrs.ffi_char(inst, "mode", "A")
    if mode != "N":
        return mode, mode == "A"
    m, n = inst.operands[0].shape.dims[-2:]
    u, vt = inst.shape.elements[2].dims, inst.shape.elements[3].dims
    return mode, (u[-2:], vt[-2:]) == ((m, m), (n, n))


SVD_TARGETS = tuple(f"lapack_{k}{name}_ffi" for k in "sdcz" for name in ("gesdd", "gesvd"))


def _svd_rule(ctx, inst, operands):
    """(A, s [..., k], u [..., m, m|k], vt [..., n|k, n], info [...]) of A [..., m, n],
    k = min(m, n), full or not as svd_mode reads it at the bounds: sizes follow A's (a
    matrix of run-time size m has s, u and vt of run-time sizes, as JAX's shape operands
    say under shape polymorphism)."""
    element = check_operands(ctx, inst, operands, 1)
    mode = attrs.ffi_char(inst, "mode", "A")
    if mode not in ("A", "S", "N"):
        raise ctx.error(f"JAX's SVD call needs mode = 65 ('A'), 83 ('S') or 78 ('N') : ui8, "
                        f"not {inst.attrs.get('backend_config')}")
    real = {"c64": "f32", "c128": "f64"}.get(element, element)
    check_result_types(ctx, inst, [element, real, element, element, "s32"])
    batch, m, n = _matrix(ctx, operands[0])
    k = _min_dim(m, n)
    _, full = svd_mode(inst)
    return [operands[0], batch + (k,), batch + (m, m if full else k),
            batch + (n if full else k, n), batch]


for _target in SVD_TARGETS:
    CUSTOM_CALL_RULES[_target] = _svd_rule

_previous_custom_call_rule = RULES.get(Opcode.CUSTOM_CALL, default_rule)


@rule(Opcode.CUSTOM_CALL)
def _custom_call(ctx, inst, operands):
    """Targets listed here get their rule; the rest keep the rule registered before."""
    fn = CUSTOM_CALL_RULES.get(attrs.string(inst, "custom_call_target"))
    if fn is None:
        return _previous_custom_call_rule(ctx, inst, operands)
    return fn(ctx, inst, operands)
