"""Integer size expressions: what a StableHLO shape computation computes, symbolically.

JAX's shape-polymorphic exports compute sizes at run time (`get_dimension_size`, then integer
arithmetic, then a shape tensor fed to `dynamic_broadcast_in_dim` and friends). The importer
follows those computations with expressions over the entry parameters' dimension sizes, so it
can (1) give each dynamic result dimension a bound (the expression's upper end over the
parameters' ranges) and (2) check `shape_assertion`s from the argument shapes before a call.

An expression is a tuple: `("c", v)` a constant, `("dim", p, d, lo, hi)` the size of dimension
d of entry parameter p, `("size", name, d, lo, hi)` the size of an intermediate, or
`(op, *args)` for op in OPS. Integer semantics are StableHLO's i64 (division truncates toward
zero, the remainder has the dividend's sign). The evaluator (`evaluate`, `OPS`) lives with the
assertions that modules carry, in dynhlo.hlo.shape_assertions; this module builds and bounds.
"""

from __future__ import annotations

import math

from ...hlo.shape_assertions import apply, evaluate  # the evaluator, shared

INF = math.inf

# The most elements of an integer tensor whose elements the importer follows as expressions
# (ops.tracks). A shape tensor has one element per result dimension (a padding
# tensor two), so this is the largest rank whose dynamic sizes it can bound: 256, far past
# any real program's, at a cost linear in it per integer op (it was 16, which refused a
# 17-dimensional dynamic broadcast as "computed from data").
MAX_TRACKED_ELEMENTS = 256


def const(v: int) -> tuple:
    return ("c", int(v))


def interval(expr: tuple) -> tuple[float, float]:
    """(lo, hi) containing every value `expr` takes over the parameters' ranges."""
    kind = expr[0]
    if kind == "c":
        return expr[1], expr[1]
    if kind in ("dim", "size"):
        return expr[3], expr[4]
    args = [interval(a) for a in expr[1:]]
    rule = _INTERVALS.get(kind)
    if rule is None:
        return (0, 1) if kind.startswith("cmp") else (-INF, INF)
    return rule(*args)


def _mul(a, b):
    corners = [x * y if x and y else 0 for x in a for y in b]
    return min(corners), max(corners)


def _div(a, b):
    """StableHLO's division truncates toward zero: a non-decreasing function of the real
    quotient, whose extremes over the ranges lie at their corners, so the truncated corners
    are the exact range (rounding them outwards made JAX's `(l - 3) // 2 + 1` one larger
    than its largest value, a bound that the same size computed by XLA's rule never meets)."""
    if b[0] <= 0 <= b[1]:
        return -INF, INF
    corners = [_quotient(x, y) for x in a for y in b]
    return min(corners), max(corners)


def _quotient(x, y):
    if abs(x) == INF or abs(y) == INF:
        return 0 if abs(x) == INF and abs(y) == INF else x / y
    q = abs(int(x)) // abs(int(y))
    return q if (x < 0) == (y < 0) else -q


def _rem(a, b):
    if b[0] <= 0:
        return -INF, INF
    top = b[1] - 1
    lo = 0 if a[0] >= 0 else -top
    hi = min(top, a[1]) if a[0] >= 0 else top
    return lo, hi


def _select(c, a, b):
    if c[0] == c[1]:
        return a if c[0] else b
    return min(a[0], b[0]), max(a[1], b[1])


def _bitand(a, b):
    return (0, min(a[1], b[1])) if a[0] >= 0 and b[0] >= 0 else (-INF, INF)


_INTERVALS = {
    "add": lambda a, b: (a[0] + b[0], a[1] + b[1]),
    "sub": lambda a, b: (a[0] - b[1], a[1] - b[0]),
    "mul": _mul, "div": _div, "rem": _rem,
    "max": lambda a, b: (max(a[0], b[0]), max(a[1], b[1])),
    "min": lambda a, b: (min(a[0], b[0]), min(a[1], b[1])),
    "neg": lambda a: (-a[1], -a[0]),
    "abs": lambda a: (0 if a[0] <= 0 <= a[1] else min(abs(a[0]), abs(a[1])),
                      max(abs(a[0]), abs(a[1]))),
    "sign": lambda a: (-1 if a[0] < 0 else (0 if a[0] == 0 else 1),
                       1 if a[1] > 0 else (0 if a[1] == 0 else -1)),
    "select": _select, "and": _bitand,
    "not1": lambda a: (1 - a[1], 1 - a[0]),
}


def upper_bound(expr: tuple) -> int | None:
    """The largest value `expr` can take (clamped at 0), or None when it is unbounded.

    Over one argument size of at most RANGE_POINTS values, the exact largest value (every
    value computed): the bound of a size is then a property of the function, not of how it
    was written, so two spellings of one size (JAX's shape expression for a SAME window's
    output and the window formula over its padding) get one bound, as the HLO verifier wants
    of two operands of one shape; and a size whose interval is open (`ceil(10 / b)`, a
    select over JAX's floor division) still gets its bound. Otherwise the interval's upper
    end."""
    hi = interval(expr)[1]
    values = over_range([expr]) if expr[0] not in ("c", "dim") else None
    if values is not None and len(values[0]):
        hi = min(hi, int(values[0].max()))
    if hi == INF:
        return None
    return max(0, int(hi))


# The most values of one argument size over which a size expression is computed at each
# value (an exact bound) instead of bounded by intervals.
RANGE_POINTS = 1 << 14


def over_range(exprs: list[tuple]) -> list | None:
    """The values of `exprs` at every size of the one argument dimension they read (numpy
    arrays, one entry per size lo..hi), or None where they read none, several or an
    intermediate's size, the range has more than RANGE_POINTS values, or a division by
    zero or an op without an array form occurs."""
    import numpy as np
    dims: set = set()
    for e in exprs:
        if not _plain(e, dims):
            return None
    if len(dims) != 1:
        return None
    (key, lo, hi), = dims
    if hi == INF or hi - lo + 1 > RANGE_POINTS:
        return None
    points = np.arange(lo, hi + 1, dtype=np.int64)
    memo: dict = {}
    try:
        return [_array(e, points, memo, np) for e in exprs]
    except _NoArray:
        return None


def _plain(expr: tuple, dims: set, seen: set | None = None) -> bool:
    """True when `expr` reads argument dims only (collected into `dims` with their ranges)."""
    seen = set() if seen is None else seen
    if id(expr) in seen:
        return True
    seen.add(id(expr))
    kind = expr[0]
    if kind == "c":
        return True
    if kind == "dim":
        dims.add(((expr[1], expr[2]), expr[3], expr[4]))
        return True
    if kind == "size" or kind not in _ARRAY_OPS:
        return False
    return all(_plain(a, dims, seen) for a in expr[1:])


class _NoArray(Exception):
    pass


def _tdiv_array(a, b, np):
    if (b == 0).any():
        raise _NoArray
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) == (b < 0), q, -q)


_ARRAY_OPS = {
    "add": lambda np, a, b: a + b, "sub": lambda np, a, b: a - b,
    "mul": lambda np, a, b: a * b,
    "div": lambda np, a, b: _tdiv_array(a, b, np),
    "rem": lambda np, a, b: a - b * _tdiv_array(a, b, np),
    "max": lambda np, a, b: np.maximum(a, b), "min": lambda np, a, b: np.minimum(a, b),
    "neg": lambda np, a: -a, "abs": lambda np, a: np.abs(a), "sign": lambda np, a: np.sign(a),
    "select": lambda np, c, a, b: np.where(c != 0, a, b),
    "and": lambda np, a, b: a & b, "or": lambda np, a, b: a | b,
    "xor": lambda np, a, b: a ^ b, "not1": lambda np, a: 1 - a,
    "cmpEQ": lambda np, a, b: (a == b).astype(np.int64),
    "cmpNE": lambda np, a, b: (a != b).astype(np.int64),
    "cmpLT": lambda np, a, b: (a < b).astype(np.int64),
    "cmpLE": lambda np, a, b: (a <= b).astype(np.int64),
    "cmpGT": lambda np, a, b: (a > b).astype(np.int64),
    "cmpGE": lambda np, a, b: (a >= b).astype(np.int64),
}


def _array(expr: tuple, points, memo: dict, np):
    """`expr` at every point (arrays of int64), each shared node computed once."""
    found = memo.get(id(expr))
    if found is not None:
        return found[1]
    kind = expr[0]
    if kind == "c":
        out = np.full(points.shape, expr[1], dtype=np.int64)
    elif kind == "dim":
        out = points
    else:
        out = _ARRAY_OPS[kind](np, *(_array(a, points, memo, np) for a in expr[1:]))
    memo[id(expr)] = (expr, out)   # the node kept alive: its id stays its own
    return out


def fold(op: str, *args: tuple) -> tuple:
    """`(op, *args)`, computed at once when every argument is a constant."""
    if all(a[0] == "c" for a in args):
        value = apply(op, [a[1] for a in args])
        if value is not None:
            return const(value)
    return (op, *args)


def same_function(a: tuple, b: tuple, samples: list[dict]) -> bool:
    """True when `a` and `b` agree on every sample assignment of sizes (a cheap equality)."""
    return all(evaluate(a, s) == evaluate(b, s) for s in samples)


def params_of(expr: tuple, out: set | None = None) -> set:
    """The (param, dim) pairs an expression reads."""
    out = set() if out is None else out
    if expr[0] == "dim":
        out.add((expr[1], expr[2]))
    elif expr[0] not in ("c", "size"):
        for a in expr[1:]:
            params_of(a, out)
    return out
