"""dynhlo.from_torch: a PyTorch module or function as a dynhlo executable with symbolic sizes.

torch.export with torch.export.Dim sizes, StableHLO through torchax and jax.export
(frontends/torch_export.py), then dynhlo's StableHLO import, whose `?` dims take the Dims'
maxima as bounds. torch never sees a concrete size for a Dim, so nothing is baked in.
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentError, UnsupportedError
from ..options import canonical
from ..runtime.executable import compile as compile_module
from .mlir_load import load_module
from .stablehlo import check_bound, import_module
from .torch_export import export_torch


class TorchExecutable:
    """What from_torch returns: call it as the module's forward, at any size within bounds.

    `exe.module` is the HloModule and `exe.executable` the compiled dynhlo Executable. With
    `weights="parameters"` their first entry parameters are the weights, in the order of
    `exe.weight_names` (torch.export's: parameters, then buffers, then lifted constants), and
    `exe.weights` holds the values each call passes (replace an entry to run other weights of
    the same shapes, no recompile).
    """

    def __init__(self, export, backend: str, options: dict):
        self.export, self.backend = export, backend
        self.weight_names = list(export.weight_names)
        self.weights = {n: np.asarray(v) for n, v in zip(self.weight_names,
                                                          export.weight_values, strict=True)}
        bounds = {name: high for name, (_, high) in export.ranges.items()
                  if name.isidentifier() and any(name in inp.dims for inp in export.inputs)}
        self.bounds = {_label(export.inputs, n): b for n, b in bounds.items()}
        data = export.exported.mlir_module_serialized
        self.module = import_module(*load_module(data, isolate=False), bounds)
        self.module.sizes_checked = True   # torch.export's symbolic sizes
        self.executable = compile_module(self.module, backend, **options)
        # what each call reads of the inputs, worked out once: the NumPy dtype a NumPy
        # argument must have, and whether the arguments are plain positional leaves (the
        # common `exe(x, y)`, whose flattening is the arguments themselves)
        self._expected = [_numpy_dtype(inp.dtype) for inp in export.inputs]
        self._positional = _plain_positional(export.in_spec, len(export.inputs))
        self._sizes = _size_checks(export.inputs, export.ranges)

    def __call__(self, *args):
        import torch
        from torch.utils import _pytree   # (torch is imported: only a lookup)
        if self._positional and len(args) == len(self._expected) and \
                all(isinstance(a, (torch.Tensor, np.ndarray)) for a in args):
            leaves = args   # (each a leaf of torch's pytree: tree_flatten would give them)
        else:
            leaves, spec = _pytree.tree_flatten((args, {}))
            if spec != self.export.in_spec:
                raise ArgumentError(f"from_torch executable takes arguments structured as "
                                    f"{self.export.in_spec}, got {spec}")
        torch_in = any(isinstance(a, torch.Tensor) for a in leaves)
        arrays = [self._argument(i, a) for i, a in enumerate(leaves)]
        _check_sizes(self._sizes, arrays)
        weights = [self._weight(n) for n in self.weight_names]
        out = self.executable(*weights, *arrays)
        outs = list(out) if isinstance(out, tuple) else [out]
        outs = [_to_torch(o) if torch_in else _to_numpy(o) for o in outs]
        return _pytree.tree_unflatten(outs, self.export.out_spec)

    def _argument(self, index: int, value):
        """A torch tensor or array as the backend takes it, its dtype checked."""
        import torch
        inp = self.export.inputs[index]
        if isinstance(value, torch.Tensor):
            if value.dtype != inp.dtype:
                raise ArgumentError(f"argument {inp.name!r} has dtype {value.dtype}; the "
                                    f"module was exported with {inp.dtype}", parameter=index,
                                    name=inp.name)
            return value.detach().contiguous() if self.backend == "gpu" else _to_numpy(value)
        array = np.asarray(value)
        expected = self._expected[index]
        if array.dtype != expected:
            raise ArgumentError(f"argument {inp.name!r} has dtype {array.dtype}; the module "
                                f"was exported with {inp.dtype} ({expected})",
                                parameter=index, name=inp.name)
        return array

    def _weight(self, name: str):
        value = self.weights[name]
        if self.backend == "gpu":
            import torch
            return torch.as_tensor(np.asarray(value))
        return np.asarray(value)

    def save(self, path) -> None:
        """Write the compiled executable as an AOT artifact (dynhlo.load reads it): a plain
        HLO executable, NumPy in and out, with the weights first when they are parameters
        and the results a flat tuple of the forward's output leaves in torch's pytree order."""
        self.executable.save(path)

    def __repr__(self) -> str:
        return f"<dynhlo.from_torch bounds={self.bounds} backend={self.backend}>"


def _label(inputs, symbol: str) -> str:
    """A torch symbol (s27) as the user named it: the Dim's name where a Dim gave it."""
    for inp in inputs:
        for d, dim in enumerate(inp.dims):
            if dim == symbol and d in inp.dim_names:
                return inp.dim_names[d]
    return symbol


def _size_checks(inputs, ranges: dict) -> list:
    """_check_sizes' plan: per input, (input, rank, [(dimension, static size or None, Dim
    or None, the Dim's name as the user gave it, its least and largest size)])."""
    plan = []
    for inp in inputs:
        dims = []
        for d, dim in enumerate(inp.dims):
            if isinstance(dim, int):
                dims.append((d, dim, None, None, 0, 0))
            elif dim in ranges:   # (a derived size, 2*s27: the module's assertions check it)
                dims.append((d, None, dim, inp.dim_names.get(d, dim), *ranges[dim]))
        plan.append((inp, len(inp.dims), dims))
    return plan


def _check_sizes(plan: list, arrays) -> None:
    """Ranks, static sizes, each Dim's range and one size per Dim across arguments, named
    by argument, dimension and Dim (ArgumentError), before anything runs (`plan`:
    _size_checks')."""
    seen: dict = {}
    for p, ((inp, rank, dims), array) in enumerate(zip(plan, arrays, strict=True)):
        shape = tuple(array.shape)
        if len(shape) != rank:
            raise ArgumentError(f"argument {inp.name!r} has rank {len(shape)} (shape "
                                f"{list(shape)}); the module takes rank {rank}",
                                parameter=p, name=inp.name)
        for d, static, dim, who, low, high in dims:
            size = shape[d]
            if static is not None:
                if size != static:
                    raise ArgumentError(f"argument {inp.name!r} dimension {d} has size {size}; "
                                        f"it was exported static at {static}", parameter=p,
                                        name=inp.name, dimension=d, size=size)
                continue
            if not low <= size <= high:
                raise ArgumentError(f"argument {inp.name!r} dimension {d} (Dim {who!r}) has "
                                    f"size {size}, outside {low}..{high}", parameter=p,
                                    name=inp.name, dimension=d, size=size, bound=high)
            if dim in seen and seen[dim][0] != size:
                other, od = seen[dim][1], seen[dim][2]
                raise ArgumentError(f"argument {inp.name!r} dimension {d} has size {size} but "
                                    f"argument {other!r} dimension {od} has {seen[dim][0]}: "
                                    f"both are Dim {who!r}", parameter=p, name=inp.name,
                                    dimension=d, size=size)
            seen.setdefault(dim, (size, inp.name, d))


def _plain_positional(in_spec, count: int) -> bool:
    """Whether torch.export's input spec is `count` positional leaves and no keywords: the
    spec tree_flatten gives `((leaf,) * count, {})`."""
    from torch.utils import _pytree
    return _pytree.tree_flatten((tuple(range(count)), {}))[1] == in_spec


def _numpy_dtype(dtype):
    import torch
    return _to_numpy(torch.empty((), dtype=dtype)).dtype


def _to_numpy(value):
    """A torch tensor (any device, bf16 too) or array as a NumPy array."""
    if hasattr(value, "detach"):
        import torch
        value = value.detach().cpu()
        if value.dtype == torch.bfloat16:
            import ml_dtypes
            return value.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
        return value.numpy()
    return np.asarray(value)


def _to_torch(value):
    """A result as a torch tensor (a GPU result already is one)."""
    import torch
    if isinstance(value, torch.Tensor):
        return value
    if value.__class__ is np.ndarray and value.ndim and value.flags.c_contiguous and \
            value.dtype.kind in "biufc":   # (a NumPy dtype torch has: no copy, no view)
        return torch.from_numpy(value)
    # ascontiguousarray alone makes a 0-d result (a loss, x.sum()) 1-d
    array = np.ascontiguousarray(value).reshape(np.shape(value))
    if array.dtype.name == "bfloat16":
        return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(array)


def from_torch(module_or_fn, *example_args, dynamic_shapes=None, bounds: dict | None = None,
               backend: str = "cpu", weights: str = "constants",
               **compile_options) -> TorchExecutable:
    """Compile a PyTorch module (or function of tensors) for every size its Dims allow.

    Args:
        module_or_fn: a torch.nn.Module (in eval mode for inference) or a function.
        example_args: example tensors, as torch.export.export takes them.
        dynamic_shapes: torch.export's: `{"ids": {1: Dim("T", max=512)}}` or a tuple by
            position. Each Dim's min and max are the size's range; every Dim needs a max,
            from the Dim or from `bounds`. Dims not named stay static.
        bounds: Dim name -> max (`{"T": 1024}`): gives or overrides the Dim's max before
            torch.export runs, so torch's guards see it.
        backend: "cpu" or "gpu"; compile_options go to dynhlo.compile.
        weights: "constants" (default: parameters and buffers are constants of the module)
            or "parameters" (they are its first entry parameters, `exe.weight_names` order).

    Returns:
        A TorchExecutable: `exe(*args)` computes the module's forward at the arguments'
        actual sizes, in its output structure (a tensor, tuple, dict). Torch tensors in,
        torch tensors out; NumPy in, NumPy out.

    The route is torch.export, then torchax (`pip install torchax`, on top of jax) and
    jax.export to StableHLO, with int64/float64 kept (jax_enable_x64 while tracing).

    Raises:
        UnsupportedError: torch, jax or torchax missing; torch.export's refusal (its
            message); a Dim without a max; an aten op torchax cannot lower (named).
        ArgumentError: at call time, an argument of the wrong dtype, rank or size, named by
            its argument name, dimension and Dim.
    """
    if bounds is None:
        bounds = {}
    if not isinstance(bounds, dict):
        raise UnsupportedError(f"bounds maps Dim names to maxima ({{'T': 512}}), got "
                               f"{bounds!r}")
    bounds = {name: check_bound(f"Dim {name!r}", value, 1) for name, value in bounds.items()}
    compile_options = canonical(compile_options)
    export = export_torch(module_or_fn, example_args, dynamic_shapes, bounds, weights)
    return TorchExecutable(export, backend, compile_options)
