"""Canonical size expressions: the one algebra dynamic dimension inference computes sizes in.

A `Size` is a sum of products of atoms with integer coefficients plus a constant, JAX's
`_DimExpr` normal form. Atoms are where run-time sizes come from (an argument's dimension,
a value a program computes, a result read off) and the operations a polynomial cannot hold:
floordiv and mod by a constant (normalised: multiples pulled out, gcds divided out, so XLA's
`ceil((n - k + 1 + pads) / s)` and JAX's `(n - k + pads) // s + 1` are one expression), min
and max (flattened, dominated arguments dropped), XLA's broadcast-or-smaller `meet`, and the
integer operations a program computes sizes with (algebra_ops: truncating division, compare,
select; they fold into floordiv and mod where JAX's lowering spells them out).

Sizes are interned: building an expression equal to one already built gives that object, so
equal sizes compare by identity and an expression refers to its parts, never copies them. A
module of N instructions builds O(N) nodes; evaluation (algebra_eval) walks the DAG without
recursion and computes each node once; printing (`text`) stops at a budget.

Every Size knows a range [lo, hi] containing its values (atoms: their sources' ranges), which
decides the simplifications (a max whose argument is never below the others, a floordiv of a
value in [0, k)). May assume: atoms are built by dynhlo.shapes.sizes, which knows the sources.
"""

from __future__ import annotations

import itertools
import math
import weakref
from typing import Callable, Iterable

INF = math.inf
# Past this many terms a sum or product stays a node over its parts instead of being
# flattened, so a chain of sizes of distinct sources costs O(1) per link, not O(link).
MAX_TERMS = 32

_seq = itertools.count()
_TABLE: "weakref.WeakValueDictionary[tuple, Size]" = weakref.WeakValueDictionary()


class Size:
    """One interned expression node. `op` is "lin" (a polynomial: args = (constant,
    ((monomial, coefficient), ...)), a monomial a tuple of (atom, exponent)) or an atom's
    operation; `lo`/`hi` bound its values; `note` is what error messages and printing use,
    kept from the first build (it is not part of the identity)."""

    __slots__ = ("op", "args", "lo", "hi", "seq", "note", "data", "syms", "reads",
                 "__weakref__")

    def __repr__(self) -> str:
        return text(self)

    __str__ = __repr__

    @property
    def is_const(self) -> bool:
        return self.op == "lin" and not self.args[1]

    @property
    def value(self) -> int:
        """The constant's value (only for is_const)."""
        return self.args[0]


def _node(op: str, args: tuple, lo, hi, note=None, flags=(False, False, False)) -> Size:
    """The interned node (op, args); `flags`: (data, syms, reads), see _atom."""
    key = (op, args)
    node = _TABLE.get(key)
    if node is None:
        node = Size()
        node.op, node.args, node.lo, node.hi, node.note = op, args, lo, hi, note
        node.seq = next(_seq)
        node.data, node.syms, node.reads = flags
        _TABLE[key] = node
    return node


# --- polynomials ----------------------------------------------------------------------------

def _lin(const: int, terms: dict) -> Size:
    """The polynomial const + sum(coefficient * monomial) (zero coefficients dropped)."""
    items = tuple(sorted(((m, c) for m, c in terms.items() if c),
                         key=lambda mc: tuple((a.seq, e) for a, e in mc[0])))
    lo = hi = const
    for mono, coeff in items:
        clo, chi = _mul_range(_mono_range(mono), (coeff, coeff))
        lo, hi = lo + clo, hi + chi
    return _node("lin", (const, items), lo, hi,
                 flags=_flags(a for mono, _ in items for a, _ in mono))


def _flags(parts) -> tuple[bool, bool, bool]:
    """(data, syms, reads) of a node over `parts`: whether anything under it is a value
    read from the program's data ("scalar"), a dimension whose size may be set later
    ("sym"), or read off a computed value (an instruction it waits on)."""
    data = syms = reads = False
    for p in parts:
        data, syms, reads = data or p.data, syms or p.syms, reads or p.reads
    return data, syms, reads


def const(value: int) -> Size:
    """The constant `value`."""
    return _lin(int(value), {})


ZERO, ONE = const(0), const(1)


def atom(op: str, args: tuple, lo, hi, note=None, flags=None) -> Size:
    """The polynomial 1 * (the atom `op`(args), its values in [lo, hi]): what every
    constructor of an operation returns (algebra_ops builds the integer operations' atoms)."""
    if flags is None:
        flags = _flags(a for a in args if isinstance(a, Size))
    return _lin(0, {((_node(op, args, lo, hi, note, flags), 1),): 1})


def atom_of(size: Size) -> Size | None:
    """The atom node when `size` is exactly one atom (1 * atom + 0), else None."""
    const_, terms = size.args
    if const_ == 0 and len(terms) == 1:
        (mono, coeff), = terms
        if coeff == 1 and len(mono) == 1 and mono[0][1] == 1:
            return mono[0][0]
    return None


def source(op: str, key: tuple, lo, hi, note=None) -> Size:
    """A source atom (one of SOURCES; its evaluation is the caller's), identified by `key`,
    its values in [lo, hi]; `note` is kept from the first build (names for messages)."""
    flags = (op == "scalar", op == "sym", op in ("value", "result", "scalar"))
    return atom(op, key, lo, hi, note, flags)


def add(*sizes: Size) -> Size:
    """The sum (terms of one monomial merged; past MAX_TERMS a node over the parts)."""
    out = sizes[0] if sizes else ZERO
    for size in sizes[1:]:
        out = _add2(out, size)
    return out


def _add2(a: Size, b: Size) -> Size:
    if a.is_const and b.is_const:
        return const(a.value + b.value)
    if len(a.args[1]) + len(b.args[1]) > MAX_TERMS and not (a.is_const or b.is_const):
        return atom("add", tuple(sorted((a, b), key=order)), a.lo + b.lo, a.hi + b.hi)
    terms = dict(a.args[1])
    for mono, coeff in b.args[1]:
        terms[mono] = terms.get(mono, 0) + coeff
    return _lin(a.args[0] + b.args[0], terms)


def scale(a: Size, k: int) -> Size:
    """k * a for an int k."""
    if k == 1:
        return a
    return _lin(a.args[0] * k, {m: c * k for m, c in a.args[1]})


def neg(a: Size) -> Size:
    """-a."""
    return scale(a, -1)


def sub(a: Size, b: Size) -> Size:
    """a - b."""
    return add(a, neg(b))


def mul(a: Size, b: Size) -> Size:
    """The product, multiplied out (past MAX_TERMS a node over the parts)."""
    if a.is_const:
        return scale(b, a.value)
    if b.is_const:
        return scale(a, b.value)
    if (len(a.args[1]) + 1) * (len(b.args[1]) + 1) > MAX_TERMS:
        return atom("mul", tuple(sorted((a, b), key=order)), *_mul_range((a.lo, a.hi),
                                                                            (b.lo, b.hi)))
    terms: dict = {}
    for ma, ca in ((((), a.args[0]),) + a.args[1]):
        for mb, cb in ((((), b.args[0]),) + b.args[1]):
            mono = _mono_mul(ma, mb)
            terms[mono] = terms.get(mono, 0) + ca * cb
    return _lin(terms.pop((), 0), terms)


def _mono_mul(a: tuple, b: tuple) -> tuple:
    exps = dict(a)
    for atom, e in b:
        exps[atom] = exps.get(atom, 0) + e
    return tuple(sorted(exps.items(), key=lambda ae: ae[0].seq))


def order(size: Size):
    """The canonical order of a commutative operation's arguments: when each was built."""
    return size.seq


# --- floordiv, mod, exact division ---------------------------------------------------------

def floordiv(a: Size, k: int) -> Size:
    """floor(a / k) for a constant k >= 1, normalised: coefficients and the constant reduced
    modulo k (the quotients pulled out), gcd(coefficients, k) divided out."""
    if k < 1:
        raise ValueError(f"floordiv by {k}")
    a, k = _divide_gcd(a, k)
    if k == 1:
        return a
    if a.is_const:
        return const(a.value // k)
    whole, rest = _split(a, k)
    if rest.lo >= 0 and rest.hi < k:
        return whole
    return add(whole, atom("floordiv", (rest, k), _floor(rest.lo, k), _floor(rest.hi, k)))


def ceildiv(a: Size, k: int) -> Size:
    """ceil(a / k) = floor((a + k - 1) / k)."""
    return floordiv(add(a, const(k - 1)), k)


def mod(a: Size, k: int) -> Size:
    """a mod k (in [0, k)) for a constant k >= 1, normalised as floordiv."""
    if k < 1:
        raise ValueError(f"mod by {k}")
    g = math.gcd(k, a.args[0], *(c for _, c in a.args[1]))
    if g > 1:
        return scale(mod(_exact_scale(a, g), k // g), g)
    if k == 1:
        return ZERO
    if a.is_const:
        return const(a.value % k)
    _, rest = _split(a, k)
    if rest.lo >= 0 and rest.hi < k:
        return rest
    return atom("mod", (rest, k), 0, k - 1)


def exact_div(a: Size, k: int, fail: Callable[[int, int], Exception]) -> Size:
    """a / k where the division must be exact: the quotient when it provably is, else a node
    whose evaluation raises `fail(a, k)` for a value of `a` that k does not divide."""
    if k < 1:
        raise ValueError(f"division by {k}")
    if k == 1:
        return a
    if a.args[0] % k == 0 and all(c % k == 0 for _, c in a.args[1]):
        return _exact_scale(a, k)
    return atom("exact", (a, k), _ceil(a.lo, k), _floor(a.hi, k), note=fail)


def at_most(a: Size, bound: int, fail: Callable[[int, int], Exception]) -> Size:
    """a where a <= bound: `a` itself when its range proves it, else a node whose evaluation
    raises `fail(a, bound)` for a larger value (a size a program declares a bound for that
    inference cannot prove: XLA's kRuntime check)."""
    if a.hi <= bound:
        return a
    return atom("atmost", (a, bound), a.lo, bound, note=fail)


def _divide_gcd(a: Size, k: int) -> tuple[Size, int]:
    g = math.gcd(k, a.args[0], *(c for _, c in a.args[1]))
    return (_exact_scale(a, g), k // g) if g > 1 else (a, k)


def _exact_scale(a: Size, g: int) -> Size:
    return _lin(a.args[0] // g, {m: c // g for m, c in a.args[1]})


def _split(a: Size, k: int) -> tuple[Size, Size]:
    """(whole, rest) with a = k * whole + rest, rest's coefficients and constant in [0, k)."""
    q, r = divmod(a.args[0], k)
    whole, rest = {}, {}
    for mono, coeff in a.args[1]:
        qc, rc = divmod(coeff, k)
        whole[mono], rest[mono] = qc, rc
    return _lin(q, whole), _lin(r, rest)


def _floor(x, k: int):
    return x if x in (INF, -INF) else x // k


def _ceil(x, k: int):
    return x if x in (INF, -INF) else -(-x // k)


# --- min, max, meet -------------------------------------------------------------------------

def maximum(*sizes: Size) -> Size:
    """The largest of `sizes`: nested maxima flattened, arguments never the largest dropped."""
    return _extremum("max", sizes)


def minimum(*sizes: Size) -> Size:
    """The smallest of `sizes` (as maximum)."""
    return _extremum("min", sizes)


def clamp(a: Size, lo: Size | int, hi: Size | int | None) -> Size:
    """min(hi, max(lo, a)); hi None: no upper clamp."""
    out = maximum(_as(lo), a)
    return out if hi is None else minimum(_as(hi), out)


def _extremum(op: str, sizes: Iterable[Size]) -> Size:
    args: list[Size] = []
    for size in sizes:
        inner, shift = _shifted(size)
        if inner is not None and inner.op == op:   # max(a, max(b, c) + k) = max(a, b+k, c+k)
            args.extend(add(x, const(shift)) if shift else x for x in inner.args)
        else:
            args.append(size)
    keep: list[Size] = []
    for x in dict.fromkeys(args):   # in order, once each
        if any(_dominates(op, y, x) for y in keep):
            continue
        keep = [y for y in keep if not _dominates(op, x, y)] + [x]
    if len(keep) == 1:
        return keep[0]
    keep.sort(key=order)
    pick = max if op == "max" else min
    return atom(op, tuple(keep), pick(x.lo for x in keep), pick(x.hi for x in keep))


def _shifted(size: Size) -> tuple[Size | None, int]:
    """(atom, k) when `size` is atom + k, else (None, 0)."""
    const_, terms = size.args
    if len(terms) == 1:
        (mono, coeff), = terms
        if coeff == 1 and len(mono) == 1 and mono[0][1] == 1:
            return mono[0][0], const_
    return None, 0


def _dominates(op: str, x: Size, y: Size) -> bool:
    """x makes y redundant in max (x >= y always) or in min (x <= y always)."""
    if op == "max":
        return x.lo >= y.hi or sub(x, y).lo >= 0
    return x.hi <= y.lo or sub(x, y).hi <= 0


def meet(a: Size, b: Size, where: str | None = None) -> Size:
    """XLA's size where two operand sizes meet elementwise: 1 broadcasts, else the smaller
    (evaluated as `broadcast_or_smaller`); `where` names the instruction for errors."""
    if a is b:
        return a
    x, y = sorted((a, b), key=order)
    return atom("meet", (x, y), min(x.lo, y.lo), max(x.hi, y.hi), note=where)


def broadcast_or_smaller(x: int, y: int) -> int:
    """XLA's result size for operand sizes x, y: 1 broadcasts, else the smaller."""
    small, large = min(x, y), max(x, y)
    return large if small == 1 else small


def _as(x) -> Size:
    return x if isinstance(x, Size) else const(x)


# --- ranges ---------------------------------------------------------------------------------

def _mul_range(a: tuple, b: tuple) -> tuple:
    corners = [x * y if x and y else 0 for x in a for y in b]
    return min(corners), max(corners)


def _mono_range(mono: tuple) -> tuple:
    lo = hi = 1
    for atom, e in mono:
        r = (atom.lo, atom.hi)
        for _ in range(e):
            lo, hi = _mul_range((lo, hi), r)
    return lo, hi


# The atoms whose values come from outside the algebra (dynhlo.shapes.sizes evaluates them).
SOURCES = frozenset({"param", "value", "result", "sym", "scalar"})


# --- printing -------------------------------------------------------------------------------

BUDGET = 120


def text(size: Size, budget: int = BUDGET,
         name: Callable[[Size], "str | Size"] | None = None) -> str:
    """`size` as text (`x.0*3+1`, `max(0,(l+1)//2-1)`), cut at about `budget` characters
    with `…` where the rest would be; `name(source)` is a source atom's text, or the Size
    to print in its place."""
    out: list[str] = []
    _write(size, out, [budget], name or _source_name, 0)
    return "".join(out)


def _write(size: Size, out: list, left: list, name, depth: int) -> None:
    if left[0] <= 0 or depth > 64:
        left[0] = 0
        _put(out, left, "")   # past the budget: the marker, once
        return
    if size.op == "lin":
        _write_lin(size, out, left, name, depth)
        return
    op, args = size.op, size.args
    if op in SOURCES:
        named = name(size)
        if isinstance(named, Size):
            _write(named, out, left, name, depth + 1)
        else:
            _put(out, left, named)
    elif op in ("floordiv", "mod", "exact"):
        _write_operand(args[0], out, left, name, depth)
        _put(out, left, {"floordiv": "//", "mod": "%", "exact": "/"}[op] + str(args[1]))
    elif op == "atmost":   # the size itself: its bound is a check, not a value
        _write(args[0], out, left, name, depth + 1)
    else:
        _put(out, left, op + "(")
        for k, a in enumerate(args):
            if k:
                _put(out, left, ",")
            if isinstance(a, Size):
                _write(a, out, left, name, depth + 1)
            else:
                _put(out, left, str(a))
        _put(out, left, ")")


def _write_operand(size: Size, out, left, name, depth) -> None:
    terms = size.args[1] if size.op == "lin" else ()
    simple = size.op != "lin" or size.is_const or (
        size.args[0] == 0 and len(terms) == 1 and terms[0][1] > 0)   # x.0*3/2 is (x.0*3)/2
    if not simple:
        _put(out, left, "(")
    _write(size, out, left, name, depth + 1)
    if not simple:
        _put(out, left, ")")


def _write_lin(size: Size, out, left, name, depth) -> None:
    const_, terms = size.args
    for k, (mono, coeff) in enumerate(terms):
        if coeff < 0:
            _put(out, left, "-")
        elif k:
            _put(out, left, "+")
        for j, (a, e) in enumerate(mono):
            if j:
                _put(out, left, "*")
            _write(a, out, left, name, depth + 1)
            if e > 1:
                _put(out, left, f"^{e}")
        if abs(coeff) != 1:
            _put(out, left, f"*{abs(coeff)}")
    if const_ or not terms:
        _put(out, left, f"+{const_}" if terms and const_ > 0 else str(const_))


def _put(out: list, left: list, piece: str) -> None:
    """Write `piece` within the budget; past it only one `…` (and nothing after it)."""
    if left[0] <= 0:
        if not out or out[-1] != "…":
            out.append("…")
        return
    out.append(piece)
    left[0] -= len(piece)


def _source_name(node: Size) -> str:
    return f"{node.op}{node.args}"
