"""Symbolic dimension sizes: what dynamic dimension inference computes.

A dimension is an `int` (static) or a `Sym`: a bounded run-time size. A Sym's size is an
expression of the size algebra (dynhlo.shapes.algebra: canonical and interned, so two
dimensions are one size exactly when their expressions are one object, `size_key`). Its
sources are the entry arguments' dimensions, values the program computes (set-dimension-size
operands that are not functions of sizes) and results read off once computed (loops, sorts,
ops without a rule). A Sym with no expression has nothing that sets its size (a broadcast of
a constant): it takes the size of the first sized dimension it meets (union-find, `unify`)
and until then runs at its bound.
"""

from __future__ import annotations

import itertools
import math
from typing import Callable, Iterable, Union

from ..errors import DynamicSizeError
from ..hlo.opcodes import Opcode
from . import algebra, algebra_eval
from .algebra import Size

_ids = itertools.count()


class Sym:
    """A run-time size `0 <= size <= bound` (bound -1: unbounded)."""

    __slots__ = ("parent", "expr", "bound", "id", "met", "shared", "static_like", "made")

    def __init__(self, bound: int, expr: Size | None = None, static_like: bool = False,
                 made: tuple | None = None):
        self.parent: Sym | None = None
        self.expr = expr
        self.bound = bound
        self.id = next(_ids)
        self.met: str | None = None  # where two sized dims were made one (for errors)
        self.shared = False  # a sizeless dim that met two different sizes: runs at its bound
        # XLA would hold it static (a loop-carried broadcast of a constant, read off the loop
        # state): `meet` does not apply XLA's broadcast-or-smaller rule to it
        self.static_like = static_like
        # (key, dims) of a size a keyed rule made from other dims (the window of x): two
        # with one key are equal for equal dims, which lets a size flow back (_pull_size)
        self.made = made

    def root(self) -> "Sym":
        node = self.parent
        if node is None:   # most dims are their own root: no loop
            return self
        while node.parent is not None:
            node = node.parent
        self.parent = node
        return node

    def __repr__(self) -> str:
        return dim_text(self)


Dim = Union[int, Sym]


def bound_of(dim: Dim) -> int:
    """The bound of a dimension (its size if static; -1: unbounded)."""
    return dim.root().bound if isinstance(dim, Sym) else dim


def size_key(dim: Dim):
    """What two dimensions of one size share: the int of a static one, the expression of a
    sized one, the root Sym of one nothing has sized yet. Compare keys with `is` or use
    them as dict keys: equal sizes are one object."""
    while isinstance(dim, Sym):
        root = dim.root()
        if root.expr is None:
            return root
        atom = algebra.atom_of(root.expr)
        if atom is None or atom.op != "sym":
            return root.expr
        dim = atom.args[0]
    return dim


def same_size(a: Dim, b: Dim) -> bool:
    """True when two dims are one size (one parameter's dimension reached along two paths,
    one size written two ways): whatever XLA's elementwise rule would do with two."""
    if a is b:
        return True
    if isinstance(a, int) or isinstance(b, int):
        return a == b
    root = a.root()
    if root is b.root():   # size_key follows from the root alone: one root, one key
        return True
    return size_key(root) is size_key(b)


# --- building sizes -------------------------------------------------------------------------

def size_of(dim: Dim) -> Size:
    """The expression of a dimension's size (a free Sym's stands for whatever sizes it)."""
    if isinstance(dim, int):
        return algebra.const(dim)
    root = dim.root()
    if root.expr is not None:
        return root.expr
    return algebra.source("sym", (root,), 0, algebra.INF)


def derive(build: Callable[..., Size], dims: tuple, bound: int, key=None) -> Dim:
    """The dim `build(*sizes of dims)`: an int when all are static, else a Sym of `bound`
    (the dim itself when that is what `build` gives). `key` names a rule for _pull_size."""
    size = build(*(size_of(d) for d in dims))
    if all(isinstance(d, int) for d in dims):
        return size.value
    atom = algebra.atom_of(size)
    if atom is not None and atom.op == "sym" and atom.args[0].root().bound == bound:
        return atom.args[0].root()
    return Sym(bound, size, made=(key, tuple(dims)) if key is not None else None)


def product(dims: Iterable[Dim]) -> Dim:
    """The dim holding as many elements as `dims` together (a reshape's merged dims)."""
    dims = list(dims)
    static = math.prod(d for d in dims if isinstance(d, int))
    dynamic = tuple(d for d in dims if isinstance(d, Sym))
    if not dynamic:
        return static
    bounds = [bound_of(d) for d in dynamic]
    bound = -1 if -1 in bounds else static * math.prod(bounds)  # `?` times anything is `?`

    def build(*sizes):
        # static 1: mul(1, size) is size itself (algebra.scale by 1), so start from it
        out = algebra.const(static) if static != 1 else sizes[0]
        for size in sizes if static != 1 else sizes[1:]:
            out = algebra.mul(out, size)
        return out
    return derive(build, dynamic, bound)


def _hi(bound: int):
    return algebra.INF if bound < 0 else bound


def param_dim(param, dim: int, bound: int) -> Sym:
    """Dimension `dim` of the entry argument of parameter instruction `param`, at most
    `bound`. (The instruction, not its number, identifies it: sizes of two modules are never
    one object, so what an error names is in the module that raises it.)"""
    return Sym(bound, algebra.source("param", (param.parameter_number, dim, bound, param),
                                     0, _hi(bound)))


def value_size(inst, bound: int, user, dim: int) -> Size:
    """The run-time value of scalar `inst` as the size of dimension `dim` of `user`,
    checked to be in [0, bound] when read (a set-dimension-size's size from data)."""
    return algebra.source("value", (inst, bound), 0, _hi(bound), note=(user, dim))


def result_dim(inst, path: tuple, dim: int, bound: int, static_like: bool = False) -> Sym:
    """Dimension `dim` of `inst`'s computed result (element `path` of a tuple), read off
    once computed (loops, sorts, ops without a rule)."""
    return Sym(bound, algebra.source("result", (inst, path, dim, bound), 0, _hi(bound)),
               static_like)


def deps(size: Size | None, memo: dict | None = None) -> list:
    """Instructions whose values must be computed before `size` is known (values read,
    results read off); `memo` shares the work across calls."""
    if size is None or not (size.reads or size.syms):
        return []
    if memo is not None and size in memo:
        return memo[size]
    out = list(dict.fromkeys(inst for _, inst in reads(size)))
    if memo is not None:
        memo[size] = out
    return out


def reads(size: Size) -> list:
    """[(how, instruction)] of what `size` reads at run time, through its symbols' roots:
    how is "value" (an integer value read as a size), "scalar" or "result" (a value's
    dimension size, read off its shape)."""
    out, stack, seen = [], [size], {size}
    while stack:
        node = stack.pop()
        if node.op in ("value", "result", "scalar"):
            out.append((node.op, node.args[0]))
            continue
        children = algebra_eval.inputs(node)
        if node.op == "sym":
            root = node.args[0].root()
            children = [root.expr] if root.expr is not None else []
        for child in children:
            if child not in seen and (child.reads or child.syms):
                seen.add(child)
                stack.append(child)
    return out


# --- where dimensions meet ------------------------------------------------------------------

def _declared(sym: Sym) -> bool:
    """Whether `sym` is a parameter's dimension as declared (`f32[<=2]`), not a size computed
    from one: XLA's verifier holds two of those with two bounds to be two shapes."""
    node = algebra.atom_of(sym.expr)
    return node is not None and node.op == "param"


def unify(a: Dim, b: Dim, where: str | None = None) -> Dim | None:
    """The dimension two operands share where their sizes must be one, or None when they
    cannot match.

    A static dimension meeting a dynamic one of the same bound takes the dynamic size (XLA:
    the static operand's values past the actual size are never read). One size of two
    bounds (a `?` whose bound inference derived) is one dimension. Two sizes that are not
    one expression are made one: the values computed at the other are checked against it
    at run time (XLA's kRuntime shape check: the backends' check_sizes), naming `where`; so
    are two sizes of different bounds (JAX's `(n - k) // s + 1` bounded over n's range and
    XLA's window formula bounded by intervals), the one size then at the larger bound, which
    every buffer of it is planned at.
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
    if ra.expr is not None and ra.expr is rb.expr:   # one size: the wider bound holds it
        return ra if ra.bound == -1 or (rb.bound != -1 and ra.bound >= rb.bound) else rb
    two_bounds = ra.bound != rb.bound and -1 not in (ra.bound, rb.bound)
    if two_bounds and (ra.expr is None or rb.expr is None or ra.shared or rb.shared
                       or (_declared(ra) and _declared(rb))):
        # a size-less dim runs at its bound; two parameters declared with two bounds are
        # two shapes to XLA's verifier: neither is one shape
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
    if ra.expr is None or (rb.expr is not None and _waits(ra.expr) and not _waits(rb.expr)):
        # Keep the size that needs no computed value (a parameter's, the entry's or a loop
        # body's): reading it never waits on the other instruction, so a loop result
        # meeting its own input is no cycle, nor a body's carried size meeting one the body
        # computes from a carried value (JAX's dimension variable in a scan's state).
        ra, rb = rb, ra
    if _refers_to(ra, rb):
        # `reshape(reshape(x))` meeting x: a size computed from x.0 must not become the
        # size of x.0 itself, or computing it would need itself. The size it refers to stays.
        ra, rb = rb, ra
    if where is not None and rb.expr is not None and ra.met is None:
        ra.met = where  # two sizes of their own are made one here: errors name the place
    rb.parent = ra
    if two_bounds:
        ra.bound = max(ra.bound, rb.bound)
    return ra


def _waits(size: Size) -> bool:
    """True when reading `size` waits on a value its computation computes: it reads an
    instruction that is not a parameter (a parameter's value is there before anything
    runs)."""
    return any(dep.opcode is not Opcode.PARAMETER for dep in deps(size))


def meet(a: Dim, b: Dim, where: str | None = None) -> Dim | None:
    """The dimension of an elementwise op's result where operand dimensions `a`, `b` meet.

    XLA (DynamicDimensionInference::HandleElementwiseNary, shape check off by default): two
    different dynamic sizes do not have to agree; at run time a size of 1 broadcasts to the
    other (dynamic_padder.cc RewriteDynamicBinaryOp) and otherwise the result takes the
    smaller size (algebra.meet). Sizes with nothing of their own (a broadcast constant), a
    static dimension and one size met twice go through `unify`.
    """
    if a.__class__ is int and b.__class__ is int:   # two static dims: unify's first case
        return a if a == b else None
    if isinstance(a, Sym) and isinstance(b, Sym):
        root, other = a.root(), b.root()
        if root is other:   # one size met again: what unify gives, by any path below
            return root
        if root.expr is not None and root.expr is other.expr and not (
                root.static_like or other.static_like) and (root.made is None
                                                            or other.made is None):
            # one size written twice (two reshapes of one dim): not loop-carried, no keyed
            # rule to pull from (_pull_size says no), one size_key: the path below unifies
            return unify(a, b, where)
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
            return Sym(ra.bound, algebra.meet(ra.expr, rb.expr, where))
    return unify(a, b, where)


def is_meet(dim: Dim) -> bool:
    """True for the size where two different sizes meet elementwise (algebra.meet)."""
    key = size_key(dim)
    atom = algebra.atom_of(key) if isinstance(key, Size) else None
    return atom is not None and atom.op == "meet"


def _pull_size(ra: Sym, rb: Sym, where) -> bool:
    """f(sizeless) meeting f(sized), one keyed rule f (a reduce-window of ones_like(x)
    meeting the one of x: average pooling): the sizeless arguments take the sized ones'
    sizes, as a broadcast takes the size of what it meets, and the two sizes become one."""
    fa, fb = ra.made, rb.made
    if ra is rb or fa is None or fb is None or fa[0] != fb[0] or len(fa[1]) != len(fb[1]):
        return False
    for free, sized, free_root, sized_root in ((fa, fb, ra, rb), (fb, fa, rb, ra)):
        pairs = list(zip(free[1], sized[1], strict=True))
        if all(_free(x) or same_size(x, y) for x, y in pairs) and \
                any(_free(x) for x, _ in pairs):
            for x, y in pairs:
                if isinstance(x, Sym):
                    unify(x, y, where)
            free_root.parent = sized_root
            return True
    return False


def _free(dim: Dim) -> bool:
    """A dynamic dim with no size of its own yet (a broadcast of a constant)."""
    return isinstance(dim, Sym) and dim.root().expr is None and not dim.root().shared


def broadcast_or_smaller(x: int, y: int) -> int:
    """XLA's result size for operand sizes x, y: 1 broadcasts, else the smaller."""
    return algebra.broadcast_or_smaller(x, y)


def _bound_sizeless(sym: Sym) -> bool:
    """A Sym with no size of its own that took another's when it met it."""
    return sym.expr is None and sym.parent is not None


def _refers_to(node: Sym, target: Sym) -> bool:
    """True when the size expression of root `node` is computed from root `target`."""
    if node.expr is None or not node.expr.syms:
        return False
    stack, seen = [node.expr], {node.expr}
    while stack:
        for part in algebra_eval.walk(stack.pop()):
            if part.op != "sym":
                continue
            root = part.args[0].root()
            if root is target:
                return True
            if root.expr is not None and root.expr.syms and root.expr not in seen:
                seen.add(root.expr)
                stack.append(root.expr)
    return False


# --- run time -------------------------------------------------------------------------------

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
        # whether the backend runs XLA's broadcast-or-smaller rule (algebra.meet); a backend
        # that does not gets "sizes that meet in one op must agree" instead of a wrong answer
        self.xla_rules = xla_rules if xla_rules is not None else (
            parent.xla_rules if parent is not None else False)
        self.memo: dict = {}    # Sym id -> its size, and Size -> its value

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
        value = root.bound if root.expr is None else self.evaluate(root.expr)
        self.memo[root.id] = value
        return value

    def sizes(self, dims: Iterable[Dim]) -> tuple[int, ...]:
        return tuple(self.size(d) for d in dims)

    def evaluate(self, size: Size) -> int:
        """The value of an expression at this invocation's sizes and values."""
        cached = self.memo.get(size)
        if cached is not None:
            return cached
        try:
            return algebra_eval.evaluate(size, self._source, self.memo, self._meet)
        except algebra_eval.SelfReference as exc:   # no rule makes one; a check, not a hang
            raise DynamicSizeError(str(exc)) from None

    def _source(self, node: Size):
        op, args = node.op, node.args
        if op == "param":
            return self.args_shapes[args[0]][args[1]]
        if op == "sym":
            root = args[0].root()
            return root.bound if root.expr is None else root.expr
        value = self.value_of(args[0])
        if op == "result":
            for index in args[1]:
                value = value[index]
            return value.shape[args[2]]
        value = int(value)
        if op == "value":
            (user, dim), bound = node.note, args[1]
            if value < 0 or (bound >= 0 and value > bound):
                raise size_out_of_range(user, dim, value, args[0], bound)
        return value

    def _meet(self, node: Size, x: int, y: int) -> None:
        if x != y and not self.xla_rules:
            place = f"instruction '{node.note}': " if node.note else ""
            raise DynamicSizeError(
                f"{place}an operand of run-time size {y} meets one of run-time size {x}; sizes "
                "that meet in one op must agree on this backend (XLA's broadcast-a-1-or-take-"
                "the-smaller rule runs on the cpu backend)")


def dim_text(dim: Dim) -> str:
    """A dimension as text: its size (cut at algebra.BUDGET characters) or `<=bound`."""
    if isinstance(dim, int):
        return str(dim)
    root = dim.root()
    if root.expr is None:
        return f"<={root.bound}"
    return algebra.text(root.expr, name=_source_text)


def _source_text(node: Size):
    op, args = node.op, node.args
    if op == "param":
        return f"{args[3].name}.{args[1]}"
    if op == "value":
        return f"value({args[0].name})"
    if op == "result":
        path = "".join(f"{{{i}}}" for i in args[1])
        return f"size({args[0].name}{path}.{args[2]})"
    if op == "sym":
        root = args[0].root()
        return f"<={root.bound}" if root.expr is None else root.expr
    return args[0].name   # a value the program computes ("scalar")


# --- errors every backend raises ------------------------------------------------------------

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


# The end of every padding-read error (the padding_reads="error" mode: the default reads a
# dynamic array's padding as zeros, as XLA reads its padded buffer there).
PADDING_READ_HINT = ("it reads XLA's buffer padding, refused because the module was compiled "
                     "with padding_reads='error' (the default, 'zeros', reads it as zeros)")


def slice_reads_padding(spec, actual: Iterable[int]) -> int | None:
    """The dimension in which a slice (`spec`: (start, limit, stride) per dimension) of an
    operand of actual sizes `actual` reads padding, or None: a length-1 dimension starting at
    or past the actual size. XLA makes a length-1 slice static and reads element `start` of
    the padded buffer; dynhlo's padding reads as zeros, so the whole result is zeros."""
    for d, ((start, limit, stride), n) in enumerate(zip(spec, actual, strict=True)):
        if -(-(limit - start) // stride) == 1 and start >= n:
            return d
    return None


def slice_past_size(name: str, spec, d: int, n: int) -> DynamicSizeError:
    """The error of the padding_reads="error" mode for slice `name` (`spec` as
    slice_reads_padding's, reading padding in dimension `d` of actual size `n`)."""
    start, limit, stride = spec[d]
    return DynamicSizeError(
        f"instruction '{name}': slice [{start}:{limit}:{stride}] of dimension {d} reads "
        f"element {start} of a dimension of actual size {n}: {PADDING_READ_HINT}")


def gather_past_size(name: str, d: int, first: int, size: int, actual: int,
                     bound: int) -> DynamicSizeError:
    """The error of the padding_reads="error" mode for a gather whose start, clamped as XLA
    clamps it (to [0, bound - size] of the padded buffer), reads rows `first`.. past the
    actual size of operand dimension `d`."""
    return DynamicSizeError(
        f"instruction '{name}': gather reads rows {first}..{first + size - 1} of operand "
        f"dimension {d}, which has actual size {actual} (bound {bound}): {PADDING_READ_HINT}")


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
