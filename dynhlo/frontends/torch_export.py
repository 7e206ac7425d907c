"""from_torch's first half: a torch module or function as a jax.export'ed StableHLO module.

The route: `torch.export.export` with `torch.export.Dim` sizes (their min/max are the size
ranges; `bounds=` sets a Dim's max before export, so torch's own guards see it), then
torchax's interpreter of the exported FX graph, whose aten ops are JAX functions, exported by
`jax.export` with one symbolic size per torch symbol (`s27 <= 64` as its constraint). Weights
(parameters, buffers, lifted constants) are either closed over, so they become constants of
the module, or its first entry parameters. jax_enable_x64 is on while tracing, so torch's
int64 and float64 stay 64-bit, as eager PyTorch computes them.

torch, jax and torchax are optional: each is imported inside the functions here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
from dataclasses import dataclass

from ..errors import UnsupportedError

INSTALL = 'pip install "dynhlo[torch]"'
WEIGHTS = ("constants", "parameters")


@dataclass
class Input:
    """One tensor the exported program takes: its name, dtype and dims (an int, or the torch
    symbol's name with its size range)."""
    name: str
    dtype: object            # torch.dtype
    dims: list               # int | str per dimension
    dim_names: dict          # dimension -> the user's Dim name (for messages)


@dataclass
class TorchExport:
    """What export_torch returns: the jax.export.Exported, the program's inputs, the size
    range of each torch symbol, the weights (names and values, in entry order, when
    `weights="parameters"`) and the output pytree spec of torch.export."""
    exported: object
    inputs: list
    ranges: dict             # symbol -> (lowest, highest)
    in_spec: object
    out_spec: object
    weight_names: list
    weight_values: list


def import_torchax():
    """torchax.export, imported so that it loads beside torch 2.13.

    torchax 0.0.13's tables name aten overloads that torch 2.13 removed (the named-tensor
    `dimname` forms, `prod.dim_Dimname`, `norm.names_*`): looking one up raises AttributeError
    while torchax imports. Those names are looked up here as inert placeholders, for the
    import only: an op torch no longer has is never in a graph, and torchax only uses these
    tables as keys (autocast policies) and as a list for torch's get_decompositions, which
    skips what is not an operator. torchax also turns off torch's MHA fast path on import;
    the caller's setting is put back."""
    try:
        import torch
    except ImportError as exc:
        raise UnsupportedError(f"from_torch needs torch ({exc}); install it with: {INSTALL}") \
            from None
    try:
        with _missing_overloads_tolerated(torch), _fastpath_kept(torch):
            import torchax.export
    except ImportError as exc:
        raise UnsupportedError(f"from_torch needs torchax and jax ({exc}); install them "
                               f"with: {INSTALL}") from None
    return torchax.export


@contextlib.contextmanager
def _missing_overloads_tolerated(torch):
    packet = torch._ops.OpOverloadPacket
    original = packet.__getattr__

    def lookup(self, key):
        try:
            return original(self, key)
        except AttributeError:
            if key.startswith("__"):
                raise
            return _Removed(f"{self}.{key}")
    packet.__getattr__ = lookup
    try:
        yield
    finally:
        packet.__getattr__ = original


@contextlib.contextmanager
def _fastpath_kept(torch):
    before = torch.backends.mha.get_fastpath_enabled()
    try:
        yield
    finally:
        torch.backends.mha.set_fastpath_enabled(before)


class _Removed:
    """An aten overload that this torch does not have (a key nothing looks up)."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<removed overload {self.name}>"


def as_module(module_or_fn, torch):
    """A torch.nn.Module for torch.export: the module itself, or a function wrapped in one."""
    if isinstance(module_or_fn, torch.nn.Module):
        return module_or_fn
    if not callable(module_or_fn):
        raise UnsupportedError(f"from_torch takes a torch.nn.Module or a function of tensors, "
                               f"got {type(module_or_fn).__name__}")

    class Function(torch.nn.Module):
        def forward(self, *args, **kwargs):
            return module_or_fn(*args, **kwargs)
    # fn's own parameters, so that dynamic_shapes by position or by name meet them one to one
    signature = inspect.signature(module_or_fn)
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    Function.forward.__signature__ = signature.replace(
        parameters=[self_param, *signature.parameters.values()])
    return Function()


def with_bounds(dynamic_shapes, bounds: dict, torch):
    """`dynamic_shapes` with each Dim that `bounds` names given that max (its min kept).
    UnsupportedError for a name no Dim has, or a Dim that a derived Dim (2*T) is built on."""
    Dim = torch.export.Dim
    seen, derived = set(), set()

    def walk(node):
        if isinstance(node, dict):
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, (list, tuple)):
            return type(node)(walk(v) for v in node)
        if type(node).__name__ == "_DerivedDim":
            derived.add(node.root.__name__)
            return node
        if isinstance(node, Dim):
            seen.add(node.__name__)
            if node.__name__ in bounds:
                return Dim(node.__name__, min=node.min, max=bounds[node.__name__])
        return node
    out = walk(dynamic_shapes)
    unknown = sorted(set(bounds) - seen - derived)
    if unknown:
        raise UnsupportedError(f"bounds name {unknown}, which no torch.export.Dim in "
                               f"dynamic_shapes is called (Dims: {sorted(seen) or 'none'})")
    tied = sorted(set(bounds) & derived)
    if tied:
        raise UnsupportedError(f"bounds name Dim {tied[0]!r}, which a derived Dim is built "
                               f"on: give its max in the Dim itself, Dim({tied[0]!r}, max=N)")
    return out


def export_program(module, args: tuple, dynamic_shapes):
    """torch.export.export, its refusals as UnsupportedError with torch's first line."""
    import torch
    try:
        return torch.export.export(module, tuple(args), dynamic_shapes=dynamic_shapes)
    except Exception as exc:  # noqa: BLE001 - torch's own refusals: guards, data dependence
        lines = [ln for ln in str(exc).strip().splitlines() if ln.strip()]
        detail = " ".join(lines[:2]) if lines else type(exc).__name__
        raise UnsupportedError(f"torch.export cannot export this module: "
                               f"{type(exc).__name__}: {detail}") from exc


def program_inputs(ep, user_dims: dict) -> tuple[list, dict]:
    """The user inputs of an ExportedProgram as Inputs, and each symbol's (lowest, highest).
    `user_dims` maps (input index, dimension) to the user's Dim name."""
    import torch
    kinds = torch.export.graph_signature.InputKind
    placeholders = [n for n in ep.graph.nodes if n.op == "placeholder"]
    inputs, ranges = [], {}
    for node, spec in zip(placeholders, ep.graph_signature.input_specs, strict=True):
        if spec.kind != kinds.USER_INPUT:
            continue
        val = node.meta.get("val")
        if not isinstance(val, torch.Tensor):
            raise UnsupportedError(f"from_torch takes tensor arguments; input "
                                   f"{node.name!r} is {type(val).__name__}")
        dims = [d if isinstance(d, int) else str(d) for d in val.shape]
        index = len(inputs)
        inputs.append(Input(node.name, val.dtype, dims,
                            {d: user_dims[(index, d)] for d in range(len(dims))
                             if (index, d) in user_dims}))
    for sym, vr in ep.range_constraints.items():
        upper = None if vr.upper.is_infinite or str(vr.upper) == "int_oo" else int(vr.upper)
        ranges[str(sym)] = (max(int(vr.lower), 1), upper)
    return inputs, ranges


def user_dim_names(dynamic_shapes, args: tuple, params: list, torch) -> dict:
    """(flat input index, dimension) -> Dim name, read from dynamic_shapes beside the flat
    example arguments (a dict of specs is keyed by the forward's parameter names `params`)."""
    out: dict = {}
    if dynamic_shapes is None:
        return out
    specs = [dynamic_shapes.get(p) for p in params] if isinstance(dynamic_shapes, dict) \
        else list(dynamic_shapes)
    index = 0
    for arg, spec in zip(args, specs, strict=True):
        leaves = torch.utils._pytree.tree_leaves(arg)
        per_leaf = spec if isinstance(spec, (list, tuple)) and len(leaves) > 1 else [spec]
        for leaf_spec in per_leaf:
            items = leaf_spec.items() if isinstance(leaf_spec, dict) else \
                enumerate(leaf_spec or ())
            for d, dim in items:
                if hasattr(dim, "__name__") and not isinstance(dim, type):
                    out[(index, d)] = dim.__name__
            index += 1
    return out


def input_avals(ep) -> list:
    """jax.ShapeDtypeStructs of the user inputs, every torch symbol a JAX dimension variable of
    one scope with its range as constraints (torchax's extract_avals gives each symbol its own
    scope, which jax.export refuses as soon as two symbols meet). A derived size (`2*s27`) is
    read in that scope."""
    import jax
    import torch
    from torchax.ops import mappings
    symbols = sorted(str(s) for s in ep.range_constraints if s.is_symbol)
    constraints = []
    for sym, vr in ep.range_constraints.items():
        if sym.is_symbol and int(vr.lower) > 1:
            constraints.append(f"{sym} >= {int(vr.lower)}")
        if sym.is_symbol and not vr.upper.is_infinite and str(vr.upper) != "int_oo":
            constraints.append(f"{sym} <= {int(vr.upper)}")
    dims = jax.export.symbolic_shape(", ".join(symbols), constraints=constraints) \
        if symbols else ()
    env = dict(zip(symbols, dims, strict=True))
    scope = dims[0].scope if dims else None

    def dim(d):
        if isinstance(d, int):
            return d
        if str(d) in env:
            return env[str(d)]
        try:
            return jax.export.symbolic_shape(str(d), scope=scope)[0]
        except Exception as exc:  # noqa: BLE001 - a torch size JAX cannot spell
            raise UnsupportedError(f"the size {d} torch.export computed has no JAX "
                                   f"form: {exc}") from exc
    kinds = torch.export.graph_signature.InputKind
    placeholders = [n for n in ep.graph.nodes if n.op == "placeholder"]
    return [jax.ShapeDtypeStruct(tuple(dim(d) for d in n.meta["val"].shape),
                                 mappings.t2j_dtype(n.meta["val"].dtype))
            for n, spec in zip(placeholders, ep.graph_signature.input_specs, strict=True)
            if spec.kind == kinds.USER_INPUT]


def _fmod(x, y):
    """torch.fmod: C's fmod, exact, the sign of x (XLA's remainder); torch's promotion of a
    Python float operand."""
    import jax.numpy as jnp
    from torchax.ops import jaten
    promote = getattr(jaten, "_run_binary_pointwise_operator", None)
    return promote(jnp.fmod, x, y) if promote is not None else jnp.fmod(x, y)


def _is_int(value) -> bool:
    import jax.numpy as jnp
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (hasattr(value, "dtype") and
                                      jnp.issubdtype(value.dtype, jnp.integer))


def _rounded_div(original):
    """aten.div with rounding_mode "floor" or "trunc" of two integers: exact integer
    division in the operands' promoted type, as eager computes it. torchax divides in
    floats and returns int64 (int32 // int32 was int64; an int64 past 2**53 was rounded)."""
    def lower(x, y, rounding_mode=None):
        import jax.numpy as jnp
        from jax import lax
        if rounding_mode not in ("floor", "trunc") or not (_is_int(x) and _is_int(y)):
            return original(x, y, rounding_mode=rounding_mode)
        arrays = [v for v in (x, y) if hasattr(v, "dtype")]
        dtype = jnp.promote_types(*(v.dtype for v in arrays)) if len(arrays) == 2 else \
            arrays[0].dtype
        a, b = jnp.broadcast_arrays(jnp.asarray(x, dtype), jnp.asarray(y, dtype))
        return jnp.floor_divide(a, b) if rounding_mode == "floor" else lax.div(a, b)
    return lower


def _cumulative(name: str):
    """aten.cumsum/cumprod: an integer or bool input without a dtype accumulates in int64,
    as eager's does (torchax kept int32: a cumsum past 2**31 wrapped, and the dtype was
    not eager's)."""
    def lower(x, dim, dtype=None, **_):
        import jax.numpy as jnp
        from torchax.ops import mappings
        if dtype is not None:
            dtype = mappings.t2j_dtype(dtype)
        elif jnp.issubdtype(x.dtype, jnp.integer) or x.dtype == jnp.bool_:
            dtype = jnp.int64
        if not x.shape:
            return x.astype(dtype) if dtype is not None else x
        return getattr(jnp, name)(x, axis=dim, dtype=dtype)
    return lower


def _int64_indices(original):
    """aten.topk: its indices int64, as eager's (torchax gave lax.top_k's int32)."""
    def lower(*args, **kwargs):
        import jax.numpy as jnp
        values, indices = original(*args, **kwargs)
        return values, indices.astype(jnp.int64)
    return lower


def _corrections(table: dict) -> dict:
    """aten op -> a lowering computing what eager PyTorch computes, where torchax's does not
    (`table` holds torchax's own, which a correction may call).

    aten.fmod: torchax writes x - y * trunc(x / y), which rounds x / y: fmod(1e10, 7) was 0
    (eager: 4), fmod(3.3, 1.1) about 0 (eager: 1.0999999), fmod(0.5, inf) NaN (eager: 0.5),
    fmod(-0, y) +0, and int32 operands gave int64. aten.div with a rounding mode,
    aten.cumsum/cumprod of integers and aten.topk's indices: see _rounded_div, _cumulative
    and _int64_indices."""
    import torch
    aten = torch.ops.aten
    out = {aten.fmod: _fmod, aten.cumsum: _cumulative("cumsum"),
           aten.cumprod: _cumulative("cumprod")}
    if aten.div in table:
        out[aten.div] = _rounded_div(table[aten.div].func)
    if aten.topk in table:
        out[aten.topk] = _int64_indices(table[aten.topk].func)
    return out


@contextlib.contextmanager
def corrected_lowerings():
    """torchax's table of aten lowerings with _corrections() in place while the exported
    program is traced; the table is put back after (torchax's own users see its own)."""
    from torchax.ops import jaten, ops_registry  # noqa: F401 - jaten fills the table
    table = ops_registry.all_aten_ops
    saved = {}
    for op, func in _corrections(table).items():
        if op in table:
            saved[op] = table[op]
            table[op] = dataclasses.replace(table[op], func=func)
    try:
        yield
    finally:
        table.update(saved)


def to_stablehlo(ep, weights: str, tx) -> tuple:
    """(exported, weight names, weight values) from torchax's interpreter and jax.export."""
    import jax
    import torchax
    sig = ep.graph_signature
    names = list(sig.parameters) + list(sig.buffers) + \
        list(getattr(sig, "lifted_tensor_constants", ()))
    with jax.enable_x64(True), corrected_lowerings():
        try:
            _, states, func = tx.exported_program_to_jax(ep, export_raw=True)
            avals = input_avals(ep)
        except Exception as exc:  # noqa: BLE001 - decompositions torchax cannot run
            raise UnsupportedError(f"torchax cannot convert this exported program: "
                                   f"{type(exc).__name__}: {exc}") from exc
        values = torchax.default_env().t2j_copy(states)  # jax arrays, bf16 included
        if weights == "constants":
            fn, specs = (lambda inputs: func(values, inputs)), ((avals,),)
        else:
            fn = func
            specs = ([jax.ShapeDtypeStruct(v.shape, v.dtype) for v in values], (avals,))
        try:
            exported = jax.export.export(jax.jit(fn), platforms=("cpu",))(*specs)
        except AssertionError as exc:  # torchax's interpreter: an aten op it has no rule for
            raise UnsupportedError(f"torchax has no lowering for aten op {exc}") from exc
        except Exception as exc:  # noqa: BLE001 - JAX's refusals while tracing
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise UnsupportedError(f"tracing the exported program through torchax failed: "
                                   f"{type(exc).__name__}: {first}") from exc
    return exported, names, values


def export_torch(module_or_fn, args: tuple, dynamic_shapes, bounds: dict,
                 weights: str) -> TorchExport:
    """torch.export of `module_or_fn` at `args` with `dynamic_shapes`, then StableHLO."""
    if weights not in WEIGHTS:
        raise UnsupportedError(f"weights must be one of {WEIGHTS}, got {weights!r}")
    tx = import_torchax()
    import torch
    module = as_module(module_or_fn, torch)
    if bounds and dynamic_shapes is None:
        raise UnsupportedError(f"bounds name {sorted(bounds)} but dynamic_shapes is None: "
                               f"give each variable dimension a torch.export.Dim")
    shapes = with_bounds(dynamic_shapes, bounds, torch) if dynamic_shapes is not None else None
    ep = export_program(module, args, shapes)
    params = list(inspect.signature(module.forward).parameters)
    inputs, ranges = program_inputs(ep, user_dim_names(shapes, args, params, torch))
    for inp in inputs:
        for d, dim in enumerate(inp.dims):
            if isinstance(dim, str) and ranges.get(dim, (1, None))[1] is None:
                who = inp.dim_names.get(d, dim)
                raise UnsupportedError(
                    f"argument {inp.name!r} dimension {d} (Dim {who!r}) has no upper bound: "
                    f"give Dim({who!r}, max=N) or bounds={{{who!r}: N}}")
    exported, names, values = to_stablehlo(ep, weights, tx)
    in_spec = torch.utils._pytree.tree_flatten((tuple(args), {}))[1]
    keep = weights == "parameters"
    return TorchExport(exported, inputs, ranges, in_spec, ep.call_spec.out_spec,
                       names if keep else [], values if keep else [])
