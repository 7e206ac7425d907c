"""Runs of a spec's native calls made one native call (Fast's _CHAIN op).

A spec (fast.py) holds many ops that are one native call each with arguments known for the
key: kernels whose argument arrays are filled (_KERNEL_IN_PLACE), kernels that only need the
addresses of values made before them written or a new array made (_KERNEL), f32/f64 matrix
products (_DOT, _BATCH_DOT without copies), dense one-input ufuncs (_UFUNC) and
dynamic-reshapes that copy (_SPECIAL_ONE). Each costs a Python dispatch of about a
microsecond; a run of them becomes one op that makes the new arrays, writes the per-call
addresses (shapes and strides compared with the recorded ones: a kernel's leaf or a copy's
source of other strides has them written into its arguments, another layout of a product's
operand runs the rest of the call step by step) and calls `run_list` once
(native_routines.py). A kernel's refusal resumes the call's Python steps at that kernel
exactly as before (its reference value, then the steps after it); a wrapper's (an output
overlapping an input, where NumPy would compute into a copy) at the step of its own.

A matrix product calls what NumPy's matmul calls on the same arrays (matmul_dispatch.py),
through NumPy's bundled BLAS (native_routines.py); a ufunc calls NumPy's own inner loop
(ufunc_loops.py).
"""

from __future__ import annotations

import ctypes
import math
from array import array

import numpy as np

from ....hlo import attrs
from ....hlo.opcodes import Opcode
from . import ufunc_loops
from .conv_member import conv_member
from .gather_member import rows_member
from .matmul_dispatch import matmul_call
from .joined import _QUIET
from .native_routines import _routines
from .placement import copy_args, new_array, placed
from .sums_member import sums_member
from .steps import (_BATCH_DOT, _CHAIN, _DOT, _KERNEL, _KERNEL_IN_PLACE, _RESHAPE, _SPECIAL,
                    _SPECIAL_ONE, _SPECIAL_TWO, _UFUNC, blas_layout, data_address)


def _member(op, values: dict, readers: dict):
    """([(function address, argument array), ...] in order, patches, out, kernel or None,
    new array or None) of an op that can join a run, else None. A new array: (shape,
    dtype, [(argument array, slot, byte offset)], axes or None, np.empty or np.zeros): the
    value made before the run (an array of the shape, transposed by the axes), its address
    plus each offset written at each argument array's slot. A patch: [argument array, slot,
    the value whose address (plus an offset) it takes per call, its strides, the offset,
    its shape or None: unchecked, its restride or None]: a restride, where a call's value
    has other strides than recorded, gives (index, arguments written there[, the new
    offset]) for them, or None (the rest of the call step by step); the recorded strides
    are then the new ones. `values`: the values of the call the spec was made from;
    `readers`: the instructions reading each instruction."""
    kind = op[0]
    if kind == _KERNEL_IN_PLACE:
        _, _, fn, _, out, what, packed = op
        return [(ctypes.cast(fn, ctypes.c_void_p).value, packed)], (), out, what, None
    if kind == _KERNEL:
        _, _, fn, packed, _, patches, out, shape, what = op
        # (out None: a new array per call, made before the run)
        return [(ctypes.cast(fn, ctypes.c_void_p).value, packed)], tuple(
            [packed, slot, leaf, strides, 0, None, _kernel_strides(slot)]
            for slot, leaf, strides in patches), \
            out, what, None if out is not None else \
            (shape, what.dtype, ((packed, 0, 0),), None, np.empty)
    if kind == _DOT:
        _, inst, lhs, rhs, lhs_t, rhs_t, a, b, out = op
        ins = [_operand(lhs, a, lhs_t, values, None), _operand(rhs, b, rhs_t, values, None)]
        if None in ins:
            return None
        if out is not None:
            made = _products(ins[0][0], ins[1][0], out, ins)
            return None if made is None else (*made, out, None, None)
        return _new_product(values.get(inst), ins)
    if kind == _UFUNC and (_fixed_layout(op) or op[5] is None):   # (into a new array)
        return _new_ufunc(op, values)
    if kind == _UFUNC:
        _, _, fn, source, fixed, out, held = op
        x = held if fixed is True else values.get(source) if fixed is False else None
        found = None if x is None or out is None else ufunc_loops.loop(fn, out.dtype)
        if found is None or x.__class__ is not np.ndarray or x.dtype != out.dtype or \
                x.shape != out.shape or not x.flags.c_contiguous or \
                not out.flags.c_contiguous or not out.flags.writeable or \
                np.may_share_memory(x, out) and data_address(x) != data_address(out):
            return None
        # NumPy's one inner loop call over the dense arrays: [loop, data, in, out, n,
        # in step, out step, extents of in and out] (the wrapper declines a partial overlap)
        size = out.dtype.itemsize
        packed = array("q", [found[0], found[1], data_address(x), data_address(out), out.size,
                             size, size, out.size * size, out.size * size])
        patches = () if fixed is True else ([packed, 2, source, x.strides, 0, x.shape, None],)
        return [(_routines()["ufunc"], packed)], patches, out, None, None
    if kind == _BATCH_DOT and len(op) > 7:
        what, a, b, out = op[7]
        if out is None:
            return None
        a = values[what.lhs] if a is None else a
        b = values[what.rhs] if b is None else b
        if a.__class__ is not np.ndarray or b.__class__ is not np.ndarray:
            return None
        sa, sb, _ = what.shapes(a.shape, b.shape)
        # batch_dot's NumPy calls: its 3-d views of the operands, or the copies it makes
        # (`astype`: C order), made by the copy routine into arrays the run holds
        calls, patches = [], []
        ins = []
        for inst, held, perm, shape in ((what.lhs, op[7][1], what.pa, sa),
                                        (what.rhs, op[7][2], what.pb, sb)):
            seen = _operand(inst, held, None, values, (perm, shape))
            if seen is None:
                copied = _batch_copy(inst, held, values, perm, shape, what.dtype)
                if copied is None:
                    return None
                calls += copied[0]
                patches += copied[1]
                seen = (copied[2], None, copied[2])
            ins.append(seen)
        a3, b3 = ins[0][0], ins[1][0]
        out3 = np.ndarray((sa[0], sa[1], sb[2]), what.dtype, out)
        for k in range(sa[0]):   # matmul's loop over the batch: one gemm each
            one = _products(a3[k], b3[k], out3[k], ins)
            if one is None:
                return None
            calls += one[0]
            patches += one[1]
        return calls, tuple(patches), out, None, None
    if kind == _SPECIAL_ONE and op[1].opcode is Opcode.DYNAMIC_RESHAPE and len(op) == 5 and \
            op[3] is op[1].operands[0]:
        # (special.py's step of its own operand only: a run whose input is laid out
        # otherwise hands the rest of the call to the steps from the run's first member,
        # which a joined op (joined.py) or a fused chain (chains.py) would need the
        # values it stands for)
        made = _reshape_copy(op, values)
        if made is not None:
            return made
    if kind in (_SPECIAL_ONE, _SPECIAL_TWO) and op[1].opcode is Opcode.CONVOLUTION:
        return conv_member(op, values)
    if kind == _SPECIAL_ONE and op[1].opcode is Opcode.GATHER and \
            op[3] is op[1].operands[1]:   # (a held table at indices read per call)
        return rows_member(op, values)
    if kind == _SPECIAL_ONE and op[1].opcode is Opcode.REDUCE:
        return sums_member(op, values)
    if kind in (_SPECIAL_ONE, _SPECIAL_TWO, _SPECIAL):
        return placed(op, values, readers.get(op[1], ()))
    return None


def _fixed_layout(op) -> bool:
    """Whether a _UFUNC op is fast.py's form for an operand not in C order (its shape in
    place of whether it is held): a new array per call, in the operand's layout."""
    return op[4].__class__ is tuple


def _new_ufunc(op, values: dict):
    """_member's tuple of a ufunc into a new array (a value the root returns, or of an
    operand dense in another axis order: a transposed gather's) of its operand's strides,
    as NumPy's ufunc makes it (its iterator then hands all elements to one inner loop
    call), else None."""
    _, inst, fn, source, _, _, _ = op
    x, value = values.get(source), values.get(inst)
    if x.__class__ is not np.ndarray or value.__class__ is not np.ndarray or \
            x.dtype != value.dtype or x.shape != value.shape or not x.size:
        return None
    rows = None if x.strides == value.strides else _dense_rows(x, value)
    layout = new_array(value, np.empty)
    found = ufunc_loops.loop(fn, value.dtype)
    if layout is None or found is None or x.strides != value.strides and rows is None:
        return None
    size = value.dtype.itemsize
    if rows is None:   # (one inner loop call over every element)
        name, fields = "ufunc", [value.size, size, size, value.size * size, value.size * size]
    else:   # (one per row: NumPy's iterator on such an operand)
        count, stride, n = rows
        name, fields = "ufunc_rows", [n, size, size, (count - 1) * stride + n * size,
                                      value.size * size, count, stride, n * size]
    packed = array("q", [found[0], found[1], data_address(x), 0, *fields])
    return [(_routines()[name], packed)], ([packed, 2, source, x.strides, 0, x.shape,
                                            None],), None, None, \
        (layout[0], value.dtype, ((packed, 3, 0),), *layout[1:])


def _dense_rows(x: np.ndarray, value: np.ndarray) -> tuple | None:
    """(rows, byte stride between them, elements per row) where `value` is C-ordered and x
    is rows of its last dimension, each dense, one stride apart (a column block of a wider
    array), else None."""
    if x.ndim < 2 or not value.flags.c_contiguous or x.strides[-1] != x.itemsize:
        return None
    lead = [(n, st) for n, st in zip(x.shape[:-1], x.strides[:-1], strict=True) if n != 1]
    if not lead:
        return None
    stride = lead[-1][1]
    for (_, st), (n_in, st_in) in zip(lead, lead[1:], strict=False):
        if st != st_in * n_in:   # (the leading dimensions are one run of rows)
            return None
    if stride < x.shape[-1] * x.itemsize:
        return None
    return math.prod(x.shape[:-1]), stride, x.shape[-1]


def _new_product(value, ins: list):
    """_member's tuple of a 2-d product into a new array (np.matmul's, C-ordered: a result
    the plan gives no buffer, the root's): its BLAS call made on an array of that layout,
    whose address is the argument that array is written at per call."""
    if value.__class__ is not np.ndarray or not value.flags.c_contiguous or not value.size:
        return None
    probe = np.empty(value.shape, value.dtype)
    made = _products(ins[0][0], ins[1][0], probe, ins)
    if made is None:
        return None
    (fn, packed), = made[0]
    slots = [k for k, arg in enumerate(packed) if arg == data_address(probe)]
    if len(slots) != 1:
        return None
    return made[0], made[1], None, None, \
        (value.shape, value.dtype, ((packed, slots[0], 0),), None, np.empty)


def _kernel_strides(slot: int):
    """A kernel leaf's restride (see _member): its loops take any strides, written after
    its address and sizes in its argument array."""
    return lambda x: (slot + 1 + x.ndim, list(x.strides))


def _batch_copy(inst, held, values: dict, perm, shape: tuple, dtype):
    """([copy call], patches, the copy) of a batch_dot operand its NumPy calls copy, made
    by the copy routine into an array the run holds (seen by nothing else but the product),
    x's address written per call unless held. BatchDot reads `x.transpose(perm)
    .reshape(shape)`: where that reshape copies, the copy is in C order; where it is a view
    that is not C-ordered, `astype` copies it in its own order (NumPy's "K"): the copy has
    that layout (the product's BLAS arguments follow it)."""
    value = values.get(inst) if held is None else held
    if value.__class__ is not np.ndarray or value.dtype != dtype or \
            dtype.itemsize not in (4, 8):
        return None
    view = value if perm is None else value.transpose(perm)
    seen = view.reshape(shape)
    if np.shares_memory(seen, value):   # astype's copy, in the view's own order
        copy = seen.astype(dtype)
        order = sorted(range(len(shape)), key=lambda d: -copy.strides[d])
        if not copy.transpose(order).flags.c_contiguous or \
                np.shares_memory(copy, value):   # pragma: no cover - astype copies
            return None
        source = seen.transpose(order)
    else:   # reshape's copy, in C order of the transposed view
        copy = np.empty(shape, dtype)
        source = view
    made = copy_args(source)
    if made is None or source.size != copy.size:
        return None
    packed = array("q", [data_address(copy), *made])
    # (reshape's copy reads the transposed view in C order whatever its layout: another
    # layout of x has its sizes and strides written; astype's follows x's layout)
    restride = (lambda x: (1, copy_args(x if perm is None else x.transpose(perm)))) \
        if source is view else None
    patches = () if held is not None else \
        ([packed, 1, inst, value.strides, made[0] - data_address(value), value.shape,
          restride],)
    # (the copy kept alive with its call: the run holds its calls)
    return [(_routines()[f"copy{dtype.itemsize}"], packed, copy)], patches, copy


def _is_reshape(fn, x: np.ndarray, shape: tuple) -> bool:
    """Whether the step's function gives `x.reshape(shape)` of every array of x's shape,
    strides and dtype: tried on one of distinct values (1, 2, ...) laid out as x is, so
    the same values in the same places is the same placement."""
    if any(st < 0 for st in x.strides) or not 0 < x.size < 1 << 24:
        return False   # (no elements: no probe to lay out, and nothing to copy)
    extent = sum((n - 1) * st for n, st in zip(x.shape, x.strides, strict=True))
    base = np.zeros(extent // x.itemsize + 1, x.dtype)
    probe = np.lib.stride_tricks.as_strided(base, x.shape, x.strides)
    probe[...] = np.arange(1, x.size + 1).reshape(x.shape)
    try:
        with np.errstate(all="ignore"):
            got = fn(probe)
    except Exception:   # noqa: BLE001 - (a step declining this layout: not joined)
        return False
    return got.__class__ is np.ndarray and got.shape == shape and \
        got.dtype == x.dtype and got.tobytes() == probe.reshape(shape).tobytes()


def _reshape_copy(op, values: dict):
    """A dynamic-reshape whose `x.reshape(shape)` (special.py) copies: x in its recorded
    layout (address written per call) copied in C order into a new array made before the
    run, by the copy routine: [new array, x, 6 sizes, 6 strides in bytes]."""
    x, value = values.get(op[3]), values.get(op[1])
    if x.__class__ is not np.ndarray or value.__class__ is not np.ndarray or \
            x.shape != op[4] or x.dtype != value.dtype or x.size != value.size or \
            x.dtype.itemsize not in (4, 8) or not value.flags.c_contiguous or \
            np.may_share_memory(x, value) or not _is_reshape(op[2], x, value.shape):
        return None
    made = copy_args(x)
    if made is None:
        return None
    packed = array("q", [0, *made])
    return [(_routines()[f"copy{x.dtype.itemsize}"], packed)], \
        ([packed, 1, op[3], x.strides, 0, x.shape, lambda x: (1, copy_args(x))],), None, None, \
        (value.shape, value.dtype, ((packed, 0, 0),), None, np.empty)


def _operand(inst, held, transposed, values: dict, batch):
    """(the array a product reads, the value read per call or None, that value): `held`
    when the spec holds it (for a 2-d product its view as read), else the value of the
    spec's call when the product reads it as
    it is (NumPy's layout, no copy) and it is a parameter or a value made before (its
    address written per call); None where a copy would be made. `batch`: (permutation or
    None, 3-d shape) of batch_dot's view, else the 2-d product's (`transposed`)."""
    value = values.get(inst) if held is None else held
    if value.__class__ is not np.ndarray:
        return None
    if batch is None:   # (a held operand is the product's view already)
        seen = value if held is not None else value.T if transposed else value
        if blas_layout(seen) is not seen:
            return None
    else:
        seen = (value if batch[0] is None else value.transpose(batch[0])).reshape(batch[1])
        if not seen.flags.c_contiguous or not np.shares_memory(seen, value):
            return None
    return seen, (None if held is not None else inst), value


def _products(a, b, out, ins) -> tuple | None:
    """([(wrapper address, its argument array)], patches) of np.matmul(a, b, out=out) by
    one BLAS call (matmul_call), else None. `ins`: _operand's of the two operands (a and b
    are theirs or views into them): an operand read per call is patched."""
    made = matmul_call(a, b, out, _routines())
    if made is None:
        return None
    fn, args, slots = made
    packed = array("q", args)   # (the operands stay alive: the spec's ops hold them)
    patches = tuple([packed, slot, leaf, value.strides, args[slot] - data_address(value),
                     value.shape, None]
                    for slot, (_, leaf, value) in zip(slots, ins, strict=True)
                    if leaf is not None)
    return [(fn, packed)], patches


# specialized steps whose value may be a view of their operand (special.py)
_VIEWING = frozenset({Opcode.DYNAMIC_RESHAPE, Opcode.RESHAPE, Opcode.TRANSPOSE, Opcode.SLICE})


def _view(op, values: dict, fresh: dict, inside=frozenset()):
    """A member for a specialized or reshape step whose value is a view of a new array a
    member before it in the run makes (`fresh`: inst -> an array of that layout), or of a
    value made before the run (not one of the members `inside`: a parameter's reshape): no
    native call, the view made per call after the new arrays, before the addresses are
    written (a reshape's view between two runs split them: hf_llama's heads). Its tuple is
    _member's, no calls, plus (function, source). None where the step's function, on an
    array of the layout the run makes, gives no view of the recorded value's shape and
    strides."""
    if op[0] == _RESHAPE and op[4] is None:   # (the runner's reshape step: NumPy's)
        shape = op[3]
        fn, source = (lambda x: x.reshape(shape)), op[2]
    elif op[0] == _SPECIAL_ONE and len(op) == 5 and op[1].opcode in _VIEWING and \
            op[3] is op[1].operands[0]:
        fn, source = op[2], op[3]
    elif op[0] == _SPECIAL_ONE and len(op) == 5 and _resized_in_order(op[1], op[3]):
        # a size set to the one the operand has (a loop's row written at the carried batch
        # size): the reference's new array holds the operand's elements in C order, which
        # a C-ordered operand is already (its shape and strides checked below)
        shape = values[op[1]].shape if values.get(op[1]).__class__ is np.ndarray else None
        fn, source = (lambda x: x.reshape(shape)), op[3]
        fn.same = True
    else:
        return None
    if source in fresh:
        probe = fresh[source]
    elif source in inside:   # (a member's buffer: not written when the views are made)
        return None   # (a view of a value made before the run is not one of `inside`)
    else:   # a value made before the run (a parameter): a view of it as recorded
        probe = values.get(source)
        if probe.__class__ is not np.ndarray:
            return None
    value = values.get(op[1])
    same = getattr(fn, "same", False)
    if value.__class__ is not np.ndarray or not value.size or not same and \
            not np.may_share_memory(value, values.get(source)):
        return None
    if same and not (value.flags.c_contiguous and probe.flags.c_contiguous and
                     value.size == probe.size):
        return None
    try:
        got = fn(probe)
    except Exception:   # noqa: BLE001 - (a step declining the layout: no member)
        return None
    if got.__class__ is not np.ndarray or got.shape != value.shape or \
            got.strides != value.strides or not np.shares_memory(got, probe):
        return None
    return [], (), None, None, None, (fn, source)


def _resized_in_order(inst, source) -> bool:
    """Whether `inst` is a set-dimension-size of `source` through reshapes and broadcasts
    that only add dimensions of size 1 in order: where its size is the operand's (its value
    as many elements as the source's: compared on the recorded values), the same elements
    in the same C order."""
    if inst.opcode is not Opcode.SET_DIMENSION_SIZE:
        return False
    inst = inst.operands[0]
    while inst is not source:
        if inst.opcode is Opcode.BROADCAST:
            dims = list(attrs.ints(inst, "dimensions"))
            shape = inst.shape
            if dims != sorted(dims) or any(shape.dims[k] != 1 or shape.dynamic[k]
                                           for k in range(shape.rank) if k not in dims):
                return False
        elif inst.opcode is not Opcode.RESHAPE:
            return False
        inst = inst.operands[0]
    return True


def _settled(run: list, members: list, readers: dict, root) -> tuple[list, dict, int]:
    """(run with reads of values made in it fixed, the scratch arrays, how many members
    stay). A value a member writes into a buffer is read at that buffer's address; a new
    array whose every reader is a later member of the run (not the root: nothing else sees
    it) is a scratch array made here, held by the run and read at its address (no array
    made nor address written per call). A member whose read of such a value has another
    shape or strides than recorded ends the run before it."""
    inside = {op[1] for op in members}
    viewing = {op[1] for op, member in zip(members, run, strict=True) if len(member) > 5}
    scratch = {}
    for op, member in zip(members, run, strict=True):
        users = readers.get(op[1], ())
        # (a view of it may be read after the run, or returned: made per call)
        if member[4] is not None and op[1] is not root and users and users <= inside and \
                not users & viewing:
            shape, dtype, targets, axes, make = member[4]
            value = make(shape, dtype)
            scratch[op[1]] = value if axes is None else value.transpose(axes)
    made, out = {}, []
    for n, (op, member) in enumerate(zip(members, run, strict=True)):
        member = _buffers_read(member, made)
        if member is None:
            return out, scratch, n
        out.append(member)
        if op[1] in scratch:
            made[op[1]] = scratch[op[1]]
        elif member[4] is None and member[2] is not None:
            made[op[1]] = member[2]
    return out, scratch, len(run)


def _buffers_read(member: tuple, made: dict):
    """`member` with the patches of values that members before it in the run write into
    buffers or scratch arrays (`made`: inst -> the array) written now: the same address
    at every call; None where the recorded view is not the one read (another shape or
    strides)."""
    patches = []
    for patch in member[1]:
        out = made.get(patch[2])
        if out is None:
            patches.append(patch)
            continue
        packed, slot, _, strides, offset, shape, _ = patch
        if out.strides != strides or shape is not None and out.shape != shape:
            return None
        packed[slot] = data_address(out) + offset
    return member if len(patches) == len(member[1]) else (member[0], tuple(patches),
                                                          *member[2:])


def _grouped(patches) -> tuple:
    """The run's patches by the value they read: [value, shape or None, strides, [(argument
    array, slot, offset)], the patches, the data address written by the last call or None,
    a weak reference to the array of that call or None] each, so a value read by several
    calls is looked up and compared once per call (restrided: restrided()), and one at the
    same address, shape and strides as at the last call (a weight passed at every call, a
    buffer) has its addresses written already (the same array: not even read again)."""
    groups: dict = {}
    for patch in patches:
        group = groups.get(patch[2])
        if group is None:
            group = groups[patch[2]] = [patch[2], None, patch[3], [], [], None, None]
        if patch[5] is not None:
            group[1] = patch[5]
        group[3].append((patch[0], patch[1], patch[4]))
        group[4].append(patch)
    return tuple(groups.values())



def restrided(group: list, value: np.ndarray) -> bool:
    """A patch group (_grouped) made to read `value`, whose strides differ from those
    recorded: each patch's restride writes its arguments (False where one has none: the
    rest of the call step by step)."""
    found = []
    for patch in group[4]:
        restride = patch[6]
        written = None if restride is None else restride(value)
        if written is None or written[1] is None:
            return False
        found.append(written)
    # (written only once every patch has its arguments: a group left half rewritten would
    # read the recorded layout at the refused one's strides at a later call)
    slots = []
    group[5] = group[6] = None   # (the addresses written again)
    for patch, (at, ints, *moved) in zip(group[4], found, strict=True):
        patch[0][at:at + len(ints)] = array("q", ints)
        patch[3] = value.strides
        if moved:   # (a copy's first element: its new offset)
            patch[4] = moved[0]
        slots.append((patch[0], patch[1], patch[4]))
    group[2], group[3] = value.strides, slots
    return True


def _resumed(ops: list, done: list, k: int) -> int:
    """The step index the steps resume at where a call's input has another layout than
    the run starting at ops[k] reads: the done index of the last op before it that is not
    quiet (joined._QUIET). A joined op (joined.py) stands for steps that start before its
    own place, after quiet ops only; from the previous op's index they would find the
    first one's value missing, whether the joined op is in the run or after it (a run of
    placed copies between its two steps). Any op's done index is a place the steps may
    resume at: the quiet steps between run again."""
    while k and ops[k - 1][0] in _QUIET:
        k -= 1
    return done[k - 1] if k else 0


def chained(ops: list, where: list, done: list, values: dict,
            computation) -> tuple[list, list, list]:
    """(ops, where, done) with each run of two or more consecutive ops that can join
    (_member) made one _CHAIN op:
    (_CHAIN, first inst, run, list address, count, ((inst, buffer view), ...) in order,
     patches (_member's), per native call (inst, kernel or None, the step index a
     refusal resumes at, the pairs before its own), what the op keeps alive, the members
     writing new arrays (inst, and _member's new array): made before the call, their
     values set first, so members after them read them as any value made before the run,
     the step index a call whose input has another layout resumes at: _resumed, the
     view members (inst, function, source): made after the new arrays).
    Its `where` is its first member's, its `done` its last's. Values made in the run are
    read at their addresses, some in scratch arrays (_settled); patches are grouped by the
    value they read (_grouped). `values`: those of the call the spec was made from;
    `computation`: the spec's (its readers)."""
    readers: dict = {}
    for inst in computation.instructions:
        for operand in inst.operands:
            readers.setdefault(operand, set()).add(inst)
    out_ops, out_where, out_done = [], [], []
    k = 0
    while k < len(ops):
        run, fresh = [], {}   # fresh: an array of each new array's layout in the run
        inside = set()   # the members' instructions (but views of values made before)
        while k + len(run) < len(ops):
            op = ops[k + len(run)]
            member = _view(op, values, fresh, inside) or _member(op, values, readers)
            if member is None:
                break
            run.append(member)
            inside.add(op[1])
            if member[4] is not None:
                shape, dtype, _, axes, make = member[4]
                made = make(shape, dtype)
                fresh[op[1]] = made if axes is None else made.transpose(axes)
            elif len(member) > 5 and member[5][1] in fresh:
                fresh[op[1]] = member[5][0](fresh[member[5][1]])
            elif len(member) > 5:   # (a view of a value made before the run)
                inside.discard(op[1])
        while True:   # (a run ended early: its scratch arrays found again)
            settled, scratch, kept = _settled(run, ops[k:k + len(run)], readers,
                                              computation.root)
            if kept == len(run):
                run = settled
                break
            run = run[:kept]
        if len(run) < 2:
            count = max(len(run), 1)
            out_ops += ops[k:k + count]
            out_where += where[k:k + count]
            out_done += done[k:k + count]
            k += count
            continue
        members = ops[k:k + len(run)]
        entries = array("q")
        refusals = []   # per native call: (inst, kernel or None, resume step, pairs run)
        pairs = []   # (inst, its buffer's view) of the members writing buffers
        for n, (op, (calls, _, out, what, new, *_)) in enumerate(zip(members, run,
                                                                      strict=True)):
            if op[1] in scratch:   # its array made: its address written now, once
                out = scratch[op[1]]
                at = data_address(out)
                for packed, slot, offset in new[2]:
                    packed[slot] = at + offset
            # a kernel's refusal: its reference value, then the steps after it; a
            # product's (an operand overlapping its buffer): the steps from its own
            resume = done[k + n] if what is not None else \
                done[k + n - 1] if k + n else 0
            for fn, packed, *_ in calls:
                entries.append(fn)
                entries.append(packed.buffer_info()[0])
                refusals.append((op[1], what, resume, len(pairs)))
            if out is not None:
                pairs.append((op[1], out))   # (a new array's value is set before the run)
        out_ops.append((
            _CHAIN, members[0][1], _routines()["run"], entries.buffer_info()[0],
            len(refusals), tuple(pairs), _grouped(p for m in run for p in m[1]),
            tuple(refusals), (entries, run, members),   # (members: arrays only they hold)
            tuple((op[1], *m[4]) for op, m in zip(members, run, strict=True)
                  if m[4] is not None and op[1] not in scratch),
            _resumed(ops, done, k),
            tuple((op[1], *m[5]) for op, m in zip(members, run, strict=True) if len(m) > 5)))
        out_where.append(where[k])
        out_done.append(done[k + len(run) - 1])
        k += len(run)
    return out_ops, out_where, out_done
