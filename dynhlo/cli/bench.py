"""`dynhlo bench`: how long a module's calls take at several sizes, one compiled program.

The module is compiled (or an artifact loaded) once, then called at each size with random
arguments: every dynamic dimension of every parameter at that size, static dimensions as
declared. The default sizes are cut to each dimension's bound; a size given with --sizes over a
bound is refused before the first row. A row reports the first call at that
size (on the GPU it includes compiling kernels the size needs, if any) and the median of
the calls after it.
Calls are whole calls as a user makes them: NumPy arrays in and out on the CPU backend;
on a GPU, device tensors made once per size, with a device synchronisation after each call.
For side-by-side numbers against XLA and torch, see bench/compare.py in the repository.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from ..errors import DynHloError
from ..hlo.shape import UNBOUNDED

# Each size's timed calls stop after this many seconds or MAX_CALLS calls, whichever first.
TIME_PER_SIZE_S = 0.5
MAX_CALLS = 1000


class BenchError(DynHloError):
    """A bench request that cannot be carried out (sizes, parameters)."""


def default_sizes(parameters) -> list[int]:
    """1, B/16, B/4 and B for the largest bound B among the dynamic dimensions (deduplicated,
    ascending); [1] for a module without dynamic dimensions.

    Raises:
        BenchError: a dimension is unbounded (`?`): the sizes must be given.
    """
    bounds = []
    for p in parameters:
        for dim, (size, dynamic) in enumerate(zip(p.shape.dims, p.shape.dynamic, strict=True)):
            if size == UNBOUNDED:
                raise BenchError(f"parameter '{p.name}' dimension {dim} is unbounded (?): "
                                 "give the sizes to run, e.g. --sizes 1,128,1024")
            if dynamic:
                bounds.append(size)
    if not bounds:
        return [1]
    top = max(bounds)
    return sorted({max(1, top // 16), max(1, top // 4), top} | {1})


def check_sizes(parameters, sizes: list[int]) -> None:
    """BenchError naming --sizes for a size over a dynamic dimension's bound, before any
    row is printed (the call's own ArgumentError came mid-table and named no option)."""
    for p in parameters:
        if p.shape.is_tuple:
            continue
        for dim, (bound, dynamic) in enumerate(zip(p.shape.dims, p.shape.dynamic, strict=True)):
            over = [n for n in sizes if dynamic and bound != UNBOUNDED and n > bound]
            if over:
                raise BenchError(f"--sizes {over[0]}: over the bound {bound} of parameter "
                                 f"{p.parameter_number} '{p.name}' dimension {dim} "
                                 f"({p.shape}); every dynamic dimension runs at each size, so "
                                 f"give sizes up to {bound}")


def random_arguments(parameters, n: int, rng: np.random.Generator,
                     clip: bool) -> list[np.ndarray]:
    """One array per parameter: dynamic dimensions at n (`clip`: at most their bound; else
    a size over a bound is the call's ArgumentError), static ones as declared; floats
    standard normal, integers in [0, 8), predicates fair coins.

    Raises:
        BenchError: a tuple or token parameter (bench makes arrays only).
    """
    from ..hlo.types import to_numpy_dtype
    arrays = []
    for p in parameters:
        shape = p.shape
        if shape.is_tuple or shape.element_type == "token":
            raise BenchError(f"parameter '{p.name}' is a {shape}: bench makes arrays only")
        dims = tuple((min(n, d) if clip and d != UNBOUNDED else n) if dyn else d
                     for d, dyn in zip(shape.dims, shape.dynamic, strict=True))
        dtype = to_numpy_dtype(shape.element_type)
        if shape.element_type == "pred":
            arrays.append(rng.random(dims) < 0.5)
        elif np.issubdtype(np.dtype(dtype), np.integer):
            arrays.append(rng.integers(0, 8, dims).astype(dtype))
        elif shape.element_type.startswith("c"):
            arrays.append((rng.standard_normal(dims) + 1j * rng.standard_normal(dims))
                          .astype(dtype))
        else:
            arrays.append(rng.standard_normal(dims).astype(np.float32).astype(dtype))
    return arrays


def time_calls(call, sync) -> tuple[float, float, int]:
    """(first call s, median s of the calls after it, number of those calls)."""
    start = time.perf_counter()
    call()
    sync()
    first = time.perf_counter() - start
    times: list[float] = []
    deadline = time.perf_counter() + TIME_PER_SIZE_S
    while len(times) < MAX_CALLS and (len(times) < 3 or time.perf_counter() < deadline):
        start = time.perf_counter()
        call()
        sync()
        times.append(time.perf_counter() - start)
    return first, statistics.median(times), len(times)


def _on_device(exe, arrays: list):
    """(arguments, sync): the arrays where the executable's backend reads them and a function
    that waits for its work (the registry's Backend.to_device: device tensors and a CUDA
    synchronisation on a GPU; the NumPy arrays and a no-op on the CPU or in the
    interpreter)."""
    from ..backends import get
    return get(exe.backend).to_device(exe.program, arrays)


def run(exe, sizes: list[int] | None, seed: int) -> None:
    """One row per size on stdout as each size finishes: the first call and the median of
    the calls after it. `sizes` None: default_sizes (cut to each dimension's bound)."""
    parameters = list(exe.parameters)
    clip = sizes is None
    if sizes is None:
        sizes = default_sizes(parameters)
    else:
        check_sizes(parameters, sizes)
    rng = np.random.default_rng(seed)
    print(f"{'size':>10} {'first call ms':>14} {'median us':>12} {'calls':>7}")
    for n in sizes:
        args, sync = _on_device(exe, random_arguments(parameters, n, rng, clip))
        first, median, calls = time_calls(lambda: exe(*args), sync)
        print(f"{n:>10} {first * 1e3:>14.3f} {median * 1e6:>12.1f} {calls:>7}")
        sys.stdout.flush()
