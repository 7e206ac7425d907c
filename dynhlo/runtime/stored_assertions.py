"""A module's shape assertions as artifact header data (JSON), and their strict reading back.

The stored form of one assertion is `{"pred": E, "message": str, "args": [E, ...]}`; a size
expression E (dynhlo.hlo.shape_assertions) is a JSON array: `["c", v]`, `["dim", p, d, lo,
hi]`, `["size", name, d, lo, hi]` or `[op, E, ...]` for op in OPS, with `null` for an
infinite `lo`/`hi` (JSON has no infinity).

What is read back is untrusted (a hand-made header passes its checksum): every node is
checked for its form, every op against OPS and its arity, every integer against the range
of StableHLO's sizes (i64; an operation of constants is folded, as the importer writes it,
and checked too), every parameter dimension against the module's entry parameters, and
depth, node count, message length and argument count against limits far past what
jax.export writes, so that evaluating a stored assertion on every call is cheap and cannot
recurse without end. Nothing is run as code: the ops are the fixed table's.
"""

from __future__ import annotations

import math
import reprlib

from ..errors import ArtifactError
from ..hlo.ir import HloModule
from ..hlo.shape_assertions import ARITY, I64, OPS, ShapeAssertion
from .stored_lists import dimension_problem, is_int, items, malformed

# Limits on what an artifact may hold (jax.export writes a handful of assertions per
# dimension variable, a few nodes deep, with messages of a few hundred characters).
MAX_ASSERTIONS = 4096
MAX_DEPTH = 64
MAX_NODES = 65536          # over all the assertions of one artifact
MAX_MESSAGE = 65536        # characters
MAX_ARGS = 64
INT_LIMIT = I64            # sizes and constants are i64 in StableHLO


def to_data(assertions: list[ShapeAssertion]) -> list[dict]:
    """The JSON data of a module's shape assertions (artifact header key `shape_assertions`).
    Only jax.export's: from_tf's least sizes (SizeRequirement) are stored by
    stored_requirements, under their own header key."""
    return [{"pred": _expr_data(a.pred), "message": a.message,
             "args": [_expr_data(e) for e in a.args]} for a in assertions
            if isinstance(a, ShapeAssertion)]


def _expr_data(expr: tuple) -> list:
    kind = expr[0]
    if kind in ("dim", "size"):
        return [kind, expr[1], expr[2], _finite(expr[3]), _finite(expr[4])]
    if kind == "c":
        return ["c", expr[1]]
    return [kind, *(_expr_data(e) for e in expr[1:])]


def _finite(value):
    return None if value in (math.inf, -math.inf) else int(value)


def from_data(data, module: HloModule) -> list[ShapeAssertion]:
    """The shape assertions stored as `data`, checked against `module`'s entry parameters.

    Raises:
        ArtifactError: anything that to_data does not write (the message names the
            assertion and what is wrong), or over the limits above.
    """
    data = items(data, MAX_ASSERTIONS, "assertions", "shape_assertions")
    reader = _Reader(module)
    return [reader.assertion(i, item) for i, item in enumerate(data)]


def _bad(index: int, why: str) -> ArtifactError:
    return malformed(f"shape assertion {index}", why)


class _Reader:
    """Reads stored assertions, counting nodes across all of them."""

    def __init__(self, module: HloModule):
        self.params = module.entry.parameters
        self.nodes = 0
        self.index = 0

    def assertion(self, index: int, item) -> ShapeAssertion:
        self.index = index
        if not isinstance(item, dict) or set(item) != {"pred", "message", "args"}:
            raise _bad(index, "not an object with exactly the keys pred, message, args")
        message, args = item["message"], item["args"]
        if not isinstance(message, str) or len(message) > MAX_MESSAGE:
            raise _bad(index, f"the message is not a string of at most {MAX_MESSAGE} "
                              "characters")
        if not isinstance(args, list) or len(args) > MAX_ARGS:
            raise _bad(index, f"args is not a list of at most {MAX_ARGS} expressions")
        return ShapeAssertion(self.expr(item["pred"], 0), message,
                              [self.expr(a, 0) for a in args])

    def expr(self, node, depth: int) -> tuple:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _bad(self.index, f"the assertions have over {MAX_NODES} expression nodes")
        if depth >= MAX_DEPTH:
            raise _bad(self.index, f"an expression nested over {MAX_DEPTH} levels")
        if not isinstance(node, list) or not node or not isinstance(node[0], str):
            raise _bad(self.index, f"expression {_short(node)} is not [kind, ...]")
        kind, rest = node[0], node[1:]
        if kind == "c":
            return ("c", self._int(rest, 1, node)[0])
        if kind in ("dim", "size"):
            return self._leaf(kind, rest, node)
        if ARITY.get(kind) is None:
            raise _bad(self.index, f"unknown operation {_short(kind)}")
        if len(rest) != ARITY[kind]:
            raise _bad(self.index, f"operation '{kind}' takes {ARITY[kind]} operands, got "
                                   f"{len(rest)}")
        args = tuple(self.expr(e, depth + 1) for e in rest)
        if all(a[0] == "c" for a in args):  # folded, as the importer writes it
            value = OPS[kind](*(a[1] for a in args))
            if value is not None:
                if not -INT_LIMIT <= value < INT_LIMIT:
                    raise _bad(self.index, f"operation '{kind}' of constants gives {value}, "
                                           "past the i64 range of StableHLO's sizes")
                return ("c", value)
        return (kind, *args)

    def _leaf(self, kind: str, rest: list, node) -> tuple:
        if len(rest) != 4:
            raise _bad(self.index, f"expression {_short(node)} is not [{kind!r}, "
                                   f"{'param' if kind == 'dim' else 'name'}, dim, lo, hi]")
        first, d = rest[0], self._int(rest[1:2], 1, node)[0]
        lo, hi = (self._end(v, node, -math.inf if i == 0 else math.inf)
                  for i, v in enumerate(rest[2:]))
        if d < 0 or lo > hi:
            raise _bad(self.index, f"expression {_short(node)} has a negative dimension or "
                                   "an empty range")
        if kind == "size":
            if not isinstance(first, str) or len(first) > 256:
                raise _bad(self.index, f"expression {_short(node)} names no intermediate")
            return (kind, first, d, lo, hi)
        self._check_dim(self._int([first], 1, node)[0], d, node)
        return (kind, first, d, lo, hi)

    def _check_dim(self, p: int, d: int, node) -> None:
        problem = dimension_problem(self.params, p, d)
        if problem:
            raise _bad(self.index, f"expression {_short(node)} {problem}")

    def _int(self, values: list, count: int, node) -> list[int]:
        if len(values) != count or not all(is_int(v) and -INT_LIMIT <= v < INT_LIMIT
                                           for v in values):
            raise _bad(self.index, f"expression {_short(node)} needs {count} integer(s) in "
                                   f"[-2**63, 2**63)")
        return values

    def _end(self, value, node, infinite: float):
        if value is None:
            return infinite
        return self._int([value], 1, node)[0]


_REPR = reprlib.Repr()   # keyword arguments only from Python 3.12
_REPR.maxlevel, _REPR.maxlist, _REPR.maxstring, _REPR.maxother = 3, 6, 40, 40


def _short(value) -> str:
    """A short repr, of bounded depth: a stored node may be nested hundreds of levels."""
    return _REPR.repr(value)


__all__ = ["from_data", "to_data"]
