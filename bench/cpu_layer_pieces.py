"""Where a transformer layer's time goes on the CPU: each piece of bench/workloads.py's
layer (the products, softmax, gelu, layernorm) as its own program through dynhlo's
compiled CPU path and jax.jit, at one n, one pinned CPU, one thread each.

    python bench/cpu_layer_pieces.py --threads one [--cpu N] [--n 512] [--out FILE]

Each piece is exported with `dynhlo.from_jax` (`n` symbolic, bound 2048) and called
through its plain executable (no from_jax wrapper), against `jax.jit` of the same function
at the same arguments (highest matmul precision, as cpu_compare.py), and for a product
np.matmul alone (the BLAS the compiled path calls). Timing: the best of
several runs of back-to-back calls per side (the products' ranking moved between runs of
calls in turns on this shared host); the sum of the pieces is not the layer's time (a
layer fuses across them). Each row gives the largest difference from jax.jit's result.

Writes bench/results/cpu_layer_pieces.json (or --out) and prints a markdown table.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cpu_threads  # noqa: E402

SETUP = cpu_threads.from_argv(sys.argv)

import argparse  # noqa: E402

import numpy as np  # noqa: E402

import report  # noqa: E402
from timing import best_us  # noqa: E402
import workloads  # noqa: E402


def pieces(n: int) -> list:
    """(name, fn, argument shapes) of one layer's pieces at n rows."""
    import jax.numpy as jnp

    def softmax(x):
        e = jnp.exp(x - x.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)
    def product(x, w):
        return x @ w
    return [
        ("q @ k.T / 8", lambda q, k: q @ k.T / 8.0, [(n, 64), (n, 64)]),
        ("softmax", softmax, [(n, n)]),
        ("p @ v", product, [(n, n), (n, 64)]),
        ("x @ wq (64 -> 64)", product, [(n, 64), (64, 64)]),
        ("x @ w1 (64 -> 256)", product, [(n, 64), (64, 256)]),
        ("gelu", lambda x: workloads._gelu("jax", x), [(n, 256)]),
        ("h @ w2 (256 -> 64)", product, [(n, 256), (256, 64)]),
        ("layernorm + residual", lambda x, g, b: x + workloads._ln("jax", x, g, b),
         [(n, 64), (64,), (64,)]),
    ]


def rows(n: int, seconds: float) -> list:
    import jax

    import dynhlo
    gen = np.random.default_rng(0)
    out = []
    for name, fn, shapes in pieces(n):
        args = [gen.standard_normal(s).astype(np.float32) for s in shapes]
        specs = [f"f32[{','.join('n' if d == n else str(d) for d in s)}]" for s in shapes]
        exe = dynhlo.from_jax(fn, *specs, bounds={"n": 2048}).executable
        with jax.default_matmul_precision("highest"):
            jitted = jax.jit(fn)
            jargs = [jax.device_put(a) for a in args]
            want = np.asarray(jitted(*jargs))
            ours = best_us(lambda: exe(*args), seconds)
            theirs = best_us(lambda: jitted(*jargs).block_until_ready(), seconds)
        # a product's np.matmul alone: the BLAS dynhlo calls, without the executable
        blas = best_us(lambda: np.matmul(*args), seconds) if fn.__name__ == "product" \
            else None
        out.append({"piece": name, "n": n, "dynhlo_us": ours, "jax_jit_us": theirs,
                    "numpy_matmul_us": blas, "ratio": ours / theirs,
                    "max_abs_diff": float(np.abs(np.asarray(exe(*args)) - want).max())})
        print(out[-1], flush=True)
    return out


def markdown(data: list) -> str:
    lines = ["| piece | n | dynhlo us | np.matmul us | jax.jit us | dynhlo / jax.jit | "
             "max abs diff |", "|---|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['piece']} | {r['n']} | {r['dynhlo_us']:.1f} | "
              f"{'-' if r['numpy_matmul_us'] is None else format(r['numpy_matmul_us'], '.1f')}"
              f" | {r['jax_jit_us']:.1f} | {r['ratio']:.2f} | {r['max_abs_diff']:.1e} |"
              for r in data]
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", choices=cpu_threads.MODES, default="one")
    p.add_argument("--cpu", type=int)
    p.add_argument("--n", type=int, default=512)
    p.add_argument("--seconds", type=float, default=1.0, help="per piece and side")
    p.add_argument("--out", help="default: bench/results/cpu_layer_pieces.json")
    opts = p.parse_args()
    if SETUP is None:
        sys.exit("run with --threads one (pinned, one thread per side)")
    data = {"setup": SETUP, "rows": rows(opts.n, opts.seconds)}
    print(markdown(data["rows"]))
    report.save("cpu_layer_pieces", data, out=opts.out)


if __name__ == "__main__":
    main()
