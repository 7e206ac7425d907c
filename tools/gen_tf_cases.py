"""Generate tests/data/tf/: TensorFlow functions lowered by tf2xla, with TF's eager answers.

    /work/venv-tf/bin/python tools/gen_tf_cases.py [--only NAME ...]

Each case is a TF function `core(*arrays)` over arrays whose first dimension is bounded by N.
The lowered module takes the arrays at their bound plus one s32 size per array, and marks the
dimension dynamic with TF's own `set_dynamic_dimension_size` (what tf2xla does for bounded
inputs), so the HLO is tf2xla's, dynamic dimensions included. Written per case:

    NAME.hlo   `experimental_get_compiler_ir(...)(stage="hlo")`
    NAME.npz   for each size n: `in{n}_{i}` (the arguments, padded to the bound with a filler
               that must not show), `out{n}_{j}` (TF's eager outputs of `core` on the first n
               rows: the independent answer) and `sizes` (the sizes run)

CI has no TensorFlow: the saved files are the test data (tests/frontends/test_tf_bridge.py).
"""

from __future__ import annotations

import argparse
import os
import re
import sys

import numpy as np
import tensorflow as tf
from tensorflow.compiler.tf2xla.python import xla

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   "tests", "data", "tf")
RNG = np.random.default_rng(11)


def _where_1d(x):
    return (tf.where(x > 0),)


def _where_2d(x):
    return (tf.where(x > 0.5),)


def _boolean_mask(x):
    # tf.boolean_mask itself needs the mask's static shape; this is its lowering
    return (tf.gather(x, tf.squeeze(tf.where(x > 0), axis=1)),)


def _unique(x):
    y, idx = tf.unique(x)
    return y, idx


def _sort(x):
    return (tf.sort(x, direction="DESCENDING"), tf.argsort(x, stable=True))


def _top_k(x):
    values, indices = tf.math.top_k(x, k=3)
    return values, indices


def _cumsum(x):
    return (tf.cumsum(x, axis=0), tf.reduce_sum(x, axis=0))


def _scatter(idx, upd):
    return (tf.tensor_scatter_nd_add(tf.zeros([6], tf.float32), idx, upd),)


def _avg_pool(x):
    return (tf.nn.avg_pool1d(x, ksize=3, strides=1, padding="SAME"),)


def _max_pool(x):
    return (tf.nn.max_pool1d(x, ksize=2, strides=2, padding="SAME"),)


def _conv_same(x):
    w = tf.constant(np.arange(1, 7, dtype=np.float32).reshape(3, 2, 1) / 10)
    return (tf.nn.conv1d(x, w, stride=1, padding="SAME"),)


def _conv_grad_input(x):
    w = tf.constant(np.arange(1, 7, dtype=np.float32).reshape(3, 2, 1) / 10)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.conv1d(x, w, stride=1, padding="SAME")
    return (tape.gradient(y, x),)


def _conv_grad_kernel(x):
    w = tf.constant(np.arange(1, 7, dtype=np.float32).reshape(3, 2, 1) / 10)
    with tf.GradientTape() as tape:
        tape.watch(w)
        y = tf.nn.conv1d(x, w, stride=1, padding="SAME")
    return (tape.gradient(y, w),)


def _conv_stride2_grads(x):
    w = tf.constant(np.arange(1, 7, dtype=np.float32).reshape(3, 2, 1) / 10)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        tape.watch(w)
        y = tf.nn.conv1d(x, w, stride=2, padding="SAME")
        loss = tf.reduce_sum(y * y)
    return y, tape.gradient(loss, x), tape.gradient(loss, w)


def _max_pool_grad(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool1d(x, ksize=2, strides=2, padding="SAME")
    return (tape.gradient(y, x),)


def _nms(boxes, scores):
    sel = tf.image.non_max_suppression(boxes, scores, max_output_size=4, iou_threshold=0.5)
    return (sel,)


def _ints(shape, lo=-5, hi=6):
    return RNG.integers(lo, hi, size=shape).astype(np.int32)


def _floats(shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _boxes(n):
    corner = RNG.uniform(0, 4, size=(n, 2)).astype(np.float32)
    return np.concatenate([corner, corner + RNG.uniform(1, 2, size=(n, 2))], 1).astype(np.float32)


# name -> (core, [argument maker (bound) -> array], sizes, which arguments are bounded)
CASES = {
    "where_1d": (_where_1d, [lambda n: _floats(n)], (0, 1, 5, 8), 8),
    "where_2d": (_where_2d, [lambda n: RNG.uniform(0, 1, (n, 3)).astype(np.float32)],
                 (0, 1, 3, 6), 6),
    "boolean_mask": (_boolean_mask, [lambda n: _floats(n)], (0, 1, 4, 7), 7),
    "unique": (_unique, [lambda n: _ints(n, 0, 4)], (0, 1, 5, 8), 8),
    # bounds whose lowerings read past the actual size (issue 26): tf.where's strided slices
    # of length 1 ([3:4:4] of s32[<=4]), tf.unique's gather of rows up to the bound
    "where_b4": (_where_1d, [lambda n: _floats(n)], (1, 2, 3, 4), 4),
    "boolean_mask_b3": (_boolean_mask, [lambda n: _floats(n)], (1, 2, 3), 3),
    "unique_b6": (_unique, [lambda n: _ints(n, 0, 4)], (1, 2, 3, 6), 6),
    "sort": (_sort, [lambda n: _ints(n)], (0, 1, 4, 8), 8),
    "top_k": (_top_k, [lambda n: _floats(n)], (3, 5, 8), 8),
    "cumsum": (_cumsum, [lambda n: _floats((n, 2))], (0, 1, 4, 6), 6),
    "scatter": (_scatter, [lambda n: _ints((n, 1), 0, 6), lambda n: _floats(n)],
                (0, 1, 3, 5), 5),
    "avg_pool": (_avg_pool, [lambda n: _floats((1, n, 2))], (1, 2, 5, 7), 7),
    "max_pool": (_max_pool, [lambda n: _floats((1, n, 2))], (1, 2, 5, 7), 7),
    "conv_same": (_conv_same, [lambda n: _floats((1, n, 2))], (1, 3, 6), 6),
    "conv_grad_input": (_conv_grad_input, [lambda n: _floats((1, n, 2))], (1, 3, 6), 6),
    "conv_grad_kernel": (_conv_grad_kernel, [lambda n: _floats((1, n, 2))], (1, 3, 6), 6),
    "conv_stride2_grads": (_conv_stride2_grads, [lambda n: _floats((1, n, 2))], (1, 2, 5, 7),
                           7),
    "max_pool_grad": (_max_pool_grad, [lambda n: _floats((1, n, 2))], (1, 2, 5, 7), 7),
    "nms": (_nms, [_boxes, lambda n: RNG.uniform(0, 1, n).astype(np.float32)], (0, 1, 4, 6), 6),
}

# The same functions fed static inputs (no dynamic dimension until TF's own, e.g. tf.unique's
# count): `NAME_static` runs once, at the bound.
STATIC = ("where_1d", "unique", "top_k", "nms")

_FILL = {np.dtype(np.float32): 1e6, np.dtype(np.int32): 77}


def _dynamic_axis(name: str) -> int:
    return 1 if name.startswith(("avg_pool", "max_pool", "conv")) else 0


def generate(name: str) -> None:
    static = name.endswith("_static")
    core, makers, sizes, bound = CASES[name.removesuffix("_static")]
    axis = _dynamic_axis(name)
    full = [m(bound) for m in makers]

    def bounded(*args):
        arrays, ns = args[:len(makers)], args[len(makers):]
        return core(*(xla.set_dynamic_dimension_size(a, axis, n) for a, n in zip(arrays, ns,
                                                                                 strict=True)))

    fn = tf.function(core if static else bounded, jit_compile=True)
    ns = [] if static else [tf.constant(bound, tf.int32)] * len(makers)
    hlo = fn.experimental_get_compiler_ir(*full, *ns)(stage="hlo")
    sizes = (bound,) if static else sizes
    data = {"sizes": np.array(sizes, np.int32), "static": np.array(static)}
    for n in sizes:
        args = [m(n) for m in makers]
        outs = core(*(tf.constant(a) for a in args))
        for i, a in enumerate(args):
            padded = np.full(full[i].shape, _FILL[a.dtype], a.dtype)
            index = [slice(None)] * a.ndim
            index[axis] = slice(0, n)
            padded[tuple(index)] = a
            data[f"in{n}_{i}"] = padded
        for j, o in enumerate(outs):
            data[f"out{n}_{j}"] = o.numpy()
    # metadata names TF's source files on the generating machine: not needed, not kept
    hlo = re.sub(r", metadata=\{[^{}]*\}", "", hlo)
    with open(os.path.join(OUT, f"{name}.hlo"), "w") as f:
        f.write(hlo)
    np.savez_compressed(os.path.join(OUT, f"{name}.npz"), **data)
    print(name, "ok")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args(argv)
    os.makedirs(OUT, exist_ok=True)
    for name in args.only or list(CASES) + [f"{n}_static" for n in STATIC]:
        try:
            generate(name)
        except Exception as exc:  # a case TF itself cannot lower is reported, not fatal
            print(name, "FAILED:", type(exc).__name__, str(exc)[:300], file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
