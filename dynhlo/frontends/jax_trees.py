"""from_jax's argument trees: fn's positional and keyword arguments as pytrees.

The specs are flattened once with `jax.tree_util` (dicts, lists, tuples, registered
dataclasses and flax/equinox/haiku param trees alike); a leaf is an array spec or static (a
Python scalar, or a whole argument named in static_argnums/static_argnames). fn is exported
through a wrapper that takes the arrays in the same tree, with None where a static value was,
and puts the static values back before calling fn. A call is flattened against the same tree,
its static values compared with the exported ones, and its arrays checked against their specs
by path (`params['dense']['kernel']`), dimension, size name and bound.
"""

from __future__ import annotations

import inspect
import re

import numpy as np

from ..errors import ArgumentError, SizeRequirementError, UnsupportedError
from .jax_specs import ArraySpec, Sizes, is_static, read_spec


class _Static:
    """A whole static argument: one leaf, whatever its structure."""

    def __init__(self, value):
        self.value = value


class ArgumentTree:
    """fn's arguments as from_jax was given them: `specs` are the array leaves in JAX's
    flattening order (the exported module's entry parameters), `static` the other leaves."""

    def __init__(self, fn, args: tuple, kwargs: dict, static_argnums, static_argnames):
        from jax import tree_util
        self._tu = tree_util
        self.static_nums = _argnums(static_argnums, len(args))
        self.static_names = _argnames(static_argnames, kwargs)
        self.count, self.keys = len(args), sorted(kwargs)
        flat, self.treedef = tree_util.tree_flatten_with_path(self._top(args, kwargs))
        self._params = _parameter_names(fn)
        self.paths = [self._name(path) for path, _ in flat]
        self._keys = [_key_strings(path) for path, _ in flat]
        self.static = {k: v.value if isinstance(v, _Static) else v
                       for k, (_, v) in enumerate(flat) if isinstance(v, _Static) or is_static(v)}
        self.specs: list[ArraySpec] = [read_spec(self.paths[k], v) for k, (_, v)
                                       in enumerate(flat) if k not in self.static]
        self._dynamic = [k for k in range(len(flat)) if k not in self.static]

    def _top(self, args, kwargs):
        if not self.static_nums and not self.static_names:
            return (args, kwargs)
        return (tuple(_Static(a) if i in self.static_nums else a for i, a in enumerate(args)),
                {k: _Static(v) if k in self.static_names else v for k, v in kwargs.items()})

    def _name(self, path) -> str:
        """`params['dense']['kernel']`: the parameter's name in fn's signature, then the keys."""
        top, first, rest = path[0].idx, path[1], path[2:]
        if top == 1:
            base = str(first.key)
        else:
            i = first.idx
            base = self._params[i] if i < len(self._params) else f"args[{i}]"
        return base + self._tu.keystr(tuple(rest))

    def export_arguments(self) -> tuple[tuple, dict]:
        """(args, kwargs) for jax.export: ShapeDtypeStructs at the arrays, None where static."""
        structs = iter(s.struct() for s in self.specs)
        return self.treedef.unflatten([None if k in self.static else next(structs)
                                       for k in range(self.treedef.num_leaves)])

    def wrap(self, fn):
        """fn taking export_arguments' tree: the static values go back in before it runs."""
        def wrapped(*args, **kwargs):
            leaves = self.treedef.flatten_up_to((args, kwargs))
            for k, value in self.static.items():
                leaves[k] = value
            args, kwargs = self.treedef.unflatten(leaves)
            args = [a.value if isinstance(a, _Static) else a for a in args]
            kwargs = {k: v.value if isinstance(v, _Static) else v for k, v in kwargs.items()}
            return fn(*args, **kwargs)
        wrapped.__name__ = getattr(fn, "__name__", "fn")
        wrapped.__qualname__ = getattr(fn, "__qualname__", wrapped.__name__)
        return wrapped

    def arrays(self, args: tuple, kwargs: dict) -> list:
        """A call's array leaves in entry-parameter order; ArgumentError naming the path for
        another structure or a static value other than the exported one."""
        top = self._top(args, kwargs)
        try:
            leaves = self.treedef.flatten_up_to(top)
        except (ValueError, TypeError) as exc:
            raise ArgumentError(self._mismatch(args, kwargs, top, exc)) from None
        for k, want in self.static.items():
            got = leaves[k].value if isinstance(leaves[k], _Static) else leaves[k]
            if not _same(got, want):
                raise ArgumentError(f"{self.paths[k]} is static: fn was exported with {want!r}, "
                                    f"got {got!r}; call from_jax again for another value",
                                    None, self.paths[k])
        return [leaves[k] for k in self._dynamic]

    def _mismatch(self, args, kwargs, top, exc) -> str:
        if len(args) != self.count:
            return (f"from_jax was given {self.count} positional argument(s) "
                    f"({', '.join(self._argument_names()) or 'none'}), the call passes "
                    f"{len(args)}")
        if sorted(kwargs) != self.keys:
            return f"from_jax was given keyword arguments {self.keys}, the call passes " \
                   f"{sorted(kwargs)}"
        got = [_key_strings(p) for p, _ in self._tu.tree_flatten_with_path(top)[0]]
        for k, want in enumerate(self._keys):
            if not any(g[:len(want)] == want for g in got):
                return f"{self.paths[k]} is missing from the call's arguments"
        for path, _ in self._tu.tree_flatten_with_path(top)[0]:
            keys = _key_strings(path)
            if not any(keys[:len(w)] == w for w in self._keys):
                return f"{self._name(path)} is not in the arguments from_jax was given"
        return f"the arguments do not have the structure from_jax was given: {exc}"

    def _argument_names(self) -> list[str]:
        return [self._params[i] if i < len(self._params) else f"args[{i}]"
                for i in range(self.count)]


class SizeChecks:
    """The checks of a call's arrays against their specs, each dimension's worked out once
    (its static size, or its size name where the name has a range: str of a JAX symbolic
    size formats it anew at every call). Called with the arrays: rank, static dims, one
    size per name, each name's range; returns {(leaf, dimension): size}. ArgumentError
    naming the path."""

    def __init__(self, specs: list[ArraySpec], sizes: Sizes):
        self.sizes = sizes
        self.plan = [(spec, len(spec.dims), tuple(
            (d, want, None) if isinstance(want, int) else
            (d, None, str(want) if str(want) in sizes.ranges else None)
            for d, want in enumerate(spec.dims))) for spec in specs]

    def __call__(self, arrays: list) -> dict:
        seen: dict = {}
        out: dict = {}
        for k, ((spec, rank, dims), array) in enumerate(zip(self.plan, arrays, strict=True)):
            shape = array.shape if array.__class__ is np.ndarray else _shape_of(spec, array)
            if len(shape) != rank:
                raise ArgumentError(f"{spec.path} expects rank {rank} ({spec.text}), got "
                                    f"shape {list(shape)}", k, spec.path)
            for d, want, name in dims:
                size = out[(k, d)] = shape[d]
                if want is not None:
                    if size != want:
                        raise ArgumentError(f"{spec.path} dimension {d} is static {want} in "
                                            f"{spec.text}, got size {size}", k, spec.path, d,
                                            size, want)
                elif name is not None:
                    _check_name(spec, k, d, name, size, seen, self.sizes)
        return out


def _check_name(spec, k, d, name, size, seen, sizes) -> None:
    lo, hi = sizes.ranges[name]
    where = f"{spec.path} dimension {d}"
    if name in seen and seen[name][0] != size:
        raise ArgumentError(f"{where} has size {size}, but size '{name}' is {seen[name][0]} in "
                            f"{seen[name][1]}", k, spec.path, d, size, hi)
    seen.setdefault(name, (size, f"{spec.path} dimension {d}"))
    if hi is not None and size > hi:
        raise ArgumentError(f"{where} has size {size} > bound {hi} of size '{name}' in "
                            f"{spec.text}; pass at most {hi}", k, spec.path, d, size, hi)
    if size < lo:
        # the module's contract for its sizes (a DynamicSizeError), broken by an argument
        why = _lower_limits(name, sizes) if lo > 1 else " (JAX's sizes start at 1)"
        raise SizeRequirementError(f"{where} has size {size} < {lo}, the least size '{name}' "
                                   f"takes{why}", k, spec.path, d, size, hi)


def _lower_limits(name: str, sizes) -> str:
    """The constraints that name the size, other than its bound (`b >= 2`, `2*b >= k`), for
    a message about its least value; all of them when none names it alone."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    own = [c for c in sizes.constraints if word.search(c)
           and not re.fullmatch(rf"\s*{re.escape(name)}\s*<=\s*\d+\s*", c)]
    return f" under constraint {' and '.join(own or sizes.constraints)}" \
        f" (constraints {sizes.constraints})"


def _shape_of(spec: ArraySpec, array) -> tuple:
    if array is None:
        raise ArgumentError(f"{spec.path} is None; pass an array {spec.text}", None, spec.path)
    shape = getattr(array, "shape", None)
    return tuple(int(s) for s in (np.shape(array) if shape is None else shape))


def _same(got, want) -> bool:
    if got is want:
        return True
    try:
        return type(got) is type(want) and bool(got == want)
    except Exception:  # noqa: BLE001 - an == that raises or is no bool: not the same value
        return False


def _argnums(nums, count: int) -> set:
    nums = (nums,) if isinstance(nums, int) else tuple(nums)
    bad = [n for n in nums if not isinstance(n, int) or not -count <= n < count]
    if bad:
        raise UnsupportedError(f"static_argnums {bad} name no positional argument of the "
                               f"{count} given")
    return {n % count for n in nums}


def _argnames(names, kwargs: dict) -> set:
    names = (names,) if isinstance(names, str) else tuple(names)
    bad = [n for n in names if n not in kwargs]
    if bad:
        raise UnsupportedError(f"static_argnames {bad} name no keyword argument given in "
                               f"kwargs= (given: {sorted(kwargs)}): pass the static value there")
    return set(names)


def _parameter_names(fn) -> list[str]:
    """fn's positional parameter names, for naming arguments ([] where it has no signature)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    out = []
    for p in params:
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            break
        out.append(p.name)
    return out


def _key_strings(path) -> tuple:
    from jax import tree_util
    return tuple(tree_util.keystr((key,)) for key in path)
