"""dynhlo.from_jax: a JAX function as a dynhlo executable whose sizes stay symbolic.

The route: `jax.export` with `jax.export.symbolic_shape` dimension variables (the bounds become
its constraints `n <= 64`), then dynhlo's StableHLO import (dynhlo.frontends.stablehlo). JAX
never sees a concrete size, so nothing is baked in: a mean over a dynamic axis divides by the
actual size. JAX's shape assertions (`n >= 1`, the constraints) are checked from the argument
shapes before each call and raise ArgumentError with JAX's message.
"""

from __future__ import annotations

import re

import numpy as np

from ..backends import canonical_precision
from ..errors import UnsupportedError
from ..hlo.types import to_numpy_dtype
from ..runtime.buckets import next_power_of_two
from ..runtime.executable import compile as compile_module
from .mlir_load import INSTALL, load_module
from .stablehlo import check_bound, import_module

_SHAPE = re.compile(r"^\s*([a-z0-9]+)\[([^\]]*)\]\s*$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def parse_symbolic_shape(text: str) -> tuple[str, list]:
    """`"f32[n,16]"` -> ("f32", ["n", 16]). UnsupportedError for anything else."""
    m = _SHAPE.match(text) if isinstance(text, str) else None
    if m is None:
        raise UnsupportedError(f"shape {text!r} is not an HLO shape like \"f32[n,16]\"")
    element, body = m.group(1), m.group(2).strip()
    try:
        to_numpy_dtype(element)
    except (KeyError, TypeError):
        raise UnsupportedError(f"shape {text!r}: unknown element type '{element}'") from None
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


def named_bounds(bounds, low: int) -> dict:
    """from_jax's and from_tf's `bounds` checked: a dict of size name -> a whole number in
    low..MAX_BOUND (None: {}). UnsupportedError naming the entry otherwise."""
    if bounds is None:
        return {}
    if not isinstance(bounds, dict):
        raise UnsupportedError(f"bounds maps size names to bounds ({{'n': 64}}), got {bounds!r}")
    return {name: check_bound(f"'{name}'", value, low) for name, value in bounds.items()}


def export_jax(fn, shapes, bounds: dict):
    """jax.export of `fn` at symbolic `shapes`: (exported, dimension names in order)."""
    try:
        import jax
        from jax import export
    except ImportError as exc:
        raise UnsupportedError(f"from_jax needs jax ({exc}); install it with: {INSTALL}") \
            from None
    parsed = [parse_symbolic_shape(s) for s in shapes]
    names = list(dict.fromkeys(d for _, dims in parsed for d in dims if isinstance(d, str)))
    unknown = sorted(set(bounds) - set(names))
    if unknown and not shapes:
        raise UnsupportedError(f"bounds name {unknown} but no shapes were given: pass one "
                               f"shape string per argument of fn after it, e.g. "
                               f"from_jax(fn, \"f32[{unknown[0]},16]\", bounds=...)")
    if unknown:
        raise UnsupportedError(f"bounds name {unknown} that no shape uses (names: {names})")
    constraints = [f"{n} <= {bounds[n]}" for n in names if n in bounds]
    symbols = export.symbolic_shape(", ".join(names), constraints=constraints) if names else ()
    env = dict(zip(names, symbols))
    specs = [jax.ShapeDtypeStruct(tuple(env.get(d, d) for d in dims), to_numpy_dtype(el))
             for el, dims in parsed]
    try:
        # Lowered for JAX's CPU platform on every machine: its linear algebra is then
        # LAPACK's custom calls (lapack_*_ffi), which both backends run. JAX's default
        # platform on a GPU machine is cuda, whose cuSOLVER targets dynhlo runs too through
        # the same lowerings (shapes/rules_gpu_solver.py), but for fewer functions (no
        # jnp.linalg.eig: cuSOLVER's geev is not run), so one module, whatever the machine,
        # is the CPU platform's.
        exported = export.export(fn if hasattr(fn, "lower") else jax.jit(fn),
                                 platforms=("cpu",))(*specs)
    except Exception as exc:  # noqa: BLE001 - JAX's own refusals: callbacks, size-1 checks, ...
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise UnsupportedError(f"jax.export cannot export this function at shapes "
                               f"{list(shapes)}: {type(exc).__name__}: {first}") from exc
    return exported, names


class JaxExecutable:
    """What from_jax returns: call it with arrays of actual sizes.

    `exe.module` is the HloModule (print it, save it, `dynhlo.compile` it for AOT) and
    `exe.executable` the compiled dynhlo Executable. While a name is unbounded, one module is
    converted and compiled per power-of-two bucket of the sizes met, and these two are the
    last bucket's (None before the first call).
    """

    def __init__(self, exported, names: list[str], bounds: dict, backend: str, options: dict):
        self.exported, self.names, self.bounds = exported, names, dict(bounds)
        self.backend, self.options = backend, options
        self._text = exported.mlir_module_serialized  # bytecode: faster to read than text
        self._by_bucket: dict = {}
        self._places = _places(exported, names)
        self.executable = self.module = None
        self._bucketed = not all(n in self.bounds for n in names)
        if not self._bucketed:
            self.module = self._import(self._by_position(self.bounds))
            self.executable = self._compile(self.module)

    def _by_position(self, bounds: dict) -> dict:
        """{argument: {dimension: bound}} for every dimension a bounded name appears in."""
        out: dict = {}
        for name, places in self._places.items():
            for p, d in places if name in bounds else ():
                out.setdefault(p, {})[d] = bounds[name]
        return out

    def _import(self, bounds: dict):
        # jax.export made this bytecode in this process: no child process to read it
        return import_module(*load_module(self._text, isolate=False), bounds)

    def _compile(self, module):
        return compile_module(module, self.backend, **self.options)

    def _for_sizes(self, sizes: dict):
        if not self._bucketed:
            return self.executable, self.module
        key = tuple(self.bounds[n] if n in self.bounds
                    else next_power_of_two(sizes.get(self._places[n][0], 1))
                    for n in self.names)
        if key not in self._by_bucket:
            module = self._import(self._by_position(dict(zip(self.names, key))))
            self._by_bucket[key] = (self._compile(module), module)
        self.executable, self.module = self._by_bucket[key]
        return self._by_bucket[key]

    def __call__(self, *args):
        jax_in = any(_is_jax(a) for a in args)
        arrays = [_from_jax(a, self.backend) if _is_jax(a) else a for a in args]
        sizes = {(p, d): int(s) for p, a in enumerate(arrays)
                 for d, s in enumerate(np.shape(a))}
        exe, module = self._for_sizes(sizes)
        out = exe(*arrays)   # checks the arguments, then JAX's shape assertions
        leaves = list(out) if isinstance(out, tuple) else [out]
        if jax_in:
            leaves = [_to_jax(o) for o in leaves]
        # the structure fn returns (tuples, dicts, nested), as jax.jit(fn) returns it
        return self.exported.out_tree.unflatten(leaves)

    def save(self, path) -> None:
        """Write the compiled executable as an AOT artifact (dynhlo.load reads it). The
        loaded executable checks the bounds and JAX's shape assertions (sizes >= 1), as
        this one does. It is a plain HLO executable: NumPy in and out, and the results are
        the HLO root's, a flat tuple of fn's output leaves in jax.tree_util's order (dict
        keys sorted), not fn's structure (which lives in this process's JAX objects).

        Raises UnsupportedError while a size name has no bound: its buckets compile at call
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


def _places(exported, names: list[str]) -> dict[str, list[tuple[int, int]]]:
    """name -> every (argument, dimension) whose size it is."""
    out: dict = {n: [] for n in names}
    for p, aval in enumerate(exported.in_avals):
        for d, dim in enumerate(aval.shape):
            if not isinstance(dim, int) and str(dim) in out:
                out[str(dim)].append((p, d))
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


def from_jax(fn, *shapes: str, bounds: dict | None = None, backend: str = "cpu",
             **compile_options) -> JaxExecutable:
    """Compile a JAX function for every size within bounds, with its sizes kept symbolic.

    Args:
        fn: a function of JAX arrays (or a jax.jit-wrapped one).
        shapes: one HLO shape string per argument, whose dimensions may be names:
            `"f32[n,16]"`, `"s32[n]"`; one name in several shapes is one size.
        bounds: name -> upper bound (`{"n": 64}`). A name without a bound is an unbounded
            size: one program is compiled per power-of-two bucket of the sizes met.
        backend: "cpu" or "gpu"; compile_options go to dynhlo.compile.

    Returns:
        A JaxExecutable: `exe(*arrays)` computes what `jax.jit(fn)` computes at the arrays'
        actual sizes, in the same structure (tuples, dicts). NumPy in, NumPy out; JAX arrays in, JAX arrays out (through DLPack:
        no copy on the way in on the CPU, and none on the way out where jax accepts NumPy's
        buffer). `exe.module` is the HloModule.

    The function is lowered for JAX's CPU platform on every machine (its LAPACK custom calls
    run on both backends). On a GPU machine JAX still starts its own CUDA client when it
    traces, and by default that client takes 75% of the GPU's memory: set
    `XLA_PYTHON_CLIENT_PREALLOCATE=false` (or `JAX_PLATFORMS=cpu` when JAX runs nothing
    else on the GPU) before JAX is imported, so that dynhlo's GPU backend has the memory.

    Raises:
        UnsupportedError: jax missing (`pip install "dynhlo[jax]"`), a bad shape string,
            bounds or precision, or an op the StableHLO import cannot represent (named).
        ArgumentError: at call time, arguments that break a bound or JAX's shape assertions
            (JAX's sizes start at 1: a size 0 is refused as jax.export refuses it).
    """
    bounds = named_bounds(bounds, low=1)  # JAX's sizes start at 1
    # at once, as jit checks it: an unbounded name compiles only at call time
    compile_options = canonical_precision(compile_options)
    exported, names = export_jax(fn, shapes, bounds)
    return JaxExecutable(exported, names, bounds, backend, compile_options)
