"""Where a serving stream's time goes (bench/compare.py's streams), for one workload on one
GPU: the AOT artifact's load and first call (with their profiles), then per request the
host-to-device copy, the call and the device-to-host copy, for dynhlo (loaded artifact) and
torch eager.

    python bench/stream_profile.py [--workload softmax_rows] [--requests 30]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))


def main() -> None:
    import numpy as np
    import torch
    import dynhlo
    from compare_workloads import workloads
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", default="softmax_rows")
    parser.add_argument("--requests", type=int, default=30)
    opts = parser.parse_args()
    w = workloads()[opts.workload]
    gen = torch.Generator(device="cuda").manual_seed(0)
    weights = [torch.randn(s, device="cuda", generator=gen) for s in w.shapes(1)[w.dynamic:]]
    rng = np.random.default_rng(1)
    sizes = rng.integers(1, w.bound + 1, opts.requests)
    inputs = [[rng.standard_normal(s).astype(np.float32) for s in w.shapes(int(n))[:w.dynamic]]
              for n in sizes]
    path = Path(tempfile.mkdtemp()) / "w.dynhlo"
    dynhlo.compile(w.hlo, backend="gpu").save(path)
    torch.cuda.synchronize()
    profile = cProfile.Profile()   # where the load's time goes: imports, cubins, the plan
    t0 = time.perf_counter()
    exe = profile.runcall(dynhlo.load, path)
    t1 = time.perf_counter()
    pstats.Stats(profile).sort_stats("cumulative").print_stats(18)
    first = cProfile.Profile()     # and the first call's: graph capture, buffers, launches
    first.enable()
    exe(*[torch.from_numpy(x).cuda() for x in inputs[0]], *weights).cpu()
    torch.cuda.synchronize()
    first.disable()
    t2 = time.perf_counter()
    pstats.Stats(first).sort_stats("tottime").print_stats(25)
    print(f"{w.name}: load {1e3 * (t1 - t0):.1f} ms, first call {1e3 * (t2 - t1):.1f} ms")
    systems = {"dynhlo_aot": lambda *a: exe(*a), "eager": w.torch_fn}
    for name, fn in systems.items():
        phases = np.zeros(3)
        for xs in inputs:
            torch.cuda.synchronize()
            a = time.perf_counter()
            ts = [torch.from_numpy(x).cuda() for x in xs]
            torch.cuda.synchronize()
            b = time.perf_counter()
            y = fn(*ts, *weights)
            torch.cuda.synchronize()
            c = time.perf_counter()
            np.asarray(y.cpu())
            phases += (b - a, c - b, time.perf_counter() - c)
        ms = 1e3 * phases / len(inputs)
        print(f"  {name:10s} per request: h2d {ms[0]:.3f} ms, call {ms[1]:.3f} ms, "
              f"d2h {ms[2]:.3f} ms")
    # Whole streams as compare.py times them (no synchronisation between the phases), each
    # system twice in turn: does the order (which system meets a cold allocator) matter?
    for name in ("dynhlo_aot", "eager", "dynhlo_aot", "eager"):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn = dynhlo.load(path) if name == "dynhlo_aot" else w.torch_fn
        for xs in inputs:
            np.asarray(fn(*[torch.from_numpy(x).cuda() for x in xs], *weights).cpu())
        torch.cuda.synchronize()
        print(f"  stream {name:10s} {time.perf_counter() - t0:.3f} s (load included)")


if __name__ == "__main__":
    main()
