"""from_jax at depth: time and peak memory of a residual network through jax.export and dynhlo.

    python bench/from_jax_depth.py [--depths 6,12,24,48] [--width 64] [--bound 256]

Each depth runs in a fresh process: `x = x + gelu(layernorm(x) @ W)` repeated L times over
f32[n, width] with n <= bound, then `dynhlo.from_jax` (jax.export, dynhlo's StableHLO import,
dynamic-size inference, compile for the CPU backend) and one call at the bound. Reports the
wall time of jax.export alone and of from_jax, from_jax's peak traced Python memory
(tracemalloc) and the process's peak resident memory. Before the size algebra (2026-12-05)
the sizes doubled per block: 0.29 GB at L=8, 1.46 GB at L=10, MemoryError at L=12.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
import tracemalloc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_depth(depth: int, width: int, bound: int) -> dict:
    """Measure from_jax of `depth` residual blocks in this process."""
    sys.path.insert(0, ROOT)
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import export

    import dynhlo

    rng = np.random.default_rng(depth)
    weights = [rng.standard_normal((width, width)).astype(np.float32) / 8 for _ in range(depth)]

    def layernorm(x):
        mean = x.mean(-1, keepdims=True)
        return (x - mean) / jnp.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + 1e-5)

    def fn(x):
        for w in weights:
            x = x + jax.nn.gelu(layernorm(x) @ w)
        return x

    (n,) = export.symbolic_shape("n", constraints=[f"n <= {bound}"])
    start = time.perf_counter()
    export.export(jax.jit(fn), platforms=("cpu",))(jax.ShapeDtypeStruct((n, width), jnp.float32))
    export_s = time.perf_counter() - start
    tracemalloc.start()
    start = time.perf_counter()
    exe = dynhlo.from_jax(fn, f"f32[n,{width}]", bounds={"n": bound})
    from_jax_s = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    x = rng.standard_normal((bound, width)).astype(np.float32)
    error = float(np.max(np.abs(exe(x) - np.asarray(jax.jit(fn)(x)))))
    return {"depth": depth, "instructions": sum(1 for _ in exe.module.instructions()),
            "export_s": export_s, "from_jax_s": from_jax_s, "traced_peak_mb": peak / 2**20,
            "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "max_error": error}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", default="6,12,24,48")
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--bound", type=int, default=256)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        print(json.dumps(one_depth(args.child, args.width, args.bound)))
        return 0
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; width {args.width}, bound {args.bound}")
    print("| blocks | HLO instructions | jax.export s | from_jax s | from_jax traced peak MB "
          "| process peak RSS MB | max abs error vs jax.jit |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for depth in (int(d) for d in args.depths.split(",")):
        out = subprocess.run([sys.executable, __file__, "--child", str(depth), "--width",
                              str(args.width), "--bound", str(args.bound)],
                             capture_output=True, text=True, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"| {r['depth']} | {r['instructions']} | {r['export_s']:.2f} | "
              f"{r['from_jax_s']:.2f} | {r['traced_peak_mb']:.1f} | {r['max_rss_mb']:.0f} | "
              f"{r['max_error']:.1e} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
