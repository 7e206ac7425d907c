"""Tiles of the graph path's fused attention kernel on one GPU (graph/attention.py).

Times attention_kernel for every (block_m, block_n, warps) at d = dv = 64 (the 48-layer
transformer's head) and the key lengths of issue 10, against the unfused form the graph
path ran before (two Triton products and the softmax row kernel are not rebuilt here:
torch's `softmax(q kᵀ / 8) v` with TF32 off stands for it). Prints a table; the chosen
tiles are the defaults of attention.py.

    python bench/attention_tiles.py [--sizes 128,512,1024,2048,8192]
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def main() -> None:
    import torch
    from triton.testing import do_bench
    from dynhlo.backends.gpu.graph.attention import attention_kernel
    from dynhlo.backends.gpu.launch.jit import JitLauncher
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="128,512,1024,2048,8192")
    opts = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    sizes = [int(s) for s in opts.sizes.split(",")]
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    d = 64
    configs = list(itertools.product((16, 32, 64), (32, 64, 128), (2, 4, 8)))
    launchers = {}
    for bm, bn, w in configs:
        try:
            launchers[(bm, bn, w)] = JitLauncher(
                attention_kernel(d, d, True, False, ("div", 8.0), bm, bn, w), False)
        except Exception as exc:  # noqa: BLE001
            print(f"{bm} {bn} {w}: {type(exc).__name__}")
    print(f"{'n':>6s} {'torch':>8s} " + " ".join(f"{bm}x{bn}w{w}".rjust(10)
                                                   for bm, bn, w in launchers))
    for n in sizes:
        q, k, v = (torch.randn(n, d, device="cuda") for _ in range(3))
        out = torch.empty(n, d, device="cuda")
        sz = torch.tensor([n, n, 0, 0], dtype=torch.int32, device="cuda")
        want = torch.softmax(q @ k.T / 8, -1) @ v
        row = [1e3 * do_bench(lambda: torch.softmax(q @ k.T / 8, -1) @ v,
                              return_mode="median")]
        for (bm, bn, w), launch in launchers.items():
            grid = (max(1, min(-(-n // bm), 8 * sms)),)
            try:
                launch(grid, [q, k, v, out, sz], [])
                torch.cuda.synchronize()
                err = ((out - want).abs().max() / want.abs().max()).item()
                us = 1e3 * do_bench(lambda: launch(grid, [q, k, v, out, sz], []),
                                    return_mode="median")
                row.append(us if err < 1e-4 else float("nan"))
            except Exception as exc:  # noqa: BLE001
                print(f"{bm}x{bn}w{w} at {n}: {type(exc).__name__}: {str(exc)[:200]}")
                row.append(float("nan"))
        print(f"{n:6d} " + " ".join(f"{x:10.1f}" for x in row), flush=True)


if __name__ == "__main__":
    main()
