"""from_tf on what TensorFlow users hold (Keras models, tf.Modules, ConcreteFunctions,
SavedModels, TensorSpecs) and on TensorFlow's dynamic ops, against TensorFlow eager at sizes
0 or 1, 2, a middle size and the bound. Skips without tensorflow (CI runs it in a venv of
its own: .ci/run); tests/frontends/test_tf_programs_stored.py runs the stored modules without it.
"""

from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

import dynhlo  # noqa: E402

SIZES = (1, 2, 5, 8)


def _close(got, want, tol=2e-5):
    for g, w in zip(tf.nest.flatten(got), tf.nest.flatten(want), strict=True):
        w = np.asarray(w)
        assert np.asarray(g).shape == w.shape
        np.testing.assert_allclose(np.asarray(g), w, rtol=tol, atol=tol)


def _seq(layers, shape):
    return keras.Sequential([keras.Input(shape), *layers])


KERAS = {
    "dense": (lambda: _seq([keras.layers.Dense(8, activation="gelu")], (6,)), "f32[n,6]"),
    "layer_norm": (lambda: _seq([keras.layers.LayerNormalization()], (6,)), "f32[n,6]"),
    "batch_norm": (lambda: _seq([keras.layers.BatchNormalization()], (6,)), "f32[n,6]"),
    "dropout": (lambda: _seq([keras.layers.Dense(4), keras.layers.Dropout(0.5)], (6,)),
                "f32[n,6]"),
    "conv1d_valid": (lambda: _seq([keras.layers.Conv1D(4, 3, padding="valid")], (None, 3)),
                     "f32[2,t,3]"),
    "conv1d_same": (lambda: _seq([keras.layers.Conv1D(4, 3, padding="same")], (None, 3)),
                    "f32[2,t,3]"),
    "conv2d_same": (lambda: _seq([keras.layers.Conv2D(2, 3, padding="same")], (None, 5, 2)),
                    "f32[1,t,5,2]"),
    "conv2d_valid": (lambda: _seq([keras.layers.Conv2D(2, 2, padding="valid")],
                                  (None, 5, 2)), "f32[1,t,5,2]"),
    "max_pool": (lambda: _seq([keras.layers.MaxPooling1D(2, 1, padding="same")], (None, 3)),
                 "f32[2,t,3]"),
    "avg_pool_valid": (lambda: _seq([keras.layers.AveragePooling1D(2, 1)], (None, 3)),
                       "f32[2,t,3]"),
    "global_pool": (lambda: _seq([keras.layers.GlobalAveragePooling1D()], (None, 3)),
                    "f32[2,t,3]"),
    "dense_btd": (lambda: _seq([keras.layers.Dense(5)], (None, 4)), "f32[b,t,4]"),
    "lstm": (lambda: _seq([keras.layers.LSTM(4)], (None, 3)), "f32[2,t,3]"),
    "gru": (lambda: _seq([keras.layers.GRU(4, return_sequences=True)], (None, 3)),
            "f32[2,t,3]"),
}


_LEAST = {"conv1d_valid": 3, "conv2d_valid": 2, "avg_pool_valid": 2}


@pytest.mark.parametrize("name", sorted(KERAS))
def test_from_tf_keras_layers_match_tensorflow(name):
    build, shape = KERAS[name]
    keras.utils.set_random_seed(1)
    model = build()
    bounds = {d: 8 for d in ("n", "t", "b") if d in shape}
    exe = dynhlo.from_tf(model, shape, bounds=bounds)
    dims = shape[4:-1].split(",")
    for n in SIZES:
        x = np.random.default_rng(n).standard_normal(
            [n if d in bounds else int(d) for d in dims]).astype(np.float32)
        if n < _LEAST.get(name, 0):   # TensorFlow refuses a VALID window past the input
            with pytest.raises(dynhlo.DynamicSizeError, match="needs at least"):
                exe(x)
            continue
        _close(exe(x), model(x, training=False))


def test_from_tf_embedding_with_mask_and_attention_masks():
    keras.utils.set_random_seed(2)
    embed = keras.layers.Embedding(20, 8, mask_zero=True)
    attention = keras.layers.MultiHeadAttention(2, 4)

    def fn(ids):
        x = embed(ids)
        mask = tf.cast(ids != 0, tf.bool)
        padding = mask[:, None, :] & mask[:, :, None]
        return attention(x, x, attention_mask=padding), attention(x, x, use_causal_mask=True)
    fn(tf.ones((1, 3), tf.int32))   # builds the layers
    exe = dynhlo.from_tf(fn, "s32[2,t]", bounds={"t": 8})
    for t in SIZES:
        ids = np.random.default_rng(t).integers(0, 20, (2, t)).astype(np.int32)
        ids[:, 0] = 1   # a row of padding only is no row softmax can take
        _close(exe(ids), fn(tf.constant(ids)), 1e-4)


def test_from_tf_tensordot_splits_merged_dynamic_dimensions():
    # tf.tensordot on [B, T, D] reshapes to [B*T, D] and back: both B and T named
    w = tf.constant(np.random.default_rng(0).standard_normal((4, 32)).astype(np.float32))
    fn = lambda x: tf.tensordot(x, w, 1)  # noqa: E731
    exe = dynhlo.from_tf(fn, "f32[b,t,4]", bounds={"b": 4, "t": 13})
    for b, t in ((1, 1), (2, 13), (4, 7), (3, 2)):
        x = np.random.default_rng(b * t).standard_normal((b, t, 4)).astype(np.float32)
        _close(exe(x), fn(x))


@pytest.mark.parametrize("fn,shapes", [
    (lambda x, i: tf.math.unsorted_segment_sum(x, i, 3), ("f32[n,3]", "s32[n]")),
    (lambda x, i: tf.math.unsorted_segment_max(x, i, 3), ("f32[n,3]", "s32[n]")),
    (lambda x: tf.math.top_k(x, 3), ("f32[n]",)),
    (lambda x: tf.reduce_mean(x, 0) * tf.cast(tf.shape(x)[0], tf.float32), ("f32[n,3]",)),
])
def test_from_tf_dynamic_ops_match_tensorflow(fn, shapes):
    exe = dynhlo.from_tf(fn, *shapes, bounds={"n": 8})
    for n in SIZES:
        rng = np.random.default_rng(n)
        args = [rng.standard_normal((n, 3)).astype(np.float32) if s.startswith("f32[n,") else
                rng.standard_normal(n).astype(np.float32) if s == "f32[n]" else
                rng.integers(0, 3, n).astype(np.int32) for s in shapes]
        if "top_k" in str(fn.__code__.co_names) and n < 3:
            with pytest.raises(dynhlo.DynamicSizeError, match="TopKV2.*needs at least 3"):
                exe(*args)
            continue
        want = fn(*[tf.constant(a) for a in args])
        _close(exe(*args), want)


def test_from_tf_where_and_boolean_mask_match_eager_where_tensorflows_xla_does_not():
    # tf2xla's Where over a size marked dynamic sums the mask in blocks of 4 (strided
    # slices of sizes ceil((n - i) / 4)) and adds them: XLA's elementwise rule gives the sum
    # the smaller size (DynamicDimensionInference::HandleElementwiseNary), 0 at n = 3, and
    # TensorFlow's own XLA gives other indices than eager. from_tf reads the mask in whole
    # blocks (tf/where.py), so every size from 0 to the bound gives eager's answer.
    from tensorflow.compiler.tf2xla.python import xla

    @tf.function(jit_compile=True)
    def marked(x, n):
        return tf.where(xla.set_dynamic_dimension_size(x, 0, n) > 0)
    x = np.array([1, -1, 1, 0, 0, 0, 0, 0], np.float32)
    assert marked(x, np.int32(3)).numpy().ravel().tolist() == [0, 0]   # eager: [0, 2]
    rng = np.random.default_rng(0)
    for fn, shape in ((lambda x: tf.where(x > 0), "f32[n]"),
                      (lambda x: tf.boolean_mask(x, x > 0), "f32[n]"),
                      (lambda x: tf.where(x > 0), "f32[n,3]"),
                      (lambda x: tf.boolean_mask(x, x[:, 1] < 1), "f32[n,3]")):
        for bound in (8, 12):
            exe = dynhlo.from_tf(fn, shape, bounds={"n": bound})
            for n in range(bound + 1):
                a = rng.choice([-1.0, 0.0, 2.0], (n, 3) if "," in shape else n)
                a = a.astype(np.float32)
                want = fn(tf.constant(a)).numpy()
                got = np.asarray(exe(a))
                assert got.shape == want.shape and np.array_equal(got, want), (shape, n)


class _Scale(tf.Module):
    def __init__(self):
        self.w = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
        self.b = tf.Variable(np.ones(3, np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def __call__(self, x):
        return {"y": tf.matmul(x, self.w) + self.b, "rows": tf.shape(x)[0]}


def test_from_tf_takes_a_module_its_signature_and_returns_its_structure():
    module = _Scale()
    exe = dynhlo.from_tf(module.__call__, bounds={"x_0": 8})
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    got = exe(x)
    assert sorted(got) == ["rows", "y"] and int(got["rows"]) == 3
    _close(got, module(x))
    tensors = exe(tf.constant(x))   # a tf.Tensor in, tf.Tensors out
    assert isinstance(tensors["y"], tf.Tensor)
    _close(tensors, module(x))


def test_from_tf_weights_as_parameters_in_captured_order():
    module = _Scale()
    exe = dynhlo.from_tf(module.__call__, bounds=8, weights="parameters")
    assert len(exe.module.entry.parameters) == 3 and len(exe.weight_names) == 2
    x = np.random.default_rng(1).standard_normal((5, 4)).astype(np.float32)
    _close(exe(x), module(x))
    name = next(n for n in exe.weight_names if exe.weights[n].shape == (4, 3))
    exe.weights[name] = exe.weights[name] * 2   # other weights, no recompile
    module.w.assign(module.w * 2)
    _close(exe(x), module(x))


def test_from_tf_takes_a_concrete_function_with_defaults():
    def fn(x, scale=2.0):
        return x * scale + tf.cast(tf.shape(x)[0], tf.float32)
    concrete = tf.function(fn).get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    for held in (concrete, fn):
        exe = dynhlo.from_tf(held, *(() if held is concrete else
                                    (tf.TensorSpec([None, 3], tf.float32),)),
                             bounds={(0, 0): 8})
        for n in SIZES:
            x = np.random.default_rng(n).standard_normal((n, 3)).astype(np.float32)
            _close(exe(x), fn(x))


def test_from_tf_takes_a_restored_saved_model(tmp_path):
    module = _Scale()
    tf.saved_model.save(module, str(tmp_path), signatures=module.__call__)
    loaded = tf.saved_model.load(str(tmp_path))
    for held in (loaded.__call__, loaded.signatures["serving_default"]):
        exe = dynhlo.from_tf(held, bounds=8)
        for n in SIZES:
            x = np.random.default_rng(n).standard_normal((n, 4)).astype(np.float32)
            got = exe(x)
            want = held(tf.constant(x)) if held is loaded.__call__ else held(x=tf.constant(x))
            _close(got, want)


def test_from_tf_output_has_no_baked_size_warning():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", dynhlo.BakedSizeWarning)
        # a bound equal to the feature width, and a mean over it: the 8 is the width
        exe = dynhlo.from_tf(lambda x: x - tf.reduce_mean(x, 1, keepdims=True) * 8.0,
                             "f32[n,8]", bounds={"n": 8})
    x = np.ones((3, 8), np.float32)
    _close(exe(x), x - 8.0)


def test_from_tf_refuses_a_gather_past_the_size_as_tensorflow_does():
    # TensorFlow's kernel refuses a column index past the size; XLA's gather clamps it, so
    # from_tf's least size is where TensorFlow's own program runs, checked per call
    fn = lambda x: tf.gather(x, [0, 2, 1], axis=1)  # noqa: E731
    exe = dynhlo.from_tf(fn, "f32[n,m]", bounds={"n": 8, "m": 6})
    short = np.ones((3, 2), np.float32)
    with pytest.raises(tf.errors.InvalidArgumentError):
        fn(tf.constant(short))
    with pytest.raises(dynhlo.DynamicSizeError, match="GatherV2.*needs at least 3"):
        exe(short)
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    _close(exe(x), fn(x))
