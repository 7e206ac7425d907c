"""from_tf against TensorFlow's own XLA on the TF program set (tests/support/tf_program_set.py:
Keras layers, a SavedModel, a tf.Module, NMS, ragged masks, unique, segment sums, top_k).

    PYTHONPATH=$PWD /tmp/tfvenv/bin/python bench/tf_compare.py [--runs N] [--out FILE]

Per program: the sizes run (those below TensorFlow's least size refused, in brackets), the
max error against TensorFlow eager over them, from_tf's time (lowering, cross-check,
compile: once for every size), the warm call of dynhlo's executable and of
`tf.function(fn, jit_compile=True)` (median of N calls after the first, at the bound), and
jit_compile's first call at each size (tracing and XLA's compile: it compiles per shape).
Prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402


def _median_call(fn, args, runs: int) -> float:
    fn(*args)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _flat(out, tf):
    return [np.asarray(o) for o in tf.nest.flatten(out)]


def row(name, make, inputs, least, sizes, runs, tf, dynhlo) -> str:
    held, shapes, bounds, eager = make()
    start = time.perf_counter()
    exe = dynhlo.from_tf(held, *shapes, bounds=bounds)
    took = time.perf_counter() - start
    eager = eager or held
    jit = tf.function(lambda *a: eager(*a), jit_compile=True)
    err, compiles, shown = 0.0, [], []
    for n in sizes:
        args = inputs(n)
        if n < least:
            shown.append(f"({n})")
            continue
        shown.append(str(n))
        got = exe.executable(*args)
        got = list(got) if isinstance(got, tuple) else [got]
        want = _flat(eager(*args), tf)
        err = max([err] + [float(np.abs(np.asarray(g, np.float64) - w).max(initial=0))
                           for g, w in zip(got, want, strict=True)])
        start = time.perf_counter()
        try:
            jit(*[tf.constant(a) for a in args])
            compiles.append(f"{(time.perf_counter() - start) * 1e3:.0f}")
        except Exception:  # noqa: BLE001 - jit_compile refuses it (reported as -)
            compiles.append("-")
    bound = inputs(sizes[-1])
    ours = _median_call(exe.executable, bound, runs)
    tensors = [tf.constant(a) for a in bound]
    try:
        theirs = f"{_median_call(jit, tensors, runs) * 1e3:.3f}"
    except Exception:  # noqa: BLE001
        theirs = "-"
    return (f"| {name} | {' '.join(shown)} | {err:.1e} | {took:.2f} | {ours * 1e3:.3f} | "
            f"{theirs} | {' / '.join(compiles)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    import tensorflow as tf

    import dynhlo
    from tests.support.tf_program_set import LEAST, PROGRAMS, SIZES
    lines = ["| program | sizes | max error | from_tf s | dynhlo warm ms | jit_compile warm ms "
             "| jit_compile first call per size, ms |",
             "|---|---|---:|---:|---:|---:|---|"]
    print("\n".join(lines), flush=True)
    for name, (make, inputs) in PROGRAMS.items():
        lines.append(row(name, make, inputs, LEAST.get(name, 0), SIZES, args.runs, tf,
                         dynhlo))
        print(lines[-1], flush=True)
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
