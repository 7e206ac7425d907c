"""The backends by name: what dynhlo.compiler needs of each, and nothing else.

A backend is a package that exposes
    compile_module(module, info, options) -> program          (options: a CompileOptions)
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

from ..errors import UnsupportedError
from ..options import CompileOptions
from ..passes.pipelines import CPU_PIPELINE, GPU_PIPELINE, Step


@dataclass(frozen=True)
class OpSupport:
    """What a backend says of the opcodes (its `support()`): the table dynhlo.support renders.

    how: opcode -> how the backend runs it, in the backend's own words ("yes" on the CPU;
        "kernel", "library", "inlined", "plan" or "host" on the GPU); an opcode absent from
        it is not run at all.
    custom_calls: the custom-call targets the backend runs by itself.
    single_device: opcodes it runs only in their one-device form (collectives, replica-id).
    why: opcode -> a reason: why the opcode is not run, or runs on a fallback.
    notes: opcode -> what the backend's way of running it leaves a reader to know (the CPU:
        its semantics where XLA leaves room; the GPU: the cases its fallback takes).
    """

    how: dict
    custom_calls: frozenset
    single_device: frozenset = frozenset()
    why: dict = field(default_factory=dict)
    notes: dict = field(default_factory=dict)


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

    def compile(self, module, info, options: CompileOptions):
        """A program for a module its pipeline already ran on (see the module docstring),
        compiled with `options`, already checked (dynhlo/options.py: the compile driver
        checks them once)."""
        return self.implementation().compile_module(module, info, options)

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


def get(name: str) -> Backend:
    """The backend called `name`; UnsupportedError listing the backends for any other name."""
    backend = BACKENDS.get(name) if isinstance(name, str) else None
    if backend is None:
        raise UnsupportedError(f"unknown backend '{name}'; choose one of "
                               f"{', '.join(BACKENDS)}")
    return backend


__all__ = ["BACKENDS", "Backend", "OpSupport", "get", "no_sync"]
