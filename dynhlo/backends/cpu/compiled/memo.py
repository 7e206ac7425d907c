"""Values of a loop body made of its counter, kept per counter value (fast.Fast).

A body's spec folds what is the same at every call of its key (folding.py, pinned elements
included: loops.py). A value made of the loop's counter as well — JAX's dynamic_index_in_dim
writes a clamped start vector and the index arrays of the row it reads, ~10 steps of small
integer arrays per iteration — changes from iteration to iteration but runs through the same
few values at every call (the counter counts 0, 1, ... again). `memoized` picks those steps
out of a spec's ops: small integer values computed, by kernels, specialized lowerings or
reshapes, only from folded values, pinned elements and the integer scalar elements of the
body's parameter that are not pinned (the counters), read before the first of them. It
wraps them: a call whose counters' values were seen before takes their values from the
`Memo` and skips their steps; another runs them and keeps copies (the state's arrays are
the caller's). A value the root may return (the caller's to write) is never kept. A guard
after a kept step (a size read off it) is skipped with it: the memo keeps only values of
calls that ran past their guards (a mismatch hands the call to the steps before the store),
so what it gives passed them against the same recorded values.
"""

from __future__ import annotations

import numpy as np

_MAX_ELEMENTS = 64   # the largest value kept (shape vectors, index arrays)
_KEYS = 1024         # counter values a memo keeps (full: it starts over)


class Memo(dict):
    """{counter values: {instruction: value}}, at most _KEYS of them."""

    __slots__ = ()

    def keep(self, key: tuple, made: dict) -> None:
        if len(self) >= _KEYS:
            self.clear()
        kept = self[key] = {inst: np.array(value, copy=True) for inst, value in made.items()}
        for value in kept.values():   # (read by later calls: nothing may write them)
            value.flags.writeable = False


def _small_integers(value) -> bool:
    return value.__class__ is np.ndarray and value.dtype.kind in "iub" and \
        value.size <= _MAX_ELEMENTS


def _integer_scalar(value) -> bool:
    return isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) == 0 and \
        value.dtype.kind in "iu"


def _may_share(value, arrays: list) -> bool:
    return any(np.may_share_memory(value, a) for a in arrays)


def memoized(ops: list, where: list, values: dict, folded: dict, pinned: frozenset,
             returned: list, kinds: dict) -> tuple[list, list]:
    """(ops, where) with the steps made of the counters wrapped (see the module docstring):
    a load before the first (`kinds["load"]`: its memo and counters), each of them as
    `(kinds["memoized"], inst, its op)` (so is each guard of one of them in between,
    `kinds["guard"]`), a store after the last (the instructions kept).
    `values`: the call the spec was made from; `returned`: the arrays its root returned;
    `kinds`: the runner's op kinds ("element", "load", "store", "memoized") and `reads`,
    {kind: op -> the instructions it reads per call} for the kinds that may be kept."""
    reads = kinds["reads"]
    counters: list = []
    chosen: list = []   # op positions
    made: set = set()
    for n, op in enumerate(ops):
        kind, inst = op[0], op[1]
        if kind == kinds["element"]:
            if not chosen and inst not in pinned and _integer_scalar(values.get(inst)):
                counters.append(inst)
            continue
        read = reads.get(kind)
        if read is None or not counters:
            continue
        value = values.get(inst)
        if not _small_integers(value) or _may_share(value, returned):
            continue
        sources = read(op)
        if all(s in made or s in folded or s in pinned or s in counters for s in sources) \
                and any(s in made or s in counters for s in sources):
            chosen.append(n)
            made.add(inst)
    if len(chosen) < 2:   # (one step: a load and a store cost as much)
        return ops, where
    kept = [ops[n][1] for n in chosen]
    memo = Memo()
    out_ops, out_where = [], []
    first, last = chosen[0], chosen[-1]
    guards = {n for n in range(first, last) if ops[n][0] == kinds["guard"] and ops[n][1] in made}
    wrapped = frozenset(chosen) | guards
    for n, op in enumerate(ops):
        if n == first:
            out_ops.append((kinds["load"], op[1], memo, tuple(counters)))
            out_where.append(where[n])
        out_ops.append((kinds["memoized"], op[1], op) if n in wrapped else op)
        out_where.append(where[n])
        if n == last:
            out_ops.append((kinds["store"], op[1], memo, tuple(kept)))
            out_where.append(where[n] + 1)
    return out_ops, out_where
