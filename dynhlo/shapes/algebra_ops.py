"""The integer operations programs compute sizes with, as size expressions.

What JAX's and TensorFlow's lowerings use between get-dimension-size and set-dimension-size:
truncating division and remainder, sign, compare, and/or/not on booleans, select. Each is
decided from its arguments' ranges where they decide it (a compare of a size with 0), and
JAX's spellings of floor division and modulus (divide, sign, remainder and select, from
jnp.floor_divide and jnp.remainder) fold back into the algebra's floordiv and mod, so a size
JAX computes is the expression XLA's formula gives. Semantics: XLA's for integers (division
truncates toward zero, x / 0 = -1, x % 0 = x); booleans are 0 and 1.
"""

from __future__ import annotations

from .algebra import (INF, ONE, ZERO, Size, add, atom, atom_of, const, floordiv, mod, neg,
                      order, sub)


def trunc_div(a: Size, b: Size) -> Size:
    """a / b rounded toward zero (XLA's integer divide)."""
    if b.is_const and b.value in (1, -1):
        return a if b.value == 1 else neg(a)
    if b.is_const and b.value > 0 and a.lo >= 0:
        return floordiv(a, b.value)
    if a.is_const and b.is_const:
        return const(tdiv_value(a.value, b.value))
    return atom("tdiv", (a, b), -INF, INF)


def trunc_rem(a: Size, b: Size) -> Size:
    """The remainder of trunc_div, with a's sign (XLA's integer remainder)."""
    if b.is_const and b.value in (1, -1):
        return ZERO
    if b.is_const and b.value > 0 and a.lo >= 0:
        return mod(a, b.value)
    if a.is_const and b.is_const:
        return const(trem_value(a.value, b.value))
    if b.is_const and b.value != 0:
        top = abs(b.value) - 1
        return atom("trem", (a, b), 0 if a.lo >= 0 else -top, top if a.hi > 0 else 0)
    return atom("trem", (a, b), -INF, INF)


def sign(a: Size) -> Size:
    """-1, 0 or 1 as a is negative, zero or positive."""
    if a.lo > 0:
        return ONE
    if a.hi < 0:
        return const(-1)
    if a.lo == a.hi == 0:
        return ZERO
    return atom("sign", (a,), -1 if a.lo < 0 else 0, 1 if a.hi > 0 else 0)


_SWAP = {"GT": "LT", "GE": "LE"}


def compare(direction: str, a: Size, b: Size) -> Size:
    """HLO compare (EQ NE LT LE GT GE) as 0 or 1, decided where the ranges decide it."""
    if direction in _SWAP:
        direction, a, b = _SWAP[direction], b, a
    if direction in ("EQ", "NE") and b.is_const and b.value == 0 and _boolean(a):
        return a if direction == "NE" else logical_not(a)   # a pred compared with false
    if direction in ("EQ", "NE") and a.is_const and a.value == 0 and _boolean(b):
        return b if direction == "NE" else logical_not(b)
    d = sub(a, b)
    decided = {"EQ": (d.lo == d.hi == 0, d.lo > 0 or d.hi < 0),
               "NE": (d.lo > 0 or d.hi < 0, d.lo == d.hi == 0),
               "LT": (d.hi < 0, d.lo >= 0), "LE": (d.hi <= 0, d.lo > 0)}.get(direction)
    if decided is None:
        raise ValueError(f"compare direction {direction}")
    if decided[0]:
        return ONE
    if decided[1]:
        return ZERO
    if direction in ("EQ", "NE"):
        a, b = sorted((a, b), key=order)
    return atom("cmp", (direction, a, b), 0, 1)


def _boolean(a: Size) -> bool:
    return a.lo >= 0 and a.hi <= 1


def logical_and(a: Size, b: Size) -> Size:
    """a and b, for booleans (0 or 1)."""
    if a.is_const:
        return b if a.value else ZERO
    if b.is_const:
        return a if b.value else ZERO
    if a is b:
        return a
    return atom("and", tuple(sorted((a, b), key=order)), 0, 1)


def logical_or(a: Size, b: Size) -> Size:
    """a or b, for booleans."""
    if a.is_const:
        return ONE if a.value else b
    if b.is_const:
        return ONE if b.value else a
    if a is b:
        return a
    return atom("or", tuple(sorted((a, b), key=order)), 0, 1)


def logical_not(a: Size) -> Size:
    """not a, for a boolean."""
    if a.is_const:
        return ZERO if a.value else ONE
    inner = atom_of(a)
    if inner is not None and inner.op == "not":
        return inner.args[0]
    return atom("not", (a,), 0, 1)


def select(p: Size, a: Size, b: Size) -> Size:
    """p ? a : b, with JAX's spellings of floor division and modulus folded back:
    `select((sign(x) != sign(k)) & (x % k != 0), x / k - 1, x / k)` is floordiv(x, k) and
    `select((r < 0) != (k < 0) & (r != 0), r + k, r)` with r = x % k is mod(x, k)."""
    if p.is_const:
        return a if p.value else b
    if a is b:
        return a
    folded = _jax_floordiv(p, a, b) or _jax_mod(p, a, b)
    if folded is not None:
        return folded
    return atom("select", (p, a, b), min(a.lo, b.lo), max(a.hi, b.hi))


def _jax_floordiv(p: Size, a: Size, b: Size) -> Size | None:
    node = atom_of(b)
    if node is None or node.op != "tdiv" or a is not sub(b, ONE):
        return None
    x, k = node.args
    if not (k.is_const and k.value > 0):
        return None
    want = logical_and(compare("NE", sign(x), sign(k)),
                       compare("NE", trunc_rem(x, k), ZERO))
    return floordiv(x, k.value) if p is want else None


def _jax_mod(p: Size, a: Size, b: Size) -> Size | None:
    node = atom_of(b)
    if node is None or node.op != "trem":
        return None
    x, k = node.args
    if not (k.is_const and k.value > 0) or a is not add(b, k):
        return None
    want = logical_and(compare("NE", compare("LT", b, ZERO), compare("LT", k, ZERO)),
                       compare("NE", b, ZERO))
    return mod(x, k.value) if p is want else None


def tdiv_value(x: int, y: int) -> int:
    """XLA's integer divide: truncates toward zero; x / 0 is -1."""
    if y == 0:
        return -1
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


def trem_value(x: int, y: int) -> int:
    """XLA's integer remainder: the dividend's sign; x % 0 is x."""
    if y == 0:
        return x
    return x - tdiv_value(x, y) * y
