"""Run as a script (never imported): MLIR bytecode or a StableHLO portable artifact on stdin,
the module as MLIR text on stdout.

dynhlo.frontends.mlir_load runs this in a child process for bytecode it did not make itself:
StableHLO's deserializer trusts the attributes it reads (a flipped byte that turns a
comparison direction into a string makes its VHLO legalization dereference a bad cast and
the process die of SIGSEGV), so only this child may die of corrupt input. Exit status 0: the
text on stdout; 1: MLIR's diagnostics on stderr, one a line; anything else: it crashed. It
imports no dynhlo module, so it runs without dynhlo on sys.path.
"""

import os
import sys

# Python puts this script's folder first on sys.path, where jax.py would shadow jax
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]


def main() -> int:
    from jaxlib.mlir import ir
    from jaxlib.mlir._mlir_libs import _jax_mlir_ext
    from jaxlib.mlir.dialects import chlo, mhlo, mpmd, sdy, stablehlo

    data = sys.stdin.buffer.read()
    # jax's make_ir_context from jaxlib alone (importing jax costs seconds)
    ctx = ir.Context()
    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    for dialect in (sdy, mpmd, chlo, stablehlo):
        dialect.register_dialect(ctx)
    mhlo.register_mhlo_dialect(ctx)
    messages = []

    def take(diagnostic) -> bool:
        try:
            messages.append(f"{diagnostic.location}: {diagnostic.message}")
        except RuntimeError:  # not UTF-8 (see mlir_load.Diagnostics)
            messages.append("a diagnostic whose text is not UTF-8 (corrupt input)")
        return True

    with ctx:
        ctx.emit_error_diagnostics = True
        ctx.attach_diagnostic_handler(take)
        try:
            module = stablehlo.deserialize_portable_artifact(ctx, data)
        except Exception:  # not a portable artifact: plain MLIR bytecode
            messages.clear()
            try:
                module = ir.Module.parse(data)
            except Exception:
                sys.stderr.write("\n".join(messages) or "MLIR's parser gave no reason")
                return 1
        text = module.operation.get_asm(enable_debug_info=True)
    sys.stdout.buffer.write(text.encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
