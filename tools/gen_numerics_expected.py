"""Writes tests/data/numerics/expected.npz: XLA's answers for the numerics sweep.

    /work/main/.venv/bin/python tools/gen_numerics_expected.py

Every case of tests/support/numerics_table.py: XLA's output for its inputs (the case's HLO compiled
by XLA's CPU backend through jaxlib; JAX's function for the opcodes XLA's CPU does not run)
and a checksum of those inputs. The layout is numerics_table.load_expected's (outputs as
bytes, so bf16 needs no pickling).

Two kinds of element are not XLA's CPU answer, and the `by_hand` flags mark them; their
expected values are computed here by hand (NumPy, IEEE arithmetic, or Python's integers):

- f32/f64 subnormals (an operand or the exact result within 4x of them): XLA's CPU
  runtime flushes them to zero (FTZ and DAZ are set while a program runs, whatever
  `--xla_cpu_ftz` says), so there 1e-45 > 0 is false and ceil(1e-45) is 0. That is a mode
  of the platform, not an operation's semantics (XLA's GPU keeps subnormals:
  `--xla_gpu_ftz=false`); dynhlo keeps them. A bf16 value is computed in f32, so its
  subnormals count; an f16's are normal in f32. Within 4x: a formula JAX writes for an op
  can halve its argument into a subnormal (asin of the smallest normal is 0 there).
- Integer `power` with an exponent above 63: XLA's elemental emitter squares six times and
  reads the exponent as signed, so pow(0, 64) = 1 and pow(2u8, 200) = 0; the operation is
  the exact power modulo 2^bits (StableHLO's `power`), which dynhlo computes.

tests/ops/test_numerics_special_values.py checks the stored values against XLA again where jax
is installed, on every element not marked `by_hand`.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import numpy as np

os.environ.setdefault("JAX_PLATFORMS", "cpu")
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.support.numerics_table import (CASES, EXPECTED, FLOATS, Case, groups,  # noqa: E402
                             inputs_digest, run_xla)

from dynhlo.hlo.types import to_numpy_dtype  # noqa: E402


def _logistic(x):
    e = np.exp(-np.abs(x))  # not exp(-x): it overflows where the answer is a subnormal
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


def _max(a, b):
    # IEEE 754-2019 maximum: NaN propagates, -0 < +0 (np.maximum returns a tie's second)
    return np.where((a == 0) & (b == 0), np.where(np.signbit(a), b, a), np.maximum(a, b))


def _min(a, b):
    return np.where((a == 0) & (b == 0), np.where(np.signbit(a), a, b), np.minimum(a, b))


def _afz(x):
    # Only ever applied to tiny values (see by_hand): |x| + 0.5 is 0.5 there, exactly.
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


IEEE = {
    "abs": np.abs, "negate": np.negative, "sign": np.sign, "exponential": np.exp,
    "exponential-minus-one": np.expm1, "log": np.log, "log-plus-one": np.log1p,
    "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x), "cbrt": np.cbrt, "tanh": np.tanh,
    "sine": np.sin, "cosine": np.cos, "tan": np.tan, "logistic": _logistic,
    "erf": np.vectorize(math.erf, otypes=[np.float64]), "floor": np.floor, "ceil": np.ceil,
    "round-nearest-even": np.rint, "round-nearest-afz": _afz, "is-finite": np.isfinite,
    "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh,
    "atan": np.arctan, "atanh": np.arctanh, "cosh": np.cosh, "sinh": np.sinh,
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
    "remainder": np.fmod, "maximum": _max, "minimum": _min, "power": np.power,
    "atan2": np.arctan2, "EQ": np.equal, "NE": np.not_equal, "LT": np.less,
    "LE": np.less_equal, "GT": np.greater, "GE": np.greater_equal,
}


def _wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float64) if x.dtype.kind in "fV" else x


def ieee(case: Case, arrays: list[np.ndarray]) -> np.ndarray:
    """The case by hand in f64 (every f16/bf16/f32 value and the exact results of + - * / and
    sqrt on them are f64 values, so one rounding to the result type), without flushing."""
    out = to_numpy_dtype(case.out)
    xs = [_wide(a) for a in arrays]
    with np.errstate(all="ignore"):
        if case.kind == "compare":
            direction, _, total = case.attr.partition("/")
            return IEEE[direction](*(map(_total_order, xs) if total else xs))
        if case.kind == "select":
            return np.where(*xs).astype(out)
        if case.kind == "clamp":
            low, x, high = xs
            return _min(_max(x, low), high).astype(out)
        if case.kind == "convert":
            return _convert(xs[0], out)
        if case.kind == "reduce":
            fn = IEEE[case.opcode]
            init = {"add": 0.0, "multiply": 1.0, "maximum": -np.inf, "minimum": np.inf}
            return fn(fn(xs[0][:, 0], xs[0][:, 1]), init[case.opcode]).astype(out)
        return IEEE[case.opcode](*xs).astype(out)


def _total_order(x: np.ndarray) -> np.ndarray:
    """IEEE totalOrder as integers: the bits, negative magnitudes reversed."""
    bits = x.view(np.int64)
    return np.where(bits < 0, np.iinfo(np.int64).min - bits, bits)


def _convert(x: np.ndarray, out: np.dtype) -> np.ndarray:
    if out == np.bool_:
        return x != 0
    if out.kind in "iu":  # only subnormals come here: they truncate to zero
        return np.trunc(np.where(np.abs(x) < 1, 0, x)).astype(out)
    return x.astype(out)


def _near_subnormal(x: np.ndarray) -> np.ndarray:
    """Nonzero and below 4x the smallest normal where XLA computes it (f64 in f64, every
    other float in f32): a subnormal, or one an op's formula halves into one (JAX's asin
    of the smallest normal is 0 on XLA's CPU)."""
    if x.dtype.kind not in "fV":
        return np.zeros(x.shape, bool)
    wide = np.float64 if x.dtype == np.float64 else np.float32
    a = np.abs(x.astype(wide))
    return (a > 0) & (a < 4 * np.finfo(wide).tiny)


def by_hand(case: Case, arrays: list[np.ndarray]):
    """The mask of elements whose expected value is not XLA's CPU answer, and the values."""
    if case.opcode == "power" and case.dtype not in FLOATS:
        x, y = arrays
        mask = y > 63
        bits = x.dtype.itemsize * 8
        exact = [pow(int(a), int(b), 1 << bits) if big else 0 for a, b, big in zip(x, y, mask,
                                                                                   strict=True)]
        signed = [v - (1 << bits) if x.dtype.kind == "i" and v >> (bits - 1) else v
                  for v in exact]
        return mask, np.array(signed, dtype=object).astype(x.dtype)
    if case.dtype not in FLOATS and case.out not in FLOATS:
        return np.zeros(len(arrays[0]), bool), None
    want = ieee(case, arrays)
    rows = [a.reshape(len(want), -1) for a in arrays] + [want.reshape(len(want), -1)]
    mask = np.zeros(len(want), bool)
    for a in rows:
        mask |= _near_subnormal(a).any(axis=1)
    return mask, want


def main() -> None:
    xla = {}
    for cases in groups().values():
        xla.update(run_xla(cases))
    outputs, flags, digests, lengths = [], [], [], []
    for case in CASES.values():
        inputs = case.inputs()
        want = xla[case.name]
        mask, hand = by_hand(case, inputs)
        if mask.any():
            want = np.where(mask, hand, want).astype(want.dtype)
        outputs.append(np.ascontiguousarray(want).view(np.uint8).ravel())
        flags.append(mask)
        digests.append(inputs_digest(inputs))
        lengths.append(len(want))
    EXPECTED.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(EXPECTED, names=np.array(list(CASES)), digests=np.array(digests, np.uint32),
                        lengths=np.array(lengths, np.int64), outputs=np.concatenate(outputs),
                        by_hand=np.concatenate(flags))
    print(f"{EXPECTED.relative_to(REPO)}: {len(CASES)} cases, {EXPECTED.stat().st_size} bytes")


if __name__ == "__main__":
    main()
