"""Reference lowerings specialized to one argument-shape key (fast.Fast): the data
movement whose every size and index is settled once the key's shapes and folded values
(folding.py) are known, as a NumPy call with its indices precomputed.

- gather and dynamic-slice whose indices are folded: which element of the operand each
  result element reads is fixed, so the lowering is run once on the operand's flat
  positions (int64, counted from 1) and a call is `np.take` of the operand at those
  positions, in the reference's memory layout (a copy of a basic slice where those
  positions are a box of the operand, a strided copy of it where the reference lays its
  result out otherwise (JAX's qkv split); the box's view where it has the reference's
  strides: torch's gathers at arange indices). The same elements in the same places
  as the reference's, bit for bit. Not
  where the reference reads padding (a position 0: a zero, not an element) — that stays
  the lowering.
- slice (not reading padding): the NumPy view the lowering makes, its index precomputed.
- concatenate whose operands are at the result's sizes off the concatenated dimension:
  `np.concatenate` (the lowering's own call, without cutting each part), folded operands
  held.
- set-dimension-size of a value whose size is folded: the lowering's new zero-extended
  array, its shapes settled; at a size read per call, the same where it is the recorded
  size (else the lowering).
- dynamic-reshape whose sizes are folded, transpose: the lowering's view.
- reduce of one operand by add, multiply, maximum, minimum, and, or: the lowering's NumPy
  reduction, its reducer recognized once (XLA's -0 sums checked only where a sum is zero).
- power and atan2 of f32/f64 operands at the result's shape and type: the lowering's own
  call, its size and type handling done once (f32 power: float_power.power_f32; one of a
  constant exponent of 2, 3, 4, -1 or -2 is a kernel's instead, rules.py), a folded
  operand held.
- dot (any batch and contracting dimensions, operands of the result's type): the
  reference's transposes, reshapes, copies and np.matmul, its shapes worked out once.
- dynamic-update-slice: the reference's copy and write, where the update goes worked out
  once per start values (a loop's counter: the same few values at every call).
- broadcast (its read-only view) and pad (each element's place worked out once, as
  basic slices).
- convolution of floats: im2col and one matrix product per group (conv.py; sums in the
  result's type, so within float tolerance of the reference, not bit for bit), the kernel's
  matrix made once when the spec holds it; of integers (and mixed types): the reference's
  own computation (ops_linalg.run_convolution, sums wrapping as XLA's) with its plan
  (labels, windows, taps) made once. Either operand may be a value the spec holds.
- gather of one window at indices read per call: the window's box of the operand, copied
  and arranged as the reference arranges it (a window reaching into padding: the lowering);
  many windows: np.take of their positions (a basic slice where they are one box of the
  operand in order: consecutive rows; one strided copy into the reference's layout where
  they are a box in the result's order: real_dynamic_slice's columns at arange
  indices). Where the windows are is kept per index value
  (`Remembered`: a loop's counter runs through the same few values at every call). The
  operand may be folded (an embedding table): the spec holds it and a call passes the
  indices.

A specialized step is `(fn, sources, shapes)`: `fn(*values of sources)` is the value when
each source's value is an ndarray of the recorded shape (runner._run_fast checks, and runs
the lowering otherwise, or where fn gives None; a loop's NumPy scalar is passed as its
0-d array); the specialization is made from a call that just ran the step, so its errors
were already raised there.
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from ....hlo.shape import UNBOUNDED
from ....shapes.sizes import slice_reads_padding
from ....shapes.slice_windows import slice_window, update_windows, within
from ..float_power import power_f32
from ..ops_linalg import plan_convolution, run_convolution
from ..ops_reduce import _fast_reducer, _negative_zero_sums
from .conv import gemm_plan
from .folding import IMPURE


def specialize(ctx, inst, lowering, values: dict, folded: dict, carrying=None):
    """`(fn, sources, shapes)` for the lowering step of `inst` (see the module docstring), or
    None. `values`: the call's values; `folded`: those fixed for the key; `carrying`: the
    body's pool where `inst` is a loop's carried update (loops.carried_update), else None."""
    opcode = inst.opcode
    # per call: the operands neither folded nor a size the host knows (None: no step)
    data = [o for o in inst.operands if o not in folded and values.get(o) is not None]
    arrays = [values.get(o) for o in data]
    value = values.get(inst)
    if not data and opcode not in IMPURE and value.__class__ is np.ndarray:
        # every operand settled (sizes read per call that the guards hold equal): the
        # recorded value, copied at each call (the caller may own it) from a copy of its
        # own: the recorded array itself was returned by the call that recorded it (a 0-d
        # constant), and a write into that result changed every later call's
        # (a read-only value, a broadcast's view, never reached the caller: _owned copies
        # it; one too big to copy twice stays the lowering's)
        held = value
        if value.flags.writeable:
            try:
                held = np.array(value, order="K", copy=True)
            except MemoryError:
                return None
        return (lambda: np.array(held, order="K", copy=True)), (), ()
    if not data or any(a.__class__ is not np.ndarray for a in arrays):
        return None
    shapes = tuple(a.shape for a in arrays)
    if opcode in (Opcode.GATHER, Opcode.DYNAMIC_SLICE) and data == [inst.operands[0]]:
        fn = _take(ctx, inst, lowering, arrays[0], values, folded)
    elif opcode is Opcode.DYNAMIC_SLICE and data[:1] == [inst.operands[0]]:
        fn = _slice_at(inst, [values.get(o) for o in inst.operands], values[inst],
                       [o in data for o in inst.operands])
    elif opcode is Opcode.GATHER and data == list(inst.operands):
        fn = _window_gather(inst, *arrays, values[inst])
    elif opcode is Opcode.GATHER and data == [inst.operands[1]] and \
            values.get(inst.operands[0]).__class__ is np.ndarray:
        # a table held by the spec (an embedding's weights, a constant) at indices read
        # per call (the token ids)
        fn = _held_table(inst, values[inst.operands[0]], arrays[0], values[inst])
    elif opcode is Opcode.SLICE:
        fn = _slice(inst, arrays[0])
    elif opcode is Opcode.CONCATENATE:
        fn = _concatenate(inst, [values.get(o) for o in inst.operands], values[inst],
                          [o in data for o in inst.operands])
    elif opcode is Opcode.SET_DIMENSION_SIZE and data == [inst.operands[0]]:
        fn = _resize(arrays[0], values[inst])
    elif opcode is Opcode.SET_DIMENSION_SIZE and data == list(inst.operands):
        resize = _resize(arrays[0], values[inst])
        d = attrs.ints(inst, "dimensions")[0]
        size = values[inst].shape[d] if resize is not None else -1
        # the size read per call: the recorded one (the sizes the spec settled), else the
        # lowering (its range check, and the evaluator's check of the result)
        fn = None if resize is None else \
            lambda x, n: resize(x) if int(n) == size else None
    elif opcode is Opcode.DYNAMIC_RESHAPE and data == [inst.operands[0]]:
        shape = values[inst].shape
        fn = (lambda x: x.reshape(shape)) if arrays[0].size == math.prod(shape) else None
    elif opcode is Opcode.DOT and len(data) == 2 and data == list(inst.operands):
        fn = _dot(inst, *arrays, values[inst])
    elif opcode is Opcode.CONVOLUTION:
        fn = _convolution(inst, [values.get(o) for o in inst.operands], values[inst],
                          [o not in data for o in inst.operands])
    elif opcode is Opcode.BROADCAST:
        fn = _broadcast(inst, arrays[0], values[inst])
    elif opcode is Opcode.PAD and data[:1] == [inst.operands[0]]:
        fn = _pad(inst, arrays[0], values[inst], [o in data for o in inst.operands],
                  values.get(inst.operands[1]))
    elif opcode is Opcode.REDUCE and len(inst.operands) == 2 and \
            data[:1] == [inst.operands[0]]:
        fn = _reduce(inst, arrays[0], values.get(inst.operands[1]), len(data) == 2,
                     values[inst])
    elif opcode in _BINARY:
        fn = _binary(opcode, [values.get(o) for o in inst.operands], values[inst],
                     [o in data for o in inst.operands])
    elif opcode is Opcode.DYNAMIC_UPDATE_SLICE and data[:2] == list(inst.operands[:2]) or \
            opcode is Opcode.DYNAMIC_UPDATE_SLICE and data[:1] == [inst.operands[1]] and \
            values.get(inst.operands[0]).__class__ is np.ndarray:
        fn = _update_slice(inst, [values.get(o) for o in inst.operands], values[inst],
                           [o in data for o in inst.operands], carrying)
    elif opcode is Opcode.TRANSPOSE:
        perm = tuple(attrs.ints(inst, "dimensions"))
        fn = lambda x: x.transpose(perm)   # noqa: E731 (np.transpose's view)
    else:
        fn = None
    return None if fn is None else (fn, tuple(data), shapes)


def _take(ctx, inst, lowering, x: np.ndarray, values: dict, folded: dict):
    """np.take of x at the flat positions the gather or dynamic-slice reads (or the view of
    x those positions are, where it has the reference's layout: _box_view)."""
    positions = np.arange(1, x.size + 1, dtype=np.int64).reshape(x.shape)
    ctx.inst = inst
    read = lowering(ctx, inst, [positions, *(values.get(o) for o in inst.operands[1:])])
    if read.__class__ is not np.ndarray or read.shape != values[inst].shape or \
            (read.size and int(read.min()) < 1):
        return None   # padding read somewhere: the lowering's zeros
    box = _box(read - 1, x.shape)
    copy = None
    if box is not None and read.shape == x.shape and _passed_on(ctx, inst, folded) and \
            all(b.start == 0 and b.stop == n for b, n in zip(box, x.shape, strict=True)):
        return lambda x: x   # every element in place, read only by gathers: x itself
    if box is not None:   # a box of the operand (qkv split, a row): a copy of its view
        shape = read.shape
        # (C order whatever x's layout: x may be an operand passed on, _passed_on)
        if np.array(x[box], order="C").reshape(shape).strides == values[inst].strides:
            copy = lambda x: np.array(x[box], order="C").reshape(shape)   # noqa: E731
        else:   # in the reference's transposed layout (torch's arange gathers of GPT-2)
            copy = _laid_out(box, shape, values[inst])
    if copy is None:
        # in the reference's layout (its gather copies a transposed view, keeping its
        # strides): the positions in memory order, taken, then viewed back
        perm = tuple(sorted(range(read.ndim), key=lambda k: -read.strides[k]))
        flat = np.ascontiguousarray((read - 1).transpose(perm))
        back = tuple(np.argsort(perm))
        # (x.take: np.take's own call, without its Python wrapper)
        if np.take(x, flat).transpose(back).strides != values[inst].strides:
            copy = lambda x: x.take(flat.transpose(back))   # noqa: E731
        elif box is not None:
            # a box: its elements copied straight into that layout (the same array as
            # np.take's, by a strided copy instead of a read per position: JAX's qkv
            # split 27 to ~5 us at 2x64x96)
            shape = read.shape
            copy = lambda x: np.ascontiguousarray(   # noqa: E731
                x[box].reshape(shape).transpose(perm)).transpose(back)
        else:
            copy = lambda x: x.take(flat).transpose(back)   # noqa: E731
    return copy if box is None else _box_view(x, box, read.shape, values[inst], copy)


_READERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # computation -> readers


def _passed_on(ctx, inst, folded: dict) -> bool:
    """Whether gather `inst` may be its operand itself where it reads every element in
    place (torch's arange gathers, three in a row before Llama's rotary halves): it is not
    the root and every reader is a gather of it at folded indices, whose specialized step
    (_take: a copy in the reference's layout, a take of logical positions, a box view
    checked per call) gives the reference's elements and strides from any layout."""
    computation = ctx.info.computation
    readers = _READERS.get(computation)
    if readers is None:
        readers = _READERS[computation] = {}
        for user in computation.instructions:
            for operand in user.operands:
                readers.setdefault(operand, []).append(user)
    users = readers.get(inst)
    return inst is not computation.root and bool(users) and all(
        u.opcode is Opcode.GATHER and u.operands[0] is inst and u.operands[1] is not inst and
        u.operands[1] in folded for u in users)


def _laid_out(box: tuple, shape: tuple, value):
    """A box of the operand copied at the result's shape in the memory layout of the
    reference's value (its gather copies a transposed view and keeps those strides): an
    array in the strides' axis order filled by np.copyto, viewed back. The elements and
    strides the take of their positions gives, without reading an index array (4-10x
    faster). None where no axis order gives the value's strides."""
    if value.__class__ is not np.ndarray or value.shape != shape or not value.size:
        return None
    strides = value.strides
    perm = tuple(sorted(range(len(shape)), key=lambda k: -strides[k]))   # outermost first
    back = tuple(int(k) for k in np.argsort(perm))
    outer = tuple(shape[k] for k in perm)
    if np.empty(outer, value.dtype).transpose(back).strides != strides:
        return None

    if all(b.start == 0 for b in box):   # (the box's view: its shape, the result's)
        whole = tuple(b.stop for b in box)
        if whole == shape:   # the whole operand at its recorded shape (a re-layout)
            # (`copy` of the transposed view: C order, i.e. an array of the `outer` shape)
            return lambda x: x.transpose(perm).copy().transpose(back) \
                if x.shape == whole else _copy_to(x[box].reshape(shape), outer, perm, back)
    return lambda x: _copy_to(x[box].reshape(shape), outer, perm, back)


def _copy_to(part: np.ndarray, outer: tuple, perm: tuple, back: tuple) -> np.ndarray:
    out = np.empty(outer, part.dtype)
    np.copyto(out, part.transpose(perm))
    return out.transpose(back)


def _same_layout(a: np.ndarray, strides: tuple) -> bool:
    """Whether `a` (a view of a dense array) addresses its elements as an array of
    `strides` would (equal strides but for dimensions of one element, whose stride
    NumPy's copies set as they like): then the view of a's memory with those strides is
    the reference's array, its strides included (which the spec's kernels compare: a
    size-1 dimension's stride that differs sends a call step by step)."""
    return all(n == 1 or s == t for n, s, t in zip(a.shape, a.strides, strides, strict=True))


def _box_view(x: np.ndarray, box: tuple, shape: tuple, value, copy):
    """Where the box of x viewed at the result's shape has the strides of the reference's
    value (a box of every row, the whole operand: torch's gathers at arange indices), that
    view: the copy's elements in the copy's layout (a value the plan counts as possibly a
    view of its operand, as every lowering's). A call whose operand is laid out otherwise
    runs `copy`."""
    part = x[box]
    view = part.reshape(shape)
    if value.__class__ is not np.ndarray or view.strides != value.strides or \
            not np.may_share_memory(view, x):
        return copy
    strides = part.strides

    def fn(x):
        part = x[box]
        return part.reshape(shape) if part.strides == strides else copy(x)
    return fn


def _window_gather(inst, x: np.ndarray, indices: np.ndarray, value):
    """A gather of one window (one index vector, no batching dimensions) at indices read per
    call: ops_indexing.gather's steps with its shapes settled — each start clamped as the
    reference clamps it, the window read (a box of x) into a C-ordered array, reshaped and
    transposed as the reference's, copied. A window reaching past the operand's actual size
    (XLA's padding: zeros, or the error padding_reads asks for) gives None: the call runs
    the lowering."""
    offset_dims, dropped, start_map, op_batch, _, ivd, slice_sizes = attrs.gather_dims(
        inst, indices.ndim)
    if op_batch or value.__class__ is not np.ndarray or value.dtype != x.dtype:
        return None
    vector = indices.shape[ivd] if ivd < indices.ndim else 1
    lead = tuple(n for k, n in enumerate(indices.shape) if k != ivd)
    if not math.prod(lead) or vector != len(start_map):
        return None
    offset_operand = [d for d in range(x.ndim) if d not in dropped]
    sizes = list(slice_sizes)
    for k, d in enumerate(offset_operand):   # a whole dynamic dimension: its actual size
        sizes[d] = value.shape[sorted(offset_dims)[k]]
    limits = []   # per operand dim: (index into the vector or -1, highest start)
    for d in range(x.ndim):
        bound = inst.operands[0].shape.dims[d]
        high = x.shape[d] - sizes[d] if bound == UNBOUNDED else bound - slice_sizes[d]
        if bound == UNBOUNDED and sizes[d] > x.shape[d]:
            return None
        limits.append((start_map.index(d) if d in start_map else -1, high))
    full = lead + tuple(sizes[d] for d in offset_operand)
    batch_iter, window_iter = iter(range(len(lead))), iter(range(len(lead), len(full)))
    order = [next(window_iter) if j in offset_dims else next(batch_iter)
             for j in range(len(full))]
    shape, extent = x.shape, list(zip(limits, sizes, strict=True))
    if math.prod(lead) > 1:
        return _windows(shape, extent, lead, ivd, full, order, value.strides, value.dtype)

    def place(indices):
        vector = indices.astype(np.int64).reshape(-1).tolist()
        box = []
        for d, ((k, high), size) in enumerate(extent):
            start = 0 if k < 0 else min(max(vector[k], 0), high)
            if start < 0 or start + size > shape[d]:
                return None   # past the actual size: the lowering's padding or error
            box.append(slice(start, start + size))
        return tuple(box)
    memo = Remembered(place)

    def fn(x, indices):
        box = memo(indices)
        if box is None:
            return None
        window = np.ascontiguousarray(x[box]).reshape(full)
        return np.array(np.transpose(window, order), copy=True)
    return fn


def _held_table(inst, table: np.ndarray, indices: np.ndarray, value):
    """_window_gather of a folded operand `table`, held: a call passes the indices only."""
    gather = _window_gather(inst, table, indices, value)
    return None if gather is None else lambda indices: gather(table, indices)


def _windows(shape: tuple, extent: list, lead: tuple, ivd: int, full: tuple, order: list,
             strides_out: tuple, dtype):
    """_window_gather for many index vectors: every window's flat positions (its clamped
    starts times the operand's C strides, plus the window's own offsets), np.take of them
    (the reference's `operand[grids]`: the same C-ordered array), reshaped and transposed as
    the reference's, copied (`strides_out`, `dtype`: the reference's result's strides and
    type)."""
    strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    window = np.zeros((1,) * len(lead) + tuple(size for _, size in extent), np.int64)
    for d, (_, size) in enumerate(extent):
        axis = np.arange(size, dtype=np.int64) * strides[d]
        window = window + axis.reshape((1,) * len(lead) + tuple(
            -1 if j == d else 1 for j in range(len(extent))))
    tail = (1,) * len(extent)
    # per dimension a start is read for: (its place in the index vector, the highest start,
    # the operand's C stride, whether a start may still reach past the actual size: the
    # operand's shape is the recorded one at every call, so only where the clamp allows it)
    starts = []
    for d, ((k, high), size) in enumerate(extent):
        if k < 0 and size > shape[d] or k >= 0 and high < 0:
            return lambda x, indices: None   # past the actual size at every call
        if k >= 0:
            starts.append((k, high, strides[d], high + size > shape[d], shape[d] - size))
    # np.moveaxis(idx, ivd, -1) of an explicit index vector dimension, as a transpose
    perm = (*(j for j in range(len(lead) + 1) if j != ivd), ivd)
    maximum, minimum = np.maximum, np.minimum

    def place(indices):
        idx = indices.astype(np.int64)
        idx = idx[..., None] if ivd == idx.ndim else idx.transpose(perm)
        flat = np.zeros(lead, np.int64)
        for k, high, stride, check, last in starts:
            start = minimum(maximum(idx[..., k], 0), high)   # np.clip's values
            if check and start.max() > last:
                return None   # past the actual size: the lowering's padding or error
            flat += start * stride
        positions = flat.reshape(lead + tail) + window
        # windows that are one box of the operand in order (consecutive rows at a
        # counter): its basic slice, the same elements in the same order as np.take's
        box = _box(positions, shape)
        if box is not None:
            return box
        # one box in the result's order (every column at arange indices: the read is
        # the operand's box, laid out as the reference lays it): _Laid
        box = _box(np.transpose(positions.reshape(full), order), shape) if laid else None
        return positions if box is None else _Laid(box)
    result = tuple(full[k] for k in order)
    inverse = tuple(np.argsort(order))
    # the reference's copy of the transposed read: that read's strides (but where a
    # dimension has one element)
    laid = _same_layout(np.empty(full, dtype).transpose(order), strides_out)
    memo = Remembered(place)

    def fn(x, indices):
        positions = memo(indices)
        if positions is None:
            return None
        if positions.__class__ is _Laid:
            # the reference's read (C-ordered, `full`) is the box's elements in the
            # transposed order: one strided copy into that memory, viewed as its result
            read = np.ascontiguousarray(x[positions.box].reshape(result).transpose(inverse))
            return np.ndarray(result, read.dtype, read, 0, strides_out)
        read = (np.ascontiguousarray(x[positions]) if positions.__class__ is tuple else
                x.take(positions)).reshape(full)
        return np.array(np.transpose(read, order), copy=True)
    return fn


class _Laid:
    """A placement of _windows: its windows, in the result's order, are the operand's box
    `box` (a tuple of unit-step slices)."""

    __slots__ = ("box",)

    def __init__(self, box: tuple):
        self.box = box


_REMEMBERED = 64   # index values per specialized step whose placement it keeps
# (a window or update placement, a few slices: one per counter value of a loop of up to
# this many iterations, not started over at every call of a longer one)
_REMEMBERED_WINDOWS = 4096
_REMEMBERED_POSITIONS = 1 << 12   # the most positions one kept placement holds (32 KiB)


class Remembered(dict):
    """`place(indices)` per distinct index value, kept: a loop's counter runs through the
    same few values at every call, so its windows' placement is worked out once per value,
    not per iteration. Bounded: full (_REMEMBERED position arrays, _REMEMBERED_WINDOWS
    windows of slices), it starts over; a placement of more than _REMEMBERED_POSITIONS
    positions (token ids into a table: new at every call) is not kept."""

    __slots__ = ("place",)

    def __init__(self, place):
        super().__init__()
        self.place = place

    def __call__(self, indices: np.ndarray):
        """The placement at an index array (keyed by its type and bytes: the spec settled
        its shape)."""
        return self.at((indices.dtype.char, indices.tobytes()), indices)

    def at(self, key, indices):
        """The placement at `indices`, whose value `key` (hashable) stands for."""
        try:
            return self[key]
        except KeyError:
            made = self.place(indices)
            if made.__class__ is np.ndarray and made.size > _REMEMBERED_POSITIONS:
                return made
            if len(self) >= (_REMEMBERED if made.__class__ is np.ndarray else
                             _REMEMBERED_WINDOWS):
                self.clear()
            self[key] = made
            return made


def _box(flat: np.ndarray, shape: tuple):
    """The basic index (unit-step slices) of an array of `shape` whose elements, in order,
    are the flat positions `flat` (the result's shape aside), or None."""
    if not flat.size:
        return None
    first = np.unravel_index(int(flat.reshape(-1)[0]), shape)
    last = np.unravel_index(int(flat.reshape(-1)[-1]), shape)
    if any(b < a for a, b in zip(first, last, strict=True)) or \
            math.prod(int(b) - int(a) + 1 for a, b in zip(first, last, strict=True)) != flat.size:
        return None
    box = tuple(slice(int(a), int(b) + 1) for a, b in zip(first, last, strict=True))
    # the box's flat positions in order, built at its own size (not the operand's: an
    # embedding table's gather asks this at every new index value)
    inside = np.zeros((1,) * len(shape), np.int64)
    for d, (a, b) in enumerate(zip(first, last, strict=True)):
        axis = np.arange(int(a), int(b) + 1, dtype=np.int64) * math.prod(shape[d + 1:])
        inside = inside + axis.reshape(tuple(-1 if j == d else 1 for j in range(len(shape))))
    if not np.array_equal(inside.reshape(-1), flat.reshape(-1)):
        return None
    return box


def _slice(inst, x: np.ndarray):
    spec = attrs.slices(inst)
    if slice_reads_padding(spec, x.shape) is not None:
        return None
    index = tuple(slice(s, limit, st) for s, limit, st in spec)
    return lambda x: x[index]


def _concatenate(inst, arrays: list, value, data: list):
    """np.concatenate of the operands (`data`: which are passed per call; the others are
    folded, held here), when each is at the result's sizes off the axis."""
    axis = attrs.ints(inst, "dimensions")[0]
    if value.__class__ is not np.ndarray or \
            any(a.__class__ is not np.ndarray for a in arrays):
        return None
    off = [n for k, n in enumerate(value.shape) if k != axis]
    if any([n for k, n in enumerate(a.shape) if k != axis] != off for a in arrays):
        return None
    if all(data):
        return lambda *parts: np.concatenate(parts, axis=axis)
    held = [None if is_data else a for a, is_data in zip(arrays, data, strict=True)]
    slots = [k for k, is_data in enumerate(data) if is_data]

    def fn(*parts):
        return np.concatenate(_filled(held, slots, parts), axis=axis)
    return fn


# Float binary functions no kernel computes (NumPy's results, ops_elementwise.BINARY): for
# f32/f64 operands of the result's shape and type the lowering calls exactly this function
# on them (f32 power: float_power.power_f32, f64 power the ufunc; atan2's SIMD lanes are
# not correctly rounded, so only the same call gives its bits).
_BINARY = {Opcode.POWER: np.power, Opcode.ATAN2: np.arctan2}


def _binary(opcode, arrays: list, value, data: list):
    """The ufunc of ops_elementwise.binary on operands at the result's shape and type
    (the lowering's `fitted` passes those as they are); a folded operand held."""
    if value.__class__ is not np.ndarray or value.dtype.kind != "f" or \
            value.dtype.itemsize < 4 or any(a.__class__ is not np.ndarray or
                                            a.shape != value.shape or a.dtype != value.dtype
                                            for a in arrays):
        return None
    ufunc = power_f32 if opcode is Opcode.POWER and value.dtype == np.float32 else \
        _BINARY[opcode]
    if all(data):
        return ufunc
    x, y = arrays
    if data[0]:
        return lambda x: ufunc(x, y)
    return lambda y: ufunc(x, y)


def _reduce(inst, x: np.ndarray, init, init_per_call: bool, value):
    """ops_reduce.reduce of one operand by a NumPy reduction (_fast_reducer), its reducer
    recognized and its axes read once: the ufunc's reduce, XLA's -0 sums, the init
    combined, as the lowering does; a folded init held. Not an empty operand, nor f16/bf16
    (widened by the lowering)."""
    (comp,) = inst.called["to_apply"]
    ufunc = _fast_reducer(comp)
    dtype = x.dtype
    if ufunc is None or value.__class__ is not np.ndarray or not x.size or \
            dtype.kind not in "biuf" or (dtype.kind == "f" and dtype.itemsize < 4) or \
            (not init_per_call and init is None):
        return None
    axes = tuple(sorted(attrs.ints(inst, "dimensions")))
    # XLA's -0 sums (_negative_zero_sums) change only sums that are a zero (all of whose
    # terms are -0; NumPy's start from +0, even over one term), so a call whose sums have
    # no zero (NaN is not one) skips that check: optax's and keras' column sums, 11 to
    # ~3 us each
    signed_zeros = ufunc is np.add and dtype.kind == "f"
    held = None if init_per_call else np.asarray(init).astype(dtype)

    def fn(x, init=None):
        out = ufunc.reduce(x, axis=axes)
        if signed_zeros and not out.all():
            out = _negative_zero_sums(x, out, axes)
        start = held if init is None else np.asarray(init).astype(dtype)
        # (the lowering's astype: a new array of the type; the ufunc's already is one)
        value = ufunc(out, start)
        return value if value.__class__ is np.ndarray and value.dtype == dtype else \
            np.asarray(value).astype(dtype)
    fn.sums = (ufunc, axes, held)   # (what a run's member reads: sums_member.py)
    return fn


def _slice_at(inst, arrays: list, value, data: list):
    """ops_indexing.dynamic_slice at settled shapes and start indices read per call (a
    loop's counter past the counted range, loops._COUNTED): the window slice_window places
    at the starts (XLA's clamp against the bounds), kept per start values (Remembered), and
    the lowering's copy of it. A window reaching past the operand's actual size (padding:
    zeros, or the error padding_reads asks for) gives None: the lowering's."""
    x, *starts = arrays
    if value.__class__ is not np.ndarray or x.__class__ is not np.ndarray or \
            len(starts) != x.ndim or any(np.ndim(s) for s in starts):
        return None   # (a start vector, or the lowering's error)
    shape, out_shape = x.shape, value.shape
    held = list(starts)
    slots = [k for k, is_data in enumerate(data[1:]) if is_data]

    def place(at):
        window = slice_window(inst, at, shape, out_shape)
        return window if within(window, shape) is None else None
    memo = Remembered(place)

    def fn(x, *parts):
        key = tuple([int(part) for part in parts])
        window = memo.get(key, _MISSING)
        if window is _MISSING:
            window = memo.at(key, [int(v) for v in _filled(held, slots, key)])
        return None if window is None else np.array(x[window], copy=True)
    return fn


_MISSING = object()


def _filled(held: list, slots: list, parts) -> list:
    """The operands `held` (folded, recorded) with those at `slots` the call's `parts`."""
    every = list(held)
    for k, part in zip(slots, parts, strict=True):
        every[k] = part
    return every


def _update_slice(inst, arrays: list, value, data: list, carrying=None):
    """ops_indexing.dynamic_update_slice at settled shapes: the operand copied (cut or
    zero-extended to the result's sizes where they differ), the update's rows written where
    update_windows places them at the starts (held where folded), that placement kept per
    start values (Remembered). The reference's calls, so its values and layout. The operand
    may be held (folded: a loop's zero-filled buffer written in the caller).

    `carrying`: the body's pool where `inst` is a loop's carried update (loops.carried_update),
    else None. Then an operand that is the array this step made in the same loop call
    (Pool.carrying: the loop call's token, the same at the step that made it) is dead, so
    the rows are written into it and it is the value: one row per iteration where a scan's
    stacked outputs would copy the whole buffer (O(T^2) over T iterations). The first
    iteration's operand (the caller's) is copied as ever, so nothing outside the loop call
    is written."""
    x, update, *starts = arrays
    if value.__class__ is not np.ndarray or x.__class__ is not np.ndarray or \
            update.__class__ is not np.ndarray or value.dtype != x.dtype:
        return None
    vector = len(starts) == 1 and np.ndim(starts[0]) == 1
    if not vector and len(starts) != x.ndim:
        return None   # the lowering's error
    shape, update_shape = value.shape, update.shape
    held = list(starts)
    slots = [k for k, is_data in enumerate(data[2:]) if is_data]
    common = tuple(slice(0, min(a, b)) for a, b in zip(shape, x.shape, strict=True))
    memo = Remembered(lambda at: update_windows(inst, at, update_shape, shape))

    def write(x, update, parts):
        if vector:
            at = np.asarray(_filled(held, slots, parts)[0]).tolist()
            target, source = memo.at(tuple(at), at)
        else:
            # keyed by the starts read per call (the held ones are the same at every
            # call): their values worked into the placement only when new
            key = tuple([int(part) for part in parts])
            placed = memo.get(key)
            if placed is None:
                placed = memo.at(key, [int(v) for v in _filled(held, slots, key)])
            target, source = placed
        if carrying is not None and made[1] is carrying.carrying is not None and \
                made[0]() is x and shape == x.shape:
            x[target] = update[source]
            return x
        if shape == x.shape:
            out = np.array(x, copy=True)
        else:
            out = np.zeros(shape, x.dtype)
            out[common] = x[common]
        out[target] = update[source]
        if carrying is not None and carrying.carrying is not None:
            made[:] = weakref.ref(out), carrying.carrying
        return out
    made = [None, None]   # (a weak reference to the array made, the loop call's token)
    if not data[0]:
        operand = x

        def into_held(update, *parts):
            return write(operand, update, parts)
        # (the same step into another operand: placement.py probes it into zeros)
        into_held.into = lambda x, update, *parts: write(x, update, parts)
        return into_held
    return lambda x, update, *parts: write(x, update, parts)


def _resize(x: np.ndarray, value):
    """ops_data._resize at settled shapes: a new C-ordered array of the result's sizes,
    x's common part copied in, zeros past it."""
    if value.__class__ is not np.ndarray or value.dtype != x.dtype:
        return None
    shape = value.shape
    if shape == x.shape:
        return lambda x: np.array(x, order="C", copy=True)
    common = tuple(slice(0, min(a, b)) for a, b in zip(x.shape, shape, strict=True))

    def fn(x):
        out = np.zeros(shape, x.dtype)
        out[common] = x[common]
        return out
    return fn


def _dot(inst, lhs: np.ndarray, rhs: np.ndarray, value):
    """ops_reduce.dot's own NumPy calls with its attribute parsing and shape arithmetic done
    once: each operand transposed and reshaped to (batch, rows, k) / (batch, k, columns),
    copied as its `astype` copies it (the copy skipped where it would be C-ordered anyway:
    the same elements in the same layout), np.matmul, the result reshaped. Float and integer
    operands of the result's type only (the reference's f16/bf16 widening is left to it)."""
    dtype = value.dtype if value.__class__ is np.ndarray else None
    if dtype is None or dtype.kind not in "fiu" or dtype.itemsize < 4 or \
            lhs.dtype != dtype or rhs.dtype != dtype:
        return None
    lb, rb, lc, rc = attrs.dot_dims(inst)
    lf = [d for d in range(lhs.ndim) if d not in lb and d not in lc]
    rf = [d for d in range(rhs.ndim) if d not in rb and d not in rc]
    batch = [lhs.shape[d] for d in lb]
    k = math.prod([lhs.shape[d] for d in lc])
    m, n = [lhs.shape[d] for d in lf], [rhs.shape[d] for d in rf]
    pa, sa = (*lb, *lf, *lc), (math.prod(batch), math.prod(m), k)
    pb, sb = (*rb, *rc, *rf), (math.prod(batch), k, math.prod(n))
    out = (*batch, *m, *n)

    # (a transpose that keeps the order is the same view: left out)
    ta = None if pa == tuple(range(lhs.ndim)) else pa
    tb = None if pb == tuple(range(rhs.ndim)) else pb

    def fn(x, y):
        a = (x if ta is None else x.transpose(ta)).reshape(sa)
        b = (y if tb is None else y.transpose(tb)).reshape(sb)
        if not a.flags.c_contiguous:
            a = a.astype(dtype)
        if not b.flags.c_contiguous:
            b = b.astype(dtype)
        return np.matmul(a, b).reshape(out)
    return fn


def _convolution(inst, operands: list, value, held: list):
    """The convolution's step (conv.gemm_plan), or the reference's computation planned
    once; `held`: per operand, whether the spec holds its value (then bound here)."""
    x, w = operands
    if x.__class__ is not np.ndarray or w.__class__ is not np.ndarray or \
            value.__class__ is not np.ndarray:
        return None
    fn = gemm_plan(inst, x, w, value.shape, tuple(held))
    if fn is not None:
        return fn
    plan = plan_convolution(inst, x.shape, w.shape)
    if held[1]:
        return lambda x: run_convolution(plan, x, w)
    if held[0]:
        return lambda w: run_convolution(plan, x, w)
    return lambda x, w: run_convolution(plan, x, w)


def _broadcast(inst, x: np.ndarray, value):
    """ops_data.broadcast's read-only view at settled shapes."""
    if value.__class__ is not np.ndarray:
        return None
    shape = value.shape
    order, mapped = attrs.broadcast_axes(inst)
    if order is not None:   # (a transposing broadcast: its operand's axes put in order)
        x = x.transpose(order)
    view = tuple(x.shape[mapped.index(k)] if k in mapped else 1 for k in range(len(shape)))

    def broadcast(x):
        if order is not None:
            x = x.transpose(order)
        return np.broadcast_to(x.reshape(view), shape)
    if order is not None or not x.flags.c_contiguous or not x.size:
        return broadcast
    # a dense operand: the same view (strides, offset, read-only) made directly over its
    # memory, without broadcast_to's Python (5 us a call)
    strides, dense = broadcast(x).strides, x.strides

    def fn(x):
        if x.strides != dense or not x.flags.c_contiguous:
            return broadcast(x)
        out = np.ndarray(shape, x.dtype, x, 0, strides)
        out.flags.writeable = False
        return out
    return fn


def _pad(inst, x: np.ndarray, value, data: list, fill):
    """ops_data._pad at settled shapes: where each element goes worked out once; per call a
    new array of the padding value with the operand's elements placed."""
    if value.__class__ is not np.ndarray or value.dtype != x.dtype or x.size == 0:
        return None
    shape = value.shape
    src, dst = [], []
    for d, (lo, _, interior) in enumerate(attrs.padding(inst)):
        positions = lo + np.arange(x.shape[d]) * (interior + 1)
        keep = (positions >= 0) & (positions < shape[d])
        src.append(np.nonzero(keep)[0])
        dst.append(positions[keep])
    if not all(len(s) for s in src):
        return None
    # the kept positions are arithmetic progressions (a step of interior + 1 into the
    # result, consecutive in the operand): basic slices, the same elements as np.ix_'s
    into = tuple(slice(int(p[0]), int(p[-1]) + 1, int(p[1] - p[0]) if len(p) > 1 else 1)
                 for p in dst)
    out_of = tuple(slice(int(k[0]), int(k[-1]) + 1) for k in src)

    def fn(x, *rest):
        out = np.full(shape, rest[0] if rest else fill, dtype=x.dtype)
        out[into] = x[out_of]
        return out
    return fn if data[1] or fill is not None else None
