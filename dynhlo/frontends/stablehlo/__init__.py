"""dynhlo.parse_stablehlo: StableHLO (MLIR text, bytecode, portable artifact) -> HloModule.

Symbolic dimensions (`tensor<?x16xf32>`) become bounded dynamic dimensions (`f32[<=64,16]`)
where a bound is given (or encoded as `#stablehlo.bounds`), else `?`. Sizes computed at run
time stay computed at run time (get-dimension-size, set-dimension-size), so a module exported
with `jax.export` and symbolic shapes gives jax.jit's result at every size within the bounds.
"""

from __future__ import annotations

from ...errors import DynHloError, UnsupportedError
from ...hlo.ir import HloModule
from ...hlo.text.parser import parse_hlo
from ...passes.bound_unbounded import bound_unbounded
from ...runtime.module_text import keep_in_text
from . import chlo, dynamic, misc, ops, regions, slices  # noqa: F401
from . import shape_exprs as sx
from ..mlir_load import inline_calls, legalize_chlo, load_module, op_names
from .calls import check_call_graph
from .convert import CONVERTERS, Converter, rank_of
from .emit import MAX_SIZE, fill_large_constants, is_type


def parse_stablehlo(data: str | bytes, bounds: dict | None = None) -> HloModule:
    """Convert a StableHLO module to an HloModule.

    Args:
        data: MLIR text (`jax.jit(f).lower(x).as_text()`, `exported.mlir_module()`), MLIR
            bytecode, or a portable artifact (`exported.mlir_module_serialized`).
        bounds: upper bounds of the dynamic (`?`) dimensions of the entry arguments: by JAX
            dimension variable name (`{"n": 64}`, for `jax.export` modules) or by argument
            index and dimension (`{0: {0: 64}}`). A dimension without one takes the bound
            JAX's constraints assert (`n <= 64` in jax.export's symbolic_shape), else stays `?`.

    Returns:
        The HloModule; its `shape_assertions` attribute lists JAX's shape assertions (checked
        before each call by every executable of the module, saved artifacts included;
        dynamic dimension bounds already enforce `<=`).

    Raises:
        UnsupportedError: jax is not installed (`pip install "dynhlo[jax]"`), or an op, type
            or run-time size dynhlo cannot represent (named, with its MLIR location).
        HloParseError: the input is not MLIR (bytecode is read in a child process, so
            bytecode that crashes MLIR's reader is this error too).
        ResourceExhaustedError: the module's constants (splats aside: they stay one
            element and a broadcast) need more than the host's free memory.
    """
    return import_module(*load_module(data), bounds)


def import_module(ctx, module, bounds: dict | None = None,
                  lows: dict | None = None) -> HloModule:
    """parse_stablehlo of a module already loaded in `ctx` (mlir_load.load_module). `lows`:
    (param, dim) -> the least size that dim takes (from_jax's constraints; 0 where absent),
    which the size expressions' ranges start at (a division by a size >= 1 is bounded)."""
    with ctx:
        named = functions(module)
        entry = _entry(named)
        check_call_graph(named, str(entry.attributes["sym_name"]).strip('"'))
        names = dimension_names(module)
        inline_calls(ctx, module)
        if any(n.startswith("chlo.") and n not in CONVERTERS for n in op_names(module)):
            legalize_chlo(ctx, module)  # only then: erf and top_k map to HLO ops directly
        given = resolve_bounds({} if bounds is None else bounds, names,
                               entry_ranks(_entry(functions(module))))
        converter = _convert(module, {**derived_bounds(module, given), **given}, lows or {})
    text = converter.module.text(_module_name(module))
    hlo = parse_hlo(text)
    fill_large_constants(hlo, converter.module.large_constants)
    if any(inst.shape.is_unbounded for inst in hlo.instructions()) and not any(
            p.shape.is_unbounded for p in hlo.entry.parameters):
        hlo = bound_unbounded(hlo)
    hlo.shape_assertions = converter.assertions
    keep_in_text(hlo)   # its text, printed, keeps JAX's assertions
    hlo.dimension_names = names
    return hlo


def _convert(module, param_bounds: dict, param_lows: dict | None = None) -> Converter:
    converter = Converter(param_bounds, param_lows or {})
    converter.functions = functions(module)
    converter.convert_entry(_entry(converter.functions))
    return converter


def functions(module) -> dict:
    """Symbol name -> func.func op, for the module's functions."""
    return {str(op.attributes["sym_name"]).strip('"'): op for op in module.body.operations
            if op.operation.name == "func.func" and "sym_name" in op.attributes}


def entry_ranks(func) -> list[int]:
    """The ranks of a function's arguments."""
    return [rank_of(arg.type) for arg in func.regions[0].blocks[0].arguments]


def _entry(named: dict):
    entry = named.get("main") or _only_public(named)
    if not len(entry.regions[0].blocks):
        raise UnsupportedError(f"the entry function @{str(entry.attributes['sym_name'])[1:-1]} "
                               "is a declaration without a body")
    return entry


PROBE = 2**31 - 1


def derived_bounds(module, given: dict) -> dict:
    """Bounds JAX's own constraints imply (`n <= 64` is a shape assertion in the module), for
    the `?` dims `given` leaves: the largest size every assertion on that dim alone allows,
    shared with the dims asserted equal to it. {} when there is nothing to derive."""
    if not _has_open_dims(module, given):
        return {}
    try:
        probe = _convert(module, _ProbeBounds(given))
    except DynHloError:
        return {}
    dims = [(p, d) for p, v in enumerate(probe.entry_params) for d in range(v.shape.rank)
            if v.shape.dynamic[d] and (p, d) not in given]
    out = {}
    for key in dims:
        own = [a.pred for a in probe.assertions if sx.params_of(a.pred) == {key}]
        # a lower limit (`n >= 2`) holds at huge sizes and says nothing about the bound
        upper = [p for p in own if not sx.evaluate(p, {key: PROBE - 1})]
        bound = _largest(lambda v: all(sx.evaluate(p, {key: v}) for p in upper)) \
            if upper else None
        if bound is not None:
            out[key] = bound
    known = {**out, **given}
    for a in probe.assertions:  # `arg1.shape[0] == n`: equal dims share the bound
        pair = sorted(sx.params_of(a.pred))
        if len(pair) == 2 and a.pred[0] == "cmpEQ" and (pair[0] in known) != (pair[1] in known):
            source, other = (pair[0], pair[1]) if pair[0] in known else (pair[1], pair[0])
            out[other] = known[other] = known[source]
    return out


def _has_open_dims(module, given: dict) -> bool:
    """True when an entry argument has a `?` dim that `given` does not bound."""
    from jaxlib.mlir import ir
    main = _entry(functions(module))
    for p, arg in enumerate(main.regions[0].blocks[0].arguments):
        if is_type(arg.type, ir.RankedTensorType):
            shape = ir.RankedTensorType(arg.type).shape
            if any(ir.ShapedType.is_dynamic_size(s) and (p, d) not in given
                   for d, s in enumerate(shape)):
                return True
    return False


class _ProbeBounds(dict):
    """Bounds for a first conversion that only collects the assertions: unknown dims get a
    huge bound."""

    def get(self, key, default=None):
        return super().get(key, PROBE)


def _largest(ok) -> int | None:
    """The largest v in [1, PROBE) with ok(v), for ok true up to a point and false after."""
    if not ok(1) or ok(PROBE - 1):
        return None
    lo, hi = 1, PROBE - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def _only_public(named: dict):
    public = [f for f in named.values()
              if "sym_visibility" not in f.attributes
              or str(f.attributes["sym_visibility"]).strip('"') == "public"]
    if len(public) != 1:
        raise UnsupportedError(f"no @main function and {len(public)} public functions: "
                               "cannot tell which is the entry")
    return public[0]


def _module_name(module) -> str:
    attrs = module.operation.attributes
    name = str(attrs["sym_name"]).strip('"') if "sym_name" in attrs else "stablehlo"
    return name or "stablehlo"


def dimension_names(module) -> dict[str, tuple[int, int]]:
    """JAX dimension variable -> (argument, dimension) of @main that gives its value.

    jax.export's @main computes each variable with `get_dimension_size` and passes it to
    the wrapped function as an argument marked `jax.global_constant = "n"`."""
    from jaxlib.mlir import ir
    named = functions(module)
    main = named.get("main")
    if main is None:
        return {}
    args = list(main.regions[0].blocks[0].arguments)
    names = {}
    for op in main.regions[0].blocks[0].operations:
        if op.operation.name != "func.call":
            continue
        callee = named.get(str(op.attributes["callee"]).lstrip("@"))
        if callee is None or "arg_attrs" not in callee.attributes:
            continue
        for attr, operand in zip(ir.ArrayAttr(callee.attributes["arg_attrs"]), op.operands,
                                 strict=False):
            attr = ir.DictAttr(attr)
            if "jax.global_constant" not in attr:
                continue
            name = str(attr["jax.global_constant"]).strip('"')
            owner = operand.owner
            if getattr(owner, "name", "") == "stablehlo.convert":  # to i64 under jax_enable_x64
                owner = owner.operands[0].owner
            if getattr(owner, "name", "") == "stablehlo.get_dimension_size":
                source = owner.operands[0]
                if source in args:
                    names[name] = (args.index(source),
                                   int(owner.attributes["dimension"].value))
    return names


def resolve_bounds(bounds: dict, names: dict, ranks: list[int]) -> dict[tuple[int, int], int]:
    """User bounds (by name or by argument index) as (argument, dimension) -> bound; `ranks`
    are the entry arguments' ranks. UnsupportedError for anything but a dict of those forms,
    a bound that is not a whole number in 0..MAX_BOUND, and a place the entry lacks (a bound
    silently ignored would leave the dimension unbounded)."""
    if not isinstance(bounds, dict):
        raise UnsupportedError(f"bounds takes {{'n': 64}} or {{0: {{0: 64}}}}, got {bounds!r}")
    out = {}
    for key, value in bounds.items():
        if isinstance(key, str):
            if key not in names:
                raise UnsupportedError(f"bounds name '{key}' is not a dimension variable of "
                                       f"this module (it has {sorted(names) or 'none'})")
            out[names[key]] = check_bound(f"'{key}'", value)
        elif _is_index(key) and isinstance(value, dict):
            for d, b in value.items():
                if not _is_index(d) or key >= len(ranks) or d >= ranks[key]:
                    raise UnsupportedError(
                        f"bounds name argument {key} dimension {d!r}, which the entry "
                        f"function does not have (its argument ranks: {ranks})")
                out[(key, d)] = check_bound(f"argument {key} dimension {d}", b)
        else:
            raise UnsupportedError(f"bounds takes {{'n': 64}} or {{0: {{0: 64}}}}, got "
                                   f"{key!r}: {value!r}")
    return out


MAX_BOUND = MAX_SIZE


def _is_index(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def check_bound(where: str, value, low: int = 0) -> int:
    """`value` if it is a whole number in low..MAX_BOUND, else UnsupportedError naming `where`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_BOUND:
        raise UnsupportedError(f"bound for {where} must be a whole number in "
                               f"{low}..{MAX_BOUND}, got {value!r}")
    return value
