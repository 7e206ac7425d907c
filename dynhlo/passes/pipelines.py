"""The pass pipelines: one ordered list per backend use, with the reason for each step.

A pass is a pure function HloModule -> HloModule (a new module; its input is never
modified). run_pipeline applies a list in order; with verify=True it checks the module after
every pass (dynhlo.hlo.verify.verify_module, then dynamic dimension inference) and names the
pass that broke it. Passes have no options of their own here: a pass that needs arguments
(bound-unbounded takes each bucket's bounds) is applied where those are known.

Not listed: bound-unbounded (passes/bound_unbounded.py) runs per bucket in
runtime/buckets.py and runtime/jit.py, before the backend compiles, since it takes the
bucket's bounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..errors import DynHloError, HloVerifyError
from ..hlo.ir import HloModule
from ..hlo.text.printer import print_computation
from ..hlo.verify import verify_module
from ..shapes.dynamic import infer_module
from . import dead_code, inline_calls, size_before_update, while_simplifier


@dataclass(frozen=True)
class Step:
    """One pass of a pipeline: its name, the function, and why it is there."""

    name: str
    run: Callable[[HloModule], HloModule]
    reason: str


_SIZE_BEFORE_UPDATE = Step(
    size_before_update.NAME, size_before_update.size_before_update,
    "values are held at their actual sizes, so rows a dynamic-update-slice writes past the "
    "size would be gone before a set-dimension-size grows over them; XLA's buffers at the "
    "bound keep them (dynamic_padder_test WhileLoopStack)")

_WHILE_SIMPLIFIER = Step(
    while_simplifier.NAME, while_simplifier.simplify_while_loops,
    "a loop that runs its body at most once is its init or its body written in the caller, "
    "as XLA's WhileLoopSimplifier makes it (exporters leave them where a loop's range was "
    "the traced batch): no loop call per module call, and the body joins the caller's work")

_DEAD_CODE = Step(
    dead_code.NAME, dead_code.dead_code,
    "XLA never runs an instruction no result reads (HloDCE): frontends leave some (JAX's "
    "shape checks after import), and on the GPU one such step keeps a module off its CUDA "
    "graph; last, so that it also drops what the other passes leave")

CPU_PIPELINE: list[Step] = [_SIZE_BEFORE_UPDATE, _WHILE_SIMPLIFIER, _DEAD_CODE]
"""The CPU backend is the reference: it runs modules as written (calls run their callee),
but for the one rewrite that XLA's buffers at the bound need and, as XLA, without the
loops that run at most once and the instructions no result reads."""

GPU_PIPELINE: list[Step] = [
    _SIZE_BEFORE_UPDATE,
    _WHILE_SIMPLIFIER,
    Step(inline_calls.NAME, inline_calls.inline_calls,
         "XLA's fusion/call/async wrappers become plain instructions, which the GPU planner "
         "fuses into its own kernels instead of running them on the host"),
    _DEAD_CODE,
]


def run_pipeline(module: HloModule, passes: list[Step], verify: bool = False) -> HloModule:
    """Apply `passes` in order; the module the last one returns (`module` for an empty list).

    With verify=True the input and every pass's output go through verify_module and
    infer_module. Raises HloVerifyError naming the pass (or "input") and the instruction, with
    the text of the instruction's computation around it.
    """
    if verify:
        _check(module, "the pipeline's input")
    for step in passes:
        module = step.run(module)
        if verify:
            _check(module, f"pass '{step.name}'")
    return module


def _check(module: HloModule, after: str) -> None:
    try:
        verify_module(module)
        infer_module(module)
    except DynHloError as exc:
        name = getattr(exc, "instruction", None)
        raise HloVerifyError(f"after {after}: {_message(exc)}\n{ir_around(module, name)}",
                             name) from None


def _message(exc: DynHloError) -> str:
    """The error's text without HloVerifyError's own `instruction 'x': ` prefix."""
    if isinstance(exc, HloVerifyError):
        return exc.message  # a position in the input text is not one in the pass's output
    text = str(exc)
    name = getattr(exc, "instruction", None)
    prefix = f"instruction '{name}': "
    return text[len(prefix):] if name and text.startswith(prefix) else text


def ir_around(module: HloModule, name: str | None, context: int = 3) -> str:
    """Lines of the computation holding instruction `name`, `>` marking it (`context` lines
    either side); the entry's first lines when the name is unknown or None."""
    comp = next((c for c in module.computations
                 if any(i.name == name for i in c.instructions)), module.entry)
    lines = print_computation(comp).splitlines()
    marks = [k for k, line in enumerate(lines) if _defines(line, name)]
    at = marks[0] if marks else 0
    lo, hi = max(0, at - context), min(len(lines), at + context + 1)
    return "\n".join(("> " if k in marks else "  ") + lines[k] for k in range(lo, hi))


def _defines(line: str, name: str | None) -> bool:
    if name is None:
        return False
    text = line.strip()
    if text.startswith("ROOT "):
        text = text[5:]
    return text.startswith(name + " = ")
