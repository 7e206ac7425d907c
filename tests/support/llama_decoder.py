"""A 2-layer Llama decoder in JAX, as HuggingFace's LlamaModel computes it (torch.export of
it ran NaN at one token on the GPU backend in Triton's interpreter): tools/gen_jax_cases.py
lowers it with from_jax into tests/data/jax/llama_decoder.hlo, with JAX's outputs."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

D = 8      # model width; the input is the embedded tokens, f32[s, D]
BOUND = 8  # the sequence length's bound


def _weight(rows, cols, seed):
    """Fixed weights computed in the module (sines of an iota): no constants in the text."""
    i = lax.iota(jnp.float32, rows * cols).reshape(rows, cols)
    return jnp.sin(i * 0.7311 + seed) * 0.3


def _rms_norm(x, seed):
    # LlamaRMSNorm: hidden.pow(2).mean(-1) (a float power of negative bases), then rsqrt
    var = jnp.mean(lax.pow(x, 2.0), axis=-1, keepdims=True)
    return (1.0 + _weight(1, x.shape[-1], seed)) * (x * lax.rsqrt(var + 1e-6))


def llama(x, layers=2, heads=2, ffn=16):
    """RMSNorm, rotary embedding (inverse frequencies by pow), causal softmax attention
    masked with the float minimum (and -inf further back), SiLU-gated MLP, residuals."""
    s, d = x.shape
    hd = d // heads
    inv = 1.0 / lax.pow(jnp.float32(10000.0), jnp.arange(0, hd, 2, dtype=jnp.float32) / hd)
    f = jnp.arange(s, dtype=jnp.float32)[:, None] * inv[None, :]
    cos, sin = jnp.cos(jnp.concatenate([f, f], -1)), jnp.sin(jnp.concatenate([f, f], -1))
    i = jnp.arange(s)
    mask = jnp.where(i[None, :] > i[:, None], jnp.finfo(jnp.float32).min, 0.0)
    mask = jnp.where(i[None, :] > i[:, None] + 2, -jnp.inf, mask)

    def rope(t):
        half = jnp.concatenate([-t[..., hd // 2:], t[..., :hd // 2]], -1)
        return t * cos + half * sin

    for k in range(layers):
        h = _rms_norm(x, 10 * k)
        q, kk, v = (rope((h @ _weight(d, d, 10 * k + j)).reshape(s, heads, hd).transpose(1, 0, 2))
                    for j in (1, 2, 3))
        a = jax.nn.softmax(q @ kk.transpose(0, 2, 1) / np.sqrt(hd) + mask, axis=-1)
        x = x + (a @ v).transpose(1, 0, 2).reshape(s, d) @ _weight(d, d, 10 * k + 4)
        h = _rms_norm(x, 10 * k + 5)
        gated = jax.nn.silu(h @ _weight(d, ffn, 10 * k + 6)) * (h @ _weight(d, ffn, 10 * k + 7))
        x = x + gated @ _weight(ffn, d, 10 * k + 8)
    return _rms_norm(x, 99)


def inputs(n: int) -> np.ndarray:
    return (np.random.default_rng(n).standard_normal((n, D)) * 2).astype(np.float32)
