"""Runs of specialized steps that only hand a value on, as one op of a spec (fast.Fast).

JAX writes a head split as reshape, transpose and gather steps, each a specialized step of
one operand read per call (special.py) whose value only the next one reads: at one token a
12-layer transformer ran 36 dynamic-reshape/transpose pairs per call, each an op of its own
(~1 us of the op loop's Python apiece for a NumPy view). Where a spec's op B is a _SPECIAL_ONE
reading the value of the op A right before it, A's value has no other reader in the
computation (nor is the root), and neither lowering can decline at the recorded shapes (the
opcodes of _NEVER_DECLINE: their special.py functions return a value for every operand of
the recorded shape), A and B become one _SPECIAL_ONE op computing B's value from A's
operand: the same NumPy calls in the same order, so the same values and layouts. A's value
is then not in the call's values; nothing reads it (a call that goes step by step after a
later op resumes past B).
"""

from __future__ import annotations

import numpy as np

from ....hlo.opcodes import Opcode
from .steps import _SPECIAL_ONE

# specialized lowerings of one operand read per call that give a value for every operand
# of the recorded shape (special.py: views, copies, a gather or dynamic-slice at folded
# indices: np.take or a box's copy)
_NEVER_DECLINE = frozenset({Opcode.TRANSPOSE, Opcode.DYNAMIC_RESHAPE, Opcode.SLICE,
                            Opcode.BROADCAST, Opcode.GATHER, Opcode.DYNAMIC_SLICE})
_READ_AT_FOLDED = frozenset({Opcode.GATHER, Opcode.DYNAMIC_SLICE})   # operand 0 per call


def chained(ops: list, where: list, computation, values: dict) -> tuple[list, list]:
    """(ops, where) with each such pair (see the module docstring) made one op at B's place;
    runs of more than two compose in turn. `values`: the call the spec was made from (each
    composed function is checked to give B's recorded shape from A's recorded operand)."""
    readers: dict = {}
    for inst in computation.instructions:
        for operand in set(inst.operands):
            readers[operand] = readers.get(operand, 0) + 1
    root = computation.root
    out_ops, out_where = [], []
    for op, at in zip(ops, where, strict=True):
        last = out_ops[-1] if out_ops else None
        if last is not None and _joins(last, op, readers, root):
            fa, fb = last[2], op[2]
            x = values.get(last[3])
            if x.__class__ is np.ndarray and x.shape == last[4]:
                composed = _compose(fa, fb)
                got = composed(x)
                if got.__class__ is np.ndarray and got.shape == values[op[1]].shape:
                    out_ops[-1] = (_SPECIAL_ONE, op[1], composed, last[3], last[4])
                    out_where[-1] = at
                    continue
        out_ops.append(op)
        out_where.append(at)
    return out_ops, out_where


def _joins(a: tuple, b: tuple, readers: dict, root) -> bool:
    """Whether op `b` reads only the value of op `a` right before it, no one else reads
    that value, and neither can decline."""
    if a[0] != _SPECIAL_ONE or b[0] != _SPECIAL_ONE or b[3] is not a[1]:
        return False
    inst = a[1]
    return inst is not root and readers.get(inst) == 1 and _never_declines(a) and \
        _never_declines(b)


def _never_declines(op: tuple) -> bool:
    inst = op[1]
    if inst.opcode not in _NEVER_DECLINE:
        return False
    # a gather or dynamic-slice reading its operand per call at folded indices (special
    # _take); at indices read per call its window may reach past the operand
    return inst.opcode not in _READ_AT_FOLDED or op[3] is inst.operands[0]


def _compose(fa, fb):
    def fn(x):
        return fb(fa(x))
    return fn
