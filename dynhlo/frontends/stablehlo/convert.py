"""The StableHLO -> HLO walk: functions, blocks, regions and the op-rule table.

Calls are inlined by MLIR's own inliner before the walk (dynhlo.frontends.mlir_load), so a
function is one HLO computation and the size values JAX threads through calls (its dimension
variables) stay visible as expressions. Op rules register with `@converts(name, ...)` and get
an `OpContext`: the op, the computation being written, its operands as Vals. A region becomes
an HLO computation; a value it uses from outside is re-emitted when it is a constant and
otherwise passed in by the rule that owns the region (while and case thread them through their
state).
"""

from __future__ import annotations

import re

from ...backends.common.memory import host_memory
from ...errors import UnsupportedError
from ...hlo.shape import UNBOUNDED, Shape, TupleShape
from ...hlo.shape_assertions import ShapeAssertion
from .emit import Comp, ModuleBuilder, Val, is_type, shape_of

CONVERTERS: dict = {}


def converts(*names: str):
    def register(fn):
        for name in names:
            CONVERTERS[name] = fn
        return fn
    return register


class Scope:
    """MLIR value -> Val for one computation; `parent` is the scope a region sits in."""

    def __init__(self, comp: Comp, parent: "Scope | None" = None, captured: dict | None = None):
        self.comp, self.parent, self.vals = comp, parent, {}
        self.captured = captured or {}  # outer MLIR value -> Val inside this computation

    def get(self, value) -> Val:
        if value in self.vals:
            return self.vals[value]
        if value in self.captured:
            return self.captured[value]
        outer = self.parent.get(value) if self.parent is not None else None
        if outer is None or outer.literal is None:
            raise UnsupportedError(f"a region uses the non-constant value {outer} from outside "
                                   "itself, which this op cannot pass in")
        val = self.comp.constant(outer.literal, outer.shape, outer.exprs)
        self.captured[value] = val
        return val


class OpContext:
    """What an op rule sees: the converter, the op, its scope and computation."""

    def __init__(self, converter: "Converter", op, scope: Scope):
        self.converter, self.op, self.scope, self.comp = converter, op, scope, scope.comp
        self.name = op.operation.name

    @property
    def operands(self) -> list[Val]:
        return [self.scope.get(v) for v in self.op.operands]

    def attr(self, key: str):
        return self.op.attributes[key] if key in self.op.attributes else None

    def string(self, key: str, default: str | None = None) -> str:
        """The text of string attribute `key` (`default` when it is absent and one is given).

        Raises:
            UnsupportedError: naming the op and attribute, when it is absent without a
                default, is not a string, or holds bytes that are not UTF-8 (where the
                bindings' own `.value` would raise RuntimeError)."""
        from jaxlib.mlir import ir
        attr = self.attr(key)
        if attr is None and default is not None:
            return default
        if attr is None or not is_type(attr, ir.StringAttr):
            raise self.error(f"attribute {key} must be a string, got {attr}")
        try:
            return ir.StringAttr(attr).value_bytes.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise self.error(f"attribute {key} is not UTF-8 text ({exc.reason} at byte "
                             f"{exc.start})") from None

    def result_shape(self, i: int = 0, bounds=None):
        return shape_of(self.op.results[i].type, bounds)

    def error(self, message: str) -> UnsupportedError:
        return UnsupportedError(f"{self.name}: {message} ({where(self.op)})")


class Converter:
    """Walks one MLIR module and writes its HLO text."""

    def __init__(self, param_bounds: dict, param_lows: dict | None = None):
        self.module = ModuleBuilder()
        self.param_bounds = param_bounds  # (param, dim) -> bound for `?` entry dims
        self.param_lows = param_lows or {}  # (param, dim) -> least size, where known
        self.assertions: list[ShapeAssertion] = []
        self.entry_params: list[Val] = []
        self.functions: dict = {}  # symbol name -> func.func, for calls and composites
        # bytes of the constants read whole so far, and the most there is room for
        self.constant_bytes, self.constant_limit = 0, host_memory()

    def convert_entry(self, func) -> None:
        comp = Comp(self.module, "main")
        scope = Scope(comp)
        block = func.regions[0].blocks[0]
        for p, arg in enumerate(block.arguments):
            shape = shape_of(arg.type, [self.param_bounds.get((p, d))
                                        for d in range(rank_of(arg.type))])
            val = comp.parameter(shape, f"arg{p}")
            scope.vals[arg] = val
            self.entry_params.append(val)
        results = self.convert_block(block, scope)
        comp.finish(self.pack(comp, results), entry=True)

    def convert_block(self, block, scope: Scope) -> list[Val]:
        """Convert every op; returns the terminator's operands."""
        for op in block.operations:
            name = op.operation.name
            if name in ("func.return", "stablehlo.return"):
                return [scope.get(v) for v in op.operands]
            rule = CONVERTERS.get(name)
            if rule is None:
                raise UnsupportedError(f"StableHLO op {name} is not supported by dynhlo's "
                                       f"importer ({where(op)})")
            results = rule(OpContext(self, op, scope))
            for value, val in zip(op.results, results, strict=True):
                scope.vals[value] = val
        raise UnsupportedError("a block without a return")

    def region(self, region, name: str, params: list, parent: Scope,
               captured: dict | None = None, as_tuple: bool = False) -> tuple[Comp, list[Val]]:
        """A region as a new computation whose parameters are `params` (shapes, one per
        block argument), or with `as_tuple` one tuple parameter holding the block arguments
        and then the `captured` outside values (MLIR value -> shape)."""
        comp = Comp(self.module, name)
        scope = comp.scope = Scope(comp, parent)
        block = region.blocks[0]
        if as_tuple:
            tup = comp.parameter(params[0], "state")
            for i, arg in enumerate(block.arguments):
                scope.vals[arg] = comp.emit(params[0].elements[i], "get-tuple-element", [tup],
                                            f"index={i}")
            base = len(block.arguments)
            for k, (value, shape) in enumerate((captured or {}).items()):
                scope.captured[value] = comp.emit(shape, "get-tuple-element", [tup],
                                                  f"index={base + k}")
                parent_val = parent.get(value)
                scope.captured[value].exprs = parent_val.exprs
        else:
            for arg, shape in zip(block.arguments, params, strict=True):
                scope.vals[arg] = comp.parameter(shape)
        return comp, self.convert_block(block, scope)

    def pack(self, comp: Comp, vals: list[Val]) -> Val:
        if len(vals) == 1:
            return vals[0]
        return comp.emit(TupleShape(tuple(v.shape for v in vals)), "tuple", vals)

    def unpack(self, comp: Comp, tup: Val, n: int) -> list[Val]:
        if n == 1:
            return [tup]
        return [comp.emit(tup.shape.elements[i], "get-tuple-element", [tup], f"index={i}")
                for i in range(n)]


def where(op) -> str:
    """An op's place for messages: `at FILE:LINE:COL (jit(f)/op)` from its MLIR location,
    the user's source line first (JAX records the Python frame of each op)."""
    text = str(op.location)
    name = re.search(r'loc\("([^"]*)"(?!:\d)', text)  # a name, not a "file":line:col
    frames = [f for f in re.findall(r'"([^"]+\.py)":(\d+):(\d+)', text)
              if "/dynhlo/" not in f[0]]  # from_jax's own call of jax.export is no news
    source = frames[0] if frames else None
    # else the op's place in the MLIR text ("-" is a string parse_stablehlo was given)
    place = re.search(r'"([^"]*)":(\d+):(\d+)', text) if source is None else None
    parts = []
    if source:
        parts.append(f"at {source[0]}:{source[1]}:{source[2]}")
    elif place and place.group(2) != "0":
        parts.append(f"at {'line ' if place.group(1) == '-' else place.group(1) + ':'}"
                     f"{place.group(2)}:{place.group(3)}")
    if name:
        parts.append(f"({name.group(1)})" if parts else f"at {name.group(1)}")
    return " ".join(parts) or "at an unknown location"


def rank_of(mlir_type) -> int:
    """The rank of a ranked tensor type; 0 for any other type (a token)."""
    from jaxlib.mlir import ir
    return ir.RankedTensorType(mlir_type).rank if is_type(mlir_type, ir.RankedTensorType) else 0


def free_values(region) -> list:
    """Values a region (and regions nested in it) uses but does not define, in first-use order."""
    defined, free = set(), {}

    def walk(reg):
        for block in reg.blocks:
            defined.update(block.arguments)
            for op in block.operations:
                for v in op.operands:
                    if v not in defined and v not in free:
                        free[v] = None
                for nested in op.regions:
                    walk(nested)
                defined.update(op.results)

    walk(region)
    return [v for v in free if v not in defined]


def bounded(shape: Shape, bounds: list) -> Shape:
    """`shape` with its UNBOUNDED dims replaced by `bounds[d]` where that is known; a tuple
    (a custom call's `tuple<...>` result) as it is: dynamic dimension inference bounds it."""
    if shape.is_tuple:
        return shape
    dims = tuple(b if d == UNBOUNDED and b is not None else d
                 for d, b in zip(shape.dims, bounds, strict=True))
    return Shape(shape.element_type, dims, shape.dynamic)
