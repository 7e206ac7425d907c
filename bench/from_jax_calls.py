"""A JAX user's warm call: `dynhlo.from_jax(fn, ...)` called as fn is, against the plain
executable of the same module and `jax.jit(fn)`, on one pinned CPU, one thread each.

    python bench/from_jax_calls.py --threads one [--cpu N] [--out FILE]

What from_jax adds to a call (the argument tree flattened, each array checked against its
spec: rank, static sizes, one size per name, each name's range; the results put back into
fn's output structure) is measured on small functions, where it is most of the call, and
the kernels from_jax's shape assertions reach on larger ones (`q @ k.T` over one size name
`n`, the softmax of an `n x n` argument: one size on both sides, one kernel). Each dynhlo
way is timed in turns with jax.jit (timing.paired_warm_ms; jax.jit's figure is from the
turns with from_jax); each row gives the largest difference from jax.jit's result.

Writes bench/results/from_jax_calls.json (or --out) and prints a markdown table.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cpu_threads  # noqa: E402

SETUP = cpu_threads.from_argv(sys.argv)

import argparse  # noqa: E402
import json  # noqa: E402

import numpy as np  # noqa: E402

import report  # noqa: E402
from timing import paired_warm_ms  # noqa: E402


def _softmax(jnp, x):
    e = jnp.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def cases() -> list:
    """(name, fn, from_jax specs, bounds, the arguments)."""
    import jax.numpy as jnp
    gen = np.random.default_rng(0)

    def f32(*shape):
        return gen.standard_normal(shape).astype(np.float32)
    w1, b1, w2 = f32(16, 32) * 0.2, f32(32), f32(32, 4) * 0.2
    return [
        ("add [8,4]", lambda x, y: x + y, ("f32[n,4]", "f32[n,4]"), {"n": 64},
         [f32(8, 4), f32(8, 4)]),
        ("mlp {params} [4,16]", lambda p, x: jnp.tanh(x @ p["w1"] + p["b1"]) @ p["w2"],
         ({"w1": w1, "b1": b1, "w2": w2}, "f32[b,16]"), {"b": 64},
         [{"w1": w1, "b1": b1, "w2": w2}, f32(4, 16)]),
        ("softmax [n,n] n=512", lambda x: _softmax(jnp, x), ("f32[n,n]",), {"n": 1024},
         [f32(512, 512)]),
        ("attention q,k,v [n,64] n=512",
         lambda q, k, v: _softmax(jnp, (q @ k.T) / 8.0) @ v, ("f32[n,64]",) * 3,
         {"n": 1024}, [f32(512, 64), f32(512, 64), f32(512, 64)]),
    ]


def rows(budget: float) -> list:
    import jax

    import dynhlo
    out = []
    for name, fn, specs, bounds, args in cases():
        exe = dynhlo.from_jax(fn, *specs, bounds=bounds)
        plain = exe.executable
        flat = jax.tree_util.tree_leaves(args)
        jitted = jax.jit(fn)
        jargs = jax.tree_util.tree_map(jax.device_put, args)
        want = np.asarray(jitted(*jargs))
        got = np.asarray(exe(*args))
        # (each dynhlo way in turns with jax.jit alone: a block after another's finds the
        # caches as that one left them, so three in turns would favour the third)
        call = lambda: jitted(*jargs).block_until_ready()  # noqa: E731
        ours, theirs = paired_warm_ms([lambda: exe(*args), call], budget)
        plain_ms, _ = paired_warm_ms([lambda: plain(*flat), call], budget)
        out.append({"case": name, "from_jax_us": ours * 1e3, "executable_us": plain_ms * 1e3,
                    "jax_jit_us": theirs * 1e3, "from_jax_vs_jit": ours / theirs,
                    "max_abs_diff": float(np.abs(got - want).max())})
        print(json.dumps(out[-1]), flush=True)
    return out


def markdown(data: list) -> str:
    lines = ["| case | from_jax us | its executable us | jax.jit us | from_jax / jax.jit | "
             "max abs diff |", "|---|---:|---:|---:|---:|---:|"]
    for r in data:
        lines.append(f"| {r['case']} | {r['from_jax_us']:.1f} | {r['executable_us']:.1f} | "
                     f"{r['jax_jit_us']:.1f} | {r['from_jax_vs_jit']:.2f} | "
                     f"{r['max_abs_diff']:.1e} |")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", choices=cpu_threads.MODES, default="one")
    p.add_argument("--cpu", type=int)
    p.add_argument("--budget", type=float, default=2.0, help="seconds per function and row")
    p.add_argument("--out", help="default: bench/results/from_jax_calls.json")
    opts = p.parse_args()
    if SETUP is None:
        sys.exit("run with --threads one (pinned, one thread per side)")
    data = {"setup": SETUP, "rows": rows(opts.budget)}
    print(markdown(data["rows"]))
    report.save("from_jax_calls", data, out=opts.out)


if __name__ == "__main__":
    main()
