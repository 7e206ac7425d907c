"""The real-library programs of tests/data on the GPU backend (issue 29): exactness against
the CPU backend and the stored reference outputs, and speed against the library on the GPU.

Programs: tests/data/torch/{bert,gpt2,llama}.mlirbc (from_torch exports, weights as
constants; peer: the same torch model, tests/support/torch_models.py, eager on the GPU) and
tests/data/jax/llama_decoder.hlo (from_jax; peer: jax.jit of tests/support/llama_decoder.py on the
GPU), at each stored size. Per program and size: max |gpu - cpu| / max |cpu| (dynhlo's two
backends), max |gpu - stored| / max |stored| (eager PyTorch's or jax.jit's outputs, stored on
the CPU), and median µs of one call: dynhlo GPU (inputs on the device), dynhlo CPU (NumPy),
the peer on the GPU.

    python bench/real_programs.py [--out FILE.json]     # one GPU
    python bench/real_programs.py --dry                 # no GPU: Triton's interpreter, no timing
    python bench/real_programs.py --graph               # dynhlo with graph=True (captured
                                                        # segments between host steps)

Writes bench/results/real_programs.json (and a plot when matplotlib is importable).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # torch shares the GPU

import numpy as np  # noqa: E402

import report  # noqa: E402

NAN = float("nan")


def median_us(fn, reps: int) -> float:
    fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1e6 * float(np.median(times))


def gpu_us(fn, dry: bool) -> float:
    if dry:
        return NAN
    from triton.testing import do_bench
    return 1e3 * do_bench(fn, warmup=10, rep=50, return_mode="median")


def rel(a, b) -> float:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape:
        return float("inf")
    return float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-30)) if b.size else 0.0


def leaves(out) -> list:
    return list(out) if isinstance(out, (tuple, list)) else [out]


def host(t) -> np.ndarray:
    return t.float().cpu().numpy() if hasattr(t, "cpu") else np.asarray(t)


def torch_programs(dry: bool, graph):
    """(name, size, cpu exe, gpu exe, args, stored outputs, peer callable on the device)."""
    import torch
    from tests.support import torch_data
    import dynhlo
    dev = "cpu" if dry else "cuda"
    for name in torch_data.MODELS:
        module = dynhlo.parse_stablehlo(torch_data.module_bytes(name))
        cpu = dynhlo.compile(module)
        gpu = dynhlo.compile(module, backend="gpu", interpret=dry, graph=graph)
        model = None
        try:
            from tests.support import torch_models
            model = torch_models.build(name).to(dev).eval()
        except Exception as exc:  # noqa: BLE001  (the peer is optional)
            print(f"  {name}: no torch peer ({type(exc).__name__}: {exc})")
        data = np.load(torch_data.HERE / f"{name}.npz")
        sizes = sorted({k.split("_")[1] for k in data.files if k.startswith("arg")})
        for size in sizes[:1] if dry else sizes:   # the interpreter is slow
            args, want = torch_data.case(name, size)

            def peer(args=args, model=model):
                with torch.no_grad():
                    return model(*[torch.from_numpy(a).to(dev) for a in args])
            yield name, size, cpu, gpu, args, want, (peer if model is not None else None)


def jax_programs(dry: bool, graph):
    import jax
    import dynhlo
    from tests.support import llama_decoder
    text = (REPO / "tests" / "data" / "jax" / "llama_decoder.hlo").read_text()
    cpu = dynhlo.compile(text)
    gpu = dynhlo.compile(text, backend="gpu", interpret=dry, graph=graph)
    data = np.load(REPO / "tests" / "data" / "jax" / "llama_decoder.npz")
    jit = jax.jit(llama_decoder.llama)
    keys = sorted((k for k in data.files if k.startswith("in")), key=lambda k: int(k[2:-2]))
    for key in keys[:1] if dry else keys:
        x = data[key]
        want = [data["out" + key[2:]]]
        xj = jax.device_put(x)

        def peer(xj=xj):
            return jit(xj).block_until_ready()
        yield "llama_decoder(jax)", str(x.shape[0]), cpu, gpu, [x], want, peer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="default: bench/results/real_programs.json "
                        "(real_programs_dry.json with --dry)")
    parser.add_argument("--dry", action="store_true")
    parser.add_argument("--graph", action="store_true", help="compile with graph=True")
    opts = parser.parse_args()
    if opts.dry:
        os.environ["TRITON_INTERPRET"] = "1"
        os.environ["JAX_PLATFORMS"] = "cpu"
    import torch
    dev = "cpu" if opts.dry else "cuda"
    rows = []
    print(f"{'program':20s} {'size':>6s} {'gpu-cpu':>9s} {'gpu-ref':>9s} {'cpu-ref':>9s} "
          f"{'gpu us':>9s} {'cpu us':>9s} {'peer us':>9s} {'gpu/peer':>8s}", flush=True)
    graph = True if opts.graph else None
    for source in (torch_programs, jax_programs):
        try:
            for name, size, cpu, gpu, args, want, peer in source(opts.dry, graph):
                targs = [torch.from_numpy(a).to(dev) for a in args]
                try:
                    got_gpu = [host(t) for t in leaves(gpu(*targs))]
                    got_cpu = [np.asarray(t) for t in leaves(cpu(*args))]
                    gc = max(rel(g, c) for g, c in zip(got_gpu, got_cpu, strict=True))
                    gr = max(rel(g, w) for g, w in zip(got_gpu, want, strict=True))
                    cr = max(rel(c, w) for c, w in zip(got_cpu, want, strict=True))
                    g_us = gpu_us(lambda: gpu(*targs), opts.dry)
                    c_us = median_us(lambda: cpu(*args), 1 if opts.dry else 20)
                    p_us = gpu_us(peer, opts.dry) if peer is not None else NAN
                except Exception as exc:  # noqa: BLE001  (a failure is a result)
                    print(f"{name:20s} {size:>6s} FAILED {type(exc).__name__}: "
                          f"{str(exc)[:300]}", flush=True)
                    rows.append({"program": name, "size": size, "error": repr(exc)[:500]})
                    continue
                row = {"program": name, "size": size, "runner": gpu.program.mode,
                       "gpu_vs_cpu": gc, "gpu_vs_ref": gr,
                       "cpu_vs_ref": cr, "gpu_us": g_us, "cpu_us": c_us, "peer_us": p_us}
                rows.append(row)
                print(f"{name:20s} {size:>6s} {gc:9.1e} {gr:9.1e} {cr:9.1e} {g_us:9.1f} "
                      f"{c_us:9.1f} {p_us:9.1f} {g_us / p_us:8.2f}", flush=True)
        except Exception as exc:  # noqa: BLE001
            print(f"{source.__name__} FAILED {type(exc).__name__}: {str(exc)[:300]}", flush=True)
    device = "Triton interpreter (dry run)" if opts.dry else torch.cuda.get_device_name()
    name = "real_programs_dry" if opts.dry else "real_programs"
    report.save(name, {"device": device, "rows": rows}, plot=None if opts.dry else _plot,
                out=opts.out)


def _plot(data: dict, path: Path) -> None:
    """µs per call at each program and size: dynhlo on the GPU against the library's peer."""
    rows = [r for r in data["rows"] if "error" not in r]
    report.bars(path, f"real programs ({data['device']})",
                [f"{r['program']} {r['size']}" for r in rows],
                {"dynhlo GPU": [r["gpu_us"] for r in rows],
                 "peer on the GPU": [r["peer_us"] for r in rows]}, "µs per call", log=True)


if __name__ == "__main__":
    main()
