"""Executable: a compiled module that checks its arguments and runs on its backend."""

from __future__ import annotations

from ..errors import DynHloError, UnsupportedError
from ..hlo.ir import HloModule
from ..hlo.parser import parse_hlo
from ..hlo.verifier import verify_module
from ..shapes.dynamic import infer_module
from . import stats
from .arguments import check_arguments

BACKENDS = ("cpu", "gpu")


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

    @property
    def backend(self) -> str:
        return self.program.backend

    @property
    def parameters(self):
        return self.module.entry.parameters

    def __call__(self, *args):
        arrays = check_arguments(self.parameters, args)
        return self.program.run(arrays)

    def __repr__(self) -> str:
        return f"<dynhlo.Executable {self.module.name} backend={self.backend}>"


def compile(module: HloModule | str, backend: str = "cpu", **options) -> Executable:
    """Compile an HLO module (or its text) for a backend.

    Args:
        module: an HloModule or HLO text.
        backend: "cpu" (NumPy, the reference) or "gpu" (Triton).

    Raises:
        HloParseError, HloVerifyError: bad module text or inconsistent shapes.
        UnsupportedError: an opcode or custom-call target the backend cannot run, or an
            unknown backend.
    """
    if isinstance(module, str):
        module = parse_hlo(module)
    if not isinstance(module, HloModule):
        raise DynHloError(f"compile() takes an HloModule or HLO text, got {type(module).__name__}")
    verify_module(module)
    info = infer_module(module)
    stats.count("compile")
    if backend == "cpu":
        from ..backends import cpu
        program = cpu.compile_module(module, info)
    elif backend == "gpu":
        try:
            from ..backends import gpu
        except ImportError as exc:
            raise UnsupportedError(f"the gpu backend needs torch and triton: {exc}") from None
        program = gpu.compile_module(module, info, **options)
    else:
        raise UnsupportedError(f"unknown backend '{backend}'; choose one of {', '.join(BACKENDS)}")
    return Executable(module, program, {"backend": backend, **options})
