"""Writes tests/data/rng_bits.npz: XLA's rng-bit-generator outputs (bits and new state), for
tests/ops/test_rng_bits.py, which then runs where JAX is absent.

    /work/venv/bin/python tools/gen_rng_bits.py

XLA here is jaxlib's CPU client, compiling a one-op StableHLO module per case: JAX's public
`lax.rng_bit_generator` takes only unsigned results and u64[2] states, while HLO also allows a
u64[3] Philox state and signed or float results. Each entry is named
`ALG|k|STATE_INDEX|DIMS|TYPE` (DIMS like `2x3x5`, `` for a scalar) with `/bits` and `/state`;
`states` holds the u64[3] states (a u64[2] case takes the first two words).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import jax
import numpy as np
from jax._src.lib import xla_client

jax.config.update("jax_enable_x64", True)

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "rng_bits.npz"
# Small words, every high bit set (the counter wraps, the Philox carry reaches the high word),
# and mixed words.
STATES = np.array([[1, 2, 3],
                   [2**64 - 1, 2**64 - 3, 2**64 - 1],
                   [0xDEADBEEFCAFEBABE, 2**63 + 5, 0x0123456789ABCDEF]], np.uint64)
ALGORITHMS = [("rng_three_fry", 2), ("rng_philox", 2), ("rng_philox", 3), ("rng_default", 2),
              ("rng_default", 3)]
SHAPES = [(), (1,), (3,), (4,), (5,), (7, 3), (2, 3, 5), (3, 5, 7), (5, 1, 3), (0,), (1000,)]
WIDTHS = ["u8", "u16", "u32", "u64"]
# Signed and float results at one state: the same bits, reinterpreted (checked, not assumed).
OTHER_TYPES = ["s8", "s16", "s32", "s64", "f16", "bf16", "f32", "f64"]
_MLIR = {"u8": "ui8", "u16": "ui16", "u32": "ui32", "u64": "ui64", "s8": "i8", "s16": "i16",
         "s32": "i32", "s64": "i64", "f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64"}


def xla_rng_bit_generator(algorithm: str, state: np.ndarray, dims: tuple, t: str):
    """(new state, bits) of one rng_bit_generator compiled and run by XLA's CPU client."""
    client = jax.devices("cpu")[0].client
    k = len(state)
    out = "tensor<" + "".join(f"{d}x" for d in dims) + _MLIR[t] + ">"
    alg = algorithm.removeprefix("rng_").upper()
    text = f"""module @m {{
  func.func public @main(%s0: tensor<{k}xui64>) -> (tensor<{k}xui64>, {out}) {{
    %s, %b = stablehlo.rng_bit_generator %s0, algorithm = {alg} :
        (tensor<{k}xui64>) -> (tensor<{k}xui64>, {out})
    return %s, %b : tensor<{k}xui64>, {out}
  }}
}}"""
    exe = client.compile_and_load(text, client.devices()[:1], xla_client.CompileOptions())
    new_state, bits = exe.execute([jax.device_put(state)])
    return np.asarray(new_state), np.asarray(bits)


def _cases():
    for (alg, k), s, dims, t in itertools.product(ALGORITHMS, range(len(STATES)), SHAPES,
                                                  WIDTHS):
        if dims == (1000,) and (s > 0 or t in ("u8", "u16")):
            continue  # one long case per algorithm keeps the file small
        yield alg, k, s, dims, t
    for (alg, k), t in itertools.product(ALGORITHMS, OTHER_TYPES):
        yield alg, k, 2, (2, 3, 5), t


def main() -> None:
    arrays = {"states": STATES}
    for alg, k, s, dims, t in _cases():
        name = f"{alg}|{k}|{s}|{'x'.join(map(str, dims))}|{t}"
        new_state, bits = xla_rng_bit_generator(alg, STATES[s, :k], dims, t)
        arrays[name + "/state"], arrays[name + "/bits"] = new_state, bits
    np.savez_compressed(OUT, **arrays)
    print(f"{OUT}: {len(arrays) // 2} cases, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
