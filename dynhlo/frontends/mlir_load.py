"""Reading StableHLO through jaxlib's MLIR bindings (text, bytecode, portable artifacts).

jax is an optional dependency (`pip install "dynhlo[jax]"`): without it every entry point here
raises UnsupportedError saying so. After parsing, MLIR's own `inline` pass folds every
`func.call` into its caller (JAX wraps most primitives in private functions and passes its
dimension variables to them as arguments), so the importer sees one function whose size
arithmetic it can follow.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import HloParseError, UnsupportedError

INSTALL = 'pip install "dynhlo[jax]"'


def require_jax():
    """jaxlib's `ir` module and a context with the StableHLO and CHLO dialects loaded."""
    try:
        from jax._src.interpreters import mlir
        from jaxlib.mlir import ir
    except ImportError as exc:
        raise UnsupportedError(f"reading StableHLO needs jax and jaxlib ({exc}); "
                               f"install them with: {INSTALL}") from None
    return ir, mlir.make_ir_context()


def load_module(data: str | bytes, isolate: bool = True):
    """(context, module) from MLIR text, MLIR bytecode or a StableHLO portable artifact
    (`jax.export`'s `mlir_module_serialized`), with calls inlined.

    Bytecode is read in a child process unless `isolate` is False (bytecode jax.export made
    in this process): StableHLO's deserializer crashes the process on some corrupt input.

    Raises:
        HloParseError: the input is not valid MLIR (the parser's message and location), or
            bytecode that crashed MLIR's reader in the child.
        UnsupportedError: jax is not installed.
    """
    ir, ctx = require_jax()
    if isinstance(data, (bytes, bytearray)) and not _looks_textual(bytes(data)):
        if isolate:
            data = bytecode_to_text(bytes(data))
        else:
            from jaxlib.mlir.dialects import stablehlo
            with ctx, Diagnostics(ctx):
                try:
                    return ctx, stablehlo.deserialize_portable_artifact(ctx, bytes(data))
                except Exception:  # not a portable artifact: plain MLIR bytecode
                    pass
    elif isinstance(data, (bytes, bytearray)):
        data = bytes(data).decode("utf-8", "replace")
    if isinstance(data, str):
        check_nesting(data)
    with ctx, Diagnostics(ctx) as diagnostics:
        try:
            return ctx, ir.Module.parse(data)
        except Exception:  # MLIRError; the diagnostics hold file:line:col
            line, column = diagnostics.position()
            raise HloParseError(f"not a StableHLO module: {diagnostics.text()}",
                                line, column) from None


CHILD = str(Path(__file__).with_name("mlir_bytecode_child.py"))
CHILD_TIMEOUT_S = 600


def bytecode_to_text(data: bytes) -> str:
    """MLIR text of bytecode or a portable artifact, read by mlir_bytecode_child.py in a
    child process (so corrupt bytecode that crashes MLIR kills only the child).

    Raises:
        HloParseError: MLIR refused the bytecode (its diagnostics), or crashed on it.
        UnsupportedError: no child process can be started."""
    import subprocess
    import sys
    try:
        done = subprocess.run([sys.executable, CHILD], input=data, capture_output=True,
                              timeout=CHILD_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise HloParseError(f"MLIR's bytecode reader did not finish in {CHILD_TIMEOUT_S} s "
                            "(corrupt bytecode?)", 1, 1) from None
    except OSError as exc:  # no interpreter to start (an embedded Python)
        raise UnsupportedError(f"cannot start {sys.executable!r} to read MLIR bytecode "
                               f"({exc}); pass the module as MLIR text instead") from None
    if done.returncode == 0:
        return done.stdout.decode("utf-8", "replace")
    reason = " ".join(done.stderr.decode("utf-8", "replace").strip().splitlines()[:4])
    if done.returncode == 1:
        line, column = _position(reason)
        raise HloParseError(f"not a StableHLO module: {reason}", line, column)
    raise HloParseError(f"MLIR's bytecode reader crashed on this input (exit status "
                        f"{done.returncode}): corrupt MLIR bytecode? {reason[-200:]}", 1, 1)


class Diagnostics:
    """Takes a context's error diagnostics while open, as text that is always valid.

    The bindings' own capture (what MLIRError carries) converts each message to a Python
    string inside a C callback: a message quoting bytes that are not UTF-8 (corrupt
    bytecode names an op or dialect from its string table) throws there and aborts the
    whole process. `emit_error_diagnostics` sends them to this handler instead, whose
    conversion errors the bindings catch. Taking them also keeps MLIR from printing them
    on stderr itself."""

    def __init__(self, ctx):
        self.ctx, self.messages = ctx, []

    def __enter__(self):
        self.before = self.ctx.emit_error_diagnostics
        self.ctx.emit_error_diagnostics = True
        self.handler = self.ctx.attach_diagnostic_handler(self._take)
        return self

    def __exit__(self, *exc):
        self.handler.detach()
        self.ctx.emit_error_diagnostics = self.before
        return False

    def _take(self, diagnostic) -> bool:
        try:
            self.messages.append(f"{diagnostic.location}: {diagnostic.message}")
        except RuntimeError:  # not UTF-8: the bindings cannot make it a str
            self.messages.append("a diagnostic whose text is not UTF-8 (corrupt input)")
        return True

    def text(self, n: int = 4) -> str:
        lines = [line for m in self.messages for line in m.strip().splitlines()]
        return " ".join(lines[:n]) or "MLIR's parser gave no reason"

    def position(self) -> tuple[int, int]:
        return _position(" ".join(self.messages))


MAX_NESTING = 1000  # JAX's modules nest a few dozen deep; MLIR's parser overflows at ~10**4

_OPENERS, _CLOSERS = frozenset("([{<"), frozenset(")]}>")
_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"?|//[^\n]*|->|[(\[{<]|[)\]}>]')


def check_nesting(text: str) -> None:
    """HloParseError at the first bracket nested deeper than MAX_NESTING.

    MLIR's text parser descends recursively into every (, [, {, <: thousands of them
    (`tensor<2xf32> : ((((...`) overflow its C stack and kill the process with a
    segmentation fault instead of a diagnostic, so such text never reaches it. Strings,
    comments and the `->` of function types do not count."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        token = m.group()
        if token in _OPENERS:
            depth += 1
            if depth > MAX_NESTING:
                line = text.count("\n", 0, m.start()) + 1
                column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                raise HloParseError(f"brackets nested more than {MAX_NESTING} deep",
                                    line, column)
        elif token in _CLOSERS:
            depth = max(depth - 1, 0)


def _looks_textual(data: bytes) -> bool:
    return not data.startswith(b"ML\xefR")


def _position(message: str) -> tuple[int, int]:
    """line, column of MLIR's first diagnostic (`"-":7:8: error: ...`), else 1, 1."""
    m = re.search(r'":(\d+):(\d+)', message)  # bytecode's are "-":0:0
    return (max(1, int(m.group(1))), max(1, int(m.group(2)))) if m else (1, 1)


def inline_calls(ctx, module) -> None:
    """Run MLIR's inliner and drop functions nothing calls any more."""
    _run(ctx, module, "inline, symbol-dce")


def legalize_chlo(ctx, module) -> None:
    """StableHLO's own decompositions of CHLO ops (lgamma, digamma, erf_inv, acos, ...) and
    of the shape-dialect ops they bring (shapes as get_dimension_size arithmetic)."""
    from jaxlib.mlir.dialects import stablehlo
    stablehlo.register_stablehlo_passes()
    _run(ctx, module, "func.func(stablehlo-legalize-composite-to-call), inline, "
                      "func.func(chlo-legalize-to-stablehlo), "
                      "func.func(shape-legalize-to-stablehlo), symbol-dce")


def _run(ctx, module, pipeline: str) -> None:
    from jaxlib.mlir import passmanager
    with ctx, Diagnostics(ctx) as diagnostics:
        try:
            passmanager.PassManager.parse(f"builtin.module({pipeline})").run(module.operation)
        except Exception:  # MLIRError: a pass (the verifier after it) refused the module
            raise UnsupportedError(f"MLIR's {pipeline} passes failed: "
                                   f"{diagnostics.text()}") from None


def op_names(module) -> set[str]:
    """The names of every op in the module, nested regions included."""
    names: set[str] = set()

    def walk(op):
        names.add(op.operation.name)
        for region in op.operation.regions:
            for block in region.blocks:
                for inner in block.operations:
                    walk(inner)

    walk(module.operation)
    return names
