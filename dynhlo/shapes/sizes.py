"""Symbolic dimension sizes: what dynamic dimension inference computes.

A dimension is an `int` (static) or a `Sym`: a bounded run-time size. Syms that must be equal
(two operands of one elementwise op) are merged with union-find; the representative carries
the `SizeExpr` that computes the size at run time from the arguments' shapes and, for
data-dependent sizes, from values computed by the program (set-dimension-size operands,
results of loops). A Sym with no expression has nothing that sets its size: it is the bound.
"""

from __future__ import annotations

import itertools
import math
from typing import Callable, Iterable, Union

from ..errors import DynamicSizeError

_ids = itertools.count()


class Sym:
    """A run-time size `0 <= size <= bound` (bound -1: unbounded)."""

    __slots__ = ("parent", "expr", "bound", "id", "met", "shared", "static_like")

    def __init__(self, bound: int, expr: "SizeExpr | None" = None, static_like: bool = False):
        self.parent: Sym | None = None
        self.expr = expr
        self.bound = bound
        self.id = next(_ids)
        self.met: str | None = None  # where two sized dims were made one (for errors)
        self.shared = False  # a sizeless dim that met two different sizes: runs at its bound
        # XLA would hold it static (a loop-carried broadcast of a constant, read off the loop
        # state): `meet` does not apply XLA's broadcast-or-smaller rule to it
        self.static_like = static_like

    def root(self) -> "Sym":
        node = self
        while node.parent is not None:
            node = node.parent
        if node is not self:
            self.parent = node
        return node

    def __repr__(self) -> str:
        root = self.root()
        return str(root.expr) if root.expr is not None else f"<={root.bound}"


Dim = Union[int, Sym]


def bound_of(dim: Dim) -> int:
    return dim.root().bound if isinstance(dim, Sym) else dim


def unify(a: Dim, b: Dim, where: str | None = None) -> Dim | None:
    """The dimension two elementwise operands share, or None when they cannot match.

    A static dimension meeting a dynamic one of the same bound takes the dynamic size (XLA:
    the static operand's values past the actual size are never read).
    """
    if isinstance(a, int) and isinstance(b, int):
        return a if a == b else None
    if isinstance(a, int):
        a, b = b, a
    if isinstance(b, int):
        return a if a.root().bound in (b, -1) else None
    ra, rb = a.root(), b.root()
    if ra is rb:
        return ra
    if ra.bound != rb.bound and -1 not in (ra.bound, rb.bound):
        return None
    if _pull_size(ra, rb, where):
        return rb
    if ra.shared or rb.shared:  # runs at its bound: takes no size, gives none
        return rb if ra.shared else ra
    for free, other in ((a, b), (b, a)):
        if _bound_sizeless(free) and ra.expr is not None and rb.expr is not None \
                and free.bound == bound_of(other):
            # A broadcast of a constant (no size of its own) took the size of the first
            # operand it met; meeting another size, it is shared by both (XLA's CSE makes
            # such broadcasts): it runs at its bound and each user cuts it to its own size,
            # as XLA computes it, instead of tying the two sizes together.
            free.parent, free.shared = None, True
            return other.root()
    if ra.expr is None or (rb.expr is not None and ra.expr.deps() and not rb.expr.deps()):
        # Keep the size that needs no computed value (a parameter's): reading it never waits
        # on the other instruction, so a loop result meeting its own input is no cycle.
        ra, rb = rb, ra
    if _refers_to(ra, rb):
        # `reshape(reshape(x))` meeting x: the formula (x.0*3)//3 must not become the size
        # of x.0 itself, or computing it would need itself. The size it refers to stays.
        ra, rb = rb, ra
    if where is not None and rb.expr is not None and ra.met is None:
        ra.met = where  # two sizes of their own are made one here: errors name the place
    rb.parent = ra
    return ra


def meet(a: Dim, b: Dim, where: str | None = None) -> Dim | None:
    """The dimension of an elementwise op's result where operand dimensions `a`, `b` meet.

    XLA (DynamicDimensionInference::HandleElementwiseNary, shape check off by default): two
    different dynamic sizes do not have to agree; at run time a size of 1 broadcasts to the
    other (dynamic_padder.cc RewriteDynamicBinaryOp) and otherwise the result takes the
    smaller size. Sizes with nothing of their own (a broadcast constant), a static dimension
    and the same size met twice go through `unify` (one size; no run-time formula).
    """
    like = [isinstance(d, Sym) and d.root().static_like for d in (a, b)]
    if any(like):
        # A constant carried through a loop: XLA holds it static (HandleWhile passes sizes
        # only for dimensions dynamic on entry), so meeting a dynamic size it is a static
        # operand, cut to that size: the result takes the other's size (no broadcast of a
        # size 1). dynhlo reads its size off the loop state: the bound on entry, the size it
        # was given (never smaller) once the body has combined it with sized values.
        # A size-less other (a broadcast constant, or one shared at its bound) is unified.
        other, carried = (b, a) if like[0] else (a, b)
        if not all(like) and isinstance(other, Sym) and other.root().expr is not None and \
                not other.root().shared and bound_of(other) == bound_of(carried):
            return other.root()
        return unify(a, b, where)
    if isinstance(a, Sym) and isinstance(b, Sym) and _pull_size(a.root(), b.root(), where):
        return a.root()
    if isinstance(a, Sym) and isinstance(b, Sym):
        ra, rb = a.root(), b.root()
        if same_size(ra, rb):
            return unify(a, b, where)
        if ra is not rb and ra.bound == rb.bound and ra.expr is not None and \
                rb.expr is not None and not (ra.shared or rb.shared
                                             or _bound_sizeless(a) or _bound_sizeless(b)):
            return Sym(ra.bound, MeetSize(a, b, where))
    return unify(a, b, where)


def _pull_size(ra: Sym, rb: Sym, where) -> bool:
    """f(sizeless) meeting f(sized), one keyed formula f (a reduce-window of ones_like(x)
    meeting the one of x: average pooling): the sizeless arguments take the sized ones'
    sizes, as a broadcast takes the size of what it meets, and the two sizes become one."""
    fa, fb = ra.expr, rb.expr
    if ra is rb or not (isinstance(fa, Formula) and isinstance(fb, Formula)) or \
            fa.key is None or fa.key != fb.key or len(fa.args) != len(fb.args):
        return False
    for free, sized, free_root, sized_root in ((fa, fb, ra, rb), (fb, fa, rb, ra)):
        pairs = list(zip(free.args, sized.args))
        if all(_free(x) or x == y for x, y in pairs) and any(_free(x) for x, _ in pairs):
            for x, y in pairs:
                if isinstance(x, Sym):
                    unify(x, y, where)
            free_root.parent = sized_root
            return True
    return False


def _free(dim: Dim) -> bool:
    """A dynamic dim with no size of its own yet (a broadcast of a constant)."""
    return isinstance(dim, Sym) and dim.root().expr is None and not dim.root().shared


def same_size(a: Dim, b: Dim, depth: int = 0) -> bool:
    """True when two dims are computed the same way (one parameter's dimension reached along
    two paths): they are one size, whatever XLA's elementwise rule would do with two."""
    if isinstance(a, int) or isinstance(b, int):
        return a == b
    ra, rb = _unwrap(a.root()), _unwrap(b.root())
    if ra is rb:
        return True
    ea, eb = ra.expr, rb.expr
    if ea is None or eb is None or type(ea) is not type(eb) or depth > 8:
        return False
    if isinstance(ea, ParamSize):
        return (ea.number, ea.dim) == (eb.number, eb.dim)
    if isinstance(ea, ResultSize):
        return (ea.inst, ea.path, ea.dim) == (eb.inst, eb.path, eb.dim)
    if isinstance(ea, ValueSize):
        return ea.inst is eb.inst
    if isinstance(ea, Formula):
        return ea.key is not None and ea.key == eb.key and len(ea.args) == len(eb.args) and \
            all(same_size(x, y, depth + 1) for x, y in zip(ea.args, eb.args))
    return False


def _unwrap(root: Sym) -> Sym:
    """The argument of an identity formula (a reshape's n/1, written as `n`)."""
    for _ in range(8):
        expr = root.expr
        if not (isinstance(expr, Formula) and len(expr.args) == 1 and
                isinstance(expr.args[0], Sym) and expr.text == dim_text(expr.args[0])):
            break
        root = expr.args[0].root()
    return root


def broadcast_or_smaller(x: int, y: int) -> int:
    """XLA's result size for operand sizes x, y: 1 broadcasts, else the smaller."""
    small, large = min(x, y), max(x, y)
    return large if small == 1 else small


def _bound_sizeless(sym: Sym) -> bool:
    """A Sym with no size of its own that took another's when it met it."""
    return sym.expr is None and sym.parent is not None


def _refers_to(node: Sym, target: Sym) -> bool:
    """True when the size expression of root `node` is computed from root `target`."""
    stack, seen = [node], set()
    while stack:
        expr = stack.pop().expr
        if not isinstance(expr, Formula):
            continue
        for arg in expr.args:
            if isinstance(arg, Sym):
                root = arg.root()
                if root is target:
                    return True
                if root.id not in seen:
                    seen.add(root.id)
                    stack.append(root)
    return False


class SizeEnv:
    """Evaluates sizes for one invocation of one computation.

    `lookup(inst)` gives an evaluated instruction's value (array, or tuple of arrays); a child
    env (for a called computation) defers to its parent for what it does not hold.
    """

    def __init__(self, args_shapes: list | None = None, lookup: Callable | None = None,
                 parent: "SizeEnv | None" = None, xla_rules: bool | None = None):
        self.args_shapes = args_shapes if args_shapes is not None else parent.args_shapes
        self._lookup = lookup
        self.parent = parent
        # whether the backend runs XLA's broadcast-or-smaller rule (MeetSize); a backend that
        # does not gets "sizes that meet in one op must agree" instead of a wrong answer
        self.xla_rules = xla_rules if xla_rules is not None else (
            parent.xla_rules if parent is not None else False)
        self.memo: dict[int, int] = {}

    def value_of(self, inst):
        env = self
        while env is not None:
            if env._lookup is not None:
                try:
                    return env._lookup(inst)
                except KeyError:
                    pass
            env = env.parent
        raise DynamicSizeError(f"size needed from '{inst.name}' before it was computed")

    def size(self, dim: Dim) -> int:
        if isinstance(dim, int):
            return dim
        root = dim.root()
        cached = self.memo.get(root.id)
        if cached is not None:
            return cached
        value = root.bound if root.expr is None else root.expr.evaluate(self)
        self.memo[root.id] = value
        return value

    def sizes(self, dims: Iterable[Dim]) -> tuple[int, ...]:
        return tuple(self.size(d) for d in dims)


class SizeExpr:
    """How a size is computed at run time. Subclasses implement evaluate/deps/__str__."""

    def evaluate(self, env: SizeEnv) -> int:
        raise NotImplementedError

    def deps(self) -> list:
        """Instructions whose values must be computed before this size is known."""
        return []


class ParamSize(SizeExpr):
    """The size of dimension `dim` of the entry argument `number`."""

    def __init__(self, number: int, dim: int, name: str):
        self.number, self.dim, self.name = number, dim, name

    def evaluate(self, env: SizeEnv) -> int:
        return env.args_shapes[self.number][self.dim]

    def __str__(self) -> str:
        return f"{self.name}.{self.dim}"


class ValueSize(SizeExpr):
    """The value of a scalar integer instruction (set-dimension-size's size operand)."""

    def __init__(self, inst, bound: int, user, dim: int):
        self.inst, self.bound, self.user, self.dim = inst, bound, user, dim

    def evaluate(self, env: SizeEnv) -> int:
        value = int(env.value_of(self.inst))
        if value < 0 or (self.bound >= 0 and value > self.bound):
            raise size_out_of_range(self.user, self.dim, value, self.inst, self.bound)
        return value

    def deps(self) -> list:
        return [self.inst]

    def __str__(self) -> str:
        return f"value({self.inst.name})"


class ResultSize(SizeExpr):
    """Read off the computed result of an instruction (loops, sorts, ops without a rule)."""

    def __init__(self, inst, path: tuple[int, ...], dim: int):
        self.inst, self.path, self.dim = inst, path, dim

    def evaluate(self, env: SizeEnv) -> int:
        value = env.value_of(self.inst)
        for index in self.path:
            value = value[index]
        return value.shape[self.dim]

    def deps(self) -> list:
        return [self.inst]

    def __str__(self) -> str:
        path = "".join(f"{{{i}}}" for i in self.path)
        return f"size({self.inst.name}{path}.{self.dim})"


class Formula(SizeExpr):
    """A size computed from other sizes, e.g. `n*64` for a reshape that merges dims.

    `key` names the function (e.g. the window's geometry): two formulas with one key compute
    equal sizes from equal arguments, which lets a size flow back into a sizeless argument.
    """

    def __init__(self, fn: Callable[..., int], args: tuple[Dim, ...], text: str, key=None):
        self.fn, self.args, self.text, self.key = fn, args, text, key

    def evaluate(self, env: SizeEnv) -> int:
        return int(self.fn(*(env.size(a) for a in self.args)))

    def deps(self) -> list:
        out = []
        for a in self.args:
            if isinstance(a, Sym) and a.root().expr is not None:
                out.extend(a.root().expr.deps())
        return out

    def __str__(self) -> str:
        return self.text


class MeetSize(Formula):
    """The size where two different dynamic sizes meet elementwise (`meet`): XLA's
    broadcast-or-smaller, on a backend that applies it (SizeEnv.xla_rules)."""

    def __init__(self, a: Dim, b: Dim, where: str | None):
        super().__init__(broadcast_or_smaller, (a, b), f"meet({dim_text(a)},{dim_text(b)})")
        self.where = where

    def evaluate(self, env: SizeEnv) -> int:
        x, y = env.size(self.args[0]), env.size(self.args[1])
        if x != y and not env.xla_rules:
            place = f"instruction '{self.where}': " if self.where else ""
            raise DynamicSizeError(
                f"{place}an operand of run-time size {y} meets one of run-time size {x}; sizes "
                "that meet in one op must agree on this backend (XLA's broadcast-a-1-or-take-"
                "the-smaller rule runs on the cpu backend)")
        return broadcast_or_smaller(x, y)


def formula(fn: Callable[..., int], args: tuple[Dim, ...], text: str, bound: int,
            key=None) -> Dim:
    """A Dim from other dims: an int when all are static, else a Sym with a Formula."""
    if all(isinstance(a, int) for a in args):
        return int(fn(*args))
    return Sym(bound, Formula(fn, args, text, key))


def dim_text(dim: Dim) -> str:
    return str(dim) if isinstance(dim, int) else repr(dim)


def size_mismatch(name: str, d: int, actual: int, dim: Dim, expected: int) -> DynamicSizeError:
    """The error every backend raises when dimension `d` of instruction `name`'s value has
    run-time size `actual` where inference says `dim` is `expected`: it names both sizes and,
    when inference knows it, the instruction where they meet."""
    met = dim.root().met if isinstance(dim, Sym) else None
    where = f" (they meet in '{met}')" if met else ""
    return DynamicSizeError(f"instruction '{name}': dimension {d} has run-time size {actual}, "
                            f"but {dim_text(dim)} is {expected} here; sizes that meet in one "
                            f"op must agree{where}")


def operand_mismatch(name: str, operand: Iterable[int], shape: Iterable[int]
                     ) -> DynamicSizeError:
    """The error every backend raises when an operand of elementwise instruction `name` is
    smaller than (or of another rank than) the result's actual shape."""
    return DynamicSizeError(f"instruction '{name}': operand of size {list(operand)} meets "
                            f"size {list(shape)}; sizes that meet in one op must agree")


def slice_past_size(name: str, spec, actual: Iterable[int]) -> DynamicSizeError | None:
    """The error every backend raises for a slice (`spec`: (start, limit, stride) per
    dimension) of an operand of actual sizes `actual` whose length-1 dimension starts at or
    past the actual size: XLA makes a length-1 slice static and reads element `start` of
    the padded buffer, which there is uninitialised padding, not a value. None if none."""
    for d, ((start, limit, stride), n) in enumerate(zip(spec, actual)):
        if -(-(limit - start) // stride) == 1 and start >= n:
            return DynamicSizeError(
                f"instruction '{name}': slice [{start}:{limit}:{stride}] of dimension {d} "
                f"reads element {start} of a dimension of actual size {n}; XLA's answer "
                "would be uninitialised padding")
    return None


def gather_past_size(name: str, d: int, first: int, size: int, actual: int,
                     bound: int) -> DynamicSizeError:
    """The error every backend raises for a gather whose start, clamped as XLA clamps it
    (to [0, bound - size] of the padded buffer), reads rows `first`.. past the actual size
    of operand dimension `d`: XLA's answer there is uninitialised padding."""
    return DynamicSizeError(
        f"instruction '{name}': gather reads rows {first}..{first + size - 1} of operand "
        f"dimension {d}, which has actual size {actual} (bound {bound}): XLA's answer would "
        "read uninitialised padding")


def product(dims: Iterable[Dim]) -> Dim:
    dims = list(dims)
    static = math.prod(d for d in dims if isinstance(d, int))
    dynamic = [d for d in dims if isinstance(d, Sym)]
    if not dynamic:
        return static
    bounds = [bound_of(d) for d in dynamic]
    bound = -1 if -1 in bounds else static * math.prod(bounds)  # `?` times anything is `?`
    text = "*".join([dim_text(d) for d in dynamic] + ([str(static)] if static != 1 else []))
    return Sym(bound, Formula(lambda *xs: math.prod(xs) * static, tuple(dynamic), text))


def sizes_from_operands(inst, shape, sizes: dict) -> tuple[int, ...]:
    """`shape` with dimension d at the run-time value of its own size operand.

    `sizes` maps d -> (size operand instruction, its scalar value: any 0-d array or tensor).
    Used by set-dimension-size, dynamic-reshape and SliceToDynamic: inference may have made
    this size one with another (the parameter's it meets in an add) and kept only the other's
    expression; taking the size from the operand itself lets the evaluator's check catch the
    two disagreeing, instead of silently using the other's.

    Raises:
        DynamicSizeError: a size below 0 or above the dimension's bound in `inst.shape`.
    """
    shape = list(shape)
    for d, (source, value) in sizes.items():
        size, bound = int(value), inst.shape.dims[d]
        if size < 0 or (bound >= 0 and size > bound):
            raise size_out_of_range(inst, d, size, source, bound)
        shape[d] = size
    return tuple(shape)


def size_out_of_range(inst, dim: int, size: int, source, bound: int) -> DynamicSizeError:
    """A size read from a value (set-dimension-size's operand) below 0 or over its bound."""
    return DynamicSizeError(f"instruction '{inst.name}' ({inst.opcode.value}) dimension {dim}: "
                            f"dynamic size {size} from '{source.name}' is outside [0, {bound}]"
                            f" (the bound of {inst.shape})")
