"""dynhlo's CPU backend (compiled and reference) against jax.jit on the CPU, one BLAS thread.

For each workload of bench/workloads.py at n = 16, 128, 512: the first call
(compile + run; dynhlo's kernel cache in a fresh directory, so nothing is reused from an
earlier run) and the warm call (median). Results: bench/results/cpu_compare.json (and a plot
when matplotlib is importable).

The serving stream (`stream`): 100 requests at random sizes n (seed 27; n uniform in 1 ..
min(bound, STREAM_MAX)), answered one after the other, compiles included, each way in a
fresh process (empty kernel cache, empty jax caches): dynhlo compiled (one compile, then
every request at its own size), jax.jit per size (a compile at each new n) and jax.jit with
power-of-two buckets (the dynamic arguments padded with zero rows to the next power of two,
a compile per new bucket, the result's first n rows). Reported per workload: the stream's
total seconds, compiles, the median and slowest request; outputs of the first requests are
compared between the ways (the bucketed ones only where rows are independent: padding rows
changes attention over them, so for attention and the transformer those are timing only).
Results: the `stream` section of the same JSON (and cpu_compare_stream.png).

    python bench/cpu_compare.py [--quick] [--only NAME ...] [--parts warm stream]
                                [--requests N] [--out FILE]
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
import subprocess  # noqa: E402
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
STREAM_SEED = 27
STREAM_REQUESTS = 100
STREAM_MAX = {"transformer_48": 512, "attention": 1024}   # others: 4096 rows at most
STREAM_WAYS = ("dynhlo", "jax_per_size", "jax_buckets")
ROW_INDEPENDENT = {"layernorm_residual", "mlp", "softmax_rows"}
CHECKED = 5   # requests whose outputs are compared between the ways


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
    parser.add_argument("--parts", nargs="*", choices=("warm", "stream"),
                        default=["warm", "stream"], help="default: both; a part not run "
                        "keeps its section of the existing results file")
    parser.add_argument("--requests", type=int, default=STREAM_REQUESTS,
                        help=f"requests of the serving stream (default {STREAM_REQUESTS})")
    parser.add_argument("--out", help="default: bench/results/cpu_compare.json")
    parser.add_argument("--stream-child", nargs=4, help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.stream_child:
        stream_child(*opts.stream_child)
        return
    budget = 0.3 if opts.quick else 1.5
    os.environ["DYNHLO_CACHE_DIR"] = tempfile.mkdtemp(prefix="dynhlo-cpu-bench-")
    out = Path(opts.out) if opts.out else report.RESULTS / "cpu_compare.json"
    earlier = json.loads(out.read_text()) if out.exists() else {}
    data = {"device": "CPU, one thread"}
    if "warm" in opts.parts:
        data["rows"] = warm_rows(opts, budget)
    else:
        data["rows"] = earlier.get("rows", [])
        data["rows_from"] = earlier.get("rows_from") or _run_of(earlier)
    if "stream" in opts.parts:
        data["stream"] = stream_rows(opts)
    elif "stream" in earlier:
        data["stream"] = earlier["stream"]
        data["stream_from"] = earlier.get("stream_from") or _run_of(earlier)
    report.save("cpu_compare", data, plot=plot, out=opts.out)


def _run_of(data: dict) -> dict:
    """Where an earlier file's section was measured: its run's facts (or date and commit)."""
    run = data.get("run") or {}
    return {"date": run.get("date", data.get("date")),
            "commit": run.get("commit", data.get("commit"))}


def warm_rows(opts, budget: float) -> list:
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
    return rows


# -- the serving stream ---------------------------------------------------------------

def stream_sizes(w, requests: int) -> list[int]:
    """The stream's sizes: `requests` draws, uniform in 1 .. min(bound, STREAM_MAX)."""
    top = min(w.bound, STREAM_MAX.get(w.name, 4096))
    gen = np.random.default_rng(STREAM_SEED)
    return [int(n) for n in gen.integers(1, top + 1, size=requests)]


def stream_inputs(w, sizes: list[int]) -> list[list]:
    """Each request's arguments: its own dynamic inputs, the same weights."""
    weights = arguments(w, 1)[w.dynamic:]
    gen = np.random.default_rng(STREAM_SEED + 1)
    return [[gen.standard_normal(shape).astype(np.float32)
             for shape in w.shapes(n)[:w.dynamic]] + weights for n in sizes]


def _bucket(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def stream_child(name: str, way: str, requests: str, outputs: str) -> None:
    """In a fresh process: answer the stream one way; one JSON line on stdout (seconds per
    request, the first of them with its compile), the first outputs saved to `outputs`."""
    w = workloads()[name]
    sizes = stream_sizes(w, int(requests))
    inputs = stream_inputs(w, sizes)
    times, kept = [], {}
    if way == "dynhlo":
        os.environ["DYNHLO_CACHE_DIR"] = tempfile.mkdtemp(prefix="dynhlo-cpu-stream-")
        start = time.perf_counter()
        exe = dynhlo.compile(w.hlo, backend="cpu", reference=False)
        compiles = 1

        def answer(args, n):
            return np.asarray(exe(*args))
    else:
        import jax
        jax.numpy.zeros(1).block_until_ready()   # the CPU client's start: not a compile
        fn = w.jax_fn
        jitted = jax.jit(lambda *a: fn(*a))
        seen: set = set()
        compiles = 0
        start = time.perf_counter()

        def answer(args, n):
            nonlocal compiles
            if way == "jax_buckets":
                b = _bucket(n)
                args = [np.pad(a, [(0, b - n)] + [(0, 0)] * (a.ndim - 1))
                        for a in args[:w.dynamic]] + args[w.dynamic:]
            shape = args[0].shape[0]
            compiles += shape not in seen
            seen.add(shape)
            with jax.default_matmul_precision("highest"):
                out = np.asarray(jitted(*args))
            return out[:n]
    for k, (args, n) in enumerate(zip(inputs, sizes, strict=True)):
        out = answer(args, n)
        now = time.perf_counter()
        times.append(now - start)
        start = now
        if k < CHECKED:
            kept[f"r{k}"] = out
    np.savez(outputs, **kept)
    print(json.dumps({"times": times, "compiles": compiles}))


def stream_rows(opts) -> list:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, w in workloads().items():
            if opts.only and name not in opts.only:
                continue
            sizes = stream_sizes(w, opts.requests)
            row = {"workload": name, "requests": opts.requests, "seed": STREAM_SEED,
                   "max_n": min(w.bound, STREAM_MAX.get(name, 4096)),
                   "distinct_sizes": len(set(sizes)),
                   "buckets": len({_bucket(n) for n in sizes})}
            outs = {}
            for way in STREAM_WAYS:
                path = f"{tmp}/{name}_{way}.npz"
                proc = subprocess.run([sys.executable, __file__, "--stream-child", name, way,
                                       str(opts.requests), path], capture_output=True,
                                      text=True)
                if proc.returncode:
                    raise SystemExit(f"{name} {way}: the stream process failed:\n"
                                     f"{proc.stderr[-3000:]}")
                found = json.loads(proc.stdout.splitlines()[-1])
                times = found["times"]
                row[f"{way}_total_s"] = sum(times)
                row[f"{way}_compiles"] = found["compiles"]
                row[f"{way}_median_ms"] = statistics.median(times) * 1e3
                row[f"{way}_max_ms"] = max(times) * 1e3
                outs[way] = np.load(path)
            row["max_rel_diff_dynhlo_jax"] = _diff(outs["dynhlo"], outs["jax_per_size"])
            if name in ROW_INDEPENDENT:
                row["max_rel_diff_buckets_jax"] = _diff(outs["jax_buckets"],
                                                        outs["jax_per_size"])
            row["dynhlo_vs_jax_per_size"] = row["dynhlo_total_s"] / row["jax_per_size_total_s"]
            row["dynhlo_vs_jax_buckets"] = row["dynhlo_total_s"] / row["jax_buckets_total_s"]
            rows.append(row)
            print(json.dumps({k: round(v, 4) if isinstance(v, float) else v
                              for k, v in row.items()}), flush=True)
    return rows


def _diff(a, b) -> float:
    worst = 0.0
    for key in a.files:
        x, y = a[key], b[key]
        scale = max(1.0, float(np.nanmax(np.abs(y)))) if y.size else 1.0
        if x.size:
            worst = max(worst, float(np.nanmax(np.abs(x - y))) / scale)
    return worst


def plot(data: dict, path: Path) -> None:
    """Warm-call time per workload and n: compiled, reference, jax.jit; and the serving
    stream's total time per workload (cpu_compare_stream.png)."""
    rows = data["rows"]
    if rows:
        report.bars(path, "CPU backend against jax.jit, warm call",
                    [f"{r['workload']} n={r['n']}" for r in rows],
                    {"dynhlo compiled": [r["compiled_warm_ms"] for r in rows],
                     "dynhlo reference": [r["reference_warm_ms"] for r in rows],
                     "jax.jit": [r["jax_warm_ms"] for r in rows]}, "ms per call", log=True)
    stream = data.get("stream") or []
    if stream:
        report.bars(path.with_name(path.stem + "_stream.png"),
                    "serving stream of random sizes, compiles included (CPU, one thread)",
                    [f"{r['workload']} ({r['requests']} requests)" for r in stream],
                    {"dynhlo compiled": [r["dynhlo_total_s"] for r in stream],
                     "jax.jit per size": [r["jax_per_size_total_s"] for r in stream],
                     "jax.jit, power-of-two buckets": [r["jax_buckets_total_s"]
                                                       for r in stream]},
                    "seconds for the stream", log=True)


if __name__ == "__main__":
    main()
