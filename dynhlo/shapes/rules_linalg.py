"""Shape rules of the linalg family (the CPU's ops_linalg.py, the GPU's library/linalg.py):
convolution, cholesky, triangular-solve and fft. A convolution's windowed dimension follows
its operand's size through XLA's window arithmetic (dynhlo/shapes/windows.py, shared with the
lowerings). Semantics: XLA operation semantics (Conv, Cholesky, TriangularSolve, Fft) and
DynamicDimensionInference.
"""

from __future__ import annotations

from ..errors import UnsupportedError
from ..hlo import attrs
from ..hlo.opcodes import Opcode
from ..hlo.shape import UNBOUNDED
from .rules_window import windowed
from .rules import elementwise, rule
from . import algebra
from .sizes import Sym, bound_of, derive, dim_text, unify
from .square import one_kind, square
from .windows import (ConvLabels, WindowDim, conv_labels, window_dims, window_output_expr,
                      window_output_size)


@rule(Opcode.CONVOLUTION)
def _convolution(ctx, inst, operands):
    return convolution_dims(ctx, inst, operands)


def convolution_dims(ctx, inst, operands, spatial=None) -> tuple:
    """A convolution's result dims from its lhs and rhs dims; `spatial(k, x, kernel, w,
    declared)` gives spatial dimension k's (default: the window as written, `windowed`),
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
            out[labels.out_spatial[k]] = windowed(x, _with_size(w, kernel),
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
