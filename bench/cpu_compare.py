"""dynhlo's CPU backend (compiled and reference) against jax.jit on the CPU, one BLAS thread.

For each workload of bench/workloads.py at n = 16, 128, 512: the first call
(compile + run; dynhlo's kernel cache in a fresh directory, so nothing is reused from an
earlier run) and the warm call (median). Results: bench/results/cpu_compare.json (and a plot
when matplotlib is importable).

    python bench/cpu_compare.py [--quick] [--only NAME ...] [--out FILE]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                           " --xla_cpu_multi_thread_eigen=false"
                           " intra_op_parallelism_threads=1").strip()

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dynhlo  # noqa: E402
import report  # noqa: E402
from workloads import workloads  # noqa: E402

SIZES = (16, 128, 512)


def warm_ms(fn, budget_s: float) -> float:
    """Median of calls until `budget_s` has passed (at least 3)."""
    times, start = [], time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start < budget_s and len(times) < 200):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def arguments(w, n: int) -> list:
    gen = np.random.default_rng(0)
    out = []
    for k, shape in enumerate(w.shapes(n)):
        scale = 1.0 if k < w.dynamic else 1 / np.sqrt(shape[0])
        out.append((gen.standard_normal(shape) * scale).astype(np.float32))
    return out


def dynhlo_row(text: str, args: list, reference: bool, budget: float) -> tuple:
    start = time.perf_counter()
    exe = dynhlo.compile(text, backend="cpu", reference=reference)
    out = exe(*args)
    first = (time.perf_counter() - start) * 1e3
    return first, warm_ms(lambda: exe(*args), budget), np.asarray(out)


def jax_row(fn, args: list, budget: float) -> tuple:
    import jax
    jargs = [jax.device_put(a) for a in args]
    with jax.default_matmul_precision("highest"):
        start = time.perf_counter()
        jitted = jax.jit(fn)
        out = jitted(*jargs).block_until_ready()
        first = (time.perf_counter() - start) * 1e3
        warm = warm_ms(lambda: jitted(*jargs).block_until_ready(), budget)
    return first, warm, np.asarray(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter timing budgets")
    parser.add_argument("--only", nargs="*", help="workload names")
    parser.add_argument("--out", help="default: bench/results/cpu_compare.json")
    opts = parser.parse_args()
    budget = 0.3 if opts.quick else 1.5
    os.environ["DYNHLO_CACHE_DIR"] = tempfile.mkdtemp(prefix="dynhlo-cpu-bench-")
    rows = []
    for name, w in workloads().items():
        if opts.only and name not in opts.only:
            continue
        for n in SIZES:
            args = arguments(w, n)
            c_first, c_warm, c_out = dynhlo_row(w.hlo, args, False, budget)
            r_first, r_warm, r_out = dynhlo_row(w.hlo, args, True, budget)
            j_first, j_warm, j_out = jax_row(w.jax_fn, args, budget)
            scale = max(1.0, float(np.nanmax(np.abs(j_out))))
            row = {"workload": name, "n": n,
                   "compiled_first_ms": c_first, "compiled_warm_ms": c_warm,
                   "reference_first_ms": r_first, "reference_warm_ms": r_warm,
                   "jax_first_ms": j_first, "jax_warm_ms": j_warm,
                   "compiled_vs_jax": c_warm / j_warm,
                   "max_diff_compiled_reference": float(np.nanmax(np.abs(c_out - r_out))),
                   "max_rel_diff_vs_jax": float(np.nanmax(np.abs(c_out - j_out))) / scale}
            rows.append(row)
            print(json.dumps({k: round(v, 3) if isinstance(v, float) else v
                              for k, v in row.items()}), flush=True)
    report.save("cpu_compare", {"device": "CPU, one thread", "rows": rows}, plot=plot,
                out=opts.out)


def plot(data: dict, path: Path) -> None:
    """Warm-call time per workload and n: compiled, reference, jax.jit."""
    rows = data["rows"]
    report.bars(path, "CPU backend against jax.jit, warm call",
                [f"{r['workload']} n={r['n']}" for r in rows],
                {"dynhlo compiled": [r["compiled_warm_ms"] for r in rows],
                 "dynhlo reference": [r["reference_warm_ms"] for r in rows],
                 "jax.jit": [r["jax_warm_ms"] for r in rows]}, "ms per call", log=True)

if __name__ == "__main__":
    main()
