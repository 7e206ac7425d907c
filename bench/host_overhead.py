"""Host overhead of one call of a GPU executable (DESIGN.md sections 4 and 6).

Small modules are all host overhead, and host overhead decides whether the whole-call time of
a medium module follows its size. This times, through dynhlo (backend="gpu", torch CUDA
tensors in and out), torch eager and jax.jit of the same computation (when jax imports; it
compiles per static shape, and its compilation is left out):

- softmax_rows at 3 rows (one kernel) and the seed module (`copy` of f32[<=5,5]) at 3 rows;
- layernorm_residual with its row bound raised to B (the bound is only text) at B/8 and B rows.

Three measures per call, each a median:
- host: N calls back to back on the host clock, one wait at the end, divided by N. When the
  device work of a call is shorter than its host work (the small modules) this is the host
  time per call: what a serving loop pays per call.
- sync: one call and a wait for its result (torch.cuda.synchronize, jax block_until_ready).
- event: CUDA events around one call (dynhlo and torch only).

    python bench/host_overhead.py [--impl DIR] [--label NAME] [--layernorm-bound 65536]
                                  [--models DIR] [--parts] [--out FILE.json]

Writes bench/results/host_overhead.json (host_overhead_<label>.json for another --label;
--out elsewhere) and a plot beside it when matplotlib is importable.

`--impl DIR` imports dynhlo from another checkout (an older commit, say) to compare before
and after on one machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from report import save as save_results  # noqa: E402

SEED = """HloModule Test
ENTRY main {
  a = f32[<=5, 5]{1,0} parameter(0)
  ROOT b = f32[<=5, 5]{0,1} copy(a)
}
"""


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--impl", help="import dynhlo from this folder (default: this repo)")
    parser.add_argument("--label", default="dynhlo")
    parser.add_argument("--models", help="the shared corpus (default: ../shared/models)")
    parser.add_argument("--layernorm-bound", type=int, default=65536)
    parser.add_argument("--calls", type=int, default=2000, help="calls per host-time loop")
    parser.add_argument("--reps", type=int, default=300, help="single calls per median")
    parser.add_argument("--no-jax", action="store_true")
    parser.add_argument("--parts", action="store_true",
                        help="also time the pieces of a softmax_rows call")
    parser.add_argument("--device", default="cuda",
                        help="cpu: the host's part of a call alone, in Triton's "
                        "interpreter with a stand-in driver that launches nothing "
                        "(standin.py; no event times, errors not meaningful)")
    parser.add_argument("--out")
    return parser.parse_args()


def models_dir(opts) -> Path:
    if opts.models:
        return Path(opts.models)
    for path in (REPO.parent / "shared" / "models", REPO / "shared" / "models"):
        if path.is_dir():
            return path
    raise SystemExit("no shared corpus: pass --models")


def host_time(fn, wait, calls: int, repeats: int = 5) -> float:
    """Median over `repeats` of (time of `calls` calls, one wait at the end) / calls, in us."""
    out = None
    for _ in range(20):
        out = fn()
    wait(out)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            out = fn()
        wait(out)
        times.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(times)


def sync_time(fn, wait, reps: int) -> float:
    """Median us of one call and the wait for its result."""
    wait(fn())
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        wait(fn())
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.median(times)


def event_time(torch, fn, reps: int) -> float:
    """Median us between CUDA events recorded around one call (host work included)."""
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3)
    return statistics.median(times)


def load_jax(skip: bool, device: str):
    if skip:
        return None
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # leave torch memory
    try:
        import jax
        import jax.numpy as jnp
        if device == "cuda" and not any(d.platform == "gpu" for d in jax.devices()):
            return None
        return jax, jnp
    except Exception as exc:  # noqa: BLE001 - any failure means: no jax column
        print(f"jax not used: {exc}")
        return None


def cases(torch, models: Path, bound: int, dev: str):
    """(name, module text, args at the size, torch eager fn, jax fn maker) per case."""
    gen = torch.Generator(device=dev).manual_seed(0)

    def randn(*shape):
        return torch.randn(*shape, device=dev, generator=gen)

    softmax = (models / "softmax_rows" / "module.hlo").read_text()
    layernorm = (models / "layernorm_residual" / "module.hlo").read_text().replace(
        "<=256", f"<={bound}")

    def ln_eager(x, g, b):
        return x + torch.nn.functional.layer_norm(x, (x.shape[1],), g, b, eps=1e-5)

    def ln_jax(jax, jnp):
        def f(x, g, b):
            mean = jnp.mean(x, axis=1, keepdims=True)
            var = jnp.mean(jnp.square(x - mean), axis=1, keepdims=True)
            return x + ((x - mean) * jax.lax.rsqrt(var + 1e-5) * g + b)
        return f

    yield ("softmax_rows 3 rows", softmax, (randn(3, 37),),
           lambda x: torch.softmax(x, dim=1), lambda jax, jnp: lambda x: jax.nn.softmax(x, axis=1))
    yield ("seed copy 3 rows", SEED, (randn(3, 5),), lambda x: x.clone(),
           lambda jax, jnp: lambda x: jnp.copy(x))
    for n in (bound // 8, bound):
        yield (f"layernorm {n} rows", layernorm, (randn(n, 512), randn(512), randn(512)),
               ln_eager, ln_jax)


def compile_gpu(dynhlo, text: str, device: str):
    """The module for the GPU backend; on the CPU in Triton's interpreter with a stand-in
    driver that launches nothing (standin.py: the host's part of a call alone)."""
    if device == "cuda":
        return dynhlo.compile(text, backend="gpu")
    sys.path.insert(0, str(REPO / "bench"))
    from standin import launching_nothing
    with launching_nothing():
        return dynhlo.compile(text, backend="gpu", interpret=True)


def measure(opts, torch, dynhlo, jaxmods, models: Path) -> list[dict]:
    rows = []
    compiled: dict = {}
    on_cuda = opts.device == "cuda"
    wait = (lambda out: torch.cuda.synchronize()) if on_cuda else (lambda out: None)
    for name, text, args, eager, jax_maker in cases(torch, models, opts.layernorm_bound,
                                                    opts.device):
        exe = compiled.get(text) or compiled.setdefault(text, compile_gpu(dynhlo, text,
                                                                          opts.device))
        got, want = exe(*args), eager(*args)
        err = ((got - want).abs().max() / want.abs().max().clamp_min(1e-30)).item()
        small = args[0].shape[0] < 1000
        calls = opts.calls if small else max(opts.calls // 20, 20)
        row = {"case": name, "max_rel_err_vs_eager": err}
        for who, fn in (("dynhlo", lambda: exe(*args)), ("eager", lambda: eager(*args))):
            row[f"{who}_host_us"] = host_time(fn, wait, calls)
            row[f"{who}_sync_us"] = sync_time(fn, wait, opts.reps)
            if on_cuda:
                row[f"{who}_event_us"] = event_time(torch, fn, opts.reps)
        if jaxmods is not None:
            jax, jnp = jaxmods
            f = jax.jit(jax_maker(jax, jnp))
            jargs = [jnp.asarray(a.cpu().numpy()) for a in args]
            jwait = jax.block_until_ready
            jwait(f(*jargs))
            row["jax_host_us"] = host_time(lambda: f(*jargs), jwait, calls)
            row["jax_sync_us"] = sync_time(lambda: f(*jargs), jwait, opts.reps)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def parts(opts, torch, dynhlo, models: Path) -> dict:
    """Host us of the pieces of one softmax_rows call at 3 rows (where the time goes)."""
    from dynhlo.runtime.arguments import check_arguments
    exe = compile_gpu(dynhlo, (models / "softmax_rows" / "module.hlo").read_text(), opts.device)
    x = torch.randn(3, 37, device=opts.device)
    exe(x)
    wait = (lambda out: torch.cuda.synchronize()) if opts.device == "cuda" else (lambda o: 0)
    out = {"whole call": host_time(lambda: exe(x), wait, opts.calls),
           "argument checks": host_time(lambda: check_arguments(exe.parameters, [x]), wait,
                                        opts.calls),
           "program.run": host_time(lambda: exe.program.run([x]), wait, opts.calls),
           "torch.empty_strided": host_time(lambda: torch.empty_strided(
               (3, 37), (37, 1), dtype=torch.float32, device=x.device), wait, opts.calls)}
    launchers = list(getattr(exe.program.runner, "launchers", {}).values())
    direct = getattr(launchers[0], "direct", None) if len(launchers) == 1 else None
    if isinstance(direct, tuple):   # (cuLaunchKernel, head, constants): an older launcher
        launch, head, consts = direct
        y = torch.empty_like(x)
        stream = torch.cuda.current_stream().cuda_stream
        out["kernel launch alone"] = host_time(lambda: launch(
            1, 1, 1, stream, *head, x.data_ptr(), y.data_ptr(), 3, *consts), wait, opts.calls)
    print("parts of softmax_rows at 3 rows, host us: " + ", ".join(
        f"{k} {v:.1f}" for k, v in out.items()), flush=True)
    return out


def report(label: str, rows: list[dict]) -> None:
    cols = ["dynhlo_host_us", "eager_host_us", "jax_host_us", "dynhlo_sync_us",
            "eager_sync_us", "jax_sync_us", "dynhlo_event_us", "eager_event_us"]
    print(f"\n[{label}] medians, us per call")
    print(f"{'case':22s} " + " ".join(f"{c.replace('_us', ''):>14s}" for c in cols))
    for r in rows:
        cells = " ".join(f"{r[c]:14.1f}" if c in r else f"{'-':>14s}" for c in cols)
        print(f"{r['case']:22s} {cells}")
    ln = [r for r in rows if r["case"].startswith("layernorm")]
    if len(ln) == 2:
        for measure in ("event", "sync", "host"):
            if f"dynhlo_{measure}_us" not in ln[0]:
                continue
            ratio = ln[0][f"dynhlo_{measure}_us"] / ln[1][f"dynhlo_{measure}_us"]
            print(f"[{label}] layernorm whole-call time(B/8)/time(B), {measure}: {ratio:.3f}")


def main() -> None:
    opts = parse_args()
    sys.path.insert(0, str(Path(opts.impl).resolve() if opts.impl else REPO))
    jaxmods = load_jax(opts.no_jax, opts.device)
    import torch
    import dynhlo
    torch.backends.cuda.matmul.allow_tf32 = False
    where = torch.cuda.get_device_name() if opts.device == "cuda" else "cpu (interpreter)"
    print(f"[{opts.label}] dynhlo from {Path(dynhlo.__file__).parent}; {where}; "
          f"jax: {'yes' if jaxmods else 'no'}")
    rows = measure(opts, torch, dynhlo, jaxmods, models_dir(opts))
    split = parts(opts, torch, dynhlo, models_dir(opts)) if opts.parts else None
    report(opts.label, rows)
    name = "host_overhead" if opts.label == "dynhlo" else f"host_overhead_{opts.label}"
    save_results(name, {"label": opts.label, "device": where, "rows": rows, "parts": split},
                 plot=_plot, out=opts.out)


def _plot(data: dict, path: Path) -> None:
    """Host µs per call for each case: dynhlo, torch eager, jax.jit."""
    rows = data["rows"]
    from report import bars
    bars(path, f"host time per call ({data['device']})", [r["case"] for r in rows],
         {s: [r.get(f"{s}_host_us") for r in rows] for s in ("dynhlo", "eager", "jax")},
         "µs per call (host clock)")


if __name__ == "__main__":
    main()
