"""Shape rules of the data family (the CPU's ops_data.py, the GPU's library/data.py):
constant, iota, broadcast, transpose, reshape, concatenate, slice, pad, tuple,
get-tuple-element, get/set-dimension-size, and the custom-call opcode with the dynamic padder's
PadToStatic and SliceToDynamic. Semantics: XLA operation semantics, ShapeInference and
DynamicDimensionInference.
"""

from __future__ import annotations

import math

from ..errors import DynamicSizeError, UnsupportedError
from ..hlo import attrs
from ..hlo.opcodes import Opcode
from ..hlo.shape import UNBOUNDED
from . import algebra
from .rules import (CUSTOM_CALL_RULES, custom_call_rule, default_rule, elementwise,
                    fresh_declared, rule, single_dimension, sizeless)
from .sizes import Dim, Sym, bound_of, derive, dim_text, product, unify
from .values import value_dim
from .trees import tree_text


rule(Opcode.CONSTANT, Opcode.IOTA)(sizeless)


@rule(Opcode.BROADCAST)
def _broadcast(ctx, inst, operands):
    mapped = attrs.ints(inst, "dimensions", ())
    (operand,) = operands
    if len(mapped) != len(operand):
        raise ctx.error(f"dimensions={list(mapped)} must name one output dimension per "
                        f"operand dimension ({len(operand)})")
    out = list(fresh_declared(inst))
    for i, d in enumerate(mapped):
        if not 0 <= d < len(out):
            raise ctx.error(f"dimensions={list(mapped)} names dimension {d} of a rank-"
                            f"{len(out)} result")
        out[d] = operand[i]
    return tuple(out)


@rule(Opcode.TRANSPOSE)
def _transpose(ctx, inst, operands):
    perm = attrs.ints(inst, "dimensions")
    (operand,) = operands
    if sorted(perm) != list(range(len(operand))):
        raise ctx.error(f"dimensions={list(perm)} is not a permutation of {len(operand)} dims")
    return tuple(operand[p] for p in perm)


@rule(Opcode.RESHAPE)
def _reshape(ctx, inst, operands):
    (operand,) = operands
    target = inst.shape.dims
    if UNBOUNDED in target or any(bound_of(d) == UNBOUNDED for d in operand):
        return _reshape_unbounded(ctx, inst, operand)
    if not any(isinstance(d, Sym) for d in operand):
        if math.prod(operand) != math.prod(target):
            raise ctx.error(f"reshape of {len(operand)}-d size {math.prod(operand)} elements "
                            f"to {math.prod(target)} elements")
        return tuple(target)
    return tuple(reshape_groups(ctx, operand, target, _dynamic_preference(inst)))


def _dynamic_preference(inst) -> tuple[int, ...]:
    """Per output dim: 2 for XLA's `inferred_dimension`, 1 for a declared `<=`, else 0.

    XLA's HandleReshape (dynamic_dimension_inference.cc) gives a split dimension's dynamic
    size to the reshape's `inferred_dimension` first, then to a dimension the shape marks
    dynamic, then to the first one that is not 1.
    """
    inferred = attrs.integer(inst, "inferred_dimension", -1)
    return tuple(2 if k == inferred else int(flag) for k, flag in enumerate(inst.shape.dynamic))


def _reshape_unbounded(ctx, inst, operand):
    """Reshape with `?` dims: bound products cannot be matched, so the one `?` dim of the
    result takes all the elements the static result dims leave (a run-time check that they
    divide); f32[?,64] -> f32[?] and f32[?] -> f32[?,4]."""
    target = inst.shape.dims
    open_dims = [k for k, (t, dyn) in enumerate(zip(target, inst.shape.dynamic, strict=True)) if dyn]
    if len(open_dims) != 1 or target[open_dims[0]] != UNBOUNDED:
        raise UnsupportedError(f"instruction '{inst.name}': reshape of {tree_text(operand)} to "
                               f"{inst.shape} with unbounded (?) dims needs exactly one `?` "
                               "result dim and the others static; give bounds "
                               "(compile(..., bounds=...)) or run it with dynhlo.jit")
    k = open_dims[0]
    rest = math.prod(t for d, t in enumerate(target) if d != k)
    if rest == 0:  # rows of no elements: any number of them holds the operand's elements
        raise UnsupportedError(f"instruction '{inst.name}': reshape to {inst.shape} cannot "
                               "size its `?` dimension (the other dimensions hold 0 "
                               "elements); declare it static or bounded")
    total = product(operand)
    out = list(target)
    if isinstance(total, int):
        out[k] = _exact_div(ctx, algebra.const(total), rest).value
    else:
        # `?` of a bounded operand (bound-unbounded gave the parameter a bound; JAX's keepdims
        # writes f32[?,1] reshape(f32[?])): the bound follows, so jit, AOT and buckets can
        # size it.
        total_bound = bound_of(total)
        bound = UNBOUNDED if total_bound == UNBOUNDED or rest == 0 else total_bound // rest
        out[k] = derive(lambda t: _exact_div(ctx, t, rest), (total,), bound)
    return tuple(out)


def reshape_groups(ctx, operand, target, dynamic=None):
    """Match runs of dims with equal bound products; a run's dynamic size moves across.

    `dynamic` (per target dim: 2 for the inferred_dimension, 1 for a declared `<=`) picks
    which output dim of a run takes the dynamic size: `f32[<=12] -> f32[3,<=4]` puts it on
    the minor dim, as declared.
    """
    dynamic = tuple(dynamic) if dynamic is not None else (False,) * len(target)
    out: list[Dim] = []
    i = j = 0
    while i < len(operand) or j < len(target):
        gi, gj = [i], [j]
        pi = bound_of(operand[i]) if i < len(operand) else 1
        pj = target[j] if j < len(target) else 1
        i, j = i + 1, j + 1
        while pi != pj:
            if pi < pj and i < len(operand):
                pi *= bound_of(operand[i]); gi.append(i); i += 1
            elif j < len(target):
                pj *= target[j]; gj.append(j); j += 1
            else:
                raise ctx.error(f"reshape from {len(operand)} dims to {list(target)}: element "
                                "counts differ")
        out.extend(_reshape_group(ctx, [operand[k] for k in gi if k < len(operand)],
                                  [target[k] for k in gj if k < len(target)],
                                  [dynamic[k] for k in gj if k < len(target)]))
    return out[:len(target)]


def _reshape_group(ctx, src, dst, declared):
    if not any(isinstance(d, Sym) for d in src) or not dst:
        # no output dim: the run is of bound 1 (a `<=1` dim reshaped away: `f32[<=8,<=1]
        # -> f32[<=8]`), whose elements, if any, the other runs count
        return list(dst)
    total = product(src)
    # The dynamic size lands on the reshape's inferred_dimension, else on the output dim
    # declared `<=` (the major-most one if several), else on the first output dim not 1.
    preferred = max(declared, default=0)
    major = next((k for k, flag in enumerate(declared) if flag and flag == preferred),
                 next((k for k, d in enumerate(dst) if d != 1), 0))
    rest = math.prod(d for k, d in enumerate(dst) if k != major)
    out = list(dst)
    if rest == 1 and isinstance(total, Sym):
        out[major] = total   # all of it (derive's total / 1 would be dropped for it)
        return out
    out[major] = derive(lambda t: _exact_div(ctx, t, rest), (total,), dst[major])
    return out


def _exact_div(ctx, total: algebra.Size, part: int) -> algebra.Size:
    """total / part, checked at run time to divide where it does not provably."""
    inst = ctx.inst
    # a bitcast that changes the element width reshapes bytes (rules_indexing._bitcast)
    unit = "bytes" if inst.opcode is Opcode.BITCAST and inst.operands and \
        inst.operands[0].shape.element_type != inst.shape.element_type else "elements"

    def fail(value: int, part: int) -> DynamicSizeError:
        return DynamicSizeError(f"instruction '{inst.name}': {inst.opcode.value} of {value} "
                                f"{unit} into rows of {part} does not divide")
    if total.is_const and total.value % part:
        raise fail(total.value, part)
    return algebra.exact_div(total, part, fail)


@rule(Opcode.CONCATENATE)
def _concatenate(ctx, inst, operands):
    axis = single_dimension(ctx, inst)
    rank = len(operands[0])
    if not 0 <= axis < rank:
        raise ctx.error(f"concatenates dimension {axis} of rank-{rank} operands")
    for i, t in enumerate(operands[1:], 1):
        if len(t) != rank:  # XLA: every operand has operand 0's rank
            raise ctx.error(f"operand {i} '{inst.operands[i].name}' has rank {len(t)}, "
                            f"operand 0 '{inst.operands[0].name}' rank {rank}; concatenate "
                            "takes operands of one rank")
    others = elementwise(ctx, [tuple(t[:axis]) + tuple(t[axis + 1:]) for t in operands],
                         join=unify)
    parts = tuple(t[axis] for t in operands)
    bounds = [bound_of(p) for p in parts]
    bound = UNBOUNDED if UNBOUNDED in bounds else sum(bounds)
    joined = derive(algebra.add, parts, bound)
    return tuple(others[:axis]) + (joined,) + tuple(others[axis:])


@rule(Opcode.SLICE)
def _slice(ctx, inst, operands):
    """XLA's HandleSlice: a slice of length 1 is static (the padder reads element `start`,
    which must then exist: checked at run time by the lowering); any other slice of a dynamic
    dimension has size ceil((n - start) / stride), at most the slice's own length."""
    (operand,) = operands
    spec = attrs.slices(inst)
    if len(spec) != len(operand):
        raise ctx.error(f"slice has {len(spec)} ranges for a rank-{len(operand)} operand")
    out = []
    for d, (dim, (start, limit, stride)) in enumerate(zip(operand, spec, strict=True)):
        bound = bound_of(dim)
        if stride <= 0 or not 0 <= start <= limit or (bound != UNBOUNDED and limit > bound):
            raise ctx.error(f"slice [{start}:{limit}:{stride}] out of range for dimension "
                            f"{d} of size {dim_text(dim)}")
        static = -(-(limit - start) // stride)
        if isinstance(dim, Sym) and static != 1:
            out.append(derive(lambda n, s=start, st=stride, b=static: algebra.clamp(
                algebra.ceildiv(algebra.sub(n, algebra.const(s)), st), 0, b), (dim,), static,
                key=("slice", start, stride, static)))
        else:
            out.append(static)
    return tuple(out)


@rule(Opcode.PAD)
def _pad(ctx, inst, operands):
    operand, _ = operands
    config = attrs.padding(inst)
    if len(config) != len(operand):
        raise ctx.error(f"padding has {len(config)} dimensions for a rank-{len(operand)} operand")
    out = []
    for dim, (lo, hi, interior) in zip(operand, config, strict=True):
        out.append(derive(lambda n, lo=lo, hi=hi, i=interior: padded_size(n, lo, hi, i),
                          (dim,), padded_size(algebra.const(bound_of(dim)), lo, hi,
                                              interior).value))
    return tuple(out)


def padded_size(n: algebra.Size, lo: int, hi: int, interior: int) -> algebra.Size:
    """XLA's pad: max(0, lo + hi + n + max(n - 1, 0) * interior)."""
    inner = algebra.scale(algebra.maximum(algebra.sub(n, algebra.ONE), algebra.ZERO), interior)
    return algebra.maximum(algebra.ZERO, algebra.add(n, algebra.const(lo + hi), inner))


@rule(Opcode.TUPLE)
def _tuple(ctx, inst, operands):
    return list(operands)


@rule(Opcode.GET_TUPLE_ELEMENT)
def _gte(ctx, inst, operands):
    (operand,) = operands
    index = attrs.integer(inst, "index")
    if not isinstance(operand, list) or not 0 <= index < len(operand):
        raise ctx.error(f"index={index} out of range for the operand's tuple")
    return operand[index]


# call and fusion: rules_control_flow.py (a size set inside the callee is read off the result).


@rule(Opcode.GET_DIMENSION_SIZE)
def _get_dimension_size(ctx, inst, operands):
    (operand,) = operands
    d = single_dimension(ctx, inst)
    if not 0 <= d < len(operand):
        raise ctx.error(f"dimensions={{{d}}} out of range for rank {len(operand)}")
    return ()


@rule(Opcode.SET_DIMENSION_SIZE)
def _set_dimension_size(ctx, inst, operands):
    operand, size = operands
    d = single_dimension(ctx, inst)
    if size != () or not 0 <= d < len(operand):
        raise ctx.error(f"set-dimension-size needs a scalar size and a dimension of the "
                        f"rank-{len(operand)} operand, got dimensions={{{d}}}")
    out = list(operand)
    bound = bound_of(operand[d])
    out[d] = value_dim(ctx.info, inst.operands[1], bound, inst, d)
    return tuple(out)


@rule(Opcode.CUSTOM_CALL)
def _custom_call(ctx, inst, operands):
    """A target's rule from CUSTOM_CALL_RULES; a target without one keeps its declared shape."""
    fn = CUSTOM_CALL_RULES.get(attrs.string(inst, "custom_call_target"))
    return default_rule(ctx, inst, operands) if fn is None else fn(ctx, inst, operands)


@custom_call_rule("PadToStatic")
def _pad_to_static(ctx, inst, operands):
    # XLA: the operand at its bound, static, whatever the result declares (`?` means
    # "inferred" here as on any instruction); the backends pad to this shape
    (operand,) = operands
    padded = tuple(bound_of(d) for d in operand)
    if UNBOUNDED in padded:
        x = inst.operands[0]
        raise ctx.error(f"PadToStatic pads its operand to its bound, and dimension "
                        f"{padded.index(UNBOUNDED)} of operand 0 '{x.name}' ({x.shape}) "
                        "has none; give the module's parameters bounds (<=N)")
    return [padded] + [()] * len(operand)


@custom_call_rule("SliceToDynamic")
def _slice_to_dynamic(ctx, inst, operands):
    array = operands[0]
    out = list(array)
    for d, size in enumerate(inst.operands[1:]):
        if inst.shape.dynamic[d] if not inst.shape.is_tuple else False:
            out[d] = value_dim(ctx.info, size, bound_of(array[d]), inst, d)
    return tuple(out)
