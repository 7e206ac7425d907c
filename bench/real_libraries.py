"""The real-library table: each stored program of tests/data/reallibs through dynhlo.

    python bench/real_libraries.py [--backend cpu|gpu] [--rounds 3] [NAME ...]

For each program (flax, equinox, haiku, keras 3, optax, plain JAX, HuggingFace through
from_torch; tests/support/reallibs_programs.py): the stored StableHLO text through
`dynhlo.parse_stablehlo` and `dynhlo.compile` (the compile time: the median of --rounds, after
one warm-up compile of another module so that jaxlib's MLIR is loaded), then one call at each
stored size against the stored jax.jit / eager PyTorch outputs, within the tolerance
tests/frontends/test_real_libraries.py uses. Prints a Markdown table: program, library and version,
variable size, sizes passed, largest absolute error, compile time; a refused program says
where it was refused.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def measure(name: str, backend: str, rounds: int) -> dict:
    """Compile time, sizes passed and largest error of one stored program."""
    import numpy as np

    import dynhlo
    from tests.support.reallibs_data import MANIFEST, case, check_outputs, module_text

    entry = MANIFEST[name]
    options = {"backend": backend}
    if backend == "gpu":
        import torch
        options["interpret"] = not torch.cuda.is_available()
    text = module_text(name)
    times, exe = [], None
    try:
        for _ in range(rounds):
            start = time.perf_counter()
            exe = dynhlo.compile(dynhlo.parse_stablehlo(text), **options)
            times.append(time.perf_counter() - start)
    except dynhlo.DynHloError as exc:
        return {"entry": entry, "refused": f"{type(exc).__name__}: {str(exc).splitlines()[0]}"}
    passed, worst, failures = [], 0.0, []
    for size in entry["sizes"]:
        args, expected = case(name, size)
        try:
            if backend == "gpu":
                import torch
                out = exe(*[torch.from_numpy(a) for a in args])
                out = [o.cpu().numpy() for o in (out if isinstance(out, tuple) else [out])]
            else:
                out = exe(*args)
                out = list(out) if isinstance(out, tuple) else [out]
            worst = max(worst, check_outputs(name, [np.asarray(o) for o in out], expected))
            passed.append(size)
        except (AssertionError, dynhlo.DynHloError) as exc:
            failures.append(f"{size}: {str(exc).splitlines()[0][:120]}")
    return {"entry": entry, "compile_s": statistics.median(times), "passed": passed,
            "worst": worst, "failures": failures}


def row(name: str, r: dict) -> str:
    e = r["entry"]
    program = f"{name} ({e['about']})"
    library = f"{e['library']} {e['version']}"
    size = f"{e['dim']} <= {e['bound']}"
    if "refused" in r:
        return f"| {program} | {library} | {size} | refused: {r['refused']} | - | - |"
    sizes = ", ".join(map(str, r["passed"])) or "none"
    if r["failures"]:
        sizes += " (failed: " + "; ".join(r["failures"]) + ")"
    return (f"| {program} | {library} | {size} | {sizes} | {r['worst']:.1e} | "
            f"{r['compile_s']:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--backend", default="cpu", choices=("cpu", "gpu"))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.backend == "gpu":
        from tests.support import gpucheck  # noqa: F401
    import warnings

    import dynhlo
    from tests.support.reallibs_data import MANIFEST, module_text
    warnings.simplefilter("ignore", RuntimeWarning)   # the interpreter's masked lanes
    dynhlo.parse_stablehlo(module_text("haiku_mlp"))  # load jaxlib's MLIR once, untimed
    names = args.names or list(MANIFEST)
    print("| program | library | variable size | sizes passed | max abs error | "
          "compile s |")
    print("|---|---|---|---|---:|---:|")
    for name in names:
        print(row(name, measure(name, args.backend, args.rounds)), flush=True)


if __name__ == "__main__":
    main()
