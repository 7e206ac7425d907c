"""Generate tests/data/tf_lowerings/: TensorFlow's HLO of a few functions at the static sizes
from_tf lowers them at (the bound B, B - 1 and B // 2 + 1), for tests that run from_tf's
comparison without TensorFlow (tests/test_tf_lowerings.py).

    /work/venv-tf/bin/python tools/gen_tf_lowerings.py [--only NAME ...]

Written per case and size n: `NAME.n.hlo`, lower_tf's text (metadata without its source file
and line: they differ per machine and from_tf reads only op_type), and where the text elides
constants (`{...}`), `NAME.n.npz` with their names, shapes and values (from the module's
proto, as lower_tf reads them). The expected answers are the tests' own, by NumPy.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

import numpy as np
import tensorflow as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from dynhlo.frontends.jax import parse_symbolic_shape  # noqa: E402
from dynhlo.frontends.tf import lower_tf  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "tf_lowerings")


def _rows(x, dtype=None):
    return tf.cast(tf.range(tf.shape(x)[0]), dtype or x.dtype)


def _causal_attention(x):
    n = tf.shape(x)[0]
    mask = 1.0 - tf.linalg.band_part(tf.ones((n, n)), -1, 0)   # folded into a literal
    return tf.nn.softmax(tf.matmul(x, x, transpose_b=True) - 1e9 * mask) @ x


# name -> (function, argument shape, bound of n)
CASES = {
    "roll": (lambda x: tf.roll(x, 2, axis=0), "f32[n,3]", 8),
    "roll_2d": (lambda x: tf.roll(x, [-3, 1], axis=[0, 1]), "f32[n,3]", 8),
    "pad_reflect": (lambda x: tf.pad(x, [[2, 1], [1, 1]], mode="REFLECT"), "f32[n,3]", 8),
    "pad_symmetric": (lambda x: tf.pad(x, [[0, 2], [1, 0]], mode="SYMMETRIC"), "f32[n,3]", 8),
    "range_scale": (lambda x: x * _rows(x)[:, None], "f32[n,3]", 8),
    "range_mask": (lambda x: tf.cast(_rows(x, tf.int32)[:, None] >= _rows(x, tf.int32),
                                     x.dtype) @ x, "f32[n,3]", 8),
    "range_only": (lambda x: tf.range(tf.shape(x)[0]) * 2, "f32[n,3]", 8),
    "range_elided": (lambda x: x + _rows(x)[:, None], "f32[n,2]", 12),
    "causal_attention": (_causal_attention, "f32[n,3]", 8),
}

_SOURCE = re.compile(r' source_file="(?:[^"\\]|\\.)*"| source_line=\d+')


def write(name: str) -> None:
    fn, shape, bound = CASES[name]
    parsed = [parse_symbolic_shape(shape)]
    for n in sorted({bound, bound - 1, bound // 2 + 1}, reverse=True):
        text, constants = lower_tf(fn, parsed, {"n": n})
        with open(os.path.join(OUT, f"{name}.{n}.hlo"), "w") as f:
            f.write(_SOURCE.sub("", text))
        if constants:
            np.savez(os.path.join(OUT, f"{name}.{n}.npz"),
                     names=np.array([c[0] for c in constants]),
                     shapes=np.array([str(c[1]) for c in constants]),
                     **{f"value{k}": c[2] for k, c in enumerate(constants)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=sorted(CASES))
    os.makedirs(OUT, exist_ok=True)
    for name in parser.parse_args().only:
        write(name)
        print("wrote", name)


if __name__ == "__main__":
    main()
