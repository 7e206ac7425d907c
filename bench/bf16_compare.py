"""The 48-layer transformer in bf16 (issue 29): dynhlo against XLA and torch at the same n.

Module: bench/data/transformer_48_bf16_bounded.hlo (bench/make_bf16_transformer.py; every
array bf16, products accumulated in f32). Weights from a seed (make_bf16_transformer.weights),
rounded to bf16. Columns, median µs of one whole call with inputs on the device
(`triton.testing.do_bench`):

    dynhlo     the bounded module compiled once (default options: the graph path), called at n
    xla_n      jax.jit of the module's JAX source at n, bf16 (XLA's own GPU kernels, cuBLAS)
    eager      torch eager in bf16 (bench/workloads.py's torch transformer)
    inductor   torch.compile(dynamic=True) of the same, bf16

Each system's error is max|out - ref| / max|ref| against the torch transformer in float64 on
the same bf16 inputs. Then where dynhlo's time goes: each launch of its graph timed alone,
summed by kind, and a torch.profiler table of the GPU
kernels of one call of each system at the largest n; and which matrix instructions each of
dynhlo's distinct kernels holds (`--sass`, from the cubins for sm_90: HGMMA is Hopper's
warpgroup tensor-core product, HMMA the mma.sync one, FFMA plain f32 FMAs).

    python bench/bf16_compare.py [--sizes 128,512,1024,2048] [--out bf16.json]   # one GPU
    python bench/bf16_compare.py --sass        # no GPU needed: cross-compiles for sm_90
    python bench/bf16_compare.py --dry         # no GPU: Triton's interpreter at n = 3

Writes bench/results/bf16_compare.json (bf16_sass.json, bf16_compare_dry.json) and a plot
when matplotlib is importable.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
_CACHE = tempfile.mkdtemp(prefix="dynhlo-bf16-")
for _var in ("TRITON_CACHE_DIR", "DYNHLO_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR"):
    os.environ.setdefault(_var, os.path.join(_CACHE, _var.lower()))
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # torch shares the GPU

import numpy as np  # noqa: E402

import make_bf16_transformer as mk  # noqa: E402
import report  # noqa: E402

MODULE = REPO / "bench" / "data" / "transformer_48_bf16_bounded.hlo"
SYSTEMS = ("dynhlo", "xla_n", "eager", "inductor")
NAN = float("nan")


def bench_us(fn, dry: bool) -> float:
    """Median µs of fn(); NaN, with the error printed, when the system fails."""
    try:
        if dry:
            start = time.perf_counter()
            fn()
            return 1e6 * (time.perf_counter() - start)
        from triton.testing import do_bench
        return 1e3 * do_bench(fn, warmup=25, rep=100, return_mode="median")
    except Exception as exc:  # noqa: BLE001  (a peer's failure is a result)
        print(f"  failed: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
        return NAN


def rel_err(got, ref) -> float:
    try:
        import torch
        got = torch.as_tensor(np.asarray(got.float().cpu() if hasattr(got, "float")
                                         else np.asarray(got, np.float32)), dtype=torch.float64)
        return ((got - ref).abs().max() / ref.abs().max().clamp_min(1e-30)).item()
    except Exception as exc:  # noqa: BLE001
        print(f"  failed: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
        return NAN


class Systems:
    """The four systems' callables on one device ('cuda', or 'cpu' with --dry)."""

    def __init__(self, dry: bool):
        import jax
        import torch
        import dynhlo
        from workloads import transformer
        self.dry, self.dev = dry, "cpu" if dry else "cuda"
        self.torch_fn = transformer("torch")
        w32 = mk.weights()
        self.w = [torch.from_numpy(w).to(self.dev).to(torch.bfloat16) for w in w32]
        self.w64 = [t.double().cpu() for t in self.w]
        self.jw = [jax.device_put(np.asarray(t.float().cpu()).astype(jax.numpy.bfloat16))
                   for t in self.w]
        self.jit = jax.jit(mk.model)
        start = time.perf_counter()
        self.exe = dynhlo.compile(MODULE.read_text(), backend="gpu", interpret=dry, graph=True)
        self.compile_s = time.perf_counter() - start
        self.inductor = None if dry else torch.compile(self.torch_fn, dynamic=True)

    def calls(self, x):
        import jax
        jx = jax.device_put(np.asarray(x.float().cpu()).astype(jax.numpy.bfloat16))
        out = {"dynhlo": lambda: self.exe(x, *self.w),
               "xla_n": lambda: self.jit(jx, *self.jw).block_until_ready(),
               "eager": lambda: self.torch_fn(x, *self.w)}
        if self.inductor is not None:
            out["inductor"] = lambda: self.inductor(x, *self.w)
        return out


def table(opts) -> dict:
    import torch
    sysm = Systems(opts.dry)
    gen = torch.Generator().manual_seed(0)
    result = {"module": str(MODULE.relative_to(REPO)), "compile_s": sysm.compile_s,
              "rows": [], "graph_launches": None, "graph_refusal": None}
    graph = sysm.exe.program.graph
    result["graph_refusal"] = sysm.exe.program.graph_refusal
    result["graph_launches"] = len(graph.prog.steps) if graph else 0
    state = (f"on, {result['graph_launches']} launches" if graph
             else f"off ({result['graph_refusal']})")
    print(f"dynhlo bf16: compile {sysm.compile_s:.1f} s, graph {state}", flush=True)
    print(f"{'n':>6s} " + " ".join(f"{s:>10s}" for s in SYSTEMS)
          + "  " + " ".join(f"{'err ' + s:>13s}" for s in SYSTEMS)
          + "  dynhlo/xla_n dynhlo/inductor", flush=True)
    for n in opts.sizes:
        x = torch.randn(n, 64, generator=gen).to(torch.bfloat16).to(sysm.dev)
        ref = sysm.torch_fn(x.double().cpu(), *sysm.w64)
        calls = sysm.calls(x)
        first = {}
        for name, call in calls.items():   # first calls: compiles (XLA per n, inductor once)
            start = time.perf_counter()
            try:
                first[name] = call()
            except Exception as exc:  # noqa: BLE001
                print(f"  {name} failed: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
                first[name] = None
            first[name + "_s"] = time.perf_counter() - start
        err = {s: rel_err(first[s], ref) if first.get(s) is not None else NAN for s in SYSTEMS}
        us = {s: bench_us(calls[s], opts.dry) if first.get(s) is not None else NAN
              for s in SYSTEMS}
        row = {"n": n, "us": us, "rel_err": err,
               "first_call_s": {s: first.get(s + "_s", NAN) for s in SYSTEMS},
               "dynhlo_over_xla_n": us["dynhlo"] / us["xla_n"],
               "dynhlo_over_inductor": us["dynhlo"] / us["inductor"]}
        result["rows"].append(row)
        print(f"{n:6d} " + " ".join(f"{us[s]:10.1f}" for s in SYSTEMS) + "  "
              + " ".join(f"{err[s]:13.1e}" for s in SYSTEMS)
              + f"  {row['dynhlo_over_xla_n']:12.2f} {row['dynhlo_over_inductor']:15.2f}",
              flush=True)
    if not opts.dry and graph:
        result["launches_by_kind"] = launches_by_kind(sysm, graph, opts.profile_sizes)
        result["profiler"] = profile(sysm, max(opts.sizes))
    return result


def kind(step) -> str:
    """A graph launch's kind, for the launches-by-kind table."""
    block = step.kernel.block
    if "SPLITS" in block and "D" not in block:
        return "attention combine"
    if "D" in block:
        return "attention"
    if step.dot:
        return f"product {'+epilogue' if step.kernel.nsizes > 3 else ''}"
    return f"{step.origin.kind} kernel" if step.origin is not None else "kernel"


def launches_by_kind(sysm, runner, sizes) -> dict:
    """Each launch of the graph timed alone at n, summed by kind."""
    import torch
    from triton.testing import do_bench
    out = {}
    prog = runner.prog
    for n in sizes:
        x = torch.randn(n, 64, device="cuda").to(torch.bfloat16)
        sysm.exe(x, *sysm.w)   # sets the size buffer and the grids for n
        by, count = defaultdict(float), defaultdict(int)
        values, sz = runner.values, runner.sizes
        for k, (step, grid) in enumerate(zip(prog.steps, runner.grids, strict=True)):
            tensors = [values[s] for s in step.inputs] + [values[step.out], sz[step.size_offset:]]
            us = 1e3 * do_bench(lambda: runner.launchers[k]((grid,), tensors, []),
                                warmup=2, rep=10, return_mode="median")
            by[kind(step)] += us
            count[kind(step)] += 1
        out[n] = {name: {"launches": count[name], "us": by[name]} for name in by}
        print(f"n={n}: launches alone, by kind:")
        for name in sorted(by, key=lambda s: -by[s]):
            print(f"   {name:22s} {count[name]:4d} launches {by[name]:9.0f} us "
                  f"({by[name] / count[name]:.1f} each)", flush=True)
    return out


def profile(sysm, n: int) -> dict:
    """torch.profiler's GPU kernels of three calls of each system at n: the top kernels by
    device time (names say which library and which instructions: sm90_xmma/nvjet/cutlass
    gemms, Triton kernels by their names)."""
    import torch
    from torch.profiler import ProfilerActivity, profile as tprofile
    x = torch.randn(n, 64, device="cuda").to(torch.bfloat16)
    out = {}
    for name, call in sysm.calls(x).items():
        try:
            call()
            torch.cuda.synchronize()
            with tprofile(activities=[ProfilerActivity.CUDA]) as prof:
                for _ in range(3):
                    call()
                torch.cuda.synchronize()
            rows = []
            for e in prof.key_averages():
                dev = getattr(e, "device_time_total", None) or getattr(e, "cuda_time_total", 0)
                if dev:
                    rows.append((dev / 3, e.count // 3, e.key))
            rows.sort(reverse=True)
            total = sum(r[0] for r in rows)
            out[name] = {"total_us": total, "top": [{"us": u, "count": c, "kernel": k[:120]}
                                                    for u, c, k in rows[:12]]}
            print(f"profile {name} n={n}: {total:.0f} us of kernels per call; top:")
            for u, c, k in rows[:12]:
                print(f"   {u:9.1f} us {c:5d}x  {k[:110]}")
        except Exception as exc:  # noqa: BLE001
            print(f"  profile {name} failed: {type(exc).__name__}: {str(exc)[:300]}")
    return out


_SASS_OPS = ("HGMMA", "HMMA", "FFMA", "LDGSTS", "UTMALDG")


def sass(cc: int = 90) -> dict:
    """Matrix and copy instructions in each distinct cubin of the module's GPU artifact
    (cross-compiled for sm_<cc>; no GPU needed), by the kernel's name."""
    import triton
    tmp = Path(tempfile.mkdtemp(prefix="dynhlo-bf16-sass-"))
    env = dict(os.environ, PYTHONPATH=str(REPO), DYNHLO_CACHE_DIR=str(tmp / "cache"),
               TRITON_CACHE_DIR=str(tmp / "triton"))
    env.pop("TRITON_INTERPRET", None)
    done = subprocess.run([sys.executable, "-m", "dynhlo", "compile", str(MODULE), "--backend",
                           "gpu", "--target", f"sm_{cc}", "-o", str(tmp / "t.dynhlo")],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(done.stderr.strip()[-500:])
    tool = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
    out = {}
    for cubin in sorted((tmp / "cache" / "cubins").glob("*.cubin")):
        info = json.loads(cubin.with_suffix(".json").read_text())
        text = subprocess.run([str(tool), "--dump-sass", str(cubin)], capture_output=True,
                              text=True, check=False).stdout
        ops = Counter(op for op in _SASS_OPS for _ in re.finditer(rf"\b{op}\b", text))
        name = _kernel_name(info, cubin)
        out[name] = dict(ops)
        print(f"{name:60s} " + ", ".join(f"{op} {ops[op]}" for op in _SASS_OPS))
    print(f"artifact {(tmp / 't.dynhlo').stat().st_size} bytes, {len(out)} distinct cubins")
    return out


def _kernel_name(info: dict, cubin: Path) -> str:
    inner = info.get("info", info)
    return f"{inner.get('name', '?')} w{inner.get('num_warps', '?')} [{cubin.stem[:8]}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="128,512,1024,2048")
    parser.add_argument("--profile-sizes", default="128,2048")
    parser.add_argument("--out", default=None, help="default: bench/results/bf16_compare.json "
                        "(bf16_compare_dry.json, bf16_sass.json)")
    parser.add_argument("--dry", action="store_true",
                        help="no GPU: the interpreter at n = 3, every system on the CPU")
    parser.add_argument("--sass", action="store_true",
                        help="only the matrix instructions of dynhlo's kernels (no GPU needed)")
    opts = parser.parse_args()
    opts.sizes = [3] if opts.dry else [int(s) for s in opts.sizes.split(",")]
    opts.profile_sizes = [int(s) for s in opts.profile_sizes.split(",")]
    if opts.sass:
        result = {"sass_sm90": sass()}
    else:
        if opts.dry:
            os.environ["TRITON_INTERPRET"] = "1"
        result = table(opts)
        if not opts.dry:
            import torch
            result["device"] = torch.cuda.get_device_name()
            result["sass_sm90"] = sass()
    name = "bf16_sass" if opts.sass else "bf16_compare_dry" if opts.dry else "bf16_compare"
    report.save(name, result, plot=_plot if "rows" in result else None, out=opts.out)


def _plot(data: dict, path: Path) -> None:
    """µs per call against n, a line per system."""
    import matplotlib.pyplot as plt
    rows = data["rows"]
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for s in SYSTEMS:
        ax.plot([r["n"] for r in rows], [r["us"][s] for r in rows], "o-", label=s,
                linewidth=2.5 if s == "dynhlo" else 1.2)
    ax.set(xscale="log", yscale="log", xlabel="n", ylabel="µs per call",
           title=f"48-layer transformer, bf16 ({data.get('device', '?')})")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main()
