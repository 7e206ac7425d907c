"""Window and convolution geometry, shared by the shape rules and every backend's lowerings.

A `window={...}` decoded into one WindowDim per dimension with XLA's defaults, the number of
output positions a window gives, the window offsets that can reach an operand element, the
shape of a window that is a running reduction (cumsum), and a convolution's dim_labels and
group counts. Shape rules and lowerings read them here so that a shape and the value
computed for it agree on one formula.
May assume: the instruction's attributes as written (malformed ones are HloVerifyErrors).
Semantics: XLA operation semantics (ReduceWindow, Conv) and ShapeInference.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import DynamicSizeError, HloVerifyError
from ..hlo import attrs
from . import algebra, algebra_ops


@dataclass(frozen=True)
class WindowDim:
    """One dimension of an XLA `window={...}`: size, stride, padding, dilations, reversal."""

    size: int
    stride: int = 1
    lo: int = 0
    hi: int = 0
    base_dilation: int = 1
    window_dilation: int = 1
    reversal: bool = False


def window_dims(inst, rank: int) -> list[WindowDim]:
    """The decoded `window=` attribute, one WindowDim per dimension (XLA's defaults filled).

    Raises:
        HloVerifyError: an unknown field, a field with a count other than `rank`, or a
            size < 0 or stride/dilation < 1.
    """
    fields = dict(attrs.window(inst))
    # XLA prints window reversal as `rhs_reversal=1x0` (window_util.cc ToString).
    if "rhs_reversal" in fields:
        fields["window_reversal"] = [bool(v) for v in fields.pop("rhs_reversal")]
    unknown = set(fields) - {"size", "stride", "pad", "lhs_dilate", "rhs_dilate",
                             "window_reversal"}
    if unknown:
        raise HloVerifyError(f"window has unknown field(s) {', '.join(sorted(unknown))}; XLA's "
                             "are size, stride, pad, lhs_dilate, rhs_dilate, rhs_reversal",
                             inst.name)
    if rank and "size" not in fields:
        raise HloVerifyError(f"window={{...}} needs size= for a rank-{rank} operand", inst.name)
    defaults = {"size": [1] * rank, "stride": [1] * rank, "pad": [(0, 0)] * rank,
                "lhs_dilate": [1] * rank, "rhs_dilate": [1] * rank,
                "window_reversal": [False] * rank}
    values = {k: fields.get(k, v) for k, v in defaults.items()}
    for key, items in values.items():
        if len(items) != rank:
            raise HloVerifyError(f"window {key} has {len(items)} entries for {rank} "
                                 "dimensions", inst.name)
    out = [WindowDim(values["size"][d], values["stride"][d], *values["pad"][d],
                     values["lhs_dilate"][d], values["rhs_dilate"][d],
                     values["window_reversal"][d]) for d in range(rank)]
    for d, w in enumerate(out):
        if w.size < 0 or min(w.stride, w.base_dilation, w.window_dilation) < 1:
            raise HloVerifyError(f"window dimension {d} has size {w.size}, stride {w.stride}, "
                                 f"dilations {w.base_dilation}/{w.window_dilation}; sizes must "
                                 "be >= 0 and strides and dilations >= 1", inst.name)
    return out


def window_output_size(n: int, w: WindowDim, size: int | None = None) -> int:
    """Output positions of a window over `n` elements (XLA ShapeInference::InferWindowOutputShape).

    The operand is base-dilated ((n-1)*base_dilation + 1 elements, 0 for n = 0), padded by
    lo/hi, and the window-dilated window ((size-1)*window_dilation + 1) is slid by `stride`.
    `size` overrides w.size (a convolution kernel's actual spatial size).
    """
    size = w.size if size is None else size
    dilated = (n - 1) * w.base_dilation + 1 if n > 0 else 0
    padded = dilated + w.lo + w.hi
    extent = (size - 1) * w.window_dilation + 1 if size > 0 else 0
    if padded < extent:
        return 0
    return (padded - extent) // w.stride + 1


def window_output_expr(n: algebra.Size, w: WindowDim,
                       size: algebra.Size | None = None) -> algebra.Size:
    """`window_output_size` in the size algebra, for a run-time `n` (and kernel `size`):
    max(0, (max(0, (n-1)*base_dilation + 1) + lo + hi - extent) // stride + 1), which for
    a VALID window is JAX's `(n - k) // s + 1` (algebra normalises both to one expression)."""
    return windowed_size(n, w.size if size is None else size, w.stride, w.lo, w.hi,
                         w.base_dilation, w.window_dilation)


Amount = int | algebra.Size   # a window number: written in the module, or computed


def windowed_size(n: Amount, size: Amount, stride: Amount, lo: Amount, hi: Amount,
                  base_dilation: Amount = 1, window_dilation: Amount = 1) -> algebra.Size:
    """XLA's window output size (ShapeInference::InferWindowOutputShape) where any of the
    window's numbers may be a size expression (a window computed at run time, StableHLO's
    dynamic_conv and dynamic_reduce_window): `window_output_size`'s formula in the algebra.
    A stride computed at run time divides with truncation, max(0, (span + s) / s), equal to
    the floor form for s >= 1 and any span (the lowering refuses s < 1)."""
    n, size, stride, lo, hi, base, wdil = (algebra.const(v) if isinstance(v, int) else v
                                           for v in (n, size, stride, lo, hi, base_dilation,
                                                     window_dilation))
    one = algebra.ONE
    dilated = algebra.maximum(algebra.ZERO, algebra.add(
        _times(algebra.sub(n, one), base), one))
    extent = algebra.maximum(algebra.ZERO, algebra.add(
        _times(algebra.sub(size, one), wdil), one))
    span = algebra.sub(algebra.add(dilated, lo, hi), extent)
    if stride.is_const:
        return algebra.maximum(algebra.ZERO, algebra.add(algebra.floordiv(span, stride.value),
                                                         one))
    return algebra.maximum(algebra.ZERO, algebra_ops.trunc_div(algebra.add(span, stride),
                                                               stride))


def _times(a: algebra.Size, b: algebra.Size) -> algebra.Size:
    return algebra.scale(a, b.value) if b.is_const else algebra.mul(a, b)


@dataclass(frozen=True)
class ConvLabels:
    """Positions of the roles in a convolution's dim_labels (`b01f_01io->b01f`)."""

    lhs_batch: int
    lhs_feature: int
    lhs_spatial: tuple[int, ...]
    rhs_in: int
    rhs_out: int
    rhs_spatial: tuple[int, ...]
    out_batch: int
    out_feature: int
    out_spatial: tuple[int, ...]


def conv_labels(inst, rank: int) -> ConvLabels:
    """Decode `dim_labels=b01f_01io->b01f` for rank-`rank` operands.

    Raises:
        HloVerifyError: labels missing, of the wrong length, or naming a role twice.
    """
    text = attrs.string(inst, "dim_labels")
    if text is None:
        raise HloVerifyError("convolution needs dim_labels= (e.g. b01f_01io->b01f)", inst.name)
    try:
        operands, out = text.split("->")
        lhs, rhs = operands.split("_")
    except ValueError:
        raise HloVerifyError(f"dim_labels={text} is not like b01f_01io->b01f", inst.name) \
            from None
    spatial = [str(k) for k in range(rank - 2)]
    parts = []
    for labels, roles in ((lhs, "bf"), (rhs, "io"), (out, "bf")):
        if sorted(labels) != sorted(list(roles) + spatial):
            raise HloVerifyError(f"dim_labels={text}: '{labels}' must hold {roles} and "
                                 f"spatial dims 0..{rank - 3} once each", inst.name)
        parts.append((labels.index(roles[0]), labels.index(roles[1]),
                      tuple(labels.index(s) for s in spatial)))
    return ConvLabels(*parts[0], *parts[1], *parts[2])


def useful_taps(n: int, w: WindowDim, m: int) -> range:
    """The window offsets k that land on an operand element for some output position.

    Output o reads padded position o*stride + k*window_dilation - lo, an element when it is
    in [0, (n-1)*base_dilation]. Offsets outside this range only ever see padding: skipping
    them keeps the work proportional to the actual size even when the window spans the bound
    (`jnp.cumsum(x, reverse=True)` over `<=1000000000` is a window of 10**9 taps).
    """
    if n == 0 or m == 0:
        return range(0)
    last = (n - 1) * w.base_dilation
    first_k = max(0, -(-(w.lo - (m - 1) * w.stride) // w.window_dilation))
    last_k = min(w.size - 1, (last + w.lo) // w.window_dilation)
    return range(first_k, last_k + 1)


def running_axis(shape, wins: list[WindowDim], suffix_ok: bool) -> tuple[int, bool] | None:
    """(axis, reverse) when the window is a running reduction (cumsum) along one axis.

    That is a stride-1 undilated window of size >= the actual size `shape[axis]` padded by
    size-1 on one side, all other dimensions untouched: output i reduces x[0..i] (prefix,
    reverse=False) or x[i..n-1] (suffix, reverse=True). A suffix is only taken when
    `suffix_ok`: XLA folds x[i], x[i+1], ... in that order, which a reversed scan matches only
    for order-free reductions or exact (integer) arithmetic; the caller knows which.
    """
    found = None
    for d, (n, w) in enumerate(zip(shape, wins, strict=True)):
        if (w.stride, w.base_dilation, w.window_dilation) != (1, 1, 1):
            return None
        if (w.size, w.lo, w.hi) == (1, 0, 0):
            continue
        if found is not None or not 0 < n <= w.size:
            return None
        if (w.lo, w.hi) == (w.size - 1, 0):
            found = (d, False)
        elif (w.lo, w.hi) == (0, w.size - 1) and suffix_ok:
            found = (d, True)
        else:
            return None
    return found


def conv_groups(inst, lhs_batch: int, lhs_features: int, kernel_out: int,
                kernel_in: int) -> tuple[int, int]:
    """(feature_group_count, batch_group_count), checked against the actual sizes.

    XLA: lhs features = feature_group_count * kernel input features, and the kernel's output
    features and the lhs batch divide by the group counts.

    Raises:
        DynamicSizeError: actual sizes that do not fit the group counts.
    """
    groups = attrs.integer(inst, "feature_group_count", 1)
    batch_groups = attrs.integer(inst, "batch_group_count", 1)
    g = groups * batch_groups
    if lhs_features != groups * kernel_in or kernel_out % g or lhs_batch % batch_groups:
        raise DynamicSizeError(
            f"instruction '{inst.name}': lhs batch {lhs_batch} x features {lhs_features}, "
            f"kernel output {kernel_out} x input {kernel_in} do not fit "
            f"feature_group_count={groups}, batch_group_count={batch_groups}")
    return groups, batch_groups
