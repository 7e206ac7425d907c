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
from array import array

import numpy as np

from ....hlo.opcodes import Opcode
from . import ufunc_loops
from .matmul_dispatch import matmul_call
from .native_routines import _routines
from .steps import (_BATCH_DOT, _CHAIN, _DOT, _KERNEL, _KERNEL_IN_PLACE, _SPECIAL_ONE, _UFUNC,
                    blas_layout, data_address)


def _member(op, values: dict):
    """([(function address, argument array), ...] in order, patches, out, kernel or None)
    of an op that can join a run, else None. A patch: [argument array, slot, the value
    whose address (plus an offset) it takes per call, its strides, the offset, its shape or
    None: unchecked, its restride or None]: a restride, where a call's value has other
    strides than recorded, gives (index, arguments written there) for them, or None (the
    rest of the call step by step); the recorded strides are then the new ones.
    `values`: the values of the call the spec was made from."""
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
            out, what, None if out is not None else (shape, what.dtype, packed)
    if kind == _DOT:
        _, _, lhs, rhs, lhs_t, rhs_t, a, b, out = op
        ins = [_operand(lhs, a, lhs_t, values, None), _operand(rhs, b, rhs_t, values, None)]
        if None in ins or out is None:
            return None
        made = _products(ins[0][0], ins[1][0], out, ins)
        return None if made is None else (*made, out, None, None)
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
        return _reshape_copy(op, values)
    return None


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
    made = _copy_args(source)
    if made is None or source.size != copy.size:
        return None
    packed = array("q", [data_address(copy), *made])
    # (reshape's copy reads the transposed view in C order whatever its layout: another
    # layout of x has its sizes and strides written; astype's follows x's layout)
    restride = (lambda x: (1, _copy_args(x if perm is None else x.transpose(perm)))) \
        if source is view else None
    patches = () if held is not None else \
        ([packed, 1, inst, value.strides, made[0] - data_address(value), value.shape,
          restride],)
    # (the copy kept alive with its call: the run holds its calls)
    return [(_routines()[f"copy{dtype.itemsize}"], packed, copy)], patches, copy


def _copy_args(x: np.ndarray) -> list | None:
    """The copy routine's arguments after the destination: x's address, its sizes and
    strides as 6 (sizes of 1 left out, 1s in front); None beyond 6."""
    dims = [(n, st) for n, st in zip(x.shape, x.strides, strict=True) if n != 1]
    if len(dims) > 6:
        return None
    dims = [(1, 0)] * (6 - len(dims)) + dims
    return [data_address(x), *[n for n, _ in dims], *[st for _, st in dims]]


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
    made = _copy_args(x)
    if made is None:
        return None
    packed = array("q", [0, *made])
    return [(_routines()[f"copy{x.dtype.itemsize}"], packed)], \
        ([packed, 1, op[3], x.strides, 0, x.shape, lambda x: (1, _copy_args(x))],), None, None, \
        (value.shape, value.dtype, packed)


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


def chained(ops: list, where: list, done: list, values: dict) -> tuple[list, list, list]:
    """(ops, where, done) with each run of two or more consecutive ops that can join
    (_member) made one _CHAIN op:
    (_CHAIN, first inst, run, list address, count, ((inst, buffer view), ...) in order,
     patches (_member's), per native call (inst, kernel or None, the step index a
     refusal resumes at, the pairs before its own), what the op keeps alive, the kernels
     writing new arrays (inst, shape, dtype, argument array): made before the call, their
     values set first, so members after them read them as any value made before the run).
    Its `where` is its first member's, its `done` its last's. A member that reads per call
    a buffer a member before it in the run writes ends the run there. `values`: those of
    the call the spec was made from."""
    out_ops, out_where, out_done = [], [], []
    k = 0
    while k < len(ops):
        run, made = [], set()
        while k + len(run) < len(ops):
            op = ops[k + len(run)]
            member = _member(op, values)
            if member is None or any(p[2] in made for p in member[1]):
                break
            run.append(member)
            if member[4] is None:   # (a new array is made before the run)
                made.add(op[1])
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
        for n, (op, (calls, _, out, what, _)) in enumerate(zip(members, run, strict=True)):
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
            len(refusals), tuple(pairs), tuple(p for m in run for p in m[1]),
            tuple(refusals), (entries, run, members),   # (members: arrays only they hold)
            tuple((op[1], *m[4]) for op, m in zip(members, run, strict=True)
                  if m[4] is not None)))
        out_where.append(where[k])
        out_done.append(done[k + len(run) - 1])
        k += len(run)
    return out_ops, out_where, out_done
