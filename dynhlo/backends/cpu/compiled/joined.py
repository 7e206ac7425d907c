"""Runs of specialized steps that only hand a value on, as one op of a spec (fast.Fast).

JAX writes a head split as reshape, transpose and gather steps, each a specialized step of
one operand read per call (special.py) whose value only the next one reads: at one token a
12-layer transformer ran 36 dynamic-reshape/transpose pairs per call, each an op of its own
(~1 us of the op loop's Python apiece for a NumPy view); optax and keras write each bias
as broadcast, reshape, broadcast and set-dimension-size steps. Where a spec's op B (a
_SPECIAL_ONE, or a reshape step) reads the value of the _SPECIAL_ONE op A right before it,
A's value has no other reader in the computation (nor is the root), and neither lowering
can decline at the recorded shapes (the opcodes of _NEVER_DECLINE: their special.py
functions return a value for every operand of the recorded shape), A and B become one
_SPECIAL_ONE op computing B's value from A's operand: the same NumPy calls in the same
order, so the same values and layouts. A's value is then not in the call's values; nothing
reads it (a call that goes step by step after a later op resumes past B). A and B need
not be next to each other: the op is at B's place, and the ops between them are
specialized steps and reshapes only (_QUIET: no buffer written, no step-by-step rest
started), so A's operand is unchanged there and no rest starts between them (one that did
would find A's value missing). A run with a gather or dynamic-slice in it whose value is a
box of its operand, copied, is one strided copy of that box into the run's layout
(_one_copy: JAX's qkv split, gather, gather, reshape, 4 copies to 1), checked element by
element on the operand's positions and by its strides when the spec is made.
"""

from __future__ import annotations

import numpy as np

from ....hlo.opcodes import Opcode
from .special import _box
from .steps import _RESHAPE, _SPECIAL, _SPECIAL_ONE, _SPECIAL_TWO

# specialized lowerings of one operand read per call that give a value for every operand
# of the recorded shape (special.py: views, copies, a gather or dynamic-slice at folded
# indices: np.take or a box's copy, a set-dimension-size at a folded size: _resize)
_NEVER_DECLINE = frozenset({Opcode.TRANSPOSE, Opcode.DYNAMIC_RESHAPE, Opcode.SLICE,
                            Opcode.BROADCAST, Opcode.GATHER, Opcode.DYNAMIC_SLICE,
                            Opcode.SET_DIMENSION_SIZE})
# operand 0 read per call, the others folded
_FIRST_ONLY = frozenset({Opcode.GATHER, Opcode.DYNAMIC_SLICE, Opcode.SET_DIMENSION_SIZE})


def joined(ops: list, where: list, computation, values: dict) -> tuple[list, list]:
    """(ops, where) with each such pair (see the module docstring) made one op at B's place;
    runs of more than two compose in turn; B may also be a reshape step (_RESHAPE: NumPy's
    reshape of A's value, as the runner makes it). `values`: the call the spec was made
    from (each composed function is checked to give B's recorded shape from A's recorded
    operand)."""
    readers: dict = {}
    for inst in computation.instructions:
        for operand in set(inst.operands):
            readers[operand] = readers.get(operand, 0) + 1
    root = computation.root

    def joinable(op, made: bool) -> bool:   # may be an A
        return op[0] == _SPECIAL_ONE and op[1] is not root and readers.get(op[1]) == 1 and \
            (made or _never_declines(op))

    out_ops, out_where = [], []
    pending: dict = {}   # an A's value -> its op, while only quiet ops followed it
    for op, at in zip(ops, where, strict=True):
        source, fb = _reader(op)
        a = pending.pop(source, None) if fb is not None else None
        if a is not None:
            composed = _compose(a[2], fb)
            x, value = values.get(a[3]), values.get(op[1])
            if x.__class__ is np.ndarray and x.shape == a[4] and \
                    value.__class__ is np.ndarray:
                got = composed(x)
                if got.__class__ is np.ndarray and got.shape == value.shape:
                    if _COPIES & {a[1].opcode, op[1].opcode}:
                        composed = _one_copy(composed, x, got) or composed
                    k = next(k for k, o in enumerate(out_ops) if o is a)
                    del out_ops[k], out_where[k]
                    joined = (_SPECIAL_ONE, op[1], composed, a[3], a[4])
                    out_ops.append(joined)
                    out_where.append(at)
                    if joinable(joined, True):
                        pending[op[1]] = joined
                    continue
        if op[0] not in _QUIET:
            pending.clear()
        out_ops.append(op)
        out_where.append(at)
        if joinable(op, False):
            pending[op[1]] = op
    return out_ops, out_where


# the ops that may run between A and B: they write no buffer (a value they make is a new
# array or a view) and never hand the call to the step-by-step rest (a refusal runs their
# own step alone), so A's operand is unchanged at B's place and no rest starts between
_QUIET = frozenset({_SPECIAL_ONE, _SPECIAL_TWO, _SPECIAL, _RESHAPE})


def _reader(op: tuple):
    """(the value op `op` reads, its function of that value) where it may be a B (a
    _SPECIAL_ONE that cannot decline, a reshape step), else (None, None)."""
    if op[0] == _SPECIAL_ONE and _never_declines(op):
        return op[3], op[2]
    if op[0] == _RESHAPE and op[4] is None:
        shape = op[3]
        return op[2], lambda x: x.reshape(shape)
    return None, None


def _never_declines(op: tuple) -> bool:
    inst = op[1]
    if inst.opcode not in _NEVER_DECLINE or len(op) > 5:
        # (a longer op is a fused movement chain, chains.py: it declines where its
        # placement would read padding, and its own steps run then)
        return False
    # (at indices or a size read per call a window may reach past the operand, a size
    # differ from the recorded one)
    return inst.opcode not in _FIRST_ONLY or op[3] is inst.operands[0]


# a run with one of these copies its operand: where the run's value is a box of it, the
# box is copied once (_one_copy)
_COPIES = frozenset({Opcode.GATHER, Opcode.DYNAMIC_SLICE})


def _one_copy(composed, x: np.ndarray, got: np.ndarray):
    """One strided copy standing for the run `composed` (JAX's qkv split: a gather copying
    dot's result into a length-major layout, then one of its column blocks), where, run on
    x's flat positions, the run reads a box of x and gives a new array: the box's elements
    copied into the run's memory order. Checked on the positions (the same elements in the
    same places) and on x (the same strides as `got`, the run's value); else None."""
    if not x.size:   # (a run reading padding only: no box of x)
        return None
    positions = np.arange(x.size, dtype=np.int64).reshape(x.shape)
    read = composed(positions)
    if read.__class__ is not np.ndarray or np.may_share_memory(read, positions):
        return None
    box = _box(read, x.shape)
    if box is None:
        return None
    shape = read.shape
    perm = tuple(sorted(range(read.ndim), key=lambda k: -read.strides[k]))
    back = tuple(np.argsort(perm))

    def copy(x):   # (always a new array; a 0-d one stays 0-d: not ascontiguousarray)
        return np.array(x[box].reshape(shape).transpose(perm), order="C").transpose(back)
    if not np.array_equal(copy(positions), read) or copy(x).strides != got.strides:
        return None
    return copy


class _Composed:
    """Functions applied in turn: a joined run's, one call frame however long the run (a
    chain of a thousand slices nested as closures ran out of Python's frames)."""

    __slots__ = ("fns",)

    def __init__(self, fns: tuple):
        self.fns = fns

    def __call__(self, x):
        for fn in self.fns:
            x = fn(x)
        return x


def _compose(fa, fb):
    return _Composed((fa.fns if fa.__class__ is _Composed else (fa,)) +
                     (fb.fns if fb.__class__ is _Composed else (fb,)))
