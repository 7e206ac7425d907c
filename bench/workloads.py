"""The five workloads the benchmarks share (compare.py on the GPU, cpu_compare.py, and the
bf16 transformer's torch peer): HLO text at a raised bound, inputs, and the same function
written for JAX (the XLA peer) and for torch (eager and torch.compile). A library, not a
benchmark.

Each Workload holds: `hlo` (the module text, bound raised: the bound is only text),
`bound`, `sizes` (the n of the kernel rows), `make(n, gen)` (device tensors: the dynamic
input(s) first, then the weights), `dynamic` (how many leading arguments carry n),
`jax_fn` / `torch_fn` (same math, same parameter order) and `bytes(n)` / `flops(n)` for the
floor. Parameter orders follow the modules (checked against the CPU backend by
`python bench/compare.py --check`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
MODELS = REPO / "tests" / "data" / "models"
LARGE = REPO / "tests" / "data" / "large"


@dataclass
class Workload:
    name: str
    hlo: str
    bound: int
    sizes: tuple
    shapes: Callable      # n -> list of argument shapes (dynamic ones first)
    dynamic: int          # leading arguments whose dim 0 is n
    jax_fn: Callable
    torch_fn: Callable
    bytes: Callable       # n -> bytes read + written, each once
    flops: Callable       # n -> floating-point operations


def _model(name: str, old: int, new: int) -> str:
    return (MODELS / name / "module.hlo").read_text().replace(f"<={old}", f"<={new}")


def _quarters(bound: int) -> tuple:
    return (bound // 16, bound // 4, bound // 2, bound)


# --- the math, once per library ----------------------------------------------------------

def _ln(lib, v, g, b):
    m = v.mean(-1, keepdims=True) if lib == "jax" else v.mean(-1, keepdim=True)
    d = v - m
    s = (d * d).mean(-1, keepdims=True) if lib == "jax" else (d * d).mean(-1, keepdim=True)
    sq = _np(lib).sqrt(s + 1e-5)
    return d / sq * g + b


def _np(lib):
    if lib == "jax":
        import jax.numpy as jnp
        return jnp
    import torch
    return torch


def _gelu(lib, x):
    t = _np(lib).tanh(0.7978845608 * (x + 0.044715 * x * x * x))
    return 0.5 * x * (1 + t)


def _softmax(lib, x):
    m = x.max(-1, keepdims=True) if lib == "jax" else x.amax(-1, keepdim=True)
    e = _np(lib).exp(x - m)
    return e / (e.sum(-1, keepdims=True) if lib == "jax" else e.sum(-1, keepdim=True))


def layernorm(lib):
    return lambda x, g, b: x + _ln(lib, x, g, b)


def attention(lib):
    return lambda q, k, v: _softmax(lib, (q @ k.T) / 8.0) @ v


def softmax_rows(lib):
    return lambda x: _softmax(lib, x)


def mlp(lib):
    def f(x, w1, b1, w2, b2):
        z = _gelu(lib, x @ w1 + b1) @ w2 + b2
        m = z.max(-1, keepdims=True) if lib == "jax" else z.amax(-1, keepdim=True)
        e = _np(lib).exp(z - m)
        s = e.sum(-1, keepdims=True) if lib == "jax" else e.sum(-1, keepdim=True)
        return z - m - _np(lib).log(s)
    return f


LAYER_PARAMS = ("b1", "b2", "g1", "g2", "w1", "w2", "wk", "wo", "wq", "wv")
LAYERS = 48


def transformer(lib):
    def block(x, p):
        h = _ln(lib, x, p["g1"], p["b1"])
        q, k, v = h @ p["wq"], h @ p["wk"], h @ p["wv"]
        a = _softmax(lib, (q @ k.T) / 8.0) @ v
        x = x + a @ p["wo"]
        h = _ln(lib, x, p["g2"], p["b2"])
        return x + _gelu(lib, h @ p["w1"]) @ p["w2"]

    def model(x, *flat):
        for i in range(len(flat) // len(LAYER_PARAMS)):
            p = dict(zip(LAYER_PARAMS, flat[i * 10:(i + 1) * 10], strict=True))
            x = block(x, p)
        return x
    return model


def _layer_shapes() -> list:
    one = {"b1": (64,), "b2": (64,), "g1": (64,), "g2": (64,), "w1": (64, 256),
           "w2": (256, 64), "wk": (64, 64), "wo": (64, 64), "wq": (64, 64), "wv": (64, 64)}
    return [one[k] for k in LAYER_PARAMS] * LAYERS


_WEIGHTS_48 = sum(math.prod(s) for s in _layer_shapes()) * 4


def _transformer_flops(n: int) -> int:
    per_layer = 2 * n * 64 * 64 * 4 + 2 * n * 64 * 256 * 2 + 2 * 2 * n * n * 64
    return LAYERS * per_layer


def workloads() -> dict[str, Workload]:
    """The five workloads of issue 10, by name."""
    out = [
        Workload("transformer_48", (LARGE / "transformer_48_layers_bounded.hlo").read_text(),
                 2048, (128, 512, 1024, 2048),
                 lambda n: [(n, 64)] + _layer_shapes(), 1, transformer("jax"),
                 transformer("torch"), lambda n: 2 * n * 64 * 4 + _WEIGHTS_48,
                 _transformer_flops),
        Workload("layernorm_residual", _model("layernorm_residual", 256, 65536), 65536,
                 _quarters(65536), lambda n: [(n, 512), (512,), (512,)], 1,
                 layernorm("jax"), layernorm("torch"), lambda n: 2 * n * 512 * 4 + 4096,
                 lambda n: 10 * n * 512),
        Workload("attention", _model("attention", 256, 8192), 8192, _quarters(8192),
                 lambda n: [(n, 64)] * 3, 3, attention("jax"), attention("torch"),
                 lambda n: 4 * n * 64 * 4, lambda n: 4 * n * n * 64 + 5 * n * n),
        Workload("mlp", _model("mlp", 128, 65536), 65536, _quarters(65536),
                 lambda n: [(n, 64), (64, 256), (256,), (256, 10), (10,)], 1, mlp("jax"),
                 mlp("torch"), lambda n: n * (64 + 10) * 4 + (64 * 256 + 256 * 11) * 4,
                 lambda n: 2 * n * (64 * 256 + 256 * 10) + 20 * n * 256),
        Workload("softmax_rows", _model("softmax_rows", 100, 262144), 262144,
                 _quarters(262144), lambda n: [(n, 37)], 1, softmax_rows("jax"),
                 softmax_rows("torch"), lambda n: 2 * n * 37 * 4, lambda n: 5 * n * 37),
    ]
    return {w.name: w for w in out}
