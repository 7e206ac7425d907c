"""Executable: a compiled module that checks its arguments and runs on its backend."""

from __future__ import annotations

import operator

from ..compiler import compile_program
from ..errors import DynHloError
from ..gc_pause import gc_paused
from ..hlo.baked_sizes import warn_baked_sizes
from ..hlo.ir import HloModule
from ..hlo.text.parser import parse_hlo
from ..options import canonical
from . import artifact
from .arguments import check_arguments, check_assertions, signature
from .buckets import compile_bounded
from .module_text import read_from_text


class Executable:
    """A module compiled for one backend; call it with arrays of their actual shapes.

    `exe(*args)` returns a NumPy array (a tuple of them for a tuple-shaped root), each at its
    actual size. Raises ArgumentError for arguments that do not fit the entry parameters, and
    DynamicSizeError when sizes computed at run time break the module's contract.
    """

    def __init__(self, module: HloModule, program, options: dict):
        self.module = module
        self.program = program
        self.options = options
        # the signature (arguments.signature) of the last arguments check_arguments and the
        # shape assertions passed unchanged: equal ones skip the per-argument checks
        self._accepted = None

    @property
    def backend(self) -> str:
        return self.program.backend

    @property
    def target(self) -> str:
        return self.program.target

    @property
    def parameters(self):
        return self.module.entry.parameters

    def serialize(self) -> bytes:
        """The AOT artifact bytes (format: dynhlo.runtime.artifact); load with deserialize.

        Raises UnsupportedError when the module still has unbounded (`?`) dimensions.
        """
        return artifact.serialize(self)

    def save(self, path) -> None:
        """Write the artifact to `path` atomically (temporary file, then rename); dynhlo.load
        reads it back without compiling.

        Raises:
            ArtifactError: `path` is a directory, its directory does not exist, or it is an
                existing file that is not an artifact (only an artifact is replaced).
            UnsupportedError: the module still has unbounded (`?`) dimensions.
        """
        artifact.save(self, path)

    def __call__(self, *args):
        """Run on one array per entry parameter, in parameter order, each at its actual shape.

        Returns a NumPy array, or a tuple of them for a tuple-shaped root (on the GPU
        backend, torch tensors when torch tensors come in: no host round trip).

        Raises ArgumentError (`.parameter`, `.name`, `.dimension`, `.size`, `.bound`) for
        arguments that do not fit (or that break a jax.export module's shape assertions,
        e.g. n >= 1, in JAX's words), and DynamicSizeError for a size computed at run time that
        breaks the module's contract.
        """
        shown = signature(args)
        if shown is not None and shown == self._accepted:
            # the shapes of arguments that passed the checks and the shape assertions
            # (functions of the shapes alone)
            return self.program.run(list(args))
        arrays = check_arguments(self.parameters, args)
        check_assertions(self.module, arrays)
        if shown is not None and all(map(operator.is_, arrays, args)):
            self._accepted = shown
        return self.program.run(arrays)

    def __repr__(self) -> str:
        return f"<dynhlo.Executable {self.module.name} backend={self.backend}>"


def as_module(module, caller: str) -> HloModule:
    """An HloModule from a module, HLO text (str or bytes); DynHloError for anything else."""
    if isinstance(module, (str, bytes)):
        return parse_hlo(module)
    if not isinstance(module, HloModule):
        raise DynHloError(f"{caller}() takes an HloModule or HLO text (str or bytes), got "
                          f"{type(module).__name__}; read a file with open(path).read()")
    return module


@gc_paused()
def compile(module: HloModule | str, backend: str = "cpu", *, bounds: dict | None = None,
            buckets: list[int] | None = None, **options) -> Executable:
    """Compile an HLO module (or its text) for a backend.

    Args:
        module: an HloModule or HLO text.
        backend: "cpu" (fused loops compiled by LLVM; reference=True: the NumPy evaluator,
            the reference semantics) or "gpu" (Triton).
        bounds: bounds for unbounded (`?`) parameter dimensions, `{"x": {0: 1024}}` (see
            dynhlo.runtime.buckets for how parameters are named).
        buckets: bucket bounds for the `?` dimensions `bounds` leaves: one program per bucket
            in a BucketedExecutable, and a call runs the smallest bucket that fits.
        max_while_iterations: a positive int: a while loop that runs more iterations is an
            IterationLimitError naming it, instead of running forever (default None: no
            limit, as XLA). Kept in artifacts.
        distributed: True for a partitioned module run by one process per device inside an
            initialised torch.distributed process group (rank = replica_id * num_partitions
            + partition_id; gloo on the CPU, NCCL on GPUs): its collectives run across the
            group (dynhlo/backends/common/distributed.py). Default: their one-device forms.
            `dynhlo.runtime.launch.run_distributed` (`dynhlo run --nproc N`) starts the
            processes.
        precision: "highest" (the default: every f32 dot and convolution in IEEE f32) or
            "default" (XLA's rule on GPU: TF32 where a product's operand_precision is
            DEFAULT or HIGH, or its algorithm= is dot_tf32_tf32_f32;
            dynhlo/backends/gpu/precision.py). The cpu backend accepts it and computes as
            before (NumPy has no TF32, as XLA's CPU backend has none). Kept in artifacts.
            Any case, jax.lax.Precision.HIGHEST/DEFAULT and JAX's matmul precision names
            "float32"/"tensorfloat32" are taken too (dynhlo.options.check_precision).

    Raises:
        HloParseError, HloVerifyError: bad module text or inconsistent shapes.
        UnsupportedError: an opcode or custom-call target the backend cannot run, an
            unknown backend, or an unknown option or a bad value of one (named: the
            options and their checks are dynhlo/options.py's).
    """
    module = as_module(module, "compile")
    read_from_text(module)   # size checks its text carried (a printed from_tf module)
    options = canonical(options)   # checked at once, precision spelt as artifacts keep it
    if bounds or buckets is not None:
        return compile_bounded(module, backend, bounds, buckets, compile, options)
    program = compile_program(module, backend, options)
    program.while_limit = options.get("max_while_iterations")
    warn_baked_sizes(module)  # a BakedSizeWarning per constant equal to a dynamic bound
    return Executable(module, program, {"backend": backend, **options})

