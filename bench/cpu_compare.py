"""dynhlo's CPU backend (compiled and reference) against jax.jit / XLA on the CPU, on one CPU
and on all CPUs.

Each measurement runs in a process set up before NumPy, OpenBLAS, llvmlite or jaxlib load
(bench/cpu_threads.py), once per mode, each mode's rows marked with `threads`:

- `one`: the process pinned to one CPU (`os.sched_setaffinity`; `--cpu N`, default the first
  allowed), OMP/OpenBLAS/MKL threads = 1, XLA_FLAGS `--xla_cpu_multi_thread_eigen=false
  intra_op_parallelism_threads=1`. The pinning holds every way to one core: the flags alone
  leave jax 0.10.2's CPU dot on every core. Compiles are pinned too (dynhlo's parallel kernel
  compiles and XLA's share the one CPU), so first calls and the stream are one-CPU numbers.
- `all`: no pinning, OMP/OpenBLAS/MKL threads = the number of allowed CPUs, XLA's default
  threading.

`--threads both` (the default) runs each mode in a child process of its own and merges them;
`--threads one` or `all` measures in this process. The CPU set, environment, XLA flags and the
load average before and after are recorded per mode under `threads` in the JSON.

Parts (`--parts`, default all three):

- `warm`: each workload of bench/workloads.py at n = 16, 128, 512: the first call (compile +
  run; dynhlo's kernel cache in a fresh directory, so nothing is reused from an earlier run)
  and the warm call (median), dynhlo compiled, dynhlo reference and jax.jit of the workload's
  JAX function (dynhlo compiled and jax.jit measured in turns, bench/timing.paired_warm_ms).
- `stream`: the serving stream: 100 requests at random sizes n (seed 27; n uniform in 1 ..
  min(bound, STREAM_MAX)), answered one after the other, compiles included, each way in a
  fresh process (empty kernel cache, empty jax caches; each runtime started before the
  stream's clock: jax's CPU client, dynhlo's native routines, compiled into the empty cache
  and timed apart as `dynhlo_runtime_start_s`): dynhlo compiled (one compile, then
  every request at its own size), jax.jit per size (a compile at each new n) and jax.jit with
  power-of-two buckets (the dynamic arguments padded with zero rows to the next power of two,
  a compile per new bucket, the result's first n rows). Reported per workload: the stream's
  total seconds, compiles, the median and slowest request; outputs of the first requests are
  compared between the ways (the bucketed ones only where rows are independent: padding rows
  changes attention over them, so for attention and the transformer those are timing only).
- `reallibs`: the stored real-library programs of tests/data/reallibs at each stored size:
  dynhlo compiled and reference warm calls against XLA's compile of the same stored module
  at that size (jax.jit's program; bench/cpu_reallibs.py and bench/xla_stored.py say exactly
  what is measured), every output checked against the stored reference with the tolerance
  of tests/frontends/test_real_libraries.py; the compiled/XLA ratio per program and size and
  its median per mode.

`--only NAME ...` selects workloads and real-library programs by name. `--quick` shortens
every timing budget (0.3 s per measurement instead of 1.5). Results:
bench/results/cpu_compare.json, a Markdown table on stdout, and plots (cpu_compare.png,
cpu_compare_reallibs.png, cpu_compare_stream.png) when matplotlib is importable.

    python bench/cpu_compare.py [--quick] [--only NAME ...] [--parts warm stream reallibs]
                                [--threads both|one|all] [--cpu N] [--requests N]
                                [--out FILE]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import cpu_threads  # noqa: E402

# before NumPy and the rest: `--threads one|all` sets this process up (None: the parent of
# one child per mode, which measures nothing itself)
SETUP = cpu_threads.from_argv(sys.argv)

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import cpu_compare_report  # noqa: E402
import dynhlo  # noqa: E402
import report  # noqa: E402
from timing import paired_warm_ms, warm_ms  # noqa: E402
from workloads import workloads  # noqa: E402

SIZES = (16, 128, 512)
STREAM_SEED = 27
STREAM_REQUESTS = 100
STREAM_MAX = {"transformer_48": 512, "attention": 1024}   # others: 4096 rows at most
STREAM_WAYS = ("dynhlo", "jax_per_size", "jax_buckets")
ROW_INDEPENDENT = {"layernorm_residual", "mlp", "softmax_rows"}
CHECKED = 5   # requests whose outputs are compared between the ways


def arguments(w, n: int) -> list:
    gen = np.random.default_rng(0)
    out = []
    for k, shape in enumerate(w.shapes(n)):
        scale = 1.0 if k < w.dynamic else 1 / np.sqrt(shape[0])
        out.append((gen.standard_normal(shape) * scale).astype(np.float32))
    return out


def dynhlo_row(text: str, args: list, reference: bool) -> tuple:
    """(first call ms: compile and run, the warm call, its output)."""
    start = time.perf_counter()
    exe = dynhlo.compile(text, backend="cpu", reference=reference)
    out = exe(*args)
    first = (time.perf_counter() - start) * 1e3
    return first, lambda: exe(*args), np.asarray(out)


def jax_row(fn, args: list) -> tuple:
    """(first call ms: jit, compile and run, the warm call, its output); the warm call
    runs in jax.default_matmul_precision("highest"), as the first did."""
    import jax
    jargs = [jax.device_put(a) for a in args]
    with jax.default_matmul_precision("highest"):
        start = time.perf_counter()
        jitted = jax.jit(fn)
        out = jitted(*jargs).block_until_ready()
        first = (time.perf_counter() - start) * 1e3
    return first, lambda: jitted(*jargs).block_until_ready(), np.asarray(out)


def parser() -> argparse.ArgumentParser:
    """The command line (module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="shorter timing budgets")
    p.add_argument("--only", nargs="*", help="workload and real-library program names")
    p.add_argument("--parts", nargs="*", choices=tuple(cpu_compare_report.SECTIONS),
                   default=list(cpu_compare_report.SECTIONS), help="default: all; a part "
                   "not run keeps its section of the existing results file")
    p.add_argument("--threads", choices=("both",) + cpu_threads.MODES, default="both",
                   help="one: pinned to one CPU, one thread; all: every CPU; both "
                   "(default): each in a child process")
    p.add_argument("--cpu", type=int, help="the CPU of --threads one (default: the first "
                   "allowed)")
    p.add_argument("--requests", type=int, default=STREAM_REQUESTS,
                   help=f"requests of the serving stream (default {STREAM_REQUESTS})")
    p.add_argument("--out", help="default: bench/results/cpu_compare.json")
    p.add_argument("--stream-child", nargs=4, help=argparse.SUPPRESS)
    p.add_argument("--child-out", help=argparse.SUPPRESS)
    return p


def main() -> None:
    opts = parser().parse_args()
    if opts.stream_child:
        stream_child(*opts.stream_child)
        return
    modes = cpu_threads.MODES if opts.threads == "both" else (opts.threads,)
    if opts.child_out:
        Path(opts.child_out).write_text(json.dumps(measure(opts), default=float))
        return
    measured = {}
    for mode in modes:
        if SETUP is not None and SETUP["threads"] == mode:
            measured[mode] = measure(opts)
        else:
            measured[mode] = child(opts, mode)
    out = Path(opts.out) if opts.out else report.RESULTS / "cpu_compare.json"
    earlier = json.loads(out.read_text()) if out.exists() else {}
    data = cpu_compare_report.merge(earlier, measured, opts.parts)
    print(cpu_compare_report.markdown(data))
    report.save("cpu_compare", data, plot=cpu_compare_report.plot, out=opts.out)


def child_args(opts, mode: str) -> list[str]:
    """The command line of the child process that measures `mode` (the parts, names and
    budgets of this one)."""
    args = ["--threads", mode, "--parts", *opts.parts, "--requests", str(opts.requests)]
    if opts.quick:
        args.append("--quick")
    if opts.only:
        args += ["--only", *opts.only]
    if mode == "one" and opts.cpu is not None:
        args += ["--cpu", str(opts.cpu)]
    return args


def child(opts, mode: str) -> dict:
    """Measure `mode` in a child process set up for it from its start; its rows print as
    they come."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{mode}.json"
        proc = subprocess.run([sys.executable, __file__, *child_args(opts, mode),
                               "--child-out", str(path)])
        if proc.returncode:
            raise SystemExit(f"cpu_compare: the --threads {mode} process failed "
                             f"(exit {proc.returncode})")
        return json.loads(path.read_text())


def measure(opts) -> dict:
    """This process's mode (set up at import): its setup and the sections of the parts run."""
    if SETUP is None:
        raise SystemExit("cpu_compare: measuring needs --threads one or all at the start")
    budget = 0.3 if opts.quick else 1.5
    os.environ["DYNHLO_CACHE_DIR"] = tempfile.mkdtemp(prefix="dynhlo-cpu-bench-")
    print(f"threads {SETUP['threads']}: CPUs {SETUP['pinned_to']}", flush=True)
    setup = {**SETUP, "load_before": os.getloadavg()[0]}
    out = {}
    if "warm" in opts.parts:
        out["rows"] = warm_rows(opts, budget)
    if "stream" in opts.parts:
        out["stream"] = stream_rows(opts)
    if "reallibs" in opts.parts:
        out["reallibs"] = reallib_rows(opts, budget)
    setup["load_after"] = os.getloadavg()[0]
    return {"setup": setup, **out}


def reallib_rows(opts, budget: float) -> list:
    import cpu_reallibs
    rows = []
    for name in cpu_reallibs.names(opts.only):
        for row in cpu_reallibs.program_rows(name, budget, SETUP["threads"]):
            rows.append(row)
            print(json.dumps({k: round(v, 4) if isinstance(v, float) else v
                              for k, v in row.items()}), flush=True)
    return rows


def warm_rows(opts, budget: float) -> list:
    import jax
    rows = []
    for name, w in workloads().items():
        if opts.only and name not in opts.only:
            continue
        for n in SIZES:
            args = arguments(w, n)
            c_first, c_call, c_out = dynhlo_row(w.hlo, args, False)
            r_first, r_call, r_out = dynhlo_row(w.hlo, args, True)
            j_first, j_call, j_out = jax_row(w.jax_fn, args)
            r_warm = warm_ms(r_call, budget)
            # (jit's cache key holds the precision: the warm calls run in it)
            with jax.default_matmul_precision("highest"):
                c_warm, j_warm = paired_warm_ms([c_call, j_call], budget)
            scale = max(1.0, float(np.nanmax(np.abs(j_out))))
            row = {"workload": name, "n": n, "threads": SETUP["threads"],
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
    runtime_s = 0.0
    if way == "dynhlo":
        os.environ["DYNHLO_CACHE_DIR"] = tempfile.mkdtemp(prefix="dynhlo-cpu-stream-")
        # the runtime's start, as jax's client start below: the native routines every
        # compiled module calls (native_routines.py), compiled once per host into the
        # cache (here the fresh one: compiled) and linked once per process; timed apart
        from dynhlo.backends.cpu.compiled.native_routines import _routines
        start = time.perf_counter()
        _routines()
        runtime_s = time.perf_counter() - start
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
    print(json.dumps({"times": times, "compiles": compiles, "runtime_s": runtime_s,
                      "cpus": cpu_threads.allowed_cpus()}))


def stream_rows(opts) -> list:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, w in workloads().items():
            if opts.only and name not in opts.only:
                continue
            sizes = stream_sizes(w, opts.requests)
            row = {"workload": name, "threads": SETUP["threads"],
                   "requests": opts.requests, "seed": STREAM_SEED,
                   "max_n": min(w.bound, STREAM_MAX.get(name, 4096)),
                   "distinct_sizes": len(set(sizes)),
                   "buckets": len({_bucket(n) for n in sizes})}
            outs = {}
            for way in STREAM_WAYS:
                path = f"{tmp}/{name}_{way}.npz"
                proc = subprocess.run([sys.executable, __file__, "--stream-child", name, way,
                                       str(opts.requests), path,
                                       *cpu_threads.argv_of(SETUP)],
                                      capture_output=True, text=True)
                if proc.returncode:
                    raise SystemExit(f"{name} {way}: the stream process failed:\n"
                                     f"{proc.stderr[-3000:]}")
                found = json.loads(proc.stdout.splitlines()[-1])
                times = found["times"]
                row[f"{way}_total_s"] = sum(times)
                row[f"{way}_compiles"] = found["compiles"]
                if way == "dynhlo":   # (not in the total: as jax's client start)
                    row["dynhlo_runtime_start_s"] = found["runtime_s"]
                row[f"{way}_cpus"] = found["cpus"]   # where it ran: pinned or not
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


if __name__ == "__main__":
    main()
