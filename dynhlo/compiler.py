"""The compile driver: the one path from an HLO module to a backend's program.

    parse -> verify -> infer -> the backend's pass pipeline -> infer -> backend.compile
                                                                     or backend.load

    checked (parse, verify)  ->  lower (infer, pipeline, infer)  ->  compile | load

Compiling and loading an artifact take the same path; they differ only in the last step
(load takes the program's payload from the artifact and compiles nothing; the loader runs
`checked` on each stored module itself, once, so that its errors name the artifact's section).
Inference runs once per module: on the module as given (its errors name the user's
instructions) and, when the pipeline rewrote it, on the module the backend runs. Backends
never infer or run passes themselves.
"""

from __future__ import annotations

from . import stats
from .backends import Backend, get
from .hlo.ir import HloModule
from .hlo.text.parser import parse_hlo
from .hlo.verify import verify_module
from .options import CompileOptions
from .passes.pipelines import run_pipeline
from .shapes.dynamic import ComputationInfo, infer_module


def compile_program(module: HloModule | str, backend: str,
                    options: CompileOptions | dict | None = None, **more):
    """A program of `backend` for `module` (an HloModule or its text), compiled with
    `options` and `more` (compile() keywords, or a CompileOptions), checked here, once
    (CompileOptions.of), before the backend sees them.

    Raises:
        HloParseError, HloVerifyError: bad module text or inconsistent shapes.
        UnsupportedError: an unknown backend, one that cannot import here, an unknown option
            or a bad value of one (named), or an opcode or custom-call target the backend
            cannot run.
    """
    chosen = get(backend)
    checked_options = CompileOptions.of(options, **more)
    module, info = lower(checked(module), chosen)
    stats.count("compile")
    return chosen.compile(module, info, checked_options)


def load_program(module: HloModule, backend: str, payload: dict[str, bytes], target: str):
    """The program of `backend` that `payload` holds (an artifact's sections), compiling
    nothing. `module` is the module it was compiled from, already through `checked` (the
    loader checks each stored module once, and names its section when it fails).

    Raises:
        UnsupportedError: an unknown backend or one that cannot import here.
        ArtifactError: a payload the backend refuses (another target, sections it did not
            write); DynHloError from inferring the module.
    """
    chosen = get(backend)
    module, info = lower(module, chosen)
    return chosen.load(module, info, payload, target)


def checked(module: HloModule | str, buffers=None) -> HloModule:
    """The module parsed (from text; `buffers`: the values of its `constant(#N)`, as
    parse_hlo takes them) and verified: the driver's first two steps.

    Raises HloParseError (with line:column) or HloVerifyError naming the instruction.
    """
    if not isinstance(module, HloModule):
        module = parse_hlo(module, buffers)
    verify_module(module)
    return module


def lower(module: HloModule, backend: Backend) -> tuple[HloModule, ComputationInfo]:
    """(the module the backend runs, its inference): the checked module inferred (its errors
    name the user's instructions), rewritten by the backend's pipeline, and inferred again
    only when the pipeline returned another module."""
    info = infer_module(module)
    lowered = run_pipeline(module, backend.pipeline)
    if lowered is module:
        return module, info
    return lowered, infer_module(lowered)


__all__ = ["checked", "compile_program", "load_program", "lower"]
