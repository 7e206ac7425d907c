"""Shape rules for windows, sorting, linear algebra, convolution and FFT.

Opcodes: reduce-window, select-and-scatter, sort, topk, convolution, cholesky,
triangular-solve, fft. A windowed dimension's size is an expression of its operand's size
(XLA's window arithmetic, `window_output_expr`), so a dynamic input gives an output that
follows the actual size. The window geometry (dynhlo/shapes/windows.py) is shared with the
backends' lowerings, so shape and value agree on one formula. Semantics: XLA operation
semantics (ReduceWindow, SelectAndScatter, Sort, TopK, Conv, Cholesky, TriangularSolve, Fft)
and DynamicDimensionInference.
"""

from __future__ import annotations

from ..errors import DynamicSizeError, UnsupportedError
from ..hlo import attrs, patterns
from ..hlo.opcodes import Opcode
from ..hlo.shape import UNBOUNDED
from .rules import elementwise, rule, single_dimension
from . import algebra
from .sizes import Sym, bound_of, derive, dim_text, unify
from .square import one_kind, square
from .windows import (ConvLabels, WindowDim, conv_labels, window_dims, window_output_expr,
                      window_output_size)


def _windowed(dim, w: WindowDim, declared: int):
    bound = window_output_size(bound_of(dim), w) if bound_of(dim) != UNBOUNDED else declared
    return derive(lambda n: window_output_expr(n, w), (dim,), bound, key=("window", w))


@rule(Opcode.REDUCE_WINDOW)
def _reduce_window(ctx, inst, operands):
    n = len(operands) // 2
    if n == 0 or len(operands) != 2 * n:
        raise ctx.error("reduce-window takes N arrays and N init values")
    if any(t != () for t in operands[n:]):
        raise ctx.error("reduce-window init values must be scalars")
    joined = elementwise(ctx, operands[:n], join=unify)
    wins = window_dims(inst, len(joined))
    declared = inst.shape.elements[0] if inst.shape.is_tuple else inst.shape
    if declared.rank != len(joined):
        raise ctx.error(f"reduce-window of rank-{len(joined)} operands declares a "
                        f"rank-{declared.rank} result ({declared})")
    out = tuple(_windowed(dim, w, declared.dims[d])
                for d, (dim, w) in enumerate(zip(joined, wins, strict=True)))
    return out if n == 1 else [out] * n


@rule(Opcode.SELECT_AND_SCATTER)
def _select_and_scatter(ctx, inst, operands):
    operand, source, init = operands
    if init != () or len(source) != len(operand):
        raise ctx.error("select-and-scatter needs a source of the operand's rank and a "
                        "scalar init value")
    declared = inst.operands[1].shape.dims
    for d, (dim, w, src) in enumerate(zip(operand, window_dims(inst, len(operand)), source,
                                          strict=True)):
        if w.base_dilation != 1 or w.window_dilation != 1:
            raise ctx.error("select-and-scatter windows have no dilation")
        windows = _windowed(dim, w, declared[d])
        if isinstance(windows, int) and isinstance(src, int) and windows != src:
            raise ctx.error(f"source dimension {d} has size {src}, but the window over the "
                            f"operand gives {windows}")
        # A source with no size of its own (a broadcast to `<=`) has one per window.
        if isinstance(src, Sym) and src.root().expr is None and unify(windows, src) is None:
            raise ctx.error(f"source dimension {d} is {dim_text(src)}, but the window over "
                            f"the operand gives {dim_text(windows)}")
    return operand


@rule(Opcode.SORT)
def _sort(ctx, inst, operands):
    if not operands:
        raise ctx.error("sort needs at least one operand")
    joined = elementwise(ctx, operands, join=unify)
    d = single_dimension(ctx, inst)
    if not 0 <= d < len(joined):
        raise ctx.error(f"sorts dimension {d} of a rank-{len(joined)} operand")
    if "to_apply" not in inst.called:
        raise ctx.error("sort needs a comparator to_apply=")
    if len(operands) == 1:
        return joined
    # XLA's HandleSort gives the dynamic size only to the outputs of dynamic operands: a
    # static operand sorted with dynamic keys (tf.unique's iota) stays static, its elements
    # past the keys' size kept last in their order (dynamic_padder.cc RewriteDynamicSort).
    return [joined[:d] + (t[d] if isinstance(t[d], int) else joined[d],) + joined[d + 1:]
            for t in operands]


@rule(Opcode.TOPK)
def _topk(ctx, inst, operands):
    (operand,) = operands
    k = attrs.integer(inst, "k")
    if not operand or k < 0:
        raise ctx.error(f"topk needs an operand of rank >= 1 and k >= 0 (k={k})")
    if inst.operands[0].shape.element_type in ("c64", "c128"):
        raise ctx.error("topk of complex values: they have no order")
    last = operand[-1]
    if bound_of(last) != UNBOUNDED and k > bound_of(last):
        raise ctx.error(f"k={k} exceeds the last dimension's size {dim_text(last)}")
    out = tuple(operand[:-1]) + (k,)
    return [out, out]


def topk_k(inst, n: int) -> tuple[int, bool]:
    """(k, largest) of a topk whose last dimension has actual size `n` (for the lowerings).

    Raises:
        DynamicSizeError: k > n; top-k of fewer than k elements is not defined (XLA TopK).
    """
    k = attrs.integer(inst, "k")
    if k > n:
        raise DynamicSizeError(
            f"instruction '{inst.name}': k={k} is larger than the actual size {n} of the last "
            f"dimension (bound {inst.operands[0].shape.dims[-1]}); top-k of fewer than k "
            "elements is not defined")
    return k, attrs.boolean(inst, "largest", True)


def topk_call_k(inst, n: int) -> tuple[int, bool]:
    """(k, largest) of XLA's `TopK` custom call (TopkRewriter) whose operand's last dimension
    has actual size `n`: k is the result's last dimension; a comparator `to_apply` that is one
    LT compare asks for the smallest, any other (GT, or none recognised) for the largest.
    TopkDecomposer makes it a stable sort by that comparator: ties go to the lower index.

    Raises:
        DynamicSizeError: k > n; top-k of fewer than k elements is not defined.
    """
    k = inst.shape.elements[0].dims[-1]
    if k > n:
        raise DynamicSizeError(
            f"instruction '{inst.name}': TopK of k={k} over a last dimension of actual size "
            f"{n} (bound {inst.operands[0].shape.dims[-1]}): top-k of fewer than k elements "
            "is not defined")
    comps = inst.called.get("to_apply") or inst.called.get("called_computations") or []
    found = patterns.sort_comparator(comps[0]) if comps else None
    return k, found is None or found.descending


@rule(Opcode.CONVOLUTION)
def _convolution(ctx, inst, operands):
    return convolution_dims(ctx, inst, operands)


def convolution_dims(ctx, inst, operands, spatial=None) -> tuple:
    """A convolution's result dims from its lhs and rhs dims; `spatial(k, x, kernel, w,
    declared)` gives spatial dimension k's (default: the window as written, `_windowed`),
    for windows computed at run time (rules_dynamic_window.py)."""
    lhs, rhs = operands[:2]
    if len(lhs) != len(rhs) or len(lhs) < 2:
        raise ctx.error(f"convolution operands of ranks {len(lhs)} and {len(rhs)}")
    labels = conv_labels(inst, len(lhs))
    wins = window_dims(inst, len(lhs) - 2)
    groups = attrs.integer(inst, "feature_group_count", 1)
    batch_groups = attrs.integer(inst, "batch_group_count", 1)
    _check_groups(ctx, lhs, rhs, labels, groups, batch_groups)
    declared = inst.shape.dims
    out: list = [0] * len(lhs)
    batch = lhs[labels.lhs_batch]
    out[labels.out_batch] = derive(lambda n: algebra.floordiv(n, batch_groups), (batch,),
                                   bound_of(batch) // batch_groups
                                   if bound_of(batch) != UNBOUNDED else UNBOUNDED)
    out[labels.out_feature] = rhs[labels.rhs_out]
    for k, w in enumerate(wins):
        x, kernel = lhs[labels.lhs_spatial[k]], rhs[labels.rhs_spatial[k]]
        if spatial is not None:
            out[labels.out_spatial[k]] = spatial(k, x, kernel, w,
                                                 declared[labels.out_spatial[k]])
        elif isinstance(kernel, int):
            out[labels.out_spatial[k]] = _windowed(x, _with_size(w, kernel),
                                                   declared[labels.out_spatial[k]])
        else:
            out[labels.out_spatial[k]] = derive(
                lambda n, s, w=w: window_output_expr(n, w, s), (x, kernel),
                declared[labels.out_spatial[k]])
    return tuple(out)


def _with_size(w: WindowDim, size: int) -> WindowDim:
    return WindowDim(size, w.stride, w.lo, w.hi, w.base_dilation, w.window_dilation, w.reversal)


def _check_groups(ctx, lhs, rhs, labels: ConvLabels, groups: int, batch_groups: int):
    """Static checks of XLA's grouping constraints; dynamic sizes are checked at run time."""
    if groups < 1 or batch_groups < 1 or (groups > 1 and batch_groups > 1):
        raise ctx.error(f"feature_group_count={groups} and batch_group_count={batch_groups}: "
                        "each must be >= 1 and at most one of them > 1")
    features, kernel_in = lhs[labels.lhs_feature], rhs[labels.rhs_in]
    if isinstance(features, int) and isinstance(kernel_in, int) and \
            features != groups * kernel_in:
        raise ctx.error(f"input features {features} != feature_group_count ({groups}) * "
                        f"kernel input features ({kernel_in})")
    for value, count, what in ((rhs[labels.rhs_out], groups * batch_groups,
                                "kernel output features"),
                               (lhs[labels.lhs_batch], batch_groups, "batch")):
        if isinstance(value, int) and value % count:
            raise ctx.error(f"{what} {value} is not divisible by the group count {count}")


@rule(Opcode.CHOLESKY)
def _cholesky(ctx, inst, operands):
    (a,) = operands
    return _square(ctx, a, "cholesky operand")


def _square(ctx, a, what):
    if len(a) < 2:
        raise ctx.error(f"{what} must have rank >= 2")
    square(ctx.inst, a)
    joined = unify(a[-2], a[-1])
    if joined is None:
        raise ctx.error(f"{what} is not square: {dim_text(a[-2])} x {dim_text(a[-1])}")
    return tuple(a[:-2]) + (joined, joined)


@rule(Opcode.TRIANGULAR_SOLVE)
def _triangular_solve(ctx, inst, operands):
    a, b = operands
    a = _square(ctx, a, "triangular-solve a")
    if len(b) != len(a):
        raise ctx.error(f"a and b ranks differ: {len(a)} and {len(b)}")
    left = attrs.boolean(inst, "left_side")
    rank = len(a)
    paired = [(d, d) for d in range(rank - 2)] + [(rank - 1, rank - 2 if left else rank - 1)]
    names = [o.name for o in inst.operands]
    one_kind(inst, [((a[i], f"operand 0 '{names[0]}' dimension {i}"),
                     (b[j], f"operand 1 '{names[1]}' dimension {j}")) for i, j in paired],
             f"triangular-solve (left_side={str(left).lower()})")
    out = list(elementwise(ctx, [a[:-2], b[:-2]], join=unify))
    m = unify(a[-1], b[-2] if left else b[-1])
    if m is None:
        raise ctx.error(f"a is {dim_text(a[-1])} x {dim_text(a[-1])} but b is "
                        f"{dim_text(b[-2])} x {dim_text(b[-1])} (left_side={left})")
    return tuple(out) + ((m, b[-1]) if left else (b[-2], m))


_FFT_TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")


@rule(Opcode.FFT)
def _fft(ctx, inst, operands):
    (x,) = operands
    kind = attrs.string(inst, "fft_type", "FFT")
    lengths = attrs.ints(inst, "fft_length")
    if kind not in _FFT_TYPES or not 1 <= len(lengths) <= min(3, len(x)):
        raise ctx.error(f"fft_type={kind} fft_length={list(lengths)} for a rank-{len(x)} "
                        "operand; fft_type is one of FFT, IFFT, RFFT, IRFFT and fft_length "
                        "names 1 to 3 trailing dimensions")
    rank = len(lengths)
    inner = list(x[-rank:])
    expected = list(lengths)
    if kind == "IRFFT":
        expected[-1] = lengths[-1] // 2 + 1
        if any(isinstance(d, Sym) for d in inner):
            raise UnsupportedError(f"instruction '{inst.name}': IRFFT over a dynamic "
                                   "dimension (its output length is ambiguous at a smaller "
                                   "size); make the transformed dimensions static")
    for d, (dim, n) in enumerate(zip(inner, expected, strict=True)):
        if bound_of(dim) not in (n, UNBOUNDED):
            raise ctx.error(f"fft_length={list(lengths)} needs trailing dimension {d} of "
                            f"size {n}, got {dim_text(dim)}")
    if kind == "RFFT":
        # An empty transform is empty (n // 2 + 1 would invent one bin).
        inner[-1] = derive(lambda n: algebra.minimum(n, algebra.add(algebra.floordiv(n, 2),
                                                                    algebra.ONE)),
                           (inner[-1],), lengths[-1] // 2 + 1)
    elif kind == "IRFFT":
        inner[-1] = lengths[-1]
    return tuple(x[:-rank]) + tuple(inner)
