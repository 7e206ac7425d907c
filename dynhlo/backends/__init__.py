"""The backends by name: what dynhlo.compiler needs of each, and nothing else.

A backend is a package that exposes
    compile_module(module, info, **options) -> program
    load_program(module, info, payload, target) -> program   (an artifact's payload; no compile)
    support() -> OpSupport                                   (which opcodes it runs, and how)
    describe(program) -> str                                 (how it runs a program: inspect)
    to_device(program, arrays) -> (arrays, sync)             (arguments where it reads them)
where `module` is the output of the backend's pass pipeline (dynhlo/passes/pipelines.py) and
`info` its dynamic dimension inference; a program has `backend`, `target`, `run(arrays)` and
`to_payload() -> {name: bytes}`. A backend is imported only when asked for, so the GPU's
torch and triton are needed only by those who use it.

Clients outside the backends (dynhlo.support, dynhlo.inspect, the command and its bench
timing, the runtime) ask this registry, never a backend's own modules: pyproject.toml's
import-linter contract "Clients reach the backends through the registry" keeps it so.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from ..errors import ArtifactError, UnsupportedError
from ..passes.pipelines import CPU_PIPELINE, GPU_PIPELINE, Step


# The options a backend's compile_module takes (a backend ignores those of another: the CPU
# takes the GPU's), and those dynhlo.compile itself handles before the backend sees them.
OPTIONS = frozenset({"interpret", "target", "fast_launch", "graph", "backend", "distributed",
                     "precision", "padding_reads", "reference"})
RUNTIME_OPTIONS = frozenset({"max_while_iterations", "bounds", "buckets"})

# The `precision` option's values: "highest" (the default: every f32 product in IEEE f32)
# or "default" (TF32 where the module's operand_precision allows it, as XLA on GPU; see
# dynhlo/backends/gpu/precision.py). Every backend takes it; the CPU computes as before.
PRECISIONS = ("highest", "default")


# Other spellings a JAX user writes: any case, jax.lax.Precision's members (their `name`),
# and jax_default_matmul_precision's "float32" and "tensorfloat32".
_PRECISION_ALIASES = {"float32": "highest", "tensorfloat32": "default"}


def check_precision(value) -> str:
    """The `precision` option's value ("highest" when None): "highest" or "default", in any
    case, as a jax.lax.Precision member (DEFAULT, HIGHEST) or as JAX's matmul precision
    names "float32" (highest) and "tensorfloat32" (default). UnsupportedError naming the
    option and its values for anything else (jax.lax.Precision.HIGH too: XLA runs it as
    three bf16 products on a GPU, which dynhlo does not)."""
    if value is None:
        return PRECISIONS[0]
    name = getattr(value, "name", value)   # an enum member: jax.lax.Precision.HIGHEST
    name = name.lower() if isinstance(name, str) else None
    name = _PRECISION_ALIASES.get(name, name)
    if name not in PRECISIONS:
        raise UnsupportedError(f"compile option precision={value!r} is not one of "
                               f"{', '.join(repr(p) for p in PRECISIONS)}: 'highest' computes "
                               "every f32 product in IEEE f32 (the default), 'default' lets "
                               "TF32 run where the module's operand_precision allows it, as "
                               "XLA does on GPU")
    return name


def canonical_precision(options: dict) -> dict:
    """`options` with a given `precision` spelt as PRECISIONS spells it (check_precision):
    what artifacts, cache keys and the backends see."""
    if options.get("precision") is None:
        return options
    return {**options, "precision": check_precision(options["precision"])}


# The `padding_reads` option's values: what a read past a dynamic dimension's actual size,
# within its bound, gives. XLA reads its padded buffer there (a static slice, a dynamic-slice
# window, a gather row: tf2xla's lowerings of tf.where and tf.unique read one element past
# and mask it away later); dynhlo's padding reads as zeros ("zeros", the default), or such
# a read is a DynamicSizeError naming the instruction ("error", a debugging mode).
PADDING_READS = ("zeros", "error")


def check_padding_reads(value) -> str:
    """The `padding_reads` option's value ("zeros" when None): "zeros" or "error";
    UnsupportedError naming the option and its values for anything else."""
    if value is None:
        return PADDING_READS[0]
    if value not in PADDING_READS:
        raise UnsupportedError(f"compile option padding_reads={value!r} is not one of "
                               f"{', '.join(repr(p) for p in PADDING_READS)}: 'zeros' (the "
                               "default) reads a dynamic array's padding as zeros, 'error' "
                               "refuses a read past the actual size")
    return value


def strict_precision(value, what: str) -> str:
    """An artifact's precision as dynhlo writes it (one of PRECISIONS; "highest" when None);
    ArtifactError naming `what` for any other spelling: a file is not a user's call."""
    if value is None:
        return PRECISIONS[0]
    if value not in PRECISIONS:
        raise ArtifactError(f"{what} precision {value!r} is not one of "
                            f"{', '.join(PRECISIONS)}; recompile the artifact")
    return value


@dataclass(frozen=True)
class OpSupport:
    """What a backend says of the opcodes (its `support()`): the table dynhlo.support renders.

    how: opcode -> how the backend runs it, in the backend's own words ("yes" on the CPU;
        "kernel", "library", "inlined", "plan" or "host" on the GPU); an opcode absent from
        it is not run at all.
    custom_calls: the custom-call targets the backend runs by itself.
    single_device: opcodes it runs only in their one-device form (collectives, replica-id).
    why: opcode -> a reason: why the opcode is not run, or runs on a fallback.
    """

    how: dict
    custom_calls: frozenset
    single_device: frozenset = frozenset()
    why: dict = field(default_factory=dict)


def no_sync() -> None:
    """A backend whose arguments are already where it reads them has nothing to wait for."""


@dataclass(frozen=True)
class Backend:
    """One backend: its name, its pass pipeline, the package that implements it, and what
    that package needs beyond dynhlo's own dependencies (said when it cannot import)."""

    name: str
    pipeline: list[Step]
    package: str
    needs: str = ""

    def implementation(self):
        """The backend's package; UnsupportedError naming what it needs when it cannot import."""
        try:
            return importlib.import_module(self.package)
        except ImportError as exc:
            raise UnsupportedError(f"the {self.name} backend needs {self.needs}: {exc}"
                                   ) from None

    def compile(self, module, info, **options):
        """A program for a module its pipeline already ran on (see the module docstring).
        UnsupportedError for an option no backend takes: a misspelt one would otherwise
        change nothing, silently."""
        check_options(options, OPTIONS)
        check_precision(options.get("precision"))
        check_padding_reads(options.get("padding_reads"))
        return self.implementation().compile_module(module, info, **options)

    def load(self, module, info, payload: dict[str, bytes], target: str):
        """The program an artifact's payload holds, for the module its pipeline ran on."""
        return self.implementation().load_program(module, info, payload, target)

    def support(self) -> OpSupport:
        """Which opcodes and custom-call targets the backend runs, and how (OpSupport).
        UnsupportedError naming what it needs when it cannot import here."""
        return self.implementation().support()

    def describe(self, program) -> str:
        """How the backend runs `program` (one of its own), as text ending in a newline: what
        `dynhlo inspect --backend NAME` prints below the module's report."""
        return self.implementation().describe(program)

    def to_device(self, program, arrays: list) -> tuple[list, object]:
        """(arguments, sync): `arrays` (one per entry parameter, NumPy) where `program` reads
        them without a copy per call (device tensors on a GPU), and a function that waits for
        the backend's work to finish (what timing a call needs: `dynhlo bench`)."""
        return self.implementation().to_device(program, arrays)


BACKENDS: dict[str, Backend] = {
    "cpu": Backend("cpu", CPU_PIPELINE, "dynhlo.backends.cpu"),
    "gpu": Backend("gpu", GPU_PIPELINE, "dynhlo.backends.gpu",
                   needs='torch and triton (pip install "dynhlo[gpu]")'),
}


def check_options(options: dict, known: frozenset = OPTIONS | RUNTIME_OPTIONS) -> None:
    """UnsupportedError naming any option not in `known`, and listing the options."""
    unknown = sorted(set(options) - known)
    if unknown:
        raise UnsupportedError(f"unknown compile option(s) {', '.join(unknown)}; the "
                               f"options are {', '.join(sorted(OPTIONS | RUNTIME_OPTIONS))}")


def get(name: str) -> Backend:
    """The backend called `name`; UnsupportedError listing the backends for any other name."""
    backend = BACKENDS.get(name) if isinstance(name, str) else None
    if backend is None:
        raise UnsupportedError(f"unknown backend '{name}'; choose one of "
                               f"{', '.join(BACKENDS)}")
    return backend


__all__ = ["BACKENDS", "PADDING_READS", "PRECISIONS", "Backend", "OpSupport", "no_sync", "canonical_precision",
           "check_options", "check_padding_reads", "check_precision", "get", "strict_precision"]
