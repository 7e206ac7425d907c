"""from_tf against TensorFlow's jit_compile on the TF program set (tests/support/tf_program_set.py:
Keras layers, a SavedModel, a tf.Module, NMS, ragged masks, unique, segment sums, top_k,
where, boolean_mask); from_tf of a large model.

    PYTHONPATH=$PWD python bench/tf_compare.py [programs] [weights] [--runs N]
                                              [--only NAME ...] [--out FILE]

(a Python with TensorFlow and keras, e.g. `pip install tensorflow-cpu==2.21.0`, as CI's TF step)

programs: per program, the sizes run (those below TensorFlow's least size refused, in brackets), the
max error against TensorFlow eager over them, from_tf's time (lowering, cross-check,
compile: once for every size), the warm call of dynhlo's executable and of
`tf.function(fn, jit_compile=True)` (median of N calls after the first, at the bound), and
jit_compile's first call at each size (tracing and XLA's compile: it compiles per shape).
Prints a markdown table.

weights: Input(1024) and 4 Dense(1024, tanh) layers (4,198,400 float32 parameters), frozen
into constants (from_tf's default), bound n <= 64: from_tf's time (median of --runs, at most
3, after a warm-up: TensorFlow's lowerings, the cross-check, compile), the module's parse
with the weights as arrays (parse_hlo(text, arrays)) against the same module with them as
decimal text, and the first call at n = 5 against the model's own answer.

Writes bench/results/tf_compare.json (and a plot of the warm calls when matplotlib is
importable).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "bench"))
import report  # noqa: E402

PARTS = ("programs", "weights")
WIDTH, LAYERS, BOUND, N = 1024, 4, 64, 5


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


def row(name, make, inputs, least, sizes, runs, tf, dynhlo) -> dict:
    """One program: sizes run, max error against eager, from_tf s, warm calls, first calls."""
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
        theirs = _median_call(jit, tensors, runs) * 1e3
    except Exception:  # noqa: BLE001 - jit_compile refuses it
        theirs = None
    return {"program": name, "sizes": shown, "max_error": err, "from_tf_s": took,
            "dynhlo_warm_ms": ours * 1e3, "jit_compile_warm_ms": theirs,
            "jit_compile_first_ms": compiles}


def line(r: dict) -> str:
    theirs = "-" if r["jit_compile_warm_ms"] is None else f"{r['jit_compile_warm_ms']:.3f}"
    return (f"| {r['program']} | {' '.join(r['sizes'])} | {r['max_error']:.1e} | "
            f"{r['from_tf_s']:.2f} | {r['dynhlo_warm_ms']:.3f} | {theirs} | "
            f"{' / '.join(r['jit_compile_first_ms'])} |")


def weights_row(runs: int) -> dict:
    """from_tf of the 4.2M-parameter Keras model; the parse with weights as arrays or text."""
    import keras

    import dynhlo
    from dynhlo.hlo.text.parser import parse_hlo
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((WIDTH,))] +
                             [keras.layers.Dense(WIDTH, activation="tanh")
                              for _ in range(LAYERS)])
    params = sum(int(np.prod(w.shape)) for w in model.weights)
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        exe = dynhlo.from_tf(model, f"f32[n,{WIDTH}]", bounds={"n": BOUND})
        times.append(time.perf_counter() - start)
    x = np.random.default_rng(0).standard_normal((N, WIDTH)).astype(np.float32)
    err = float(np.abs(exe(x) - model(x, training=False).numpy()).max())
    buffers: list = []
    text = exe.module.to_text()
    referenced = dynhlo.hlo.text.printer.print_module(exe.module, buffers)
    start = time.perf_counter()
    parse_hlo(referenced, buffers)
    as_arrays = time.perf_counter() - start
    start = time.perf_counter()
    parse_hlo(text)
    as_text = time.perf_counter() - start
    print(f"parameters {params:,}; from_tf {statistics.median(times[1:]):.2f} s "
          f"(median of {runs}, first {times[0]:.2f} s); max error at n = {N}: {err:.2e}")
    print(f"module parse: weights as arrays {as_arrays:.3f} s, as decimal text "
          f"{as_text:.2f} s ({len(text) / 1e6:.0f} MB of text)")
    return {"parameters": params, "from_tf_s": statistics.median(times[1:]),
            "from_tf_first_s": times[0], "max_error": err, "parse_arrays_s": as_arrays,
            "parse_text_s": as_text, "text_bytes": len(text)}


def plot(data: dict, path: Path) -> None:
    """Warm call at the bound per program: dynhlo against jit_compile."""
    rows = data["programs"]
    report.bars(path, "from_tf against jit_compile, warm call at the bound",
                [r["program"] for r in rows],
                {"dynhlo (CPU)": [r["dynhlo_warm_ms"] for r in rows],
                 "jit_compile": [r["jit_compile_warm_ms"] for r in rows]}, "ms", log=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", help=f"any of {', '.join(PARTS)} (default: all)")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--only", nargs="*", help="program names")
    parser.add_argument("--out", help="default: bench/results/tf_compare.json")
    args = parser.parse_args()
    parts = args.parts or list(PARTS)
    for part in parts:
        if part not in PARTS:
            parser.error(f"unknown part {part!r}: choose from {', '.join(PARTS)}")
    import tensorflow as tf

    import dynhlo
    from tests.support.tf_program_set import LEAST, PROGRAMS, SIZES
    data: dict = {"tensorflow": tf.__version__}
    if "programs" in parts:
        print("| program | sizes | max error | from_tf s | dynhlo warm ms | jit_compile warm ms "
              "| jit_compile first call per size, ms |\n|---|---|---:|---:|---:|---:|---|",
              flush=True)
        data["programs"] = []
        for name, (make, inputs) in PROGRAMS.items():
            if args.only and name not in args.only:
                continue
            data["programs"].append(row(name, make, inputs, LEAST.get(name, 0), SIZES,
                                        args.runs, tf, dynhlo))
            print(line(data["programs"][-1]), flush=True)
    if "weights" in parts:
        data["weights"] = weights_row(min(args.runs, 3))
    report.save("tf_compare", data, plot=plot if data.get("programs") else None,
                out=args.out)


if __name__ == "__main__":
    main()
