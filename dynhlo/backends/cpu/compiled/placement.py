"""Specialized movement steps as strided copies, members of a run of native calls
(native_chain.py).

Between a decoder's products at one token sit the steps that only move elements: the
rotary embedding's gathers of cos and sin rows, rotate-half's concatenate, head splits.
special.py makes each a NumPy call (np.take, np.copyto, np.concatenate) of about a
microsecond, and each ended a run of native calls: a 2-layer Llama ran 34 ops per call. A
step whose value is a new array (or a small view of an operand: _VIEW_COPIED) and whose
placement does not depend on the values it moves is tried once, when the spec is made, on
probes laid out as the recorded operands, each element holding its own position (a
dynamic-update-slice's or pad's too, the zeros of a +0 padding included): where the
result splits into a few boxes, each reading one operand at indices affine in the box's,
the step is that many calls of the strided copy routine into a new array of the recorded
layout (an operand of another layout at a later call: the same indices at its strides).
"""

from __future__ import annotations

from array import array

import numpy as np

from ....hlo.opcodes import Opcode
from .native_routines import _routines
from .steps import _SPECIAL, _SPECIAL_ONE, _SPECIAL_TWO, data_address

# the movement opcodes and the operands whose elements they move (None: all); their other
# operands (indices, sizes) are folded into the specialized step, fixed for the key
_MOVES = {Opcode.GATHER: 1, Opcode.DYNAMIC_SLICE: 1, Opcode.SLICE: 1, Opcode.TRANSPOSE: 1,
          Opcode.BROADCAST: 1, Opcode.RESHAPE: 1, Opcode.DYNAMIC_RESHAPE: 1, Opcode.COPY: 1,
          Opcode.CONCATENATE: None, Opcode.SET_DIMENSION_SIZE: 1, Opcode.PAD: 1,
          Opcode.DYNAMIC_UPDATE_SLICE: 2}
# those whose elements not read from an operand are zeros (a set-dimension-size past the
# operand's size: ops_data._resize)
_ZERO_FILLED = frozenset({Opcode.SET_DIMENSION_SIZE})
_BOXES = 8   # the most strided copies one step becomes
_PROBED = 1 << 18   # the most elements probed (the result's and the operands')
_DIMS = 6   # the copy routine's dimensions
# the largest view of an operand copied (a copy of a few kB costs less than the Python
# step that ends a run, and its readers get a dense operand: a ufunc's inner loop, a kernel)
_VIEW_COPIED = 1 << 14


def placed(op, values: dict, readers=()):
    """native_chain._member's tuple of a specialized movement step (a _SPECIAL_ONE,
    _SPECIAL_TWO or _SPECIAL of _MOVES whose sources are exactly the operands it moves):
    ([(place routine, argument array), ...], patches, None, None, (shape, dtype,
    [(argument array, 0, byte offset of its destination)], axes back or None, np.empty
    or np.zeros)): the copies into a new array made before the run in the recorded value's
    layout (`shape` in its memory order, viewed back by `axes back`; zeros where the step
    fills, _ZERO_FILLED); each copy's source address written per call
    (its shape compared with the recorded one; another layout: its strides written). None
    where the step is not one (a view, elements not read from its operands, more than
    _BOXES boxes, a layout no axis order gives). `readers`: the instructions reading the
    step's value (a view's copy: _probe's `view`)."""
    inst = op[1]
    moved = _MOVES.get(inst.opcode, 0)
    operands = tuple(inst.operands) if moved is None else tuple(inst.operands[:moved])
    fn = op[2]
    into_zeros = _into_zeros(op, values)
    if into_zeros is not None:   # (its elements but the update's: +0s)
        sources = operands = (op[3],)
        fn = into_zeros
    elif op[0] == _SPECIAL_ONE and len(op) == 5:
        sources = (op[3],)
        if op[3] not in inst.operands:   # a joined op (joined.py): movement steps only,
            operands = sources           # from the first one's operand
    elif op[0] == _SPECIAL_TWO:
        sources = (op[3], op[4])
    elif op[0] == _SPECIAL and len(op) == 5:   # (longer: a fused chain, chains.py)
        sources = tuple(op[3])
    else:
        return None
    if moved == 0 or sources != operands:
        return None
    value = values.get(inst)
    xs = [values.get(s) for s in sources]
    if value.__class__ is not np.ndarray or not value.size or not value.ndim or \
            value.dtype.kind not in "fiub" or value.dtype.itemsize not in (1, 2, 4, 8) or \
            any(x.__class__ is not np.ndarray or x.dtype != value.dtype or not x.ndim
                for x in xs):
        return None
    # a view of an operand copied only where small; the probe's may be a view where the
    # recorded value was not, whose layout the step's own later calls give (not the
    # recorded one): only concatenates read it (C order whatever they read), or the
    # layouts must agree
    view = value.nbytes <= _VIEW_COPIED and (
        "any" if all(r.opcode is Opcode.CONCATENATE for r in readers) else "same")
    if not view and any(np.may_share_memory(x, value) for x in xs):
        return None
    fill = inst.opcode in _ZERO_FILLED or into_zeros is not None
    if inst.opcode is Opcode.PAD:   # (zeros copied for its padding value: +0 only)
        pad = values.get(inst.operands[1])
        if pad.__class__ not in (np.ndarray, value.dtype.type) or pad != 0 or np.signbit(pad):
            return None
        fill = True
    found = _probe(fn, xs, value, fill, view)
    if found is None:
        return None
    # (zeros first only where a box reads none of the operands)
    layout = new_array(value, np.zeros if any(k < 0 for _, _, k, _, _ in found) else np.empty)
    if layout is None:
        return None
    size = value.itemsize
    outer, back, make = layout
    calls, patches, targets = [], [], []
    for start, sizes, k, first, steps in found:
        if k < 0:   # (zeros: the new array's)
            continue
        kept = [d for d, n in enumerate(sizes) if n != 1]
        if len(kept) > _DIMS:
            return None
        x = xs[k]
        offset, strides = _source(x.strides, first, [steps[d] for d in kept])
        packed = array("q", [0, data_address(x) + offset, *[1] * (_DIMS - len(kept)),
                             *[sizes[d] for d in kept], *strides,
                             *[0] * (_DIMS - len(kept)), *[value.strides[d] for d in kept]])
        calls.append((_routines()[f"place{size}"], packed))
        patches.append([packed, 1, sources[k], x.strides, offset, x.shape,
                        _restride(first, [steps[d] for d in kept])])
        targets.append((packed, 0,
                        sum(a * t for a, t in zip(start, value.strides, strict=True))))
    if not calls:
        return None
    return calls, tuple(patches), None, None, (outer, value.dtype, tuple(targets), back, make)


def _into_zeros(op, values: dict):
    """For the step of a dynamic-update-slice whose operand the spec holds and is all +0
    (special._update_slice's `into`: a loop of one trip written in its caller updates a
    zero-filled buffer) and whose update alone is read per call: the step into a zero
    operand of a probe's type (`fn(update probe)`), else None."""
    inst = op[1]
    if inst.opcode is not Opcode.DYNAMIC_UPDATE_SLICE or op[0] != _SPECIAL_ONE or \
            len(op) != 5 or op[3] is not inst.operands[1] or \
            not hasattr(op[2], "into"):
        return None
    held = values.get(inst.operands[0])
    if held.__class__ is not np.ndarray or held.dtype.kind not in "fiub" or held.any() or \
            held.dtype.kind == "f" and np.signbit(held).any():
        return None
    into, shape = op[2].into, held.shape
    return lambda update: into(np.zeros(shape, update.dtype), update)


def _source(strides: tuple, first: tuple, steps: list) -> tuple[int, list]:
    """(byte offset of a box's first element, its 6 byte strides, 0s in front) in an
    operand of `strides`, the box reading its element `first` + sum(i_d * steps[d])."""
    offset = sum(f * st for f, st in zip(first, strides, strict=True))
    moved = [sum(v * st for v, st in zip(step, strides, strict=True)) for step in steps]
    return offset, [0] * (_DIMS - len(moved)) + moved


def _restride(first: tuple, steps: list):
    """A copy's source restride (native_chain._member): the same elements read in the
    operand's new layout: (slot, its 6 strides, the new byte offset of its first)."""
    def restride(y: np.ndarray):
        offset, strides = _source(y.strides, first, steps)
        return 2 + _DIMS, strides, offset
    return restride


def new_array(value: np.ndarray, make):
    """(shape in memory order, axes back or None, a maker `f(shape, dtype)`) of a new array
    of exactly the strides of `value` (`make`: np.empty or np.zeros, the memory's), else
    None. A size-1 axis of any stride (a broadcast's 0) is laid out as recorded over the
    memory of the other axes' layout (new_layout)."""
    layout = new_layout(value)
    if layout is not None:
        return (*layout, make)
    if 1 not in value.shape:
        return None
    layout = new_layout(value[tuple(0 if n == 1 else slice(None) for n in value.shape)])
    if layout is None:
        return None
    shape, strides = value.shape, value.strides

    def made(outer: tuple, dtype):
        return np.ndarray(shape, dtype, make(outer, dtype), 0, strides)
    return layout[0], None, made


def new_layout(value: np.ndarray):
    """(shape in memory order, the axes that view it back or None) of a new array with
    exactly the strides of `value`, else None."""
    strides = value.strides
    if value.flags.c_contiguous and np.empty(value.shape, value.dtype).strides == strides:
        return value.shape, None
    perm = tuple(sorted(range(value.ndim), key=lambda d: -strides[d]))
    back = tuple(int(d) for d in np.argsort(perm))
    outer = tuple(value.shape[d] for d in perm)
    if np.empty(outer, value.dtype).transpose(back).strides != strides:
        return None
    return outer, back


def _probe(fn, xs: list, value: np.ndarray, fill: bool = False, view=False):
    """[(start, sizes, operand, first index, steps)] of the boxes `fn`'s result splits
    into, each reading one operand at its index first + sum(i_d * steps[d]) (tuples of
    the operand's rank) over the box's index i (found on probes of the operands' shapes,
    each element holding its operand's number range plus its C-order position), else
    None. `fill`: elements read from no operand (zeros) allowed, as boxes of operand -1;
    `view`: a result that views a probe allowed ("any"), where of the recorded value's
    strides ("same"), or not (False)."""
    # (positions as i4 or i8: a pred's or i16's own width would not hold them; laid out
    # as the operands, their strides in elements the same)
    kind = np.dtype(f"i{max(value.itemsize, 4)}")
    probes, bases = [], [1]
    for x in xs:
        if not x.size or bases[-1] + x.size > _PROBED:
            return None
        probe = np.empty_like(x, dtype=kind)
        probe[...] = np.arange(bases[-1], bases[-1] + x.size).reshape(x.shape)
        probes.append(probe)
        bases.append(bases[-1] + x.size)
    if value.size > _PROBED:
        return None
    try:
        with np.errstate(all="ignore"):
            got = fn(*probes)
    except Exception:   # noqa: BLE001 - (a step declining probes: not a member)
        return None
    if got.__class__ is not np.ndarray or got.shape != value.shape or got.dtype != kind:
        return None
    viewed = [p for p in probes if np.may_share_memory(got, p)]
    if viewed and (view != "any" and (not view or _elements(got) != _elements(value)) or
                   got.shape == viewed[0].shape and got.strides == viewed[0].strides):
        return None   # (a view not allowed, or the operand itself handed on: no copy)
    ids = got.astype(np.int64)
    if int(ids.min()) < (0 if fill else 1) or int(ids.max()) >= bases[-1]:
        return None
    which = np.searchsorted(np.asarray(bases), ids, side="right") - 1
    flat = np.where(which < 0, 0, ids - np.asarray(bases)[np.maximum(which, 0)])
    return _boxes(which, flat, [x.shape for x in xs], False)


def _elements(x: np.ndarray) -> tuple:
    """x's strides in elements."""
    return tuple(st // x.itemsize for st in x.strides)


def _boxes(which: np.ndarray, flat: np.ndarray, shapes: list, nested: bool):
    """_probe's boxes of a block (operand numbers `which`, positions `flat`): one where it
    is affine, else the fewest of a split along one axis (_split); None where none has at
    most _BOXES. `nested`: a slab of a split (not split again but one level)."""
    whole = _affine(which, flat, shapes)
    if whole is not None:
        return [((0,) * flat.ndim, flat.shape, *whole)]
    best = None
    for axis in range(flat.ndim):
        boxes = _split(which, flat, shapes, axis, nested)
        if boxes is not None and (best is None or len(boxes) < len(best)):
            best = boxes
            if len(best) <= 2:   # (not affine as a whole: two boxes are the fewest)
                break
    return best


def _affine(which: np.ndarray, flat: np.ndarray, shapes: list):
    """(operand, first index, steps) where the block reads one operand (of shapes[k]) at
    C-order positions `flat` whose indices are affine in the block's, else None."""
    k = int(which.flat[0])
    if (which != k).any():
        return None
    if k < 0:   # zeros
        return k, (), ()
    coords = np.unravel_index(flat, shapes[k])
    first = tuple(int(c.flat[0]) for c in coords)
    steps = []
    for d, n in enumerate(flat.shape):
        at = (0,) * d + (1,) + (0,) * (flat.ndim - d - 1)
        steps.append(tuple(int(c[at]) - f if n > 1 else 0
                           for c, f in zip(coords, first, strict=True)))
    for j, c in enumerate(coords):
        grid = np.full(flat.shape, first[j], np.int64)
        for d, n in enumerate(flat.shape):
            grid = grid + (np.arange(n, dtype=np.int64) * steps[d][j]).reshape(
                (n,) + (1,) * (flat.ndim - d - 1))
        if not np.array_equal(grid, c):
            return None
    return k, first, tuple(steps)


def _split(which: np.ndarray, flat: np.ndarray, shapes: list, axis: int, nested: bool):
    """_probe's boxes along `axis` (at most _BOXES), or None: by the runs of slabs reading
    one operand, each one box (_runs: a chain of a thousand concatenates probes each link
    once, not each of its thousands of slabs), else slab by slab along a short axis
    (_slabs: a box may end where one operand's steps change)."""
    boxes = _runs(which, flat, shapes, axis)   # (one check per run: most often enough)
    if boxes is None and which.shape[axis] <= _SLABS:
        return _slabs(which, flat, shapes, axis, nested)
    return boxes


_SLABS = 64   # the longest axis split slab by slab


def _slabs(which: np.ndarray, flat: np.ndarray, shapes: list, axis: int, nested: bool):
    """Runs of consecutive slabs that read one operand with the same steps at first
    indices an equal step apart, and the boxes of a slab that is not affine split again
    (not `nested`: a dynamic-update-slice's row, half update and half operand); None where
    a slab is neither."""
    slabs = []
    for j in range(flat.shape[axis]):
        part = np.take(which, [j], axis)
        slab = _affine(part, np.take(flat, [j], axis), shapes)
        if slab is None and not nested and (part != part.flat[0]).any():
            # (a slab of two operands' elements: split again)
            slab = _boxes(part, np.take(flat, [j], axis), shapes, True)
            if slab is None:
                return None
            slab = (None, slab, None)   # (its own boxes)
        elif slab is None:
            return None
        slabs.append(slab)
    boxes, p = [], 0
    while p < len(slabs):
        k, first, steps = slabs[p]
        if k is None:   # a slab split again: its boxes, moved to its place
            boxes += [(tuple(p + a if d == axis else a for d, a in enumerate(start)),
                       *box) for start, *box in first]
            p += 1
            if len(boxes) > _BOXES:
                return None
            continue
        q, step = p + 1, None
        while q < len(slabs) and slabs[q][0] == k and k is not None and \
                slabs[q][2] == steps:
            moved = tuple(b - a for a, b in zip(slabs[q - 1][1], slabs[q][1], strict=True))
            if step is not None and moved != step:
                break
            step, q = moved, q + 1
        start = tuple(p if d == axis else 0 for d in range(flat.ndim))
        sizes = tuple(q - p if d == axis else n for d, n in enumerate(flat.shape))
        if k >= 0:   # (zeros: no steps)
            steps = list(steps)
            steps[axis] = step or (0,) * len(first)
        boxes.append((start, sizes, k, first, tuple(steps)))
        p = q
        if len(boxes) > _BOXES:
            return None
    return boxes


def _runs(which: np.ndarray, flat: np.ndarray, shapes: list, axis: int):
    """The runs of slabs that read one operand (each slab reading only one), each checked
    to be one affine box; None where a slab reads two operands, there are more than
    _BOXES runs, or a run is not one box."""
    rows = np.moveaxis(which, axis, 0).reshape(which.shape[axis], -1)
    first = rows[:, 0]
    if (rows != first[:, None]).any():
        return None
    starts = [0] + [int(j) for j in np.flatnonzero(first[1:] != first[:-1]) + 1]
    if len(starts) > _BOXES:
        return None
    boxes = []
    for p, q in zip(starts, starts[1:] + [len(first)], strict=True):
        part = [slice(None)] * flat.ndim
        part[axis] = slice(p, q)
        box = _affine(which[tuple(part)], flat[tuple(part)], shapes)
        if box is None:
            return None
        start = tuple(p if d == axis else 0 for d in range(flat.ndim))
        sizes = tuple(q - p if d == axis else n for d, n in enumerate(flat.shape))
        boxes.append((start, sizes, *box))
    return boxes


def copy_args(x: np.ndarray) -> list | None:
    """The copy routine's arguments after the destination (copy1..copy8: x's elements in C
    order into a dense array): x's address, its sizes and strides as 6 (sizes of 1 left
    out, 1s in front); None beyond 6."""
    dims = [(n, st) for n, st in zip(x.shape, x.strides, strict=True) if n != 1]
    if len(dims) > _DIMS:
        return None
    dims = [(1, 0)] * (_DIMS - len(dims)) + dims
    return [data_address(x), *[n for n, _ in dims], *[st for _, st in dims]]
