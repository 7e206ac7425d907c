"""Writes tests/data/windows: programs whose windows are computed from a variable length at
run time (tests/support/window_programs.py), as the HLO module dynhlo.from_jax imports, with inputs
and jax.jit's outputs at each of the program's sizes, so that
tests/shapes/test_windows_computed_at_run_time.py checks them where jax is absent.

    PYTHONPATH=. python tools/gen_window_cases.py [name ...]

Each <name>.hlo is `from_jax(fn, spec, bounds={"l": BOUND}).module` printed; <name>.npz holds
`in<n>` and `out<n>_<k>` (the k-th output of jax.jit(fn) at length n).
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import numpy as np

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "data" / "windows"


def main(names: list[str]) -> None:
    sys.path.insert(0, str(REPO))
    import dynhlo
    from tests.support import window_programs as programs
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (fn, spec, sizes) in programs.PROGRAMS.items():
        if names and name not in names:
            continue
        exe = dynhlo.from_jax(fn, spec, bounds={"l": programs.BOUND},
                              constraints=programs.constraints(name))
        (OUT / f"{name}.hlo").write_text(exe.module.to_text())
        arrays = {}
        for n in sizes:
            x = programs.inputs(name, n)
            outs = jax.jit(fn)(x)
            outs = outs if isinstance(outs, tuple) else (outs,)
            arrays[f"in{n}"] = x
            for k, out in enumerate(outs):
                arrays[f"out{n}_{k}"] = np.asarray(out)
        np.savez_compressed(OUT / f"{name}.npz", **arrays)
        print(f"wrote {name}: sizes {sizes}")


if __name__ == "__main__":
    main(sys.argv[1:])
