"""Size getters: where each size of a graph program comes from, per call, on the host.

A getter is one of
- an int: a static size;
- (input, dimension): a dimension of an argument's actual shape (an entry parameter's, or
  for a segment one of the values it reads: segments.py);
- a SizeExpr: a size the program computes from such dimensions (from_torch's `n + 1`,
  `n * k`, a window's `(n - k) // s + 1`): an expression of the size algebra
  (shapes/algebra.py) whose every source is an argument dimension. The runner evaluates it
  on the host per call (algebra_eval, XLA's rules for `meet`) before filling the size
  buffer, as it reads an argument's dimension.

A size read from a value at run time (a set-dimension-size of computed data, a loop's
result) has no getter: the graph needs the host there (plan.GraphRefusal). A dimension no
size reaches (a broadcast of a constant never met) runs at its bound, as on the plain path.

Getters are compared with `==` (equal expressions are one interned Size, so equal
SizeExprs are equal) and hashed (the runner keeps one value per distinct getter).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ....errors import DynamicSizeError
from ....shapes import algebra, algebra_eval
from ....shapes.sizes import Sym, size_key

_MAX_SIZE = 2**31 - 1   # the size buffer is int32


@dataclass(frozen=True)
class SizeExpr:
    """`size` (an interned algebra.Size) over source atoms `leaves`: ((param atom node,
    (input, dimension)), ...) in a fixed order. `bound`: the largest value the buffers
    were planned for (not part of the identity: one expression is one size)."""

    size: algebra.Size
    leaves: tuple
    bound: int = field(default=-1, compare=False)
    where: dict = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "where", dict(self.leaves))

    def value(self, shapes, memo: dict | None = None) -> int:
        """The size at the arguments' actual `shapes` (`memo`: shared by the expressions
        of one call); DynamicSizeError when it falls outside [0, bound] (a static buffer
        planned at the bound would overflow) or a size check in it fails."""
        where = self.where

        def leaf(node):
            if node.op == "param":
                i, d = where[node]
                return shapes[i][d]
            root = node.args[0].root()   # "sym": a dimension sized elsewhere, or free
            return root.bound if root.expr is None else root.expr

        try:
            out = algebra_eval.evaluate(self.size, leaf, {} if memo is None else memo)
        except algebra_eval.SelfReference as exc:
            raise DynamicSizeError(str(exc)) from None
        hi = self.bound if self.bound >= 0 else _MAX_SIZE
        if not 0 <= out <= hi:
            raise DynamicSizeError(f"size {algebra.text(self.size, name=_leaf_name)} is "
                                   f"{out} at argument shapes {list(map(tuple, shapes))}, "
                                   f"outside 0..{hi}")
        return out

    def __repr__(self) -> str:
        return f"SizeExpr({algebra.text(self.size, name=_leaf_name)})"


def _leaf_name(node) -> str:
    if node.op == "param":
        return f"p{node.args[0]}.{node.args[1]}"
    return f"{node.op}?"


def getter_of(dim, leaf):
    """The getter of dimension `dim`: its bound where nothing sizes it (as the plain path
    runs it); a SizeExpr where its size is computed from argument dimensions that `leaf`
    places (`leaf(size)`: an int or (input, dimension), else None); else `leaf(dim)`;
    None where none of these (a size read from a value at run time, or a dimension of an
    argument `leaf` does not place).

    Both are taken before `leaf` is asked even where it could read the size off a value:
    a segment's `leaf` also knows values made after the segment (segments.py), while the
    bound and the arguments' dimensions are there first."""
    key = size_key(dim)
    if isinstance(key, Sym) and key.bound >= 0:   # nothing sizes it: it runs at its bound
        return key.bound                          # (shapes.sizes.SizeEnv.size)
    if isinstance(key, algebra.Size) and not key.is_const:
        atom = algebra.atom_of(key)
        if atom is None or atom.op not in algebra.SOURCES:
            expr = _expression(key, leaf, dim)
            if expr is not None:
                return expr
    return leaf(dim)


def _expression(key: algebra.Size, leaf, dim) -> SizeExpr | None:
    """The SizeExpr of `key` over the argument dimensions `leaf` places; None when it reads
    anything else."""
    if key.data or key.reads:
        return None
    sources = _sources(key)
    if any(node.op != "param" for node in sources):
        return None
    leaves = []
    for node in sources:
        g = leaf(algebra.atom(node.op, node.args, node.lo, node.hi))
        if not isinstance(g, tuple):
            return None
        leaves.append((node, g))
    bound = dim.root().bound if isinstance(dim, Sym) else -1
    return SizeExpr(key, tuple(leaves), bound)


def _sources(size: algebra.Size) -> list:
    """The source atoms `size` is computed from, through the sizes of the dimensions its
    "sym" atoms stand for (a free one stands for its bound), each once, in a fixed order;
    a sym atom itself is not listed."""
    out, seen, stack = [], {size}, [size]
    while stack:
        node = stack.pop()
        if node.op in algebra.SOURCES:
            if node.op != "sym":
                out.append(node)
                continue
            root = node.args[0].root()
            children = [] if root.expr is None else [root.expr]
        else:
            children = algebra_eval.inputs(node)
        for child in children:
            if child not in seen:
                seen.add(child)
                stack.append(child)
    out.sort(key=lambda n: n.seq)
    return out


def size_of(g, shapes, memo: dict | None = None) -> int:
    """A getter's value at the arguments' actual `shapes` (see module doc)."""
    if g.__class__ is int:
        return g
    if g.__class__ is tuple:
        return shapes[g[0]][g[1]]
    return g.value(shapes, memo)
