"""Programs written with the libraries people use (flax nnx and linen, equinox, haiku, keras 3
on JAX, optax, HuggingFace transformers, plain JAX), each with one variable size (a batch or a
sequence length) and its bound: the workload of tests/frontends/test_real_libraries.py.

tests/data/reallibs/export_reallibs.py exports each with jax.export (or from_torch's
torch.export route) and stores the module and the reference outputs; the tests run the stored
modules without these libraries, and each program live through from_jax/from_torch where its
library is importable. Every library is imported inside `build`, so this module imports
anywhere.

A JAX program's `build()` gives (fn, specs, arguments): `specs` are from_jax's (and
jax.export's) specs, the variable dimension a `jax.export.symbolic_shape` size whose
constraints hold the bound; `arguments(size)` the concrete arguments at one size. A torch
program's gives (module, dynamic_shapes, arguments).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

import numpy as np

WIDTH = 32          # model width throughout: small, so the stored modules stay small


@dataclass(frozen=True)
class Program:
    """One real-library program: its name, library, kind ("jax" or "torch"), the name of its
    variable size, that size's bound, and the sizes tested (1, a middle size, the bound; a
    larger lowest size where the program needs one)."""
    name: str
    library: str            # the package that must import to run it live
    kind: str
    dim: str
    bound: int
    sizes: tuple
    build: Callable
    about: str


def _rand(seed: int, *shape, scale: float = 1.0):
    return (np.random.RandomState(seed).standard_normal(shape) * scale).astype(np.float32)


def _size(name: str, bound: int, low: int = 1):
    """A jax.export symbolic size with `low <= name <= bound` as its constraints."""
    from jax import export
    constraints = [f"{name} <= {bound}"] + ([f"{name} >= {low}"] if low > 1 else [])
    return export.symbolic_shape(name, constraints=constraints)[0]


def _spec(*shape):
    import jax
    import jax.numpy as jnp
    return jax.ShapeDtypeStruct(shape, jnp.float32)


# ---------------------------------------------------------------- flax


def flax_nnx_mlp():
    """flax nnx: Linear-gelu-Linear-gelu-Linear over a variable batch; the nnx state is the
    first argument (a pytree of nnx Params)."""
    from flax import nnx

    class MLP(nnx.Module):
        def __init__(self, rngs):
            self.l1 = nnx.Linear(16, WIDTH, rngs=rngs)
            self.l2 = nnx.Linear(WIDTH, WIDTH, rngs=rngs)
            self.l3 = nnx.Linear(WIDTH, 8, rngs=rngs)

        def __call__(self, x):
            return self.l3(nnx.gelu(self.l2(nnx.gelu(self.l1(x)))))

    graph, state = nnx.split(MLP(nnx.Rngs(0)))

    def fn(state, x):
        return nnx.merge(graph, state)(x)
    b = _size("b", 32)
    return fn, (state, _spec(b, 16)), lambda n: (state, _rand(n, n, 16))


def flax_linen_block():
    """flax linen: a pre-LayerNorm transformer block (MultiHeadDotProductAttention with a
    causal mask, Dense-gelu-Dense MLP) over a variable sequence length, batch 2."""
    import jax
    import jax.numpy as jnp
    from flax import linen as nn

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x):
            mask = nn.make_causal_mask(jnp.ones(x.shape[:2]))
            h = nn.LayerNorm()(x)
            x = x + nn.MultiHeadDotProductAttention(num_heads=4)(h, h, mask=mask)
            h = nn.LayerNorm()(x)
            return x + nn.Dense(WIDTH)(nn.gelu(nn.Dense(2 * WIDTH)(h)))

    block = Block()
    params = block.init(jax.random.PRNGKey(1), jnp.zeros((2, 4, WIDTH)))
    t = _size("t", 64)
    return block.apply, (params, _spec(2, t, WIDTH)), lambda n: (params,
                                                                _rand(n, 2, n, WIDTH))


# ---------------------------------------------------------------- plain JAX


LAYERS = 12


def jax_transformer_12():
    """Plain JAX: 12 pre-LayerNorm transformer blocks (4 heads, causal softmax attention,
    gelu MLP), width 32, over a variable sequence length, batch 2; the weights a list of
    12 dicts, the first argument."""
    import jax
    import jax.numpy as jnp

    def layernorm(x, g, b):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) * jax.lax.rsqrt(v + 1e-5) * g + b

    def block(p, x):
        bsz, t, d = x.shape
        h = layernorm(x, p["ln1_g"], p["ln1_b"])
        q, k, v = jnp.split(h @ p["qkv"], 3, axis=-1)
        split = lambda a: a.reshape(bsz, t, 4, d // 4).transpose(0, 2, 1, 3)  # noqa: E731
        q, k, v = split(q), split(k), split(v)
        s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d // 4)
        causal = jnp.tril(jnp.ones((t, t), bool))
        a = jax.nn.softmax(jnp.where(causal, s, -1e30), axis=-1) @ v
        x = x + a.transpose(0, 2, 1, 3).reshape(bsz, t, d) @ p["out"]
        h = layernorm(x, p["ln2_g"], p["ln2_b"])
        return x + jax.nn.gelu(h @ p["up"]) @ p["down"]

    def fn(params, x):
        for p in params:
            x = block(p, x)
        return x

    d = WIDTH
    params = [{"ln1_g": 1 + _rand(100 + i, d, scale=0.1), "ln1_b": _rand(200 + i, d, scale=0.1),
               "qkv": _rand(300 + i, d, 3 * d, scale=d ** -0.5),
               "out": _rand(400 + i, d, d, scale=0.5 * d ** -0.5),
               "ln2_g": 1 + _rand(500 + i, d, scale=0.1), "ln2_b": _rand(600 + i, d, scale=0.1),
               "up": _rand(700 + i, d, 2 * d, scale=d ** -0.5),
               "down": _rand(800 + i, 2 * d, d, scale=0.5 * (2 * d) ** -0.5)}
              for i in range(LAYERS)]
    t = _size("t", 64)
    return fn, (params, _spec(2, t, d)), lambda n: (params, _rand(n, 2, n, d))


# ---------------------------------------------------------------- equinox


def equinox_mlp():
    """equinox: eqx.nn.MLP (depth 3, tanh) vmapped over a variable batch; the model's arrays
    (eqx.partition) are the first argument."""
    import equinox as eqx
    import jax

    model = eqx.nn.MLP(16, 8, WIDTH, depth=3, activation=jax.nn.tanh,
                       key=jax.random.PRNGKey(2))
    arrays, static = eqx.partition(model, eqx.is_array)

    def fn(arrays, x):
        return jax.vmap(eqx.combine(arrays, static))(x)
    b = _size("b", 32)
    return fn, (arrays, _spec(b, 16)), lambda n: (arrays, _rand(n, n, 16))


def equinox_conv():
    """equinox: two eqx.nn.Conv1d (kernel 3, SAME padding, relu) and a mean over a variable
    length, vmapped over a batch of 2; the model's arrays are the first argument."""
    import equinox as eqx
    import jax

    k1, k2 = jax.random.split(jax.random.PRNGKey(3))

    class Net(eqx.Module):
        c1: eqx.nn.Conv1d
        c2: eqx.nn.Conv1d

        def __call__(self, x):                       # x [channels, length]
            return jax.nn.relu(self.c2(jax.nn.relu(self.c1(x)))).mean(-1)

    net = Net(eqx.nn.Conv1d(4, 16, 3, padding="SAME", key=k1),
              eqx.nn.Conv1d(16, 16, 3, padding="SAME", key=k2))
    arrays, static = eqx.partition(net, eqx.is_array)

    def fn(arrays, x):
        return jax.vmap(eqx.combine(arrays, static))(x)
    length = _size("l", 64)
    return fn, (arrays, _spec(2, 4, length)), lambda n: (arrays, _rand(n, 2, 4, n))


# ---------------------------------------------------------------- haiku


def haiku_mlp():
    """haiku: hk.nets.MLP([32, 32, 8]) over a variable batch; params the first argument."""
    import haiku as hk
    import jax
    import jax.numpy as jnp

    f = hk.without_apply_rng(hk.transform(lambda x: hk.nets.MLP([WIDTH, WIDTH, 8])(x)))
    params = f.init(jax.random.PRNGKey(4), jnp.zeros((1, 16)))
    b = _size("b", 32)
    return f.apply, (params, _spec(b, 16)), lambda n: (params, _rand(n, n, 16))


def haiku_lstm():
    """haiku: hk.LSTM(16) unrolled (hk.dynamic_unroll, a scan) over 12 steps, then
    hk.Linear(4), for a variable batch. (The time axis stays static: lax.scan's length must
    be a constant for jax.export.)"""
    import haiku as hk
    import jax
    import jax.numpy as jnp

    def lstm(x):                                         # x [time, batch, features]
        core = hk.LSTM(16)
        out, _ = hk.dynamic_unroll(core, x, core.initial_state(x.shape[1]))
        return hk.Linear(4)(out)
    f = hk.without_apply_rng(hk.transform(lstm))
    params = f.init(jax.random.PRNGKey(5), jnp.zeros((12, 1, 8)))
    b = _size("b", 16)
    return f.apply, (params, _spec(12, b, 8)), lambda n: (params, _rand(n, 12, n, 8))


# ---------------------------------------------------------------- keras 3 (JAX backend)


def _keras():
    os.environ.setdefault("KERAS_BACKEND", "jax")
    import keras
    if keras.backend.backend() != "jax":
        raise RuntimeError(f"keras runs on {keras.backend.backend()}; set KERAS_BACKEND=jax "
                           f"before keras is imported")
    return keras


def _keras_program(model, spec, argument):
    """A keras model as a function of (trainable, non-trainable variables, x), through
    model.stateless_call: keras 3's own route to a pure JAX function."""
    trainable = [np.asarray(v.value) for v in model.trainable_variables]
    fixed = [np.asarray(v.value) for v in model.non_trainable_variables]

    def fn(trainable, fixed, x):
        return model.stateless_call(trainable, fixed, x)[0]
    return fn, (trainable, fixed, spec), lambda n: (trainable, fixed, argument(n))


def keras_dense_layernorm():
    """keras 3: Sequential Dense(32, gelu) - LayerNormalization - Dense(8) over a variable
    batch."""
    keras = _keras()
    keras.utils.set_random_seed(6)
    model = keras.Sequential([keras.Input((16,)), keras.layers.Dense(WIDTH, "gelu"),
                              keras.layers.LayerNormalization(), keras.layers.Dense(8)])
    return _keras_program(model, _spec(_size("b", 32), 16), lambda n: _rand(n, n, 16))


def keras_conv1d_stride2():
    """keras 3: Conv1D(16, 3, strides=2, relu) - Conv1D(16, 3, strides=2) -
    GlobalAveragePooling1D - Dense(4) over a variable length (>= 7: two VALID convs of
    kernel 3 leave at least one step), batch 2."""
    keras = _keras()
    keras.utils.set_random_seed(7)
    model = keras.Sequential([keras.Input((None, 8)),
                              keras.layers.Conv1D(16, 3, strides=2, activation="relu"),
                              keras.layers.Conv1D(16, 3, strides=2),
                              keras.layers.GlobalAveragePooling1D(), keras.layers.Dense(4)])
    return _keras_program(model, _spec(2, _size("l", 128, low=7), 8),
                          lambda n: _rand(n, 2, n, 8))


# ---------------------------------------------------------------- optax


def optax_adam_step():
    """optax: one training step of a 2-layer MLP on a mean squared error over a variable
    batch: jax.value_and_grad, optax.adam(1e-2).update, optax.apply_updates. Returns the new
    params, the new optimizer state and the loss."""
    import jax
    import jax.numpy as jnp
    import optax

    def mlp(p, x):
        return jnp.tanh(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]

    def loss(p, x, y):
        return jnp.mean((mlp(p, x) - y) ** 2)

    opt = optax.adam(1e-2)

    def step(params, state, x, y):
        value, grads = jax.value_and_grad(loss)(params, x, y)
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    params = {"w1": _rand(10, 16, WIDTH, scale=0.25), "b1": np.zeros(WIDTH, np.float32),
              "w2": _rand(11, WIDTH, 4, scale=0.2), "b2": np.zeros(4, np.float32)}
    # a state one step in, so that Adam's moments and count are not all zeros
    state = opt.init(params)
    _, state, _ = jax.jit(step)(params, state, _rand(12, 8, 16), _rand(13, 8, 4))
    state = jax.tree_util.tree_map(np.asarray, state)
    b = _size("b", 32)
    return step, (params, state, _spec(b, 16), _spec(b, 4)), \
        lambda n: (params, state, _rand(n, n, 16), _rand(1000 + n, n, 4))


# ---------------------------------------------------------------- HuggingFace transformers


def _hf_config(kind):
    import transformers as tf
    common = dict(vocab_size=96, num_hidden_layers=2, num_attention_heads=4)
    if kind == "bert":
        return tf.BertConfig(hidden_size=WIDTH, intermediate_size=2 * WIDTH,
                             max_position_embeddings=64, **common)
    if kind == "gpt2":
        return tf.GPT2Config(n_embd=WIDTH, n_layer=2, n_head=4, n_positions=64,
                             vocab_size=96)
    return tf.LlamaConfig(hidden_size=WIDTH, intermediate_size=2 * WIDTH,
                          num_key_value_heads=2, max_position_embeddings=64, **common)


def _hf_program(kind):
    """A HuggingFace model (random init, seed 0, eval mode, eager attention) as a module of
    the token ids [2, T] returning one tensor: BERT's last hidden state, GPT-2's and Llama's
    logits; T in 1..64."""
    import torch
    import transformers as tf

    torch.manual_seed(0)
    config = _hf_config(kind)
    config._attn_implementation = "eager"
    cls = {"bert": tf.BertModel, "gpt2": tf.GPT2LMHeadModel, "llama": tf.LlamaForCausalLM}
    model = cls[kind](config).eval()

    class Wrapped(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, input_ids):
            out = self.model(input_ids=input_ids, use_cache=False)
            return out.last_hidden_state if kind == "bert" else out.logits

    T = torch.export.Dim("T", min=1, max=64)

    def arguments(n):
        ids = np.random.RandomState(n).randint(0, 96, size=(2, n)).astype(np.int64)
        return (torch.from_numpy(ids),)
    return Wrapped().eval(), {"input_ids": {1: T}}, arguments


def hf_wav2vec2_features():
    """HuggingFace Wav2Vec2's feature encoder (its convolution stack: kernels 10, 3, 3 with
    strides 5, 2, 2, group norm on the first, gelu) over a variable audio length, batch 1;
    random init, seed 0. The length starts at 60: below it the encoder's output has one
    step, which torch.export's guards keep apart from the longer ones."""
    import torch
    import transformers as tf

    torch.manual_seed(0)
    config = tf.Wav2Vec2Config(conv_dim=(16, 16, 16), conv_kernel=(10, 3, 3),
                               conv_stride=(5, 2, 2), hidden_size=WIDTH,
                               num_hidden_layers=1, num_attention_heads=4,
                               intermediate_size=2 * WIDTH)
    encoder = tf.models.wav2vec2.modeling_wav2vec2.Wav2Vec2FeatureEncoder(config).eval()
    L = torch.export.Dim("L", min=60, max=1600)

    def arguments(n):
        return (torch.from_numpy(_rand(n, 1, n)),)
    return encoder, {"input_values": {1: L}}, arguments


PROGRAMS = {p.name: p for p in (
    Program("flax_nnx_mlp", "flax", "jax", "b", 32, (1, 13, 32), flax_nnx_mlp,
            "nnx MLP, 3 Linear"),
    Program("flax_linen_block", "flax", "jax", "t", 64, (1, 23, 64), flax_linen_block,
            "linen pre-LN transformer block, causal MHA"),
    Program("jax_transformer_12", "jax", "jax", "t", 64, (1, 23, 64), jax_transformer_12,
            "12-layer pre-LN transformer, width 32"),
    Program("equinox_mlp", "equinox", "jax", "b", 32, (1, 13, 32), equinox_mlp,
            "eqx.nn.MLP, vmapped"),
    Program("equinox_conv", "equinox", "jax", "l", 64, (1, 23, 64), equinox_conv,
            "two SAME Conv1d + mean over length"),
    Program("haiku_mlp", "haiku", "jax", "b", 32, (1, 13, 32), haiku_mlp,
            "hk.nets.MLP"),
    Program("haiku_lstm", "haiku", "jax", "b", 16, (1, 5, 16), haiku_lstm,
            "hk.LSTM, 12-step dynamic_unroll"),
    Program("keras_dense_layernorm", "keras", "jax", "b", 32, (1, 13, 32),
            keras_dense_layernorm, "Dense + LayerNormalization"),
    Program("keras_conv1d_stride2", "keras", "jax", "l", 128, (7, 37, 128),
            keras_conv1d_stride2, "two Conv1D stride 2 + global average pool"),
    Program("optax_adam_step", "optax", "jax", "b", 32, (1, 13, 32), optax_adam_step,
            "value_and_grad + adam update"),
    Program("hf_bert", "transformers", "torch", "T", 64, (1, 23, 64),
            lambda: _hf_program("bert"), "BertModel, 2 layers"),
    Program("hf_gpt2", "transformers", "torch", "T", 64, (1, 23, 64),
            lambda: _hf_program("gpt2"), "GPT2LMHeadModel, 2 layers"),
    Program("hf_llama", "transformers", "torch", "T", 64, (1, 23, 64),
            lambda: _hf_program("llama"), "LlamaForCausalLM, 2 layers"),
    Program("hf_wav2vec2_features", "transformers", "torch", "L", 1600, (60, 777, 1600),
            hf_wav2vec2_features, "Wav2Vec2FeatureEncoder, strided convs"),
)}
