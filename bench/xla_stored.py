"""XLA's CPU backend on a stored shape-polymorphic StableHLO module, at one static size: what
jax.jit compiles for that program at those shapes.

A library of the benchmarks (cpu_compare.py's real-library rows), not a benchmark. The stored
modules of tests/data/reallibs are `jax.export` output with the variable size symbolic
(`tensor<?x16xf32>`, the size read with `get_dimension_size`, `shape_assertion` custom calls
for its bounds). XLA compiles static shapes only, so, as jax does when it calls an exported
module with concrete arguments (`Exported.call` under jax.jit): the stored `main` becomes a
private function, a new `main` with the arguments' static types converts them to the
stored types (`stablehlo.convert`), calls it and converts the results to the expected
static types; then jaxlib's shape refinement (`refine_polymorphic_shapes`, which also checks
the shape assertions statically and drops them) makes every shape static. The result is
compiled by the CPU client with the compile options jax.jit uses (`get_compile_options`, which
read XLA_FLAGS) and run with `LoadedExecutable.execute_sharded` on arguments already on the
device, as a jax.jit warm call runs its executable (jax.jit's C++ dispatch is replaced by
jaxlib's; on haiku_mlp at 13 rows the two took 23 and 28 µs per call).

    exe = XlaProgram(text, args, outs)   # args: NumPy arrays; outs: arrays of the result
                                         # shapes and dtypes (the stored reference outputs);
                                         # platform="cuda" for XLA's GPU backend
    exe.compile_s                        # seconds: shape refinement + XLA compile
    leaves = exe()                       # NumPy arrays, one per result
    exe.run()                            # one call, results left on the device (timing)

Needs jax and jaxlib 0.10 (private entry points: no public jax API compiles a StableHLO
module). Raises ValueError (from jaxlib) when the module does not refine at these shapes.
"""

from __future__ import annotations

import time

import numpy as np


def static_module(text: str, args: list, outs: list) -> str:
    """The module `text` with its `main` taking `args`' static shapes and returning `outs`'
    shapes, refined to static shapes throughout (MLIR text)."""
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir

    with mlir.make_ir_context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        main = next(op for op in module.body.operations
                    if ir.StringAttr(op.attributes["sym_name"]).value == "main")
        ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        if len(ftype.inputs) != len(args) or len(ftype.results) != len(outs):
            raise ValueError(f"xla_stored: main takes {len(ftype.inputs)} arguments and gives "
                             f"{len(ftype.results)} results; {len(args)} and {len(outs)} given")

        def static(t, shape) -> str:
            return str(ir.RankedTensorType.get(list(shape), ir.RankedTensorType(t).element_type))

        stored_in = [str(t) for t in ftype.inputs]
        stored_out = [str(t) for t in ftype.results]
        new_in = [static(t, a.shape) for t, a in zip(ftype.inputs, args, strict=True)]
        new_out = [static(t, o.shape) for t, o in zip(ftype.results, outs, strict=True)]
        main.attributes["sym_name"] = ir.StringAttr.get("stored_main")
        main.attributes["sym_visibility"] = ir.StringAttr.get("private")
        body = str(module)
    k = len(stored_out)
    results = ["%r"] if k == 1 else [f"%r#{j}" for j in range(k)]
    lines = [f"  func.func public @main("
             f"{', '.join(f'%a{i}: {t}' for i, t in enumerate(new_in))}) -> "
             f"({', '.join(new_out)}) {{"]
    lines += [f"    %c{i} = stablehlo.convert %a{i} : ({s}) -> {d}"
              for i, (s, d) in enumerate(zip(new_in, stored_in, strict=True))]
    lines.append(f"    {'%r' if k == 1 else f'%r:{k}'} = func.call @stored_main("
                 f"{', '.join(f'%c{i}' for i in range(len(stored_in)))}) : "
                 f"({', '.join(stored_in)}) -> ({', '.join(stored_out)})")
    lines += [f"    %o{j} = stablehlo.convert {r} : ({d}) -> {s}"
              for j, (r, d, s) in enumerate(zip(results, stored_out, new_out, strict=True))]
    lines += [f"    return {', '.join(f'%o{j}' for j in range(k))} : {', '.join(new_out)}",
              "  }"]
    end = body.rstrip().rindex("}")   # the module's closing brace
    wrapped = body[:end] + "\n".join(lines) + "\n}\n"
    with mlir.make_ir_context():
        return str(mlir.refine_polymorphic_shapes(ir.Module.parse(wrapped)))


class XlaProgram:
    """The stored module compiled by XLA for `args`' shapes (see the module docstring)."""

    def __init__(self, text: str, args: list, outs: list, platform: str = "cpu"):
        import jax
        from jax._src import compiler, xla_bridge
        from jax._src.lib import xla_client as xc

        start = time.perf_counter()
        refined = static_module(text, args, outs)
        backend = xla_bridge.get_backend(platform)
        device = backend.local_devices()[0]
        options = compiler.get_compile_options(num_replicas=1, num_partitions=1)
        self.executable = backend.compile_and_load(refined, xc.DeviceList((device,)), options)
        self.compile_s = time.perf_counter() - start
        # x64 only while the arguments go to the device: the HuggingFace programs take int64
        # token ids, which JAX would otherwise narrow to int32
        with jax.enable_x64(True):
            self.buffers = [jax.device_put(np.asarray(a), device) for a in args]

    def run(self):
        """One call; the results stay on the device (ready when this returns)."""
        results = self.executable.execute_sharded(self.buffers)
        arrays = results.disassemble_into_single_device_arrays()
        for leaf in arrays:
            leaf[0].block_until_ready()
        return arrays

    def __call__(self) -> list[np.ndarray]:
        return [np.asarray(leaf[0]) for leaf in self.run()]
