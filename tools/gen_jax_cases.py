"""Writes tests/data/jax: HLO that JAX lowers, with inputs and JAX's outputs, for the GPU
conformance check (bench/gpu_conformance_check.py), which runs where JAX may be absent.

    /work/venv/bin/python tools/gen_jax_cases.py

- threefry: `jax.random.uniform(jax.random.key(0), (n,))` and `jax.random.bits` (threefry2x32:
  pure u32 adds, xors, rotations), lowered at the bound N with the length marked `<=N`;
  JAX's outputs at the bound (below it, the bits of a shorter shape are not a prefix of
  the bound's, so the CPU backend is the reference there).
- lax_<name>: every case of tests/frontends/test_jax_lax_surface.py, marked as that test marks it,
  with its inputs at sizes 0, 1, middle, bound.
- llama_decoder: tests/support/llama_decoder.py through dynhlo.from_jax (its sizes symbolic), with
  its inputs and JAX's outputs (out<n>_0) at 1, 2, 5 and 8 tokens.

Names on the command line write only those (`llama_decoder`, `threefry`, `lax`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import jax
import numpy as np

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "data" / "jax"
N = 3000  # three 1024-element programs of an elementwise kernel


def _threefry(x):
    key = jax.random.key(0)
    return jax.random.uniform(key, x.shape) + x, jax.random.bits(key, x.shape)


def threefry() -> None:
    x = np.zeros((N,), np.float32)
    text = jax.jit(_threefry).lower(x).as_text(dialect="hlo")
    text = re.sub(rf"(\b[a-z][a-z0-9]*)\[{N}([,\]])", rf"\1[<={N}\2", text)
    (OUT / "threefry.hlo").write_text(text)
    uniform, bits = _threefry(x)
    arrays = {"bound": np.int64(N), "out_0": np.asarray(uniform), "out_1": np.asarray(bits)}
    for n in (0, 1, 7, 1024, 1500, N):
        arrays[f"in{n}_0"] = np.zeros((n,), np.float32)
    np.savez_compressed(OUT / "threefry.npz", **arrays)


def lax_surface() -> None:
    sys.path.insert(0, str(REPO))
    from tests.frontends import test_jax_lax_surface as surface
    for name, (fn, make) in sorted(surface.CASES.items()):
        text = surface._mark_dynamic(jax.jit(fn).lower(make(surface.B)).as_text(dialect="hlo"))
        (OUT / f"lax_{name}.hlo").write_text(text)
        arrays = {"bound": np.int64(surface.B)}
        for n in surface.SIZES:
            arrays[f"in{n}_0"] = make(n)
        np.savez_compressed(OUT / f"lax_{name}.npz", **arrays)


def llama_decoder() -> None:
    sys.path.insert(0, str(REPO))
    import dynhlo
    from tests.support.llama_decoder import BOUND, D, inputs, llama
    exe = dynhlo.from_jax(llama, f"f32[s,{D}]", bounds={"s": BOUND})
    (OUT / "llama_decoder.hlo").write_text(str(exe.module))
    arrays = {"bound": np.int64(BOUND)}
    for n in (1, 2, 5, BOUND):
        arrays[f"in{n}_0"] = inputs(n)
        arrays[f"out{n}_0"] = np.asarray(jax.jit(llama)(inputs(n)))
    np.savez_compressed(OUT / "llama_decoder.npz", **arrays)


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    names = set(sys.argv[1:]) or {"threefry", "lax", "llama_decoder"}
    for name, write in (("threefry", threefry), ("lax", lax_surface),
                        ("llama_decoder", llama_decoder)):
        if name in names:
            write()
    print("wrote", len(list(OUT.glob("*.hlo"))), "modules to", OUT)
