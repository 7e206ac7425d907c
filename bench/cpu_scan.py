"""Long loops on the CPU: a JAX scan (an RNN cell over T steps, stacked outputs) through
dynhlo's compiled CPU path against jax.jit, one pinned CPU, one thread each.

    python bench/cpu_scan.py --threads one [--cpu N] [--steps 64 512] [--out FILE]

The program: `h = tanh(x_t @ W + h @ U + b)` over x of [T, batch, 16] with jax.lax.scan,
returning every step's h (a dynamic-update-slice of the stacked outputs per iteration, a
dynamic-slice of x at the counter). dynhlo compiles it once through `dynhlo.from_jax` with
the batch symbolic (`b <= 64`) and serves batch 1, 16 and 64; jax.jit compiles it per batch.
Reported per (T, batch): the warm call's median (bench/timing.warm_ms: after five untimed
calls, since a loop's counted specs and plan are made by its third and fourth call), the
first call (dynhlo: once, for every batch; jax.jit: compile and run at that batch), and the
largest difference between the two outputs. Loops of more iterations than
dynhlo/backends/cpu/compiled/loops._COUNTED run as one plan extrapolated from their first
iterations' specs (native_loop_template.py) where the placements of their rows are made
(placement._PROBED: not at T = 512, batch 64), else their body's one spec per iteration.

Writes bench/results/cpu_scan.json (or --out) and prints a markdown table.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cpu_threads  # noqa: E402

SETUP = cpu_threads.from_argv(sys.argv)

import argparse  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import report  # noqa: E402
from timing import warm_ms  # noqa: E402

BATCHES = (1, 16, 64)
HIDDEN = 16


def rnn(w, u, b, xs):
    import jax
    import jax.numpy as jnp

    def cell(h, x):
        h = jnp.tanh(x @ w + h @ u + b)
        return h, h
    h0 = jnp.zeros((xs.shape[1], w.shape[1]), xs.dtype)
    return jax.lax.scan(cell, h0, xs)[1]


def rows(steps: int, budget: float) -> list:
    import jax

    import dynhlo
    gen = np.random.default_rng(steps)
    weights = [(gen.standard_normal(s) * 0.3).astype(np.float32)
               for s in ((HIDDEN, HIDDEN), (HIDDEN, HIDDEN), (HIDDEN,))]
    start = time.perf_counter()
    exe = dynhlo.from_jax(rnn, "f32[16,16]", "f32[16,16]", "f32[16]",
                          f"f32[{steps},b,16]", bounds={"b": max(BATCHES)}, reference=False)
    out = []
    for batch in BATCHES:
        xs = gen.standard_normal((steps, batch, HIDDEN)).astype(np.float32)
        args = [*weights, xs]
        got = np.asarray(exe(*args))
        first = (time.perf_counter() - start) * 1e3
        dynhlo_ms = warm_ms(lambda: exe(*args), budget)
        with jax.default_matmul_precision("highest"):
            t = time.perf_counter()
            jitted = jax.jit(rnn)
            expected = np.asarray(jitted(*args).block_until_ready())
            jax_first = (time.perf_counter() - t) * 1e3
            jax_ms = warm_ms(lambda: jitted(*args).block_until_ready(), budget)
        row = {"steps": steps, "batch": batch, "dynhlo_warm_ms": dynhlo_ms,
               "jax_warm_ms": jax_ms, "dynhlo_vs_jax": dynhlo_ms / jax_ms,
               "dynhlo_first_ms": first, "jax_first_ms": jax_first,
               "max_abs_diff": float(np.abs(got - expected).max())}
        out.append(row)
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v
                          for k, v in row.items()}), flush=True)
        start = time.perf_counter()   # (later batches: no compile, only the first call)
    return out


def markdown(data: dict) -> str:
    lines = ["| T | batch | dynhlo warm ms | jax.jit warm ms | dynhlo / jax | dynhlo first "
             "ms | jax.jit first ms | max abs diff |", "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in data["rows"]:
        lines.append(f"| {r['steps']} | {r['batch']} | {r['dynhlo_warm_ms']:.3f} | "
                     f"{r['jax_warm_ms']:.3f} | {r['dynhlo_vs_jax']:.2f} | "
                     f"{r['dynhlo_first_ms']:.0f} | {r['jax_first_ms']:.0f} | "
                     f"{r['max_abs_diff']:.1e} |")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", choices=("one",), required=True)
    p.add_argument("--cpu", type=int)
    p.add_argument("--steps", type=int, nargs="*", default=[64, 512])
    p.add_argument("--budget", type=float, default=1.0, help="seconds per warm measure")
    p.add_argument("--out", help="default: bench/results/cpu_scan.json")
    opts = p.parse_args()
    os.environ["DYNHLO_CACHE_DIR"] = tempfile.mkdtemp(prefix="dynhlo-cpu-scan-")
    data = {"setup": {**SETUP, "load_before": os.getloadavg()[0]},
            "rows": [r for steps in opts.steps for r in rows(steps, opts.budget)]}
    data["setup"]["load_after"] = os.getloadavg()[0]
    print(markdown(data))
    report.save("cpu_scan", data, out=opts.out)


if __name__ == "__main__":
    main()
