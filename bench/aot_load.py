"""AOT load time against compile time: the corpus, the large module, a 4.2M-parameter model.

    python bench/aot_load.py [corpus] [weights] [compiled] [payload] [--runs N]
                             [--backend cpu|gpu]
                             [--models DIR] [--target sm_90]

corpus, CPU: for each module, `compile` is dynhlo.compile(text) from HLO text (parse, verify,
inference, backend lowering); `load` is dynhlo.load(path) of the artifact that compile saved
(read, checksums, parse, inference, the backend's load_program); `load+run` adds the first
call at the smallest case size. Each figure is the median of N rounds after a warm-up round;
compile and load take turns within a round so that other load on the machine hits both alike.
The benchmark also checks that loading compiled nothing (dynhlo.stats) and that the loaded
executable gives the corpus's expected output.

corpus, GPU: compiling generates Triton kernels that are compiled at their first launch, and
Triton caches them on disk, so the GPU figures are taken in fresh processes with an empty
TRITON_CACHE_DIR: compile + first call against load + first call.

weights: 4 dense layers of 1024 x 1024 with biases and tanh (4,198,400 float32 parameters,
16.8 MB), closed over by the function given to dynhlo.from_jax, so they are constants of the
module. Reported: from_jax (export, import, compile) and save; the artifact's bytes against
the weights' bytes; `load` warm (dynhlo.load in this process, median of N after a warm-up)
and cold (dynhlo.load in a fresh process, after `import dynhlo`, median of N processes; the
file is in the page cache either way), each with the first call at n = 5 checked against
jax.jit; and for comparison the module as decimal text and parse_hlo of that text. With
`--backend gpu` the kernels are cross-compiled for --target (Triton needs no GPU to
compile); on a machine without CUDA the load is read_artifact and the stored module with its
constants (the part of a load the format decides; launching the cubins needs the GPU).

compiled (CPU): the 48-layer transformer (tests/data/large, bounded) on the compiled CPU
path (reference=False), whose artifact holds its kernels' object code. Reported: compile from
the module with an empty kernel cache, save, the artifact's bytes and its object code; `load`
cold (a fresh process, median of N; the child makes the kernel compiler raise, so a load
that compiled anything fails the benchmark) and warm (in this process, its kernels already
linked: parse, inference and the plan only), with their parts (read and checks; the stored
module parsed and verified; inference and the pipeline; the stored plan checked, and for
comparison planning again), and the first call at n = 128 checked against the reference.

payload (GPU, no GPU needed): the 48-layer transformer (tests/data/large, bounded)
cross-compiled for --target, loaded in this process with the device check and the driver's
cubin loader stood in for (everything else is the real load: read and checks, the stored
module, inference, the plan read back and checked, its launch list, the graph program and
the cubin table). The same file is also loaded with its payload rewritten as GPU payload
format 3 wrote it (the graph program stored as data beside the plan:
tests/support/gpu_payload3.py), in turns, so that the figure compares reading that second
program description with building it from the plan. Reported: medians of the whole load and
of the payload stage (aot.load_payload), the payload's JSON bytes, the graph's launches.

Writes bench/results/aot_load.json (aot_load_gpu.json for --backend gpu) and a plot of
compile against load when matplotlib is importable.
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
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402

import dynhlo  # noqa: E402
import report  # noqa: E402
from dynhlo import stats  # noqa: E402
from dynhlo.runtime.artifact import read_artifact  # noqa: E402
from dynhlo.runtime.loader import stored_module  # noqa: E402

MODELS = ROOT / "tests" / "data" / "models"
LARGE = ROOT / "tests" / "data" / "large" / "transformer_48_layers.hlo"
BOUNDED = ROOT / "tests" / "data" / "large" / "transformer_48_layers_bounded.hlo"
PARTS = ("corpus", "weights", "compiled", "payload")


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


def main(argv: list[str] | None = None) -> None:
    """Measure the chosen parts, print their tables, write bench/results/aot_load*.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", help=f"any of {', '.join(PARTS)} (default: all)")
    parser.add_argument("--runs", type=int, default=None,
                        help="timed runs per figure (median; default 31 for the CPU corpus, "
                             "3 GPU process pairs, 5 for the weights)")
    parser.add_argument("--backend", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--models", type=Path, default=MODELS,
                        help="the corpus folder (default: tests/data/models)")
    parser.add_argument("--target", default="sm_90",
                        help="weights with --backend gpu: the cross-compile's target")
    parser.add_argument("--out", help="default: bench/results/aot_load[_gpu].json")
    parser.add_argument("--child", choices=("compile", "load"), help=argparse.SUPPRESS)
    parser.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    if opts.child:
        gpu_child(opts.child, opts.models, opts.workdir)
        return
    parts = opts.parts or list(PARTS)
    for part in parts:
        if part not in PARTS:
            parser.error(f"unknown part {part!r}: choose from {', '.join(PARTS)}")
    print(f"Python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} "
          f"CPUs, backend {opts.backend}")
    data: dict = {"backend": opts.backend}
    if "corpus" in parts:
        if opts.backend == "gpu":
            opts.runs_corpus = opts.runs or 3
            rows = gpu_rows(opts)
            print("\n".join(gpu_table(rows)))
        else:
            runs = opts.runs or 31
            with tempfile.TemporaryDirectory() as tmp:
                rows = []
                for name, text, case in modules(opts.models):
                    rows.append(measure(name, text, case, opts.backend, runs, Path(tmp)))
                    print(table(rows[-1:])[-1], flush=True)
        data["corpus"] = rows
    if "weights" in parts:
        data["weights"] = weights_row(opts.backend, opts.target, opts.runs or 5)
    if "compiled" in parts and opts.backend == "cpu":
        data["compiled_cpu"] = compiled_row(opts.runs or 7)
    if "payload" in parts and opts.backend == "gpu":
        data["payload"] = payload_row(opts.target, opts.runs or 21)
    name = "aot_load" if opts.backend == "cpu" else "aot_load_gpu"
    _keep_earlier(data, Path(opts.out) if opts.out else report.RESULTS / f"{name}.json")
    report.save(name, data, plot=plot if "corpus" in data else None, out=opts.out)


def _keep_earlier(data: dict, path: Path) -> None:
    """The sections of the parts not run now, from the existing results file, each with
    `<section>_from`: the date and commit of the run that measured it."""
    if not path.exists():
        return
    earlier = json.loads(path.read_text())
    run = earlier.get("run") or {}
    for section in ("corpus", "weights", "compiled_cpu", "payload"):
        if section in earlier and section not in data:
            data[section] = earlier[section]
            data[f"{section}_from"] = earlier.get(f"{section}_from") or {
                "date": run.get("date"), "commit": run.get("commit")}


def plot(data: dict, path: Path) -> None:
    """Compile against load (each with its first call where measured), per corpus module."""
    rows = data["corpus"]
    report.bars(path, f"compile against load ({data['backend']} backend)",
                [r["name"] for r in rows],
                {"compile": [r["compile_ms"] for r in rows],
                 "load": [r["load_ms"] for r in rows]}, "ms", log=True)


# -- GPU: fresh processes, empty Triton cache ------------------------------------------

def gpu_child(mode: str, models: Path, workdir: Path) -> None:
    """In a fresh process, after CUDA is up: time compile + first call (saving each artifact)
    or load + first call of every corpus model; one JSON line on stdout."""
    import torch
    warm = torch.ones(8, 8, device="cuda")
    (warm @ warm).sum().item()  # cuBLAS's handle: paid once per process, not per module
    _first_use(mode, workdir)
    found = {}
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
        found[name] = {"ms": ms, "kernels": len(getattr(exe.program, "kernels", [])),
                        "bytes": path.stat().st_size}
    found["_stats"] = stats.snapshot()
    print(json.dumps(found))


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
        for run in range(opts.runs_corpus):
            for mode in ("compile", "load"):
                found = _run_child(mode, opts.models, Path(tmp), Path(tmp) / f"t{run}{mode}")
                if mode == "load" and any(found["_stats"].values()):
                    raise SystemExit(f"loading compiled something: {found['_stats']}")
                for name, r in found.items():
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


def gpu_table(rows: list[dict]) -> list[str]:
    lines = ["| module | kernels | artifact bytes | compile + first call ms | load + first "
             "call ms | compile / load |", "|---|---:|---:|---:|---:|---:|"]
    return lines + [f"| {r['name']} | {r['kernels']} | {r['bytes']} | {r['compile_ms']:.1f} | "
                    f"{r['load_ms']:.2f} | {r['compile_ms'] / r['load_ms']:.0f}x |" for r in rows]


# -- weights: the artifact of a 4.2M-parameter model ------------------------------------

WIDTH, LAYERS, BOUND, N = 1024, 4, 64, 5

COLD = r"""
import sys, time
t0 = time.perf_counter()
import numpy as np, dynhlo
t1 = time.perf_counter()
exe = dynhlo.load(sys.argv[1])
t2 = time.perf_counter()
out = np.asarray(exe(np.load(sys.argv[2])))
t3 = time.perf_counter()
np.save(sys.argv[3], out)
print((t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3)
"""


def weights():
    rng = np.random.default_rng(0)
    ws = [(rng.standard_normal((WIDTH, WIDTH)) / 32).astype(np.float32) for _ in range(LAYERS)]
    bs = [rng.standard_normal(WIDTH).astype(np.float32) for _ in range(LAYERS)]
    return ws, bs


def model(ws, bs):
    import jax.numpy as jnp

    def f(x):
        for w, b in zip(ws, bs, strict=True):
            x = jnp.tanh(x @ w + b)
        return x
    return f


def median_ms(fn, runs: int) -> float:
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def cold_loads(path: Path, x: np.ndarray, want: np.ndarray, runs: int) -> list[float]:
    """[import ms, load ms, first call ms], medians over `runs` fresh processes."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        np.save(f"{tmp}/x.npy", x)
        for _ in range(runs):
            out = subprocess.run([sys.executable, "-c", COLD, str(path), f"{tmp}/x.npy",
                                  f"{tmp}/out.npy"], capture_output=True, text=True,
                                 check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
            rows.append([float(v) for v in out.stdout.split()])
            np.testing.assert_allclose(np.load(f"{tmp}/out.npy"), want, rtol=1e-4, atol=1e-4)
    return [statistics.median(col) for col in zip(*rows, strict=True)]


def weights_row(backend: str, target: str, runs: int) -> dict:
    """The 4.2M-parameter model: from_jax, save, artifact bytes, warm and cold load."""
    import jax
    ws, bs = weights()
    weight_bytes = sum(a.nbytes for a in ws + bs)
    options = {"target": target} if backend == "gpu" else {}
    start = time.perf_counter()
    exe = dynhlo.from_jax(model(ws, bs), f"f32[n,{WIDTH}]", bounds={"n": BOUND},
                          backend=backend, **options)
    from_jax_s = time.perf_counter() - start
    x = np.random.default_rng(1).standard_normal((N, WIDTH)).astype(np.float32)
    want = np.asarray(jax.jit(model(ws, bs))(x))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mlp.dynhlo"
        start = time.perf_counter()
        exe.save(path)
        save_ms = (time.perf_counter() - start) * 1e3
        size = path.stat().st_size
        print(f"backend {backend}: {weight_bytes / 4:,.0f} parameters, weights "
              f"{weight_bytes:,} bytes; from_jax {from_jax_s:.2f} s, save {save_ms:.1f} ms")
        print(f"artifact {size:,} bytes = {size / weight_bytes:.4f} x the weights")
        row = {"parameters": weight_bytes // 4, "weight_bytes": weight_bytes,
               "from_jax_s": from_jax_s, "save_ms": save_ms, "artifact_bytes": size}
        device = backend == "cpu" or _cuda()
        if device:
            loaded = dynhlo.load(path)
            np.testing.assert_allclose(np.asarray(loaded(x)), want, rtol=1e-4, atol=1e-4)
            warm = median_ms(lambda: dynhlo.load(path), runs)
            first = median_ms(lambda: np.asarray(dynhlo.load(path)(x)), runs)
            print(f"load warm {warm:.1f} ms (load + first call {first:.1f} ms)")
            imp, cold, call = cold_loads(path, x, want, runs)
            print(f"load cold {cold:.1f} ms (fresh process; import dynhlo {imp:.0f} ms before "
                  f"it, first call {call:.1f} ms after)")
            row.update(load_warm_ms=warm, load_first_call_ms=first, import_ms=imp,
                       load_cold_ms=cold, first_call_cold_ms=call)
        else:
            data = path.read_bytes()
            checks = median_ms(lambda: stored_module(read_artifact(
                Path(path).read_bytes())), runs)
            print(f"no CUDA here: read + checks + stored module with its constants "
                  f"{checks:.1f} ms (of {len(data):,} bytes); launching needs the GPU")
            row.update(read_checks_module_ms=checks)
        text = exe.module.to_text()
        parse = median_ms(lambda: dynhlo.parse_hlo(text), 1)
        print(f"for comparison, the module as decimal text: "
              f"{len(text):,} bytes, parse_hlo {parse / 1e3:.2f} s")
        row.update(decimal_text_bytes=len(text), decimal_text_parse_s=parse / 1e3)
    return row


# -- compiled CPU: the 48-layer transformer's artifact with its object code -------------

COMPILED_COLD = r"""
import sys, time
t0 = time.perf_counter()
import numpy as np, dynhlo
from dynhlo.backends.cpu.compiled import machine
def refuse(*args):
    raise SystemExit("loading the compiled CPU artifact compiled a kernel")
machine._compile_new = refuse
t1 = time.perf_counter()
exe = dynhlo.load(sys.argv[1])
t2 = time.perf_counter()
out = np.asarray(exe(*[np.load(f) for f in sys.argv[3:]]))
t3 = time.perf_counter()
np.save(sys.argv[2], out)
print((t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3)
"""


def transformer_args(module, n: int) -> list:
    """Arguments of the bounded transformer at n tokens (weights scaled by 1/sqrt(rows))."""
    gen = np.random.default_rng(0)
    out = []
    for p in module.entry.parameters:
        shape = tuple(n if d == 0 and p.shape.dynamic[0] else s
                      for d, s in enumerate(p.shape.dims))
        scale = 1.0 if p.parameter_number == 0 or len(shape) < 2 else 1 / np.sqrt(shape[0])
        out.append((gen.standard_normal(shape) * scale).astype(np.float32))
    return out


def compiled_row(runs: int, n: int = 128) -> dict:
    """Compile, save and load (cold and warm) of the compiled CPU transformer artifact."""
    text = BOUNDED.read_text()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        os.environ["DYNHLO_CACHE_DIR"] = str(tmp / "cache")   # an empty kernel cache
        start = time.perf_counter()
        exe = dynhlo.compile(text, backend="cpu", reference=False)
        compile_ms = (time.perf_counter() - start) * 1e3
        path = tmp / "transformer.dynhlo"
        start = time.perf_counter()
        exe.save(path)
        save_ms = (time.perf_counter() - start) * 1e3
        artifact = read_artifact(path.read_bytes())
        program = json.loads(artifact.sections["bucket0.program"])
        args = transformer_args(exe.module, n)
        want = np.asarray(dynhlo.compile(text, backend="cpu", reference=True)(*args))
        files = []
        for k, a in enumerate(args):
            files.append(str(tmp / f"a{k}.npy"))
            np.save(files[-1], a)
        cold = []
        for _ in range(runs):
            out = subprocess.run([sys.executable, "-c", COMPILED_COLD, str(path),
                                  str(tmp / "out.npy"), *files], capture_output=True,
                                 text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
            if out.returncode:
                raise SystemExit(f"the cold load failed:\n{out.stderr[-3000:]}")
            cold.append([float(v) for v in out.stdout.split()])
            np.testing.assert_allclose(np.load(tmp / "out.npy"), want, rtol=1e-5, atol=1e-5)
        imp, cold_ms, call_ms = (statistics.median(c) for c in zip(*cold, strict=True))
        data = path.read_bytes()
        warm_ms, checks_ms, module_ms = paired_median_ms(
            [lambda: dynhlo.load(path), lambda: read_artifact(data),
             lambda: stored_module(read_artifact(data))], runs)
        infer_ms, plan_ms, check_ms = load_stages(stored_module(read_artifact(data)), runs)
    row = {"module": BOUNDED.name, "kernels": len(program["kernels"]),
           "object_bytes": sum(k["length"] for k in program["kernels"]),
           "artifact_bytes": len(data), "compile_cold_cache_ms": compile_ms,
           "save_ms": save_ms, "import_ms": imp, "load_cold_ms": cold_ms,
           "first_call_cold_ms": call_ms, "n": n, "load_warm_ms": warm_ms,
           "read_checks_ms": checks_ms, "read_checks_parse_verify_ms": module_ms,
           "infer_pipeline_ms": infer_ms, "plan_ms": plan_ms,
           "stored_plan": "plan" in program, "plan_check_ms": check_ms}
    print(f"compiled CPU, {BOUNDED.name}: {row['kernels']} kernels, "
          f"{row['object_bytes']:,} bytes of object code in {len(data):,}; compile "
          f"(empty kernel cache) {compile_ms:.0f} ms, save {save_ms:.0f} ms")
    print(f"load cold {cold_ms:.0f} ms (fresh process, nothing compiled; import {imp:.0f} ms "
          f"before, first call at n={n} {call_ms:.1f} ms after); load warm {warm_ms:.0f} ms, "
          f"of which read + checks {checks_ms:.1f} ms, + parse and verify the module "
          f"{module_ms:.0f} ms; then inference and the pipeline {infer_ms:.0f} ms; the "
          f"stored plan checked against the module (kernel forms analysed, no IR) "
          f"{check_ms:.0f} ms, where planning again would take {plan_ms:.0f} ms; the steps "
          "and linking the objects are the rest")
    return row


def load_stages(module, runs: int) -> tuple[float, float, float]:
    """Medians in ms of stages of a compiled CPU load: inference with the backend's
    pipeline; planning the computation (its kernels analysed and keyed), which a load of an
    artifact with a stored plan skips; and checking that stored plan against the module
    (aot.rebuild_plan: its kernels' groups rebuilt, analysed and keyed)."""
    from dynhlo.backends import get
    from dynhlo.backends.cpu.compiled.aot import ArtifactEvaluator, plan_data, rebuild_plan
    from dynhlo.backends.plan.fusion import kernels_of, plan_computation
    from dynhlo.compiler import lower
    from dynhlo.shapes.dynamic import Inference
    lowered = []
    infer_ms = paired_median_ms([lambda: lowered.append(lower(module, get("cpu")))], runs)[0]
    lowered_module, info = lowered[-1]
    evaluator = ArtifactEvaluator(Inference(lowered_module))
    rules = evaluator._rules
    plan_ms = paired_median_ms([lambda: kernels_of(plan_computation(info, rules))], runs)[0]
    data = plan_data(plan_computation(info, rules))
    check_ms = paired_median_ms([lambda: rebuild_plan(data, info, evaluator)], runs)[0]
    return infer_ms, plan_ms, check_ms


def _cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


# -- GPU payload: the graph program built from the plan against stored as data ---------

def payload_row(target: str, runs: int) -> dict:
    """The transformer's GPU artifact loaded up to the launch (see the module doc), as
    written now (aot.FORMAT) and as format 3 wrote it, in turns: medians in ms."""
    import torch
    from dynhlo.backends import gpu
    from dynhlo.backends.gpu import aot
    from tests.support.gpu_payload3 import PROGRAM, as_format_3
    exe = dynhlo.compile(BOUNDED.read_text(), backend="gpu", target=target)
    if hasattr(exe, "executables"):
        raise SystemExit("payload: the transformer compiled to more than one program")
    blobs = {f"format {aot.FORMAT}": exe.serialize(), "format 3": as_format_3(exe)}
    stage: list = []
    real = aot.load_payload

    def timed(*args):
        start = time.perf_counter()
        out = real(*args)
        stage.append(time.perf_counter() - start)
        return out
    saved = (aot.check_device, aot.cubin_launcher, gpu._device, aot.load_payload)
    aot.check_device, aot.cubin_launcher = (lambda t: None), (lambda cubin, meta: object())
    gpu._device, aot.load_payload = (lambda interpret: torch.device("cpu")), timed
    try:
        times = {name: ([], []) for name in blobs}
        for round_ in range(runs + 1):
            for name, blob in blobs.items():
                gc.collect()
                stage.clear()
                start = time.perf_counter()
                loaded = dynhlo.deserialize(blob)
                if round_:
                    times[name][0].append(time.perf_counter() - start)
                    times[name][1].append(stage[0])
    finally:
        aot.check_device, aot.cubin_launcher, gpu._device, aot.load_payload = saved
    row = {"module": BOUNDED.name, "target": target,
           "launches": len(loaded.program.graph.prog.steps),
           "kernels": len(loaded.program.kernels)}
    for name, blob in blobs.items():
        meta = read_artifact(blob).sections[PROGRAM]
        total, payload = times[name]
        row[name] = {"load_ms": 1e3 * statistics.median(total),
                     "payload_ms": 1e3 * statistics.median(payload),
                     "program_json_bytes": len(meta), "artifact_bytes": len(blob)}
        print(f"payload {name}: load {row[name]['load_ms']:.1f} ms, of it the payload "
              f"{row[name]['payload_ms']:.1f} ms; gpu_program.json {len(meta):,} bytes, "
              f"artifact {len(blob):,} bytes")
    return row


if __name__ == "__main__":
    main()
