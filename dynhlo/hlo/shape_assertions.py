"""Shape assertions: checks on the entry parameters' sizes that a module carries (jax.export's
`shape_assertion` custom calls, e.g. n >= 1), made before every call of its executables.

A size expression is a tuple: `("c", v)` a constant, `("dim", p, d, lo, hi)` the size of
dimension d of entry parameter p (lo..hi its range, for bounds; not read here),
`("size", name, d, lo, hi)` the size of an intermediate (unknown before a run), or
`(op, *args)` for op in OPS. Integer semantics are StableHLO's i64: division truncates toward
zero, the remainder has the dividend's sign, and a result past i64 wraps as two's complement
(so a product of sizes never grows into an integer too long to print). The StableHLO import
(dynhlo.frontends.stablehlo.shape_exprs) builds and bounds these expressions; this module only
evaluates them, and sits in hlo/ because a module carries its assertions into every layer
(the runtime checks them, and artifacts store them).
"""

from __future__ import annotations

import re

I64 = 2**63  # StableHLO's sizes are i64: values lie in [-I64, I64)


def _tdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _trem(a: int, b: int) -> int:
    return a - b * _tdiv(a, b)


_CMP = {"EQ": lambda a, b: a == b, "NE": lambda a, b: a != b, "LT": lambda a, b: a < b,
        "LE": lambda a, b: a <= b, "GT": lambda a, b: a > b, "GE": lambda a, b: a >= b}

OPS = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: None if b == 0 else _tdiv(a, b),
    "rem": lambda a, b: None if b == 0 else _trem(a, b),
    "max": max, "min": min, "neg": lambda a: -a, "abs": abs,
    "sign": lambda a: (a > 0) - (a < 0),
    "select": lambda c, a, b: a if c else b,
    "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
    "not1": lambda a: 1 - a,  # logical not of an i1
    **{"cmp" + k: (lambda f: lambda a, b: int(f(a, b)))(f) for k, f in _CMP.items()},
}

# The number of operands of each op in OPS (max and min are Python's, of any arity: an
# expression gives them two).
ARITY = {**{op: 2 for op in OPS}, "neg": 1, "abs": 1, "sign": 1, "not1": 1, "select": 3}


def evaluate(expr: tuple, sizes: dict) -> int | None:
    """The value at run time, given `sizes[(param, dim)]`; None if it needs other data."""
    kind = expr[0]
    if kind == "c":
        return expr[1]
    if kind == "dim":
        return sizes.get((expr[1], expr[2]))
    if kind == "size":
        return None
    args = [evaluate(a, sizes) for a in expr[1:]]
    if any(a is None for a in args):
        return None
    return apply(kind, args)


def apply(kind: str, args: list[int]) -> int | None:
    """OPS[kind] of `args` in i64: a result past it wraps (None: a division by zero)."""
    value = OPS[kind](*args)
    if value is None or -I64 <= value < I64:
        return value
    return (value + I64) % (2 * I64) - I64


def equal_dims(assertions) -> dict:
    """{(parameter, dimension): (parameter, dimension)} for each entry-parameter dimension
    that an assertion `pred` requires equal to an earlier one (jax.export's `args[1].shape[0]
    == n` where `n` is args[0].shape[0]: one dimension variable in two places), mapped to the
    first of its class; a class's dimensions share one bound (`lo`, `hi` of the expressions).
    Only a top-level `cmpEQ` of two `dim` expressions counts: the runtime checks every
    assertion before a call (runtime/arguments.check_assertions), so these hold wherever
    sizes are read."""
    parent: dict = {}

    def find(x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x
    for assertion in assertions:
        pred = getattr(assertion, "pred", None)
        if not (isinstance(pred, tuple) and len(pred) == 3 and pred[0] == "cmpEQ"):
            continue
        a, b = pred[1], pred[2]
        if not all(isinstance(e, tuple) and len(e) == 5 and e[0] == "dim" for e in (a, b)) \
                or a[3:] != b[3:]:
            continue
        ra, rb = find(a[1:3]), find(b[1:3])
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return {x: find(x) for x in parent if find(x) != x}


class ShapeAssertion:
    """A `shape_assertion` custom call: `pred` must hold; `message` is formatted with `args`
    (size expressions, above) as JAX formats it."""

    def __init__(self, pred: tuple, message: str, args: list):
        self.pred, self.message, self.args = pred, message, args

    def failure(self, sizes: dict) -> str | None:
        """The formatted message, marked as JAX's, when the assertion fails at these sizes,
        else None."""
        if evaluate(self.pred, sizes):
            return None
        return format_message(self.message, [evaluate(a, sizes) for a in self.args]) + \
            " (JAX shape assertion)"

    def __eq__(self, other) -> bool:
        return isinstance(other, ShapeAssertion) and (self.pred, self.message, list(
            self.args)) == (other.pred, other.message, list(other.args))

    def __hash__(self) -> int:
        return hash((self.pred, self.message, tuple(self.args)))

    def __repr__(self) -> str:
        return f"ShapeAssertion({self.pred!r}, {self.message[:40]!r}..., {self.args!r})"


# The fields of JAX's assertion messages (`{0}`, and `{{`/`}}` for braces). str.format read
# the module's text as a format string: `{0[1]}`, `{0.x}` raised TypeError/AttributeError
# and `{0:>99999999999}` a MemoryError; any other field stays as written.
_FIELD = re.compile(r"\{\{|\}\}|\{([0-9]{1,9})\}")


def format_message(message: str, values: list) -> str:
    """`message` with `{i}` replaced by values[i] (as JAX's str.format would for these)."""
    def field(m: re.Match) -> str:
        if m.group(1) is None:
            return m.group(0)[0]
        i = int(m.group(1))
        return str(values[i]) if i < len(values) else m.group(0)
    return _FIELD.sub(field, message)


__all__ = ["ARITY", "I64", "OPS", "ShapeAssertion", "apply", "evaluate",
           "format_message"]
