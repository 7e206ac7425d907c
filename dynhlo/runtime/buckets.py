"""Size buckets for unbounded (`?`) dimensions, and an executable that holds several.

A module with `?` dimensions is compiled per *bucket*: a bucket B is the module re-bounded so
that every `?` ENTRY parameter dimension becomes `<=B` (pass `bound-unbounded`). One bound B
serves all of a module's `?` dimensions at once, so a call's bucket is chosen by the largest
size among them. Policies:

- power of two (the JIT's default): B = the next power of two of the size, and 1 for sizes 0
  and 1, so sizes 1..1000 need at most 11 buckets (1, 2, 4, ..., 1024);
- a list (`buckets=[128, 1024]`): the smallest listed B that fits; a size over the largest is
  an ArgumentError naming the parameter, dimension, size and the largest bucket.

Explicit `bounds={"x": {0: 1024}}` fix chosen `?` dimensions instead; parameters are named by
their HLO name (`x.1`), by that name without its numeric `.N` suffix when only one parameter
has that stem (`x`), or by parameter number.
"""

from __future__ import annotations

import operator
import re

from ..errors import ArgumentError, UnsupportedError
from ..hlo.ir import HloModule, Instruction
from ..passes.bound_unbounded import HOW_TO_BOUND, bound_unbounded, unbounded_dims
from . import artifact
from .arguments import check_arguments, check_assertions

BucketDims = list[tuple[int, int]]


def next_power_of_two(size: int) -> int:
    """The power-of-two bucket of a size: 1 for 0 and 1, else the smallest 2**k >= size."""
    return 1 if size <= 1 else 1 << (size - 1).bit_length()


OVERFLOW_POLICIES = ("error", "compile")
# The largest dimension HLO text holds (the parser reads at most 18 digits): a larger bound
# would compile, then write an artifact whose module cannot be read back.
MAX_BOUND = 10**18 - 1


class BucketPolicy:
    """Maps the largest `?` size of a call to its bucket bound.

    `buckets=None` is the power-of-two policy; a list gives fixed buckets (sorted, distinct,
    each >= 1). `overflow` says what a size over the largest listed bucket gets: "error" (an
    ArgumentError, the default and the only choice for AOT artifacts, which never compile)
    or "compile" (a new power-of-two bucket, for the JIT). Raises UnsupportedError for a
    malformed list or an unknown overflow policy.
    """

    def __init__(self, buckets: list[int] | None = None, overflow: str = "error"):
        if buckets is not None:
            try:
                if isinstance(buckets, (str, bytes)):
                    raise TypeError
                buckets = sorted(set(int(b) for b in buckets))
            except (TypeError, ValueError):
                raise UnsupportedError(f"buckets must be a list of sizes >= 1, got "
                                       f"{buckets!r}") from None
            if not buckets or buckets[0] < 1:
                raise UnsupportedError(f"buckets must be a non-empty list of sizes >= 1, got "
                                       f"{buckets}")
            if buckets[-1] > MAX_BOUND:
                raise UnsupportedError(f"bucket {buckets[-1]} is over the largest dimension "
                                       f"HLO text can hold ({MAX_BOUND})")
        if overflow not in OVERFLOW_POLICIES:
            raise UnsupportedError(f"overflow policy '{overflow}' is not one of "
                                   f"{', '.join(OVERFLOW_POLICIES)}")
        self.buckets = buckets
        self.overflow = overflow

    def pick(self, size: int) -> int | None:
        """The bucket for `size`, or None when it is over the largest listed bucket and the
        overflow policy is "error"."""
        if self.buckets is None:
            return next_power_of_two(size)
        fit = next((b for b in self.buckets if b >= size), None)
        if fit is None and self.overflow == "compile":
            return next_power_of_two(size)
        return fit


def pick_bucket(policy: BucketPolicy, params: list[Instruction], dims: BucketDims,
                arrays: list) -> int:
    """The bucket of a call: by the largest size among the `?` dimensions `dims`.

    Raises:
        ArgumentError: a size over the largest listed bucket, naming the parameter, dimension,
            size and largest bucket.
    """
    size, where = 0, None
    for number, d in dims:
        if arrays[number].shape[d] >= size:
            size, where = arrays[number].shape[d], (number, d)
    bucket = policy.pick(size)
    if bucket is None:
        number, d = where
        largest = policy.buckets[-1]
        raise ArgumentError(
            f"parameter {number} '{params[number].name}' dimension {d} has size {size} > the "
            f"largest bucket {largest} (buckets {', '.join(map(str, policy.buckets))}); "
            f"compile with a bucket of at least {size}", number, params[number].name, d, size,
            largest)
    return bucket


def resolve_bounds(module: HloModule, bounds: dict) -> dict[int, dict[int, int]]:
    """`{"x": {0: 1024}}` -> {parameter number: {dimension: bound}} for the module's `?` dims.

    Raises:
        ArgumentError: an unknown or ambiguous parameter name, or a dimension that is not `?`.
    """
    unbounded = {(p.parameter_number, d) for p, d in unbounded_dims(module)}
    resolved: dict[int, dict[int, int]] = {}
    if not isinstance(bounds, dict):
        raise UnsupportedError(f"bounds must be a dict like {{\"x\": {{0: 1024}}}}, got "
                               f"{type(bounds).__name__} {bounds!r}")
    for key, per_dim in bounds.items():
        param = _find_parameter(module.entry.parameters, key)
        if not isinstance(per_dim, dict):
            raise UnsupportedError(f"bounds['{key}'] must map dimensions to bounds, like "
                                   f"{{0: 1024}}, got {per_dim!r}")
        for d, bound in per_dim.items():
            d = _whole(d, f"bounds['{key}'] dimension", 0, 1 << 31)
            if d >= param.shape.rank:
                raise ArgumentError(
                    f"bounds name parameter {param.parameter_number} '{param.name}' dimension "
                    f"{d}, but {param.shape} has no dimension {d} (rank {param.shape.rank})",
                    param.parameter_number, param.name, d)
            if (param.parameter_number, d) not in unbounded:
                raise ArgumentError(
                    f"bounds name parameter {param.parameter_number} '{param.name}' dimension "
                    f"{d}, which is not unbounded in {param.shape}; only `?` dimensions take "
                    "bounds", param.parameter_number, param.name, d)
            bound = _whole(bound, f"bound of parameter {param.parameter_number} "
                           f"'{param.name}' dimension {d}", 0, MAX_BOUND)
            resolved.setdefault(param.parameter_number, {})[d] = bound
    return resolved


def _whole(value, what: str, low: int, high: int) -> int:
    """`value` as an int in [low, high] (a str of digits too, as JSON keys are);
    UnsupportedError naming `what` for a float, a bool, text or a value out of range."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    elif not isinstance(value, bool) and hasattr(value, "__index__"):  # numpy integers too
        value = operator.index(value)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise UnsupportedError(f"{what} must be a whole number in {low}..{high}, got "
                               f"{value!r}")
    return value


def _find_parameter(params: list[Instruction], key) -> Instruction:
    if isinstance(key, int):
        if 0 <= key < len(params):
            return params[key]
        raise ArgumentError(f"bounds name parameter {key}; the module has {len(params)}")
    exact = [p for p in params if p.name == key]
    stem = [p for p in params if re.sub(r"\.\d+$", "", p.name) == key]
    found = exact or stem
    names = ", ".join(p.name for p in params)
    if len(found) != 1:
        why = "matches several parameters" if found else "names no parameter"
        raise ArgumentError(f"bounds key '{key}' {why} (parameters: {names}); use the full "
                            "name or the parameter number")
    return found[0]


def bucket_dims_after(module: HloModule, bounds: dict[int, dict[int, int]]) -> BucketDims:
    """The `?` parameter dimensions that `bounds` leaves to the buckets."""
    return [(p.parameter_number, d) for p, d in unbounded_dims(module)
            if d not in bounds.get(p.parameter_number, {})]


class BucketedExecutable:
    """Several executables of one module, one per bucket; a call runs the smallest that fits.

    Attributes:
        module: the module as given (with its `?` dimensions).
        bucket_dims: (parameter number, dimension) of the `?` dimensions the buckets bound.
        executables: bucket bound -> Executable, ascending.
        options: compile options (backend, bounds, buckets).

    Calls raise ArgumentError for arguments that do not fit the parameters or are over the
    largest bucket.
    """

    def __init__(self, module: HloModule, bucket_dims: BucketDims, executables: dict,
                 options: dict):
        self.module = module
        self.bucket_dims = bucket_dims
        self.executables = dict(sorted(executables.items()))
        self.options = options
        self.policy = BucketPolicy(list(self.executables))

    @property
    def backend(self) -> str:
        return next(iter(self.executables.values())).backend

    @property
    def target(self) -> str:
        return next(iter(self.executables.values())).target

    @property
    def parameters(self):
        return self.module.entry.parameters

    def __call__(self, *args):
        arrays = check_arguments(self.parameters, args)
        check_assertions(self.module, arrays)
        bucket = pick_bucket(self.policy, self.parameters, self.bucket_dims, arrays)
        return self.executables[bucket](*arrays)

    def serialize(self) -> bytes:
        """The AOT artifact bytes (see dynhlo.runtime.artifact)."""
        return artifact.serialize(self)

    def save(self, path) -> None:
        """Write the artifact to `path` atomically."""
        artifact.save(self, path)

    def __repr__(self) -> str:
        return (f"<dynhlo.BucketedExecutable {self.module.name} backend={self.backend} "
                f"buckets={list(self.executables)}>")


def compile_bounded(module: HloModule, backend: str, bounds: dict | None,
                    buckets: list[int] | None, compile_one, options: dict):
    """Compile a module with `?` dimensions for explicit bounds and/or a bucket list.

    `compile_one(module, backend, **options)` compiles one bounded module. Returns an
    Executable when no bucket is left to choose, else a BucketedExecutable.

    Raises:
        UnsupportedError: a `?` dimension left with neither a bound nor buckets; buckets for
            a module with no `?` dimension left, or a malformed bucket list.
        ArgumentError: bounds that name no parameter or a dimension that is not `?`.
    """
    resolved = resolve_bounds(module, bounds or {})
    dims = bucket_dims_after(module, resolved)
    shown = {module.entry.parameters[n].name: {str(d): b for d, b in per.items()}
             for n, per in resolved.items()}
    recorded = {**options, **({"bounds": shown} if shown else {})}
    policy = BucketPolicy(buckets)   # a malformed list is an error even when unused
    if buckets is not None and not dims:
        raise UnsupportedError(
            f"buckets={policy.buckets}: the module has no unbounded (?) dimension left to "
            "bucket (a bounded dimension, <=N, needs none: one program serves every size up "
            "to N)")
    if buckets is None:
        exe = compile_one(bound_unbounded(module, None, resolved), backend, **options)
        exe.options = {"backend": backend, **recorded}
        return exe
    exes = {b: compile_one(bound_unbounded(module, b, resolved), backend, **options)
            for b in policy.buckets}
    return BucketedExecutable(module, dims, exes,
                              {"backend": backend, **recorded, "buckets": policy.buckets})


__all__ = ["BucketPolicy", "BucketedExecutable", "HOW_TO_BOUND", "compile_bounded",
           "next_power_of_two", "pick_bucket", "resolve_bounds"]
