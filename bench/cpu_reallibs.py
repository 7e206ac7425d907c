"""cpu_compare.py's real-library rows: each stored program of tests/data/reallibs (flax,
equinox, haiku, keras 3, optax, plain JAX, HuggingFace through from_torch) at each stored
size, warm call through dynhlo compiled, dynhlo reference and XLA.

A library of cpu_compare.py (which sets the threads before importing it), not a benchmark.
What is measured, per program:

- dynhlo: the stored StableHLO text through `dynhlo.parse_stablehlo` and `dynhlo.compile`
  (`backend="cpu"`, `reference=False` and `True`), once per program (the module is bounded:
  one executable serves every size); compile seconds (parse included) recorded.
- XLA: the same stored module made static at each size and compiled by XLA's CPU client with
  jax.jit's compile options (bench/xla_stored.py: what jax.jit compiles when it calls the
  exported program with concrete arguments), once per size; compile seconds recorded.
- per size: each way's output checked against the stored reference outputs (jax.jit's at
  export time, or eager PyTorch's for the HuggingFace models) with the tolerance
  tests/frontends/test_real_libraries.py uses (tests/support/reallibs_data.py TOLERANCES),
  and its warm call (median, NumPy arguments for dynhlo, arguments already on the device for
  XLA, results ready; dynhlo compiled and XLA measured in turns,
  bench/timing.paired_warm_ms). A way whose outputs miss the tolerance is recorded with
  the failure (`*_error`) and its ratio is not counted as a speed (marked WRONG in the
  table, left out of the median and the plot); where XLA refuses the module at a size,
  `xla_error` says why.
"""

from __future__ import annotations

import warnings

import numpy as np

import dynhlo
from timing import paired_warm_ms, warm_ms
from xla_stored import XlaProgram


def names(only: list[str] | None) -> list[str]:
    """The stored programs, or those of them named in `only`."""
    from tests.support.reallibs_data import MANIFEST
    return [n for n in MANIFEST if not only or n in only]


def _compile(text: str, reference: bool):
    import time
    start = time.perf_counter()
    exe = dynhlo.compile(dynhlo.parse_stablehlo(text), backend="cpu", reference=reference)
    return exe, time.perf_counter() - start


def _leaves(out) -> list[np.ndarray]:
    return [np.asarray(o) for o in (out if isinstance(out, tuple) else [out])]


def _checked(name: str, got: list, expected: list) -> tuple[float | None, str | None]:
    """(largest absolute error, None) when within the program's tolerance, else
    (None, the first line of the failure)."""
    from tests.support.reallibs_data import check_outputs
    try:
        return check_outputs(name, got, expected), None
    except AssertionError as exc:
        return None, (str(exc).strip().splitlines() or ["mismatch"])[0][:200]


def program_rows(name: str, budget: float, threads: str) -> list[dict]:
    """One row per stored size of program `name` (see the module docstring); a program
    dynhlo refuses gives one row with `refused`."""
    from tests.support.reallibs_data import MANIFEST, case, module_text
    entry = MANIFEST[name]
    text = module_text(name)
    base = {"program": name, "threads": threads, "library": entry["library"],
            "dim": entry["dim"], "bound": entry["bound"]}
    try:
        compiled, compiled_s = _compile(text, False)
        reference, reference_s = _compile(text, True)
    except dynhlo.DynHloError as exc:
        return [{**base, "refused": f"{type(exc).__name__}: {str(exc).splitlines()[0]}"}]
    rows = []
    for size in entry["sizes"]:
        args, expected = case(name, size)
        row = {**base, "size": size, "compiled_compile_s": compiled_s,
               "reference_compile_s": reference_s}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)   # masked lanes (reference)
            for way, exe in (("compiled", compiled), ("reference", reference)):
                row[f"{way}_max_abs_err"], row[f"{way}_error"] = _checked(
                    name, _leaves(exe(*args)), expected)
            # (the compiled warm call is measured in turns with XLA's, below)
            row["reference_warm_ms"] = warm_ms(lambda: reference(*args), budget)
        try:
            xla = XlaProgram(text, args, expected)
        except Exception as exc:   # jaxlib's refinement or compile refused: say so, go on
            row["xla_max_abs_err"], row["xla_error"] = None, \
                f"XLA failed: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
            row["compiled_warm_ms"] = warm_ms(lambda: compiled(*args), budget)
            rows.append(row)
            continue
        row["xla_compile_s"] = xla.compile_s
        row["xla_max_abs_err"], row["xla_error"] = _checked(name, xla(), expected)
        row["compiled_warm_ms"], row["xla_warm_ms"] = paired_warm_ms(
            [lambda: compiled(*args), xla.run], budget)
        row["compiled_vs_xla"] = row["compiled_warm_ms"] / row["xla_warm_ms"]
        rows.append(row)
    return rows

