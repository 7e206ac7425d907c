"""from_jax's argument specs: shape strings, ShapeDtypeStructs, sizes, constraints and bounds.

A spec leaf is an HLO shape string (`"f32[n,16]"`, or with NumPy's dtype names
`"float32[n,16]"`), anything with `.shape` and `.dtype` (`jax.ShapeDtypeStruct`, whose dims
may be `jax.export.symbolic_shape` sizes, or an example array, whose sizes are then static),
or a Python scalar (a static value, as a closed-over constant). Every size name lives in one
`jax.export` symbolic scope whose constraints are the user's (`"b >= 2"`, `"k <= n"`), those of
the scope the ShapeDtypeStructs came from, and the bounds (`n <= 64`); each size's range is
what JAX's own decision procedure derives from them, so `k <= n` with `n <= 64` bounds `k`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import UnsupportedError
from ..hlo.types import ARRAY_TYPES, from_numpy_dtype, to_numpy_dtype

_SHAPE = re.compile(r"^\s*([a-z0-9_]+)\[([^\]]*)\]\s*$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
PYTHON_SCALARS = (bool, int, float, complex)


def element_type(name: str) -> str | None:
    """An XLA element type from its HLO name (`f32`) or NumPy's/ml_dtypes' (`float32`,
    `bfloat16`, `bool`); None for anything else (`float`, `f4`: not a dtype's own name)."""
    if name in ARRAY_TYPES:
        return name
    try:
        dtype = np.dtype(name)
    except TypeError:
        import ml_dtypes  # bfloat16 and the float8 types are ml_dtypes' names
        found = getattr(ml_dtypes, name, None)
        dtype = np.dtype(found) if isinstance(found, type) else None
    return from_numpy_dtype(dtype) if dtype is not None and dtype.name == name else None


def parse_symbolic_shape(text: str) -> tuple[str, list]:
    """`"f32[n,16]"` (or `"float32[n,16]"`) -> ("f32", ["n", 16]). UnsupportedError else."""
    m = _SHAPE.match(text) if isinstance(text, str) else None
    if m is None:
        raise UnsupportedError(f"shape {text!r} is not an HLO shape like \"f32[n,16]\"")
    name, body = m.group(1), m.group(2).strip()
    element = element_type(name)
    if element is None:
        raise UnsupportedError(f"shape {text!r}: unknown element type '{name}' (an HLO name "
                               f"such as f32, or a NumPy dtype name such as float32)")
    dims = []
    for tok in (t.strip() for t in body.split(",")) if body else ():
        if tok.isdigit():
            dims.append(int(tok))
        elif _NAME.match(tok):
            dims.append(tok)
        else:
            # `<=4` is HLO's bounded dim; here a dim is a JAX name whose bound goes in bounds=
            hint = (f" (name it, with its bound in bounds=: \"{element}[n]\", bounds={{'n': "
                    f"{tok[2:].strip()}}})") if re.fullmatch(r"<=\s*\d+", tok) else ""
            raise UnsupportedError(f"shape {text!r}: dimension '{tok}' is neither a size nor "
                                   f"a name{hint}")
    return element, dims


@dataclass
class ArraySpec:
    """One array leaf: where it is (`params['dense']['kernel']`), its element type, its dims
    (ints, size names, or JAX symbolic sizes once `resolve_sizes` ran) and how it was given."""
    path: str
    element: str
    dims: list
    text: str

    def struct(self):
        import jax
        return jax.ShapeDtypeStruct(tuple(self.dims), to_numpy_dtype(self.element))


def is_static(value) -> bool:
    """A Python scalar leaf: a static value, as jax.jit's static arguments are."""
    return isinstance(value, PYTHON_SCALARS)


def read_spec(path: str, value) -> ArraySpec:
    """The ArraySpec of a leaf that is a shape string or has `.shape` and `.dtype`."""
    if isinstance(value, str):
        element, dims = parse_symbolic_shape(value)
        return ArraySpec(path, element, dims, value)
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        try:
            element = from_numpy_dtype(np.dtype(value.dtype))
        except TypeError:
            element = None
        if element is None:
            raise UnsupportedError(f"{path}: dtype {value.dtype} has no XLA element type")
        dims = [d if _is_symbolic(d) else int(d) for d in value.shape]
        return ArraySpec(path, element, dims, f"{element}[{','.join(map(str, dims))}]")
    raise UnsupportedError(
        f"{path} is a {type(value).__name__}, not an array spec (a shape string such as "
        f"\"f32[n,16]\", a jax.ShapeDtypeStruct, an array) nor a Python scalar: mark it static "
        f"with static_argnums/static_argnames, or register its type as a JAX pytree")


def _is_symbolic(dim) -> bool:
    return not isinstance(dim, (int, np.integer)) and hasattr(dim, "scope")


@dataclass
class Sizes:
    """The size names in order, each name's (least, greatest or None) size, and the constraints
    they were derived from (for messages)."""
    names: list
    ranges: dict
    constraints: list


def resolve_sizes(specs: list[ArraySpec], constraints, bounds: dict) -> Sizes:
    """Put every size of `specs` into one symbolic scope (in place: their dims become JAX
    symbolic sizes) with the constraints and bounds; UnsupportedError naming what is wrong."""
    from jax import export
    scopes = {id(d.scope): d.scope for s in specs for d in s.dims if _is_symbolic(d)}
    if len(scopes) > 1:
        raise UnsupportedError("the ShapeDtypeStructs' sizes come from more than one "
                               "jax.export.symbolic_shape scope: make them with one "
                               "(symbolic_shape(\"a, b\"), or scope=)")
    names = list(dict.fromkeys(
        n for s in specs for d in s.dims for n in
        ((d,) if isinstance(d, str) else sorted(d._get_vars()) if _is_symbolic(d) else ())))
    _check_names(specs, names, bounds, constraints)
    inherited = [getattr(c, "debug_str", None) for s in scopes.values()
                 for c in s._explicit_constraints]
    every = [c for c in inherited if c] + list(constraints) + [
        f"{n} <= {bounds[n]}" for n in names if n in bounds]
    if not names:
        return Sizes([], {}, every)
    try:
        symbols = export.symbolic_shape(", ".join(names), constraints=every)
    except Exception as exc:  # noqa: BLE001 - JAX's parse errors, named with the constraints
        raise UnsupportedError(f"constraints {every}: {type(exc).__name__}: "
                               f"{_first_line(exc)}") from None
    env, scope = dict(zip(names, symbols, strict=True)), symbols[0].scope
    for s in specs:
        s.dims = [env[d] if isinstance(d, str) else
                  export.symbolic_shape(str(d), scope=scope)[0] if _is_symbolic(d) else d
                  for d in s.dims]
    try:
        ranges = {n: size_range(env[n], bounds.get(n)) for n in names}
    except ValueError as exc:  # JAX's "Unsatisfiable constraint: n <= 4"
        raise UnsupportedError(f"constraints {every}: {_first_line(exc)}") from None
    return Sizes(names, ranges, every)


def _check_names(specs, names, bounds, constraints) -> None:
    unknown = sorted(set(bounds) - set(names))
    if unknown and not specs:
        raise UnsupportedError(f"bounds name {unknown} but no shapes were given: pass one "
                               f"shape string per argument of fn after it, e.g. "
                               f"from_jax(fn, \"f32[{unknown[0]},16]\", bounds=...)")
    if unknown:
        raise UnsupportedError(f"bounds name {unknown} that no shape uses (names: {names})")
    if isinstance(constraints, str) or not all(isinstance(c, str) for c in constraints):
        raise UnsupportedError(f"constraints takes a list of strings such as [\"b >= 2\", "
                               f"\"k <= n\"], got {constraints!r}")


def size_range(dim, given: int | None) -> tuple[int, int | None]:
    """(least, greatest or None) value of a symbolic size under its scope's constraints: JAX's
    own bounds decision (`k <= n`, `n <= 64` gives k at most 64). Where that private function
    is missing (another JAX), the given bound alone, and 1 as JAX's least size."""
    try:
        from jax._src.export.shape_poly import BoundsPrecision, _bounds_decision
        lo, hi = _bounds_decision(dim, BoundsPrecision.BEST)
    except (ImportError, AttributeError, TypeError):
        return 1, given
    hi = None if hi == float("inf") else int(hi)
    return max(1, int(lo)), hi if given is None or hi is None else min(hi, given)


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
