"""Where dynamic-slice reads and dynamic-update-slice writes, placed as XLA places them.

XLA runs both ops on the padded buffer of every dynamic operand: a start index is clamped to
[0, bound - window bound] (not to the actual size), then the window is read or written there.
Values here are held at their actual sizes, so every backend asks these functions for the
window in actual coordinates, one dimension at a time, with plain ints:

- dynamic-slice (XLA's HandleDynamicSlice): a window the size of a dynamic dimension's bound
  is the whole dimension (the result keeps the operand's size, start 0); any other window is
  static and reads rows clamp(start)..; a row past the actual size is XLA's buffer padding,
  which dynhlo reads as zeros (`within` splits a window into its rows inside the actual size
  and its padding), or, compiled with padding_reads="error", a DynamicSizeError naming them.
- dynamic-update-slice (XLA's RewriteDynamicUpdateSlice in dynamic_padder.cc): the start is
  clamped against the bounds; a dynamic update smaller than the operand's bound writes only
  its valid rows (the padder masks the rest with the operand's values); rows landing past the
  result's actual size are padding, never observed, so they are dropped.
An unbounded `?` dimension has no padded buffer: its start is clamped to the actual size.
May assume: verified shapes (window bounds within the operand's bounds).
"""

from __future__ import annotations

from ..errors import DynamicSizeError
from ..hlo import attrs
from ..hlo.shape import UNBOUNDED
from .sizes import PADDING_READ_HINT


# An instruction's own padding_reads="error": a frontend marks a window it wrote whose read
# past the size must be refused whatever the compile option (from_tf's slices of a size's
# last rows: TensorFlow gives fewer rows there, not padding).
STRICT = 'dynhlo_padding_reads="error"'


# A dynamic-update-slice whose result keeps its operand's sizes where XLA's would take a
# dynamic update's that spans the operand's whole bound (HandleDynamicUpdateSlice): a
# frontend's update into an operand it does not pad (StableHLO's result is always the
# operand's shape: a scan's stacked row at 0 along the batch).
OPERAND_SIZED = 'dynhlo_update_result="operand"'


def sized_by_operand(inst) -> bool:
    """Whether dynamic-update-slice `inst` carries frontend_attributes={OPERAND_SIZED}."""
    return OPERAND_SIZED in (inst.attrs.get("frontend_attributes") or "")


def refuses_padding(inst, mode: str) -> bool:
    """Whether a read of `inst` past an actual size is a DynamicSizeError: the compile
    option `mode` is "error", or `inst` carries frontend_attributes={STRICT}."""
    return mode == "error" or STRICT in (inst.attrs.get("frontend_attributes") or "")


def slice_first(name: str, d: int, start: int, size: int, actual: int, bound: int,
                refuse: bool = False) -> int:
    """The first row a dynamic-slice reads along dimension `d`, in actual coordinates; rows
    from `actual` on are padding (zeros).

    Args:
        start: the start index operand's value (any int; XLA clamps it).
        size: dynamic_slice_sizes[d]; equal to `bound` means the whole dimension.
        actual, bound: the operand dimension's actual size and its bound (UNBOUNDED for `?`).
        refuse: the padding_reads="error" mode: a window past `actual` is an error.

    Raises:
        DynamicSizeError: along a `?` dimension (no padded buffer), a window larger than
            `actual`; with `refuse`, a window covering rows past `actual`.
    """
    if bound == UNBOUNDED:
        if size > actual:
            raise _past_size(name, d, start, 0, size, actual, bound)
        return min(max(start, 0), actual - size)
    if size == bound:
        return 0  # the whole dimension: the result has the operand's actual size
    first = min(max(start, 0), bound - size)
    if refuse and first + size > actual:
        raise _past_size(name, d, start, first, size, actual, bound)
    return first


def slice_window(inst, starts: list[int], shape, out_shape, refuse: bool = False) -> tuple:
    """The slices dynamic-slice `inst` reads from an operand of actual `shape` for a result
    of actual `out_shape`, per dimension as `slice_first` places them (they may reach past
    `shape`: see `within`)."""
    sizes = attrs.ints(inst, "dynamic_slice_sizes")
    bounds = inst.operands[0].shape.dims
    return tuple(slice(first, first + out_shape[d]) for d, first in enumerate(
        slice_first(inst.name, d, start, sizes[d], shape[d], bounds[d], refuse)
        for d, start in enumerate(starts)))


def within(window: tuple, shape) -> tuple[tuple, tuple] | None:
    """(source, target): the part of `window` (step-1 slices, as slice_window gives them)
    inside an operand of actual `shape`, as slices of the operand and of the result; the
    rest of the result is padding, which reads as zeros. None when the whole window is
    inside (the common case: read it as it is)."""
    if all(w.stop <= n for w, n in zip(window, shape, strict=True)):
        return None
    source = tuple(slice(min(w.start, n), min(w.stop, n)) for w, n in zip(window, shape,
                                                                          strict=True))
    target = tuple(slice(0, s.stop - s.start) for s in source)
    return source, target


def update_rows(name: str, d: int, start: int, update_actual: int, update_bound: int,
                out_actual: int, bound: int) -> tuple[int, int]:
    """(first, count): dynamic-update-slice writes update rows [0, count) at rows
    [first, first + count) of the result along one dimension.

    `update_bound`/`bound` are the update's and the operand's bounds (UNBOUNDED for `?`);
    `out_actual` is the result's actual size (the operand's, or the update's where a dynamic
    update spans the operand's whole bound, as XLA's HandleDynamicUpdateSlice sizes it, unless
    the instruction is OPERAND_SIZED).

    Raises:
        DynamicSizeError: along a `?` dimension, an update larger than the operand.
    """
    if bound == UNBOUNDED or update_bound == UNBOUNDED:
        if update_actual > out_actual:
            raise DynamicSizeError(
                f"instruction '{name}': dynamic-update-slice update of size {update_actual} "
                f"along dimension {d}, which has actual size {out_actual}")
        first = min(max(start, 0), out_actual - update_actual)
    else:
        first = min(max(start, 0), bound - update_bound)
    return first, max(0, min(update_actual, out_actual - first))


def update_windows(inst, starts: list[int], update_shape, out_shape) -> tuple[tuple, tuple]:
    """(target, source) slices: dynamic-update-slice `inst` writes update[source] into
    result[target], per dimension as `update_rows` places it."""
    bounds, update_bounds = inst.operands[0].shape.dims, inst.operands[1].shape.dims
    target, source = [], []
    for d, start in enumerate(starts):
        first, count = update_rows(inst.name, d, start, update_shape[d], update_bounds[d],
                                   out_shape[d], bounds[d])
        target.append(slice(first, first + count))
        source.append(slice(0, count))
    return tuple(target), tuple(source)


def _past_size(name: str, d: int, start: int, first: int, size: int, actual: int,
               bound: int) -> DynamicSizeError:
    where = "" if bound == UNBOUNDED else f" (start {start} clamped to {first} against the " \
        f"bound {bound}, as XLA clamps it)"
    return DynamicSizeError(
        f"instruction '{name}': dynamic-slice of size {size} reads rows {first}..{first + size - 1}"
        f" of operand dimension {d}{where}, which has actual size {actual}: "
        + (PADDING_READ_HINT + " (a loop running to a bound baked in at lowering reads so: "
           "lower with symbolic sizes, dynhlo.from_jax)" if bound != UNBOUNDED else
           "a `?` dimension has no padded buffer to read"))
