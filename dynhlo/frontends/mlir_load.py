"""Reading StableHLO through jaxlib's MLIR bindings (text, bytecode, portable artifacts).

jax is an optional dependency (`pip install "dynhlo[jax]"`): without it every entry point here
raises UnsupportedError saying so. After parsing, MLIR's own `inline` pass folds every
`func.call` into its caller (JAX wraps most primitives in private functions and passes its
dimension variables to them as arguments), so the importer sees one function whose size
arithmetic it can follow.
"""

from __future__ import annotations

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


def load_module(data: str | bytes):
    """(context, module) from MLIR text, MLIR bytecode or a StableHLO portable artifact
    (`jax.export`'s `mlir_module_serialized`), with calls inlined.

    Raises:
        HloParseError: the input is not valid MLIR (the parser's message and location).
        UnsupportedError: jax is not installed.
    """
    ir, ctx = require_jax()
    from jaxlib.mlir.dialects import stablehlo
    with ctx:
        module = None
        if isinstance(data, (bytes, bytearray)) and not _looks_textual(bytes(data)):
            # MLIR prints a failed deserialization's diagnostics on stderr itself; a handler
            # that takes them keeps stderr to dynhlo's one-line error (the parse below
            # reports the input's real problem)
            quiet = ctx.attach_diagnostic_handler(lambda diagnostic: True)
            try:
                module = stablehlo.deserialize_portable_artifact(ctx, bytes(data))
            except Exception:  # not a portable artifact: plain MLIR bytecode, tried below
                module = None
            finally:
                quiet.detach()
        if module is None:
            text = data.decode("utf-8", "replace") if isinstance(data, (bytes, bytearray)) \
                else data
            try:
                module = ir.Module.parse(data if isinstance(data, (bytes, bytearray))
                                         and not _looks_textual(bytes(data)) else text)
            except Exception as exc:  # MLIRError: diagnostics with file:line:col
                line, column = _position(str(exc))
                raise HloParseError(f"not a StableHLO module: {_first_lines(exc)}", line,
                                    column) from None
    return ctx, module


def _looks_textual(data: bytes) -> bool:
    return not data.startswith(b"ML\xefR")


def _position(message: str) -> tuple[int, int]:
    """line, column of MLIR's first diagnostic (`"-":7:8: error: ...`), else 1, 1."""
    import re
    m = re.search(r'":(\d+):(\d+)', message)
    return (int(m.group(1)), int(m.group(2))) if m else (1, 1)


def _first_lines(exc: Exception, n: int = 4) -> str:
    return " ".join(str(exc).strip().splitlines()[:n])


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
    with ctx:
        passmanager.PassManager.parse(f"builtin.module({pipeline})").run(module.operation)


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
