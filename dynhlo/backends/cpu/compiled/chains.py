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
reads it (a call that goes step by step after a later op resumes past B). Only ops next to
each other join: B moved up to A would leave A's value missing for a step-by-step rest
that starts between them, and A moved down to B could read a buffer reused in between.
"""

from __future__ import annotations

import numpy as np

from ....hlo.opcodes import Opcode
from .steps import _RESHAPE, _SPECIAL_ONE

# specialized lowerings of one operand read per call that give a value for every operand
# of the recorded shape (special.py: views, copies, a gather or dynamic-slice at folded
# indices: np.take or a box's copy, a set-dimension-size at a folded size: _resize)
_NEVER_DECLINE = frozenset({Opcode.TRANSPOSE, Opcode.DYNAMIC_RESHAPE, Opcode.SLICE,
                            Opcode.BROADCAST, Opcode.GATHER, Opcode.DYNAMIC_SLICE,
                            Opcode.SET_DIMENSION_SIZE})
# operand 0 read per call, the others folded
_FIRST_ONLY = frozenset({Opcode.GATHER, Opcode.DYNAMIC_SLICE, Opcode.SET_DIMENSION_SIZE})


def chained(ops: list, where: list, computation, values: dict) -> tuple[list, list]:
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
    out_ops, out_where = [], []
    joined = False   # whether the last op is one made here (its parts already checked)
    for op, at in zip(ops, where, strict=True):
        last = out_ops[-1] if out_ops else None
        fb = None if last is None else _joins(last, joined, op, readers, root)
        if fb is not None:
            composed = _compose(last[2], fb)
            x = values.get(last[3])
            value = values.get(op[1])
            if x.__class__ is np.ndarray and x.shape == last[4] and \
                    value.__class__ is np.ndarray:
                got = composed(x)
                if got.__class__ is np.ndarray and got.shape == value.shape:
                    out_ops[-1] = (_SPECIAL_ONE, op[1], composed, last[3], last[4])
                    out_where[-1] = at
                    joined = True
                    continue
        out_ops.append(op)
        out_where.append(at)
        joined = False
    return out_ops, out_where


def _joins(a: tuple, a_joined: bool, b: tuple, readers: dict, root):
    """B's function of A's value when op `b` reads only the value of op `a` right before
    it, no one else reads that value, and neither can decline; else None."""
    if a[0] != _SPECIAL_ONE or a[1] is root or readers.get(a[1]) != 1 or \
            not (a_joined or _never_declines(a)):
        return None
    if b[0] == _SPECIAL_ONE and b[3] is a[1] and _never_declines(b):
        return b[2]
    if b[0] == _RESHAPE and b[2] is a[1] and b[4] is None:
        shape = b[3]
        return lambda x: x.reshape(shape)
    return None


def _never_declines(op: tuple) -> bool:
    inst = op[1]
    if inst.opcode not in _NEVER_DECLINE:
        return False
    # (at indices or a size read per call a window may reach past the operand, a size
    # differ from the recorded one)
    return inst.opcode not in _FIRST_ONLY or op[3] is inst.operands[0]


def _compose(fa, fb):
    def fn(x):
        return fb(fa(x))
    return fn
