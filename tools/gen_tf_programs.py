"""Generate tests/data/tf_programs/: from_tf's modules of TensorFlow programs (Keras layers,
a SavedModel, NMS, ragged masks, unique, segment sums, top_k: tests/support/tf_program_set.py) with
TensorFlow eager's outputs, so that CI runs them without TensorFlow.

    PYTHONPATH=$PWD /tmp/tfvenv/bin/python tools/gen_tf_programs.py [--only NAME ...]

Written per program:

    NAME.hlo   `exe.module.to_text()`: the module from_tf produced, its size checks (the
               least size TensorFlow takes) kept in its header (runtime/module_text.py)
    NAME.npz   for each size n of tf_program_set.SIZES: `in{n}_{i}` (the arguments),
               `out{n}_{j}` (TensorFlow eager's outputs, flattened in tf.nest order, as the
               plain executable returns them) or `refused{n}` where TensorFlow refuses n
               (below the program's least size); `sizes`
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "tf_programs")
sys.path.insert(0, ROOT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    import tensorflow as tf

    import dynhlo
    from tests.support.tf_program_set import LEAST, PROGRAMS, SIZES

    os.makedirs(OUT, exist_ok=True)
    for name, (make, inputs) in PROGRAMS.items():
        if args.only and name not in args.only:
            continue
        held, shapes, bounds, eager = make()
        start = time.perf_counter()
        exe = dynhlo.from_tf(held, *shapes, bounds=bounds)
        took = time.perf_counter() - start
        eager = eager or held
        data = {"sizes": np.array(SIZES)}
        for n in SIZES:
            xs = inputs(n)
            for i, x in enumerate(xs):
                data[f"in{n}_{i}"] = x
            if n < LEAST.get(name, 0):
                data[f"refused{n}"] = np.array(True)
                continue
            want = [np.asarray(w) for w in tf.nest.flatten(eager(*xs))]
            got = exe.executable(*xs)
            got = list(got) if isinstance(got, tuple) else [got]
            for j, (g, w) in enumerate(zip(got, want, strict=True)):
                np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4,
                                           err_msg=f"{name} at n = {n}, output {j}")
                data[f"out{n}_{j}"] = w
        with open(os.path.join(OUT, f"{name}.hlo"), "w") as f:
            f.write(exe.module.to_text())
        np.savez_compressed(os.path.join(OUT, f"{name}.npz"), **data)
        print(f"{name}: from_tf {took:.2f} s", flush=True)


if __name__ == "__main__":
    main()
