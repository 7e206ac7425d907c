"""AOT load time against compile time, for the shared models (and the large module).

    python bench/aot_load.py [--runs N] [--backend cpu|gpu] [--models DIR] [--write-results]

CPU: for each module, `compile` is dynhlo.compile(text) from HLO text (parse, verify,
inference, backend lowering); `load` is dynhlo.load(path) of the artifact that compile saved
(read, checksums, parse, inference, the backend's load_program); `load+run` adds the first call
at the smallest case size. Each figure is the median of N rounds after a warm-up round; compile
and load take turns within a round so that other load on the machine hits both alike. The benchmark
also checks that loading compiled nothing (dynhlo.stats) and that the loaded
executable gives the corpus's expected output. --write-results replaces the "## AOT load"
section of bench/RESULTS.md (other sections are left as they are).

GPU: compiling generates Triton kernels that are compiled at
their first launch, and Triton caches them on disk, so the GPU figures are taken in fresh
processes with an empty TRITON_CACHE_DIR: compile + first call against load + first call.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import dynhlo  # noqa: E402
from dynhlo import stats  # noqa: E402

MODELS = ROOT / "tests" / "data" / "models"
LARGE = ROOT / "tests" / "data" / "large" / "transformer_48_layers.hlo"
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "## AOT load"
CPU_HEADING = "### CPU backend"
GPU_HEADING = "### GPU backend (H200)"


def paired_median_ms(fns: list, runs: int) -> list[float]:
    """Median wall time in ms of each fn over `runs` rounds, after one warm-up round.

    The functions take turns within each round, so load from other processes on a shared
    machine falls on all of them alike instead of skewing one figure.
    """
    times: list[list[float]] = [[] for _ in fns]
    for round_ in range(runs + 1):
        for fn, bucket in zip(fns, times, strict=True):
            gc.collect()
            start = time.perf_counter()
            fn()
            if round_:
                bucket.append(time.perf_counter() - start)
    return [1e3 * statistics.median(t) for t in times]


def first_case(model: Path):
    """Arguments and expected outputs of a model's smallest case (None for the large one)."""
    if not (model / "cases.json").exists():
        return None
    meta = json.loads((model / "cases.json").read_text())
    arrays = np.load(model / "cases.npz")
    case = min(meta["cases"], key=lambda c: sum(c["sizes"].values()))
    return ([arrays[a["npz_key"]] for a in case["args"]],
            [arrays[e["npz_key"]] for e in case["outputs"]], case["rtol"], case["atol"])


def check_loaded(exe, case) -> None:
    if case is None:
        return
    args, expected, rtol, atol = case
    out = exe(*args)
    outs = out if isinstance(out, tuple) else (out,)
    for got, want in zip(outs, expected, strict=True):
        if not np.allclose(got, want, rtol=rtol, atol=atol):
            raise SystemExit("a loaded executable gave a wrong result")


def measure(name: str, text: str, case, backend: str, runs: int, workdir: Path) -> dict:
    """compile / load / load+run medians for one module, and the artifact's size."""
    path = workdir / f"{name}.dynhlo"
    dynhlo.compile(text, backend=backend).save(path)
    before = stats.snapshot()
    loads = [lambda: dynhlo.load(path)]
    if case:
        loads.append(lambda: dynhlo.load(path)(*case[0]))
    load_times = paired_median_ms(loads, runs)
    if stats.snapshot() != before:
        raise SystemExit(f"{name}: loading compiled something: {before} -> {stats.snapshot()}")
    compile_ms, load_ms = paired_median_ms(
        [lambda: dynhlo.compile(text, backend=backend), loads[0]], runs)
    first_ms = load_times[1] if case else None
    check_loaded(dynhlo.load(path), case)
    count = sum(1 for _ in dynhlo.parse_hlo(text).instructions())
    return {"name": name, "instructions": count, "bytes": path.stat().st_size,
            "compile_ms": compile_ms, "load_ms": load_ms, "first_ms": first_ms}


def modules(models: Path = MODELS, large: bool = True) -> list[tuple[str, str, object]]:
    """(name, HLO text, smallest case) of every corpus model, and the large module."""
    found = [(m.name, (m / "module.hlo").read_text(), first_case(m))
             for m in sorted(models.iterdir()) if (m / "module.hlo").exists()]
    if large and LARGE.exists():
        found.append((LARGE.stem, LARGE.read_text(), None))
    return found


def table(rows: list[dict]) -> list[str]:
    lines = ["| module | instructions | artifact bytes | compile ms | load ms | load+first "
             "call ms | compile / load |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        first = f"{r['first_ms']:.2f}" if r["first_ms"] is not None else "-"
        lines.append(f"| {r['name']} | {r['instructions']} | {r['bytes']} | "
                     f"{r['compile_ms']:.2f} | {r['load_ms']:.2f} | {first} | "
                     f"{r['compile_ms'] / r['load_ms']:.2f}x |")
    return lines


def command_line(opts) -> str:
    return (f"python bench/aot_load.py --runs {opts.runs}"
            + (f" --backend {opts.backend}" if opts.backend != "cpu" else "")
            + " --write-results")


def cpu_section(rows: list[dict], opts) -> str:
    return "\n".join([
        CPU_HEADING, "",
        f"Date: 2026-11-30. Command: `{command_line(opts)}`. Machine: 2-core CPU sandbox "
        f"(Python {platform.python_version()}, numpy {np.__version__}); medians of "
        f"{opts.runs} rounds after a warm-up round, compile and load taking turns within "
        "each round.", "",
        *table(rows), "",
        "compile = dynhlo.compile(text) from HLO text; load = dynhlo.load(path) of the saved "
        "artifact (read, checksums, parse, dynamic-size inference, load_program); loading "
        "compiled nothing (stats checked). On the CPU backend the program is the module "
        "itself: load and compile both parse and run dynamic-size inference, so load costs "
        "about the same as compile (plus reading and checksumming the file); single "
        "outliers of a few ms are other work on the shared 2 cores. The gap that matters "
        "is on the GPU backend (below), where compiling runs Triton and loading only reads "
        "cubins.", ""])


def write_block(heading: str, text: str, path: Path = RESULTS) -> None:
    """Replace the block under `heading` ('### ...' inside our '## AOT load' section), or add
    it at the end of the section; re-reads the file right before writing so that the other
    sections, written by other benchmarks, stay as they are."""
    lines = (path.read_text() if path.exists() else "# Benchmark results\n").splitlines()
    if SECTION not in (l.strip() for l in lines):
        lines += ["", SECTION, "", "AOT load time against compile time (bench/aot_load.py).", ""]
    top = [l.strip() for l in lines].index(SECTION)
    section_end = _next_heading(lines, top, ("# ", "## "))
    start = next((i for i in range(top, section_end) if lines[i].strip() == heading), None)
    if start is None:
        start = end = section_end
    else:
        end = _next_heading(lines, start, ("# ", "## ", "### "))
    block = text.rstrip("\n").splitlines() + ([""] if end < len(lines) else [])
    path.write_text("\n".join(_trim(lines[:start]) + [""] + block + lines[end:]) + "\n")


def _next_heading(lines: list[str], after: int, prefixes: tuple) -> int:
    return next((i for i in range(after + 1, len(lines)) if lines[i].startswith(prefixes)),
                len(lines))


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def main(argv: list[str] | None = None) -> None:
    """Measure every module, print the table, and optionally write it to RESULTS.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=31, help="timed runs per figure (median)")
    parser.add_argument("--backend", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--models", type=Path, default=MODELS,
                        help="the corpus folder (default: tests/data/models)")
    parser.add_argument("--write-results", action="store_true",
                        help=f"replace this backend's part of the '{SECTION}' section of "
                             "bench/RESULTS.md")
    parser.add_argument("--child", choices=("compile", "load"), help=argparse.SUPPRESS)
    parser.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    if opts.child:
        gpu_child(opts.child, opts.models, opts.workdir)
        return
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs, backend "
          f"{opts.backend}, median of {opts.runs}")
    if opts.backend == "gpu":
        rows = gpu_rows(opts)
        heading, text = GPU_HEADING, gpu_section(rows, opts)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            rows = []
            for name, text, case in modules(opts.models):
                rows.append(measure(name, text, case, opts.backend, opts.runs, Path(tmp)))
                print(table(rows[-1:])[-1], flush=True)
        heading, text = CPU_HEADING, cpu_section(rows, opts)
    if opts.write_results:
        write_block(heading, text)
        print(f"wrote '{heading}' in the '{SECTION}' section of {RESULTS}")


# -- GPU: fresh processes, empty Triton cache ------------------------------------------

def gpu_child(mode: str, models: Path, workdir: Path) -> None:
    """In a fresh process, after CUDA is up: time compile + first call (saving each artifact)
    or load + first call of every corpus model; one JSON line on stdout."""
    import torch
    warm = torch.ones(8, 8, device="cuda")
    (warm @ warm).sum().item()  # cuBLAS's handle: paid once per process, not per module
    _first_use(mode, workdir)
    report = {}
    for name, text, case in modules(models, large=False):
        path = workdir / f"{name}.dynhlo"
        start = time.perf_counter()
        exe = dynhlo.compile(text, backend="gpu") if mode == "compile" else dynhlo.load(path)
        exe(*case[0])
        torch.cuda.synchronize()
        ms = 1e3 * (time.perf_counter() - start)
        if mode == "compile":
            exe.save(path)
        check_loaded(exe, case)
        report[name] = {"ms": ms, "kernels": len(getattr(exe.program, "kernels", [])),
                        "bytes": path.stat().st_size}
    report["_stats"] = stats.snapshot()
    print(json.dumps(report))


WARMUP = """HloModule warmup
ENTRY main {
  a = f32[<=8,4]{1,0} parameter(0)
  ROOT e = f32[<=8,4]{1,0} exponential(a)
}
"""


def _first_use(mode: str, workdir: Path) -> None:
    """Compile or load and run a one-kernel module first, so that once-per-process costs
    (Triton's first compile, the first cubin loaded) fall on no corpus model."""
    path = workdir / "_warmup.dynhlo"
    exe = dynhlo.compile(WARMUP, backend="gpu") if mode == "compile" else dynhlo.load(path)
    exe(np.ones((3, 4), np.float32))
    if mode == "compile":
        exe.save(path)


def gpu_rows(opts) -> list[dict]:
    """Medians over `runs` pairs of fresh processes (compile, then load its artifacts)."""
    times: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(opts.runs):
            for mode in ("compile", "load"):
                report = _run_child(mode, opts.models, Path(tmp), Path(tmp) / f"t{run}{mode}")
                if mode == "load" and any(report["_stats"].values()):
                    raise SystemExit(f"loading compiled something: {report['_stats']}")
                for name, r in report.items():
                    if name != "_stats":
                        times.setdefault(name, {"compile": [], "load": []})[mode].append(r["ms"])
                        times[name].update(kernels=r["kernels"], bytes=r["bytes"])
    return [{"name": n, "kernels": t["kernels"], "bytes": t["bytes"],
             "compile_ms": statistics.median(t["compile"]),
             "load_ms": statistics.median(t["load"])} for n, t in times.items()]


def _run_child(mode: str, models: Path, workdir: Path, triton_cache: Path) -> dict:
    env = dict(os.environ, TRITON_CACHE_DIR=str(triton_cache))
    proc = subprocess.run([sys.executable, __file__, "--child", mode, "--models", str(models),
                           "--workdir", str(workdir)], env=env, capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"the {mode} process failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.splitlines()[-1])


def gpu_section(rows: list[dict], opts) -> str:
    lines = ["| module | kernels | artifact bytes | compile + first call ms | load + first "
             "call ms | compile / load |", "|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['name']} | {r['kernels']} | {r['bytes']} | {r['compile_ms']:.1f} | "
              f"{r['load_ms']:.2f} | {r['compile_ms'] / r['load_ms']:.0f}x |" for r in rows]
    return "\n".join([
        GPU_HEADING, "",
        f"Date: 2026-11-30. Command: `{command_line(opts)} --models <corpus>` on the "
        "device machine (one NVIDIA H200, 16 CPU cores; Python "
        f"{platform.python_version()}); medians of {opts.runs} pairs of fresh processes, "
        "each with an empty TRITON_CACHE_DIR, timed after CUDA, CuPy and cuBLAS are up and a "
        "one-kernel module was compiled (or loaded) and run.", "",
        *lines, "",
        "compile + first call: dynhlo.compile(text, backend='gpu') and the first call, which "
        "compiles the Triton kernels; load + first call: dynhlo.load of the artifact (cubins) "
        "and the first call; the load processes compiled nothing (stats checked) and every "
        "result matched the corpus. Not included: starting CUDA, importing CuPy and the "
        "first kernel of a fresh process (seconds, paid once per process, compiled or "
        "loaded alike). batched_matmul has no kernel (its dot runs on cuBLAS).", ""])


if __name__ == "__main__":
    main()
