"""The 48-layer transformer of tests/data/large in bf16 (weights and activations), lowered by
JAX: a static form at n = 128 and a bounded form, x = bf16[<=2048,64].

The JAX source is tests/data/large/README.md's (`model` below), run on bf16 arrays: every
array of the module is bf16; the products are bf16 dots, which XLA and dynhlo's GPU backend
accumulate in f32 (graph/kernels.py `matmul`; cuBLAS). The bounded form is made as the f32
one was: the module is lowered at n = 2048 and at n = 2047, and every number that differs
between the two texts must be a dimension equal to n; it becomes `<=2048`.

    python bench/make_bf16_transformer.py        # writes bench/data/transformer_48_bf16*.hlo
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "data"
BOUND = 2048
LAYERS = 48
D, F = 64, 256
PARAMS = ("b1", "b2", "g1", "g2", "w1", "w2", "wk", "wo", "wq", "wv")  # sorted keys
SHAPES = {"b1": (D,), "b2": (D,), "g1": (D,), "g2": (D,), "w1": (D, F), "w2": (F, D),
          "wk": (D, D), "wo": (D, D), "wq": (D, D), "wv": (D, D)}


def block(x, p):
    import jax
    import jax.numpy as jnp

    def ln(v, g, b):
        m = v.mean(-1, keepdims=True)
        s = ((v - m) ** 2).mean(-1, keepdims=True)
        return (v - m) / jnp.sqrt(s + 1e-5) * g + b
    h = ln(x, p["g1"], p["b1"])
    q, k, v = h @ p["wq"], h @ p["wk"], h @ p["wv"]
    a = jax.nn.softmax((q @ k.T) / 8.0, -1) @ v
    x = x + a @ p["wo"]
    h = ln(x, p["g2"], p["b2"])
    return x + jax.nn.gelu(h @ p["w1"]) @ p["w2"]   # gelu: tanh approximation


def model(x, *flat):
    """x first, then each layer's parameters in PARAMS order (the module's parameter order)."""
    for i in range(len(flat) // len(PARAMS)):
        x = block(x, dict(zip(PARAMS, flat[i * len(PARAMS):(i + 1) * len(PARAMS)], strict=True)))
    return x


def param_shapes() -> list:
    return [SHAPES[k] for k in PARAMS] * LAYERS


def weights(seed: int = 0) -> list:
    """float32 weights ~ N(0, 1/fan_in), vectors N(0, 0.01) (as bench/compare.py draws them):
    48 layers stay finite. Callers round them to bf16."""
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(s) * (1 / np.sqrt(s[0]) if len(s) == 2 else 0.1))
            .astype(np.float32) for s in param_shapes()]


def lower(n: int) -> str:
    import jax
    import jax.numpy as jnp
    specs = [jax.ShapeDtypeStruct((n, D), jnp.bfloat16)]
    specs += [jax.ShapeDtypeStruct(s, jnp.bfloat16) for s in param_shapes()]
    return jax.jit(model).lower(*specs).as_text(dialect="hlo")


_NUMBER = re.compile(r"\d+")


def bounded(at: str, below: str) -> str:
    """`at` (lowered at BOUND) with every dimension that moved to BOUND - 1 in `below` marked
    `<=BOUND`; anything else that differs is an error (the diff must be dimensions only)."""
    a, b = at.splitlines(), below.splitlines()
    assert len(a) == len(b), "the two lowerings differ in length"
    out = []
    for la, lb in zip(a, b, strict=True):
        if la == lb:
            out.append(la)
            continue
        na, nb = _NUMBER.split(la), _NUMBER.split(lb)
        assert na == nb, f"lines differ beyond numbers:\n{la}\n{lb}"
        xa, xb = _NUMBER.findall(la), _NUMBER.findall(lb)
        pieces = [na[0]]
        for k, (u, v) in enumerate(zip(xa, xb, strict=True)):
            if u != v:
                assert (u, v) == (str(BOUND), str(BOUND - 1)), (u, v, la)
                before = na[k]
                assert before.endswith(("[", ",")), f"a moving number is not a dimension: {la}"
                u = f"<={BOUND}"
            pieces += [u, na[k + 1]]
        out.append("".join(pieces))
    return "\n".join(out) + "\n"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / "transformer_48_bf16.hlo").write_text(lower(128))
    text = bounded(lower(BOUND), lower(BOUND - 1))
    (OUT / "transformer_48_bf16_bounded.hlo").write_text(text)
    print("wrote", OUT / "transformer_48_bf16.hlo", "and the bounded form:",
          text.count(f"<={BOUND}"), "dynamic dimensions")


if __name__ == "__main__":
    main()
