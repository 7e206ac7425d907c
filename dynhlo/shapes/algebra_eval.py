"""Evaluating size expressions: each node of the DAG once per call, without recursion.

The caller (dynhlo.shapes.sizes.SizeEnv) gives the values of the source atoms (an argument's
dimension, a value the program computed) and keeps the memo for one invocation.
"""

from __future__ import annotations

from typing import Callable, Iterable

from .algebra import INF, SOURCES, Size, broadcast_or_smaller, text
from .algebra_ops import tdiv_value, trem_value


def inputs(node: Size) -> list[Size]:
    """The nodes `node`'s value is computed from (its sources' are the caller's)."""
    if node.op == "lin":
        return [a for mono, _ in node.args[1] for a, _ in mono]
    return [a for a in node.args if isinstance(a, Size)]


def combine(node: Size, values: dict) -> int:
    """The value of a non-source node from its inputs' `values`."""
    op, args = node.op, node.args
    if op == "lin":
        total = args[0]
        for mono, coeff in args[1]:
            term = coeff
            for a, e in mono:
                term *= values[a] ** e
            total += term
        return total
    v = [values[a] if isinstance(a, Size) else a for a in args]
    if op == "atmost":
        if v[0] > v[1]:
            raise node.note(v[0], v[1])
        return v[0]
    if op in ("floordiv", "mod", "exact"):
        if op == "exact" and v[0] % v[1]:
            raise node.note(v[0], v[1])
        return v[0] % v[1] if op == "mod" else v[0] // v[1]
    return _COMBINE[op](*v)


_COMBINE = {
    "add": lambda a, b: a + b, "mul": lambda a, b: a * b, "max": max, "min": min,
    "meet": broadcast_or_smaller,
    "tdiv": tdiv_value, "trem": trem_value, "sign": lambda a: (a > 0) - (a < 0),
    "cmp": lambda d, a, b: int({"EQ": a == b, "NE": a != b, "LT": a < b, "LE": a <= b}[d]),
    "and": lambda a, b: int(bool(a and b)), "or": lambda a, b: int(bool(a or b)),
    "not": lambda a: int(not a), "select": lambda p, a, b: a if p else b,
}


def evaluate(size: Size, leaf: Callable[[Size], int | Size], memo: dict,
             on_meet: Callable[[Size, int, int], None] | None = None) -> int:
    """The value of `size`, each node computed once (kept in `memo`) and no recursion.

    `leaf(node)` gives a source atom's value: an int, or the Size it stands for (a
    dimension whose size was set later) to evaluate in its place. `on_meet(node, x, y)` sees
    the two sizes of each `meet` (to refuse unequal ones where XLA's rule does not run).
    """
    stack, expanded = [size], set()
    while stack:
        node = stack[-1]
        if node in memo:
            stack.pop()
            continue
        if node.op in SOURCES:
            value = leaf(node)
            if isinstance(value, Size):
                if value not in memo:
                    if node in expanded:
                        raise SelfReference(f"size {text(node)} is computed from itself")
                    expanded.add(node)
                    stack.append(value)
                    continue
                value = memo[value]
            memo[node] = value
            stack.pop()
            continue
        missing = [a for a in inputs(node) if a not in memo]
        if missing:
            if node in expanded:
                raise SelfReference(f"size {text(node)} is computed from itself")
            expanded.add(node)
            stack.extend(missing)
            continue
        if node.op == "meet" and on_meet is not None:
            on_meet(node, memo[node.args[0]], memo[node.args[1]])
        memo[node] = combine(node, memo)
        stack.pop()
    return memo[size]


class SelfReference(ValueError):
    """A size whose evaluation needs its own value (no rule builds one)."""


def walk(size: Size) -> Iterable[Size]:
    """Every node of the DAG under `size`, once each (sources included, not looked into)."""
    stack, seen = [size], {size}
    while stack:
        node = stack.pop()
        yield node
        for child in inputs(node):
            if child not in seen:
                seen.add(child)
                stack.append(child)


# The most values of one argument size at which `largest` computes an expression.
RANGE_POINTS = 1 << 14


def largest(size: Size) -> int | None:
    """The largest value of `size` over every value of the one argument dimension it reads
    (all of them computed at once, as NumPy arrays), or None where it reads none, several or
    another source, or that dimension has more than RANGE_POINTS values. An exact bound:
    a property of the function, not of how it was written (intervals are not)."""
    import numpy as np
    nodes = list(walk(size))
    sources = [n for n in nodes if n.op in SOURCES]
    if len(sources) != 1 or sources[0].op != "param" or sources[0].hi == INF \
            or sources[0].hi - sources[0].lo + 1 > RANGE_POINTS:
        return None
    (source,) = sources
    values = {source: np.arange(int(source.lo), int(source.hi) + 1, dtype=np.int64)}
    if any(n.op not in _ARRAYS for n in nodes if n is not source):
        return None
    stack = [size]
    while stack:   # inputs first, each node once, no recursion
        node = stack[-1]
        missing = [a for a in inputs(node) if a not in values]
        if missing:
            stack.extend(missing)
            continue
        if node not in values:
            v = [values[a] if isinstance(a, Size) else a for a in node.args]
            values[node] = _ARRAYS[node.op](node, v, values, np)
        stack.pop()
    return int(np.max(values[size]))


def _lin_array(node, v, values, np):
    total = node.args[0]
    for mono, coeff in node.args[1]:
        term = coeff
        for a, e in mono:
            term = term * values[a] ** e
        total = total + term
    return total


def _tdiv_array(a, b, np):
    q = np.abs(a) // np.where(b == 0, 1, np.abs(b))
    return np.where(b == 0, -1, np.where((a < 0) == (b < 0), q, -q))


_ARRAYS = {
    "lin": _lin_array,
    "floordiv": lambda node, v, values, np: v[0] // v[1],
    "mod": lambda node, v, values, np: v[0] % v[1],
    "atmost": lambda node, v, values, np: np.minimum(v[0], v[1]),
    "max": lambda node, v, values, np: np.maximum.reduce(np.broadcast_arrays(*v)),
    "min": lambda node, v, values, np: np.minimum.reduce(np.broadcast_arrays(*v)),
    "tdiv": lambda node, v, values, np: _tdiv_array(v[0], v[1], np),
    "trem": lambda node, v, values, np: np.where(
        v[1] == 0, v[0], v[0] - v[1] * _tdiv_array(v[0], v[1], np)),
    "sign": lambda node, v, values, np: np.sign(v[0]),
    "meet": lambda node, v, values, np: np.where(np.minimum(v[0], v[1]) == 1,
                                                  np.maximum(v[0], v[1]),
                                                  np.minimum(v[0], v[1])),
    "select": lambda node, v, values, np: np.where(np.asarray(v[0]) != 0, v[1], v[2]),
}
