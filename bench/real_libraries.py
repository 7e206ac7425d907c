"""The real-library table: each stored program of tests/data/reallibs through dynhlo.

    python bench/real_libraries.py [--backend cpu|gpu] [--rounds 3] [NAME ...]

For each program (flax, equinox, haiku, keras 3, optax, plain JAX, HuggingFace through
from_torch; tests/support/reallibs_programs.py): the stored StableHLO text through
`dynhlo.parse_stablehlo` and `dynhlo.compile` (the compile time: the median of --rounds, after
one warm-up compile of another module so that jaxlib's MLIR is loaded), then one call at each
stored size against the stored jax.jit / eager PyTorch outputs, within the tolerance
tests/frontends/test_real_libraries.py uses. Prints a Markdown table: program, library and version,
variable size, sizes passed, largest absolute error, compile time; a refused program says
where it was refused. Writes bench/results/real_libraries.json (real_libraries_gpu.json for
--backend gpu) and a plot of the compile times when matplotlib is importable.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

import report  # noqa: E402


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
    parser.add_argument("--out", help="default: bench/results/real_libraries[_gpu].json")
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
    rows = []
    for name in names:
        r = measure(name, args.backend, args.rounds)
        print(row(name, r), flush=True)
        rows.append({"program": name, **r})
    device = "CPU" if args.backend == "cpu" else "GPU backend in Triton's interpreter"
    report.save("real_libraries" if args.backend == "cpu" else "real_libraries_gpu",
                {"backend": args.backend, "device": device, "rows": rows}, plot=_plot,
                out=args.out)


def _plot(data: dict, path: Path) -> None:
    """Compile time per program (parse_stablehlo + compile)."""
    rows = [r for r in data["rows"] if "compile_s" in r]
    report.bars(path, f"real-library programs: compile time ({data['device']})",
                [r["program"] for r in rows], {"compile s": [r["compile_s"] for r in rows]},
                "s")


if __name__ == "__main__":
    main()
