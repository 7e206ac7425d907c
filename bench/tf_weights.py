"""from_tf of a Keras model of 4.2M parameters: its weights (constants TensorFlow's text elides)
passed to the parser as arrays, not written as decimal text first.

    PYTHONPATH=$PWD /tmp/tfvenv/bin/python bench/tf_weights.py [--runs N]

The model: Input(1024) and 4 Dense(1024, tanh) layers (4,198,400 float32 parameters), frozen
into constants (from_tf's default), bound n <= 64. Reported: from_tf's time (median of N
after a warm-up: TensorFlow's lowerings, the cross-check, compile), the module's
parse with the weights as arrays (parse_hlo(text, arrays)) against the same module with them
as decimal text, and the first call at n = 5 against the model's own answer.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

WIDTH, LAYERS, BOUND, N = 1024, 4, 64, 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    import keras

    import dynhlo
    from dynhlo.hlo.parser import parse_hlo
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((WIDTH,))] +
                             [keras.layers.Dense(WIDTH, activation="tanh")
                              for _ in range(LAYERS)])
    params = sum(int(np.prod(w.shape)) for w in model.weights)
    times = []
    for _ in range(args.runs + 1):
        start = time.perf_counter()
        exe = dynhlo.from_tf(model, f"f32[n,{WIDTH}]", bounds={"n": BOUND})
        times.append(time.perf_counter() - start)
    x = np.random.default_rng(0).standard_normal((N, WIDTH)).astype(np.float32)
    err = float(np.abs(exe(x) - model(x, training=False).numpy()).max())
    buffers: list = []
    text = exe.module.to_text()
    referenced = dynhlo.hlo.printer.print_module(exe.module, buffers)
    start = time.perf_counter()
    parse_hlo(referenced, buffers)
    as_arrays = time.perf_counter() - start
    start = time.perf_counter()
    parse_hlo(text)
    as_text = time.perf_counter() - start
    print(f"parameters {params:,}; from_tf {statistics.median(times[1:]):.2f} s "
          f"(median of {args.runs}, first {times[0]:.2f} s); max error at n = {N}: {err:.2e}")
    print(f"module parse: weights as arrays {as_arrays:.3f} s, as decimal text "
          f"{as_text:.2f} s ({len(text) / 1e6:.0f} MB of text)")


if __name__ == "__main__":
    main()
