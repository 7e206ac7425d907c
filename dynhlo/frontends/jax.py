"""dynhlo.from_jax: a JAX function as a dynhlo executable whose sizes stay symbolic.

The route: `jax.export` with `jax.export.symbolic_shape` dimension variables (the bounds become
its constraints `n <= 64`, beside the user's), then dynhlo's StableHLO import
(dynhlo.frontends.stablehlo). Arguments and results are pytrees (jax_trees.py); the specs,
sizes and constraints are read in jax_specs.py. JAX
never sees a concrete size, so nothing is baked in: a mean over a dynamic axis divides by the
actual size. JAX's shape assertions (`n >= 1`, the constraints) are checked from the argument
shapes before each call and raise ArgumentError with JAX's message.
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentError, UnsupportedError
from ..options import canonical
from ..runtime.buckets import next_power_of_two
from ..runtime.executable import compile as compile_module
from .mlir_load import INSTALL, load_module
from .jax_specs import Sizes, parse_symbolic_shape, resolve_sizes, size_range
from .jax_trees import ArgumentTree, SizeChecks
from .stablehlo import check_bound, import_module

__all__ = ["from_jax", "JaxExecutable", "named_bounds", "parse_symbolic_shape"]


def named_bounds(bounds, low: int) -> dict:
    """from_jax's and from_tf's `bounds` checked: a dict of size name -> a whole number in
    low..MAX_BOUND (None: {}). UnsupportedError naming the entry otherwise."""
    if bounds is None:
        return {}
    if not isinstance(bounds, dict):
        raise UnsupportedError(f"bounds maps size names to bounds ({{'n': 64}}), got {bounds!r}")
    return {name: check_bound(f"'{name}'", value, low) for name, value in bounds.items()}


def export_jax(fn, tree: ArgumentTree, sizes: Sizes):
    """jax.export of `fn` at the tree's specs (their dims already JAX symbolic sizes)."""
    import jax
    from jax import export
    args, kwargs = tree.export_arguments()
    try:
        # Lowered for JAX's CPU platform on every machine: its linear algebra is then
        # LAPACK's custom calls (lapack_*_ffi), which both backends run. JAX's default
        # platform on a GPU machine is cuda, whose cuSOLVER targets dynhlo runs too through
        # the same lowerings (shapes/rules_gpu_solver.py), but for fewer functions (no
        # jnp.linalg.eig: cuSOLVER's geev is not run), so one module, whatever the machine,
        # is the CPU platform's.
        return export.export(jax.jit(tree.wrap(fn)), platforms=("cpu",))(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - JAX's own refusals: callbacks, size-1 checks, ...
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        given = ", ".join(f"{s.path}: {s.text}" for s in tree.specs)
        with_constraints = f" with constraints {sizes.constraints}" if sizes.constraints else ""
        raise UnsupportedError(f"jax.export cannot export this function at shapes "
                               f"[{given}]{with_constraints}: {type(exc).__name__}: "
                               f"{first}") from exc


def _need_jax():
    try:
        import jax  # noqa: F401
    except ImportError as exc:
        raise UnsupportedError(f"from_jax needs jax ({exc}); install it with: {INSTALL}") \
            from None


class JaxExecutable:
    """What from_jax returns: call it as fn is called, with arrays of actual sizes.

    `exe.module` is the HloModule (print it, save it, `dynhlo.compile` it for AOT) and
    `exe.executable` the compiled dynhlo Executable. While a size has no bound, one module is
    converted and compiled per power-of-two bucket of the sizes met, and these two are the
    last bucket's (None before the first call).
    """

    def __init__(self, exported, tree: ArgumentTree, sizes: Sizes, backend: str,
                 options: dict):
        self.exported, self.tree, self.sizes = exported, tree, sizes
        self.names = sizes.names
        self.bounds = {n: hi for n, (_, hi) in sizes.ranges.items() if hi is not None}
        self.backend, self.options = backend, options
        self._text = exported.mlir_module_serialized  # bytecode: faster to read than text
        self._by_bucket: dict = {}
        # (leaf, dimension) -> its bound, or None for a size without one (bucketed)
        self._places = _place_bounds(tree.specs, sizes)
        self._lows = _place_lows(tree.specs, sizes)
        self._check_sizes = SizeChecks(tree.specs, sizes)
        # jax.export drops the arguments fn never reads: the module's parameter i is leaf
        # kept[i] (the others are checked against their specs, then left out)
        self._kept = sorted(exported.module_kept_var_idx)
        self.executable = self.module = None
        self._bucketed = None in self._places.values()
        if not self._bucketed:
            self.module = self._import(self._places)
            self.executable = self._compile(self.module)

    def _import(self, places: dict):
        position = {leaf: i for i, leaf in enumerate(self._kept)}
        by_position: dict = {}
        for (p, d), bound in places.items():
            if p in position:
                by_position.setdefault(position[p], {})[d] = bound
        lows = {(position[p], d): lo for (p, d), lo in self._lows.items() if p in position}
        # jax.export made this bytecode in this process: no child process to read it
        return import_module(*load_module(self._text, isolate=False), by_position, lows)

    def _compile(self, module):
        module.sizes_checked = True   # jax.export's symbolic sizes: no BakedSizeWarning
        return compile_module(module, self.backend, **self.options)

    def _for_sizes(self, sizes: dict):
        if not self._bucketed:
            return self.executable, self.module
        key = tuple(bound if bound is not None else next_power_of_two(sizes[place])
                    for place, bound in self._places.items())
        if key not in self._by_bucket:
            module = self._import(dict(zip(self._places, key, strict=True)))
            self._by_bucket[key] = (self._compile(module), module)
        self.executable, self.module = self._by_bucket[key]
        return self._by_bucket[key]

    def __call__(self, *args, **kwargs):
        arrays = self.tree.arrays(args, kwargs)
        jax_in = not all(a.__class__ is np.ndarray for a in arrays) and \
            any(map(_is_jax, arrays))
        if jax_in:
            arrays = [_from_jax(a, self.backend) if _is_jax(a) else a for a in arrays]
        sizes = self._check_sizes(arrays)
        exe, module = self._for_sizes(sizes)
        try:
            out = exe(*[arrays[k] for k in self._kept])   # then JAX's shape assertions
        except ArgumentError as exc:
            raise self._named(exc) from None
        leaves = list(out) if isinstance(out, tuple) else [out]
        if jax_in:
            leaves = [_to_jax(o) for o in leaves]
        # the structure fn returns (tuples, dicts, nested), as jax.jit(fn) returns it
        return self.exported.out_tree.unflatten(leaves)

    def _named(self, exc: ArgumentError) -> ArgumentError:
        """The executable's error about entry parameter p, naming fn's argument path."""
        if exc.parameter is None or not 0 <= exc.parameter < len(self._kept):
            return exc
        p = exc.parameter
        path = self.tree.specs[self._kept[p]].path
        message = str(exc).replace(f"parameter {p} '{exc.name}'", path, 1)
        return ArgumentError(message, p, path, exc.dimension, exc.size, exc.bound)

    def save(self, path) -> None:
        """Write the compiled executable as an AOT artifact (dynhlo.load reads it). The
        loaded executable checks the bounds and JAX's shape assertions (sizes >= 1), as
        this one does. It is a plain HLO executable: NumPy in and out, one array per array
        leaf of fn's arguments in jax.tree_util's order (dict keys sorted, static values and
        the leaves fn never reads left out, as jax.export leaves them out), and the results are the HLO root's, a flat tuple of fn's output leaves in the
        same order, not fn's structure (which lives in this process's JAX objects).

        Raises UnsupportedError while a size has no bound: its buckets compile at call
        time, and saving the last one would bake in whichever size came last."""
        unbounded = [n for n in self.names if n not in self.bounds]
        if unbounded:
            raise UnsupportedError(f"save needs a bound for every size name; {unbounded} "
                                   f"{'has' if len(unbounded) == 1 else 'have'} none (an "
                                   f"unbounded name compiles per bucket at call time): give "
                                   f"from_jax bounds={{{unbounded[0]!r}: N}}")
        self.executable.save(path)

    def __repr__(self) -> str:
        # fn's name: the module is None until an unbounded name's first call
        return (f"<dynhlo.from_jax {self.exported.fun_name} bounds={self.bounds} "
                f"backend={self.backend}>")


def _place_bounds(specs, sizes: Sizes) -> dict:
    """(leaf, dimension) -> the upper bound of its size (a name's, or an expression's such as
    `2*n` under the constraints), or None when it has none, for every symbolic dimension."""
    out = {}
    for p, spec in enumerate(specs):
        for d, dim in enumerate(spec.dims):
            if not isinstance(dim, int):
                name = str(dim)
                out[(p, d)] = sizes.ranges[name][1] if name in sizes.ranges \
                    else size_range(dim, None)[1]
    return out


def _place_lows(specs, sizes: Sizes) -> dict:
    """(leaf, dimension) -> the least value of its size under the constraints (JAX's sizes
    start at 1), for every symbolic dimension: the import's size expressions start there."""
    out = {}
    for p, spec in enumerate(specs):
        for d, dim in enumerate(spec.dims):
            if not isinstance(dim, int):
                name = str(dim)
                out[(p, d)] = sizes.ranges[name][0] if name in sizes.ranges \
                    else size_range(dim, None)[0]
    return out


def _is_jax(value) -> bool:
    return type(value).__module__.startswith(("jax", "jaxlib")) and hasattr(value, "__dlpack__")


def _from_jax(array, backend: str):
    """A JAX array as NumPy (CPU: a zero-copy DLPack view) or, for the gpu backend, as a
    torch tensor on its device (DLPack, no copy)."""
    if backend == "gpu":
        import torch
        return torch.from_dlpack(array)
    try:
        return np.from_dlpack(array)
    except (BufferError, RuntimeError, TypeError):
        return np.asarray(array)


def _to_jax(value):
    """A result as a JAX array: DLPack (no copy where jax accepts the buffer), else a copy
    through the host (a device tensor jax cannot import: jax without that device's plugin)."""
    import jax
    try:
        return jax.dlpack.from_dlpack(value)
    except (BufferError, RuntimeError, TypeError, ValueError):
        host = value.cpu() if hasattr(value, "cpu") else value
        return jax.numpy.asarray(np.asarray(host))


def from_jax(fn, *specs, kwargs: dict | None = None, bounds: dict | None = None,
             constraints=(), static_argnums=(), static_argnames=(), backend: str = "cpu",
             **compile_options) -> JaxExecutable:
    """Compile a JAX function for every size within bounds, with its sizes kept symbolic.

    Args:
        fn: a function of JAX arrays and pytrees of them (or a jax.jit-wrapped one).
        specs: one spec per positional argument of fn, each a pytree (dicts, lists, tuples,
            registered dataclasses, flax/equinox/haiku param trees) whose leaves are array
            specs: an HLO shape string whose dimensions may be names (`"f32[n,16]"`, or with
            NumPy's dtype names `"float32[n,16]"`; one name in several places is one size), a
            `jax.ShapeDtypeStruct` (its dims may be `jax.export.symbolic_shape` sizes), or an
            array (static sizes: its shape and dtype). A Python scalar leaf is a static value.
        kwargs: specs of fn's keyword arguments, by name.
        bounds: name -> upper bound (`{"n": 64}`), each a `n <= 64` constraint for jax.export.
        constraints: more jax.export constraints (`["b >= 2", "k <= n", "a == 2*b"]`), added to
            those of the ShapeDtypeStructs' scope. A size without a bound takes the greatest
            value the constraints allow (`k <= n` with n's bound); one with none at all is
            unbounded: one program is compiled per power-of-two bucket of the sizes met.
        static_argnums, static_argnames: arguments passed to fn as they are (any Python
            value), as jax.jit's; each call must pass the value given here.
        backend: "cpu" or "gpu"; compile_options go to dynhlo.compile.

    Returns:
        A JaxExecutable: `exe(*args, **kwargs)`, called as fn is (the same tree, its static
        values included), computes what `jax.jit(fn)` computes at the arrays' actual sizes,
        in the structure fn returns. NumPy in, NumPy out; JAX arrays in, JAX arrays out
        (through DLPack: no copy on the way in on the CPU, and none on the way out where jax
        accepts NumPy's buffer). `exe.module` is the HloModule.

    The function is lowered for JAX's CPU platform on every machine (its LAPACK custom calls
    run on both backends). On a GPU machine JAX still starts its own CUDA client when it
    traces, and by default that client takes 75% of the GPU's memory: set
    `XLA_PYTHON_CLIENT_PREALLOCATE=false` (or `JAX_PLATFORMS=cpu` when JAX runs nothing
    else on the GPU) before JAX is imported, so that dynhlo's GPU backend has the memory.

    Raises:
        UnsupportedError: jax missing (`pip install "dynhlo[jax]"`), a bad spec, bounds,
            constraint or precision, or an op the StableHLO import cannot represent (named).
        ArgumentError: at call time, arguments of another structure, static value, rank or
            size than the specs allow, naming the argument's path (`params['dense']['kernel']`),
            the dimension, the size and its bound; or breaking JAX's shape assertions
            (JAX's sizes start at 1: a size 0 is refused as jax.export refuses it).
    """
    bounds = named_bounds(bounds, low=1)  # JAX's sizes start at 1
    # at once, as jit checks it: an unbounded name compiles only at call time
    compile_options = canonical(compile_options)
    _need_jax()
    tree = ArgumentTree(fn, specs, dict(kwargs or {}), static_argnums, static_argnames)
    sizes = resolve_sizes(tree.specs, constraints, bounds)
    exported = export_jax(fn, tree, sizes)
    return JaxExecutable(exported, tree, sizes, backend, compile_options)
