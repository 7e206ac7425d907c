"""The TensorFlow programs whose from_tf modules and TensorFlow eager outputs are kept in
tests/data/tf_programs/ (tools/gen_tf_programs.py writes them;
tests/frontends/test_tf_programs_stored.py runs them without TensorFlow): the Keras layers and TF
programs of tests/frontends/test_tf_programs.py, and a SavedModel, NMS, ragged masks, unique,
segment sums and top_k. Needs tensorflow and keras.

Each program is `NAME -> (make, inputs)`: `make()` gives (what from_tf takes, its shapes,
bounds, the TensorFlow eager function of NumPy arrays), `inputs(n)` the arguments at size n.
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf
import keras

from tests.frontends.test_tf_programs import KERAS, _LEAST, _Scale

SIZES = (1, 2, 5, 8)
BOUND = 8


def _normal(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _keras(name):
    build, shape = KERAS[name]
    dims = shape[4:-1].split(",")

    def make():
        keras.utils.set_random_seed(1)
        model = build()
        bounds = {d: BOUND for d in ("n", "t", "b") if d in shape}
        return model, (shape,), bounds, lambda x: model(x, training=False)

    def inputs(n):
        return [_normal([n if not d.isdigit() else int(d) for d in dims], n)]
    return make, inputs


def _attention():
    keras.utils.set_random_seed(2)
    embed = keras.layers.Embedding(20, 8, mask_zero=True)
    attention = keras.layers.MultiHeadAttention(2, 4)

    def fn(ids):
        x = embed(ids)
        mask = tf.cast(ids != 0, tf.bool)
        padding = mask[:, None, :] & mask[:, :, None]
        return attention(x, x, attention_mask=padding), attention(x, x, use_causal_mask=True)
    fn(tf.ones((1, 3), tf.int32))   # builds the layers
    return fn, ("s32[2,t]",), {"t": BOUND}, lambda ids: fn(tf.convert_to_tensor(ids))


def _ids(n):
    ids = np.random.default_rng(n).integers(0, 20, (2, n)).astype(np.int32)
    ids[:, 0] = 1   # a row of padding only is no row softmax can take
    return [ids]


def _plain(fn, *shapes):
    return lambda: (fn, shapes, {"n": BOUND}, lambda *a: fn(*[tf.convert_to_tensor(x) for x in a]))


def _saved_model():
    import tempfile
    module = _Scale()
    path = tempfile.mkdtemp()
    tf.saved_model.save(module, path, signatures=module.__call__)
    loaded = tf.saved_model.load(path)
    sig = loaded.signatures["serving_default"]
    return sig, (), BOUND, lambda x: loaded.signatures["serving_default"](x=tf.convert_to_tensor(x))


def _module():
    module = _Scale()   # the eager function holds it: its method's tf.function does not
    return module.__call__, (), BOUND, lambda x: module(tf.convert_to_tensor(x))


def _nms(boxes, scores):
    # tf2xla slices max_output_size scores: its XLA refuses fewer boxes (eager does not)
    return tf.image.non_max_suppression(boxes, scores, max_output_size=2, iou_threshold=0.5)


def _boxes(n):
    rng = np.random.default_rng(n)
    corner = rng.uniform(0, 4, size=(n, 2)).astype(np.float32)
    boxes = np.concatenate([corner, corner + rng.uniform(1, 2, size=(n, 2))], 1)
    return [boxes.astype(np.float32), rng.uniform(0, 1, n).astype(np.float32)]


def _ragged_mean(x, lengths):
    # a padded batch of rows of different lengths: the mean of each row's first lengths[i]
    mask = tf.sequence_mask(lengths, tf.shape(x)[1])
    total = tf.reduce_sum(tf.where(mask, x, tf.zeros_like(x)), 1)
    return total / tf.maximum(tf.cast(lengths, tf.float32), 1.0), tf.cast(mask, tf.int32)


def _ragged_inputs(n):
    rng = np.random.default_rng(n)
    return [rng.standard_normal((n, 6)).astype(np.float32),
            rng.integers(0, 7, n).astype(np.int32)]


def _signs(shape):
    """-1, 0 and 2 at random: masks of x > 0 with runs of both."""
    n = shape if isinstance(shape, int) else shape[0]
    return [np.random.default_rng(n).choice([-1.0, 0.0, 2.0], shape).astype(np.float32)]


def _unique(x):
    y, idx = tf.unique(x)
    return y, idx


def _segments(n):
    rng = np.random.default_rng(n)
    return [rng.standard_normal((n, 3)).astype(np.float32), rng.integers(0, 3, n).astype(np.int32)]


def _tensordot():
    w = tf.constant(_normal((4, 6), 0))
    fn = lambda x: tf.tensordot(x, w, 1)  # noqa: E731
    return fn, ("f32[b,t,4]",), {"b": BOUND, "t": BOUND}, fn


PROGRAMS = {
    **{f"keras_{name}": _keras(name) for name in KERAS},
    "attention_masks": (_attention, _ids),
    "tensordot_btd": (_tensordot, lambda n: [_normal((n, n, 4), n)]),
    "module_dict": (_module, lambda n: [_normal((n, 4), n)]),
    "saved_model": (_saved_model, lambda n: [_normal((n, 4), n)]),
    "segment_sum": (_plain(lambda x, i: tf.math.unsorted_segment_sum(x, i, 3),
                           "f32[n,3]", "s32[n]"), _segments),
    "segment_max": (_plain(lambda x, i: tf.math.unsorted_segment_max(x, i, 3),
                           "f32[n,3]", "s32[n]"), _segments),
    "top_k": (_plain(lambda x: tf.math.top_k(x, 3), "f32[n]"),
              lambda n: [_normal(n, n)]),
    "mean_times_size": (_plain(lambda x: tf.reduce_mean(x, 0) *
                               tf.cast(tf.shape(x)[0], tf.float32), "f32[n,3]"),
                        lambda n: [_normal((n, 3), n)]),
    "unique": (_plain(_unique, "s32[n]"),
               lambda n: [np.random.default_rng(n).integers(0, 4, n).astype(np.int32)]),
    "nms": (_plain(_nms, "f32[n,4]", "f32[n]"), _boxes),
    "where": (_plain(lambda x: tf.where(x > 0), "f32[n]"), _signs),
    "where_rows": (_plain(lambda x: tf.where(x > 0), "f32[n,3]"), lambda n: _signs((n, 3))),
    "boolean_mask": (_plain(lambda x: tf.boolean_mask(x, x[:, 0] > 0), "f32[n,3]"),
                     lambda n: _signs((n, 3))),
    "ragged_mean": (_plain(_ragged_mean, "f32[n,6]", "s32[n]"), _ragged_inputs),
}

# the least size TensorFlow takes (below it from_tf's executable refuses, as TensorFlow does)
LEAST = {**{f"keras_{name}": least for name, least in _LEAST.items()}, "top_k": 3, "nms": 2}
