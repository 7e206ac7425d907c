"""Writes tests/data/bound: one JAX function's HLO dumped at two sizes, for `dynhlo bound`
(dynhlo.bound_from_dumps) and tests/cli/test_bound_dumps.py, which run where JAX may be absent.

    PYTHONPATH=. /work/main/.venv/bin/python tools/gen_bound_dumps.py

For each case NAME of CASES, a function of x: f32[n,8]:
- NAME.64.hlo, NAME.48.hlo: `jax.jit(fn).lower(x).as_text(dialect="hlo")` at n = 64 and 48;
- NAME.npz (the cases dynhlo takes): `sizes` (1, a middle size and the bound 128, or from
  the least size the program takes), and per size `x_<n>` and jax.jit's output `out_<n>`.

The refused cases (a size JAX folded into a number that is no shape: the mean over both
axes, 1/512 of them; log(n) that Python computed) have no npz.
"""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "data" / "bound"
SIZES = (64, 48)
BOUND = 128

# name -> (function, least size it runs at, or None where `dynhlo bound` refuses it)
CASES = {
    "mean_rows": (lambda x: x - x.mean(0), 1),            # divisor n: read at run time
    "drop_last_sum": (lambda x: x[:-1].sum(0), 1),        # slice limit n - 1: cut
    "last_two": (lambda x: x[-2:].sum(0) * 2, 2),         # slice start n - 2
    "cumsum": (lambda x: jnp.cumsum(x, 0), 1),            # window n, pad n - 1
    "concat_twice": (lambda x: jnp.concatenate([x, 2 * x]).max(0), 1),   # 2n rows
    "softmax_rows": (lambda x: jax.nn.softmax(x, axis=0), 1),
    "mean_all": (lambda x: x.mean(), None),               # 8n: refused
    "logmeanexp": (lambda x: jax.nn.logsumexp(x, axis=0) - jnp.log(x.shape[0]), None),
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    for name, (fn, least) in CASES.items():
        for n in SIZES:
            text = jax.jit(fn).lower(jnp.zeros((n, 8), jnp.float32)).as_text(dialect="hlo")
            (OUT / f"{name}.{n}.hlo").write_text(text)
        if least is None:
            continue
        sizes = sorted({least, (least + BOUND) // 3, BOUND})
        data = {"sizes": np.array(sizes, np.int32)}
        for n in sizes:
            x = rng.standard_normal((n, 8)).astype(np.float32)
            data[f"x_{n}"] = x
            data[f"out_{n}"] = np.asarray(jax.jit(fn)(x))
        np.savez(OUT / f"{name}.npz", **data)
    print(f"wrote {len(CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
