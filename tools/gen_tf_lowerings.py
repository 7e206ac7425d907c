"""Generate tests/data/tf_lowerings/: TensorFlow's HLO of a few functions at the static sizes
from_tf lowers them at (the bound B, B - 1 and B // 2 + 1, 2 and 1 (tf/small.py), those a
folded length looks up, tf/lengths.py, and those that find the least size TensorFlow lowers
at, tf/least.py), for tests that run from_tf's comparison without TensorFlow
(tests/frontends/test_tf_lowerings.py).

    TF_ENABLE_ONEDNN_OPTS=0 /work/venv-tf/bin/python tools/gen_tf_lowerings.py [--only NAME ...]

(oneDNN's eager MaxPool dies of a floating point exception on an input one row shorter
than its window, where TensorFlow's own kernel refuses it.)

Written per case and size n: `NAME.n.hlo`, lower_tf's text (metadata without its source file
and line: they differ per machine and from_tf reads only op_type), and where the text elides
constants (`{...}`), `NAME.n.npz` with their names, shapes and values (from the module's
proto, as lower_tf reads them); where TensorFlow refuses a size, `NAME.n.refused` holds its
reason. The sizes are those module_from_lowerings asks for. For the
cases of EXPECTED, `NAME.expected.npz` holds TensorFlow's own answers: `sizes`, and per
size n the input `in{n}` and TensorFlow's output `out{n}` (eager; tf.function(jit_compile=
True) for random numbers, whose eager kernels draw others; tf.function's graph for a
map_fn of rows, see EXPECTED), at the sizes TensorFlow runs.
The expected answers of the other cases are the tests' own, by NumPy.
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

from dynhlo.errors import UnsupportedError  # noqa: E402
from dynhlo.frontends.jax import parse_symbolic_shape  # noqa: E402
from dynhlo.frontends.tf import lower_tf, module_from_lowerings  # noqa: E402
from dynhlo.frontends.tf.least import LoweringRefused  # noqa: E402

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
    # the size as a value, ranges of a length that follows it, loops, random numbers
    "mean_by_hand": (lambda x: x / tf.cast(tf.shape(x)[0], tf.float32), "f32[n,3]", 8),
    "range_plus_one": (lambda x: tf.range(tf.shape(x)[0] + 1), "f32[n,3]", 8),
    "range_step": (lambda x: tf.gather(x, tf.range(0, tf.shape(x)[0], 2)), "f32[n,3]", 8),
    "range_step3": (lambda x: tf.range(2, tf.shape(x)[0] + 3, 3), "f32[n,3]", 8),
    "scan": (lambda x: tf.scan(lambda a, r: a + r, x), "f32[n,3]", 8),
    "scan_reverse": (lambda x: tf.scan(lambda a, r: a * 0.5 + r, x, reverse=True),
                     "f32[n,3]", 8),
    "map_fn": (lambda x: tf.map_fn(lambda r: tf.reduce_sum(r * r), x), "f32[n,3]", 8),
    "random_uniform": (lambda x: x + tf.random.stateless_uniform(tf.shape(x), seed=[1, 2]),
                       "f32[n,3]", 8),
    "random_normal": (lambda x: x + tf.random.stateless_normal(tf.shape(x), seed=[3, 4],
                                                               alg="philox"), "f32[n,3]", 8),
    "random_threefry": (lambda x: x + tf.random.stateless_uniform(tf.shape(x), seed=[5, 6],
                                                                  alg="threefry"),
                        "f32[n,3]", 8),
    "normal_rows": (lambda x: x[:, 0] + tf.random.stateless_normal(tf.shape(x)[:1],
                                                                   seed=[3, 4]), "f32[n,3]", 8),
    "normal_pairs_cols": (lambda x: tf.random.stateless_normal(tf.shape(x), seed=[1, 2]),
                          "f32[n,3]", 8),   # refused: XLA pairs the columns at n = 1
    "concat_first_rows": (lambda x: tf.concat([x * 2.0, x], 0)[:tf.shape(x)[0]] + 1.0,
                          "f32[n,3]", 8),
    "range_from_one": (lambda x: tf.range(1, tf.shape(x)[0]), "f32[n,3]", 8),   # none at 0
    "map_fn_rows": (lambda x: tf.map_fn(lambda r: r * 2.0, x), "f32[n,3]", 8),
    # sizes TensorFlow refuses (its op's shape check): a requirement checked per call
    "top_k": (lambda x: tf.math.top_k(tf.transpose(x), k=5).values, "f32[n,3]", 8),
    "conv_valid": (lambda x: tf.nn.conv1d(x[None], tf.reshape(tf.range(18.0), (3, 3, 2)), 1,
                                          "VALID")[0], "f32[n,3]", 8),
    "pool_valid": (lambda x: tf.nn.max_pool1d(x[None], 3, 1, "VALID")[0], "f32[n,3]", 8),
    # a branch on the size, folded at each static size: refused (tf/small.py)
    "branch_python": (lambda x: x * 2.0 if x.shape[0] > 2 else x + 1.0, "f32[n,3]", 8),
    "branch_cond": (lambda x: tf.cond(tf.shape(x)[0] > 2, lambda: x * 2.0, lambda: x + 1.0),
                    "f32[n,3]", 8),
}

# cases whose expected outputs are TensorFlow's (name -> True where they are its XLA's,
# "graph" where they are tf.function's without XLA: map_fn of rows at n = 0, where XLA
# refuses and eager's shape depends on fn_output_signature, not on the program)
EXPECTED = {"mean_by_hand": False, "range_plus_one": False, "range_step": False,
            "range_step3": False, "scan": False, "scan_reverse": False, "map_fn": False,
            "random_uniform": True, "random_normal": True, "random_threefry": True,
            "range_from_one": False, "map_fn_rows": "graph", "normal_rows": True,
            "top_k": False, "conv_valid": False, "pool_valid": False}
# cases from_tf refuses (their lowerings are stored for the test of the refusal)
REFUSED = {"normal_pairs_cols", "branch_python", "branch_cond"}

_SOURCE = re.compile(r' source_file="(?:[^"\\]|\\.)*"| source_line=\d+')


def write(name: str) -> None:
    fn, shape, bound = CASES[name]
    parsed = [parse_symbolic_shape(shape)]

    def lower(sizes):   # every size module_from_lowerings asks for, as lower_tf gives it
        n = sizes["n"]
        try:
            text, constants = lower_tf(fn, parsed, sizes)
        except LoweringRefused as exc:   # TensorFlow's reason, for tf/least.py
            with open(os.path.join(OUT, f"{name}.{n}.refused"), "w") as f:
                f.write(exc.reason)
            raise
        with open(os.path.join(OUT, f"{name}.{n}.hlo"), "w") as f:
            f.write(_SOURCE.sub("", text))
        if constants:
            np.savez(os.path.join(OUT, f"{name}.{n}.npz"),
                     names=np.array([c[0] for c in constants]),
                     shapes=np.array([str(c[1]) for c in constants]),
                     **{f"value{k}": c[2] for k, c in enumerate(constants)})
        return text, constants

    try:
        module_from_lowerings(lower, [shape], {"n": bound})
    except UnsupportedError:
        if name not in REFUSED:
            raise
    if name in EXPECTED:
        _expected(name, fn, shape, bound, EXPECTED[name])


def _expected(name: str, fn, shape: str, bound: int, jit: bool) -> None:
    """TensorFlow's outputs at sizes 0, 1, 2, a middle one and the bound (those it runs)."""
    run = tf.function(fn) if jit == "graph" else tf.function(fn, jit_compile=True) \
        if jit else fn
    cols = int(shape[shape.index(",") + 1:-1])
    arrays = {}
    for n in (0, 1, 2, bound // 2 + 1, bound):
        x = np.random.default_rng(n).standard_normal((n, cols)).astype(np.float32)
        try:
            arrays[f"out{n}"] = np.asarray(run(tf.constant(x)))
        except tf.errors.OpError:
            continue   # TensorFlow refuses this size (tf.scan of no rows)
        arrays[f"in{n}"] = x
    sizes = sorted(int(k[2:]) for k in arrays if k.startswith("in"))
    np.savez(os.path.join(OUT, f"{name}.expected.npz"), sizes=np.array(sizes), **arrays)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=sorted(CASES))
    os.makedirs(OUT, exist_ok=True)
    for name in parser.parse_args().only:
        write(name)
        print("wrote", name)


if __name__ == "__main__":
    main()
