"""Tiles and key shares of the graph path's fused attention on one GPU (graph/attention.py).

Times attention_kernel (and combine_kernel when the keys are split) at d = dv = 64 (the
48-layer transformer's head) and the key lengths of issue 10, for each (block_m, block_n,
warps, shares), against torch's `softmax(q kᵀ / 8) v` with TF32 off (cuBLAS SGEMMs and a
softmax kernel: the unfused form). Prints µs per size; attention.py's defaults come from it.

    python bench/attention_tiles.py [--sizes 128,512,1024,2048,8192] [--tiles 32x64x4,...]
                                    [--splits 1,2,4,8] [--stages 1,2,3] [--chunks 0,16]
                                    [--tf32]
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

D = 64


class _Launch:
    """One kernel of the sweep, launched through Triton with the sweep's pipeline stages."""

    def __init__(self, kernel, stages):
        from dynhlo.backends.gpu.launch.kernel_cache import load_kernel
        self.fn = load_kernel(kernel.source, kernel.name, False)
        self.kernel, self.stages = kernel, stages

    def __call__(self, grid, tensors, sizes):
        opts = {} if self.stages is None else {"num_stages": self.stages}
        self.fn[grid](*tensors, *sizes, **self.kernel.block,
                      num_warps=self.kernel.num_warps, **opts)


def launches(bm, bn, warps, splits, n, sms, stages=None, tf32=False, chunk=0):
    """[(launcher, grid, tensor roles)] of one attention at bound n."""
    from dynhlo.backends.gpu.graph.attention import (COMBINE_ROWS, _log2_factor,
                                                     attention_kernel, combine_kernel)
    factor = _log2_factor(("div", 8.0))
    grid = max(1, min(math.ceil(n / bm) * splits, 8 * sms))

    def made(kernel):
        if tf32:   # the sweep's TF32 column: what precision="default" could reach
            kernel.source = kernel.source.replace('input_precision="ieee"',
                                                  'input_precision="tf32"')
        return _Launch(kernel, stages)
    if splits == 1:
        return [(made(attention_kernel(D, D, True, False, factor, 1, 0, bm, bn, warps, chunk)),
                 grid, "qkvo")]
    return [(made(attention_kernel(D, D, True, False, factor, splits, n, bm, bn, warps,
                                   chunk)), grid, "qkvp"),
            (_Launch(combine_kernel(D, splits, n), None),
             max(1, min(math.ceil(n / COMBINE_ROWS), 8 * sms)), "po")]


def main() -> None:
    import torch
    from triton.testing import do_bench
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="128,512,1024,2048,8192")
    parser.add_argument("--tiles", default="16x64x4,16x128x4,32x64x4,32x128x4,64x128x8")
    parser.add_argument("--splits", default="1,2,4,8")
    parser.add_argument("--stages", default="", help="e.g. 1,2,3 (default: Triton's)")
    parser.add_argument("--tf32", action="store_true", help="TF32 products (tolerance 1e-2)")
    parser.add_argument("--chunks", default="0", help="q·kᵀ head chunks, e.g. 0,16,32 "
                        "(0: q held whole; attention.HEAD_CHUNK)")
    opts = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    tiles = [tuple(int(x) for x in t.split("x")) for t in opts.tiles.split(",")]
    stages = [int(s) for s in opts.stages.split(",")] if opts.stages else [None]
    configs = list(itertools.product(tiles, [int(s) for s in opts.splits.split(",")],
                                     stages, [int(c) for c in opts.chunks.split(",")]))
    print(f"{'n':>6s} {'torch':>8s} " + " ".join(
        (f"{bm}x{bn}w{w}s{s}{'' if st is None else f'p{st}'}{f'c{c}' if c else ''}"
         ).rjust(14) for (bm, bn, w), s, st, c in configs), flush=True)
    for n in [int(s) for s in opts.sizes.split(",")]:
        q, k, v = (torch.randn(n, D, device="cuda") for _ in range(3))
        out = torch.empty(n, D, device="cuda")
        sz = torch.tensor([n, n, 0, 0], dtype=torch.int32, device="cuda")
        want = torch.softmax(q @ k.T / 8, -1) @ v
        row = [1e3 * do_bench(lambda: torch.softmax(q @ k.T / 8, -1) @ v,
                              return_mode="median")]
        for (bm, bn, w), s, st, c in configs:
            try:
                part = torch.empty(s * n * (D + 2), device="cuda")
                roles = {"q": q, "k": k, "v": v, "o": out, "p": part}
                steps = [(f, g, [roles[r] for r in rs] + [sz])
                         for f, g, rs in launches(bm, bn, w, s, n, sms, st, opts.tf32, c)]

                def call():
                    for f, g, ts in steps:
                        f((g,), ts, [])
                out.zero_()
                call()
                torch.cuda.synchronize()
                err = ((out - want).abs().max() / want.abs().max()).item()
                us = 1e3 * do_bench(call, return_mode="median")
                row.append(us if err < (1e-2 if opts.tf32 else 1e-4) else float("nan"))
            except Exception as exc:  # noqa: BLE001
                print(f"{bm}x{bn}w{w}s{s}c{c} at {n}: {type(exc).__name__}: {str(exc)[:200]}")
                row.append(float("nan"))
        print(f"{n:6d} {row[0]:8.1f} " + " ".join(f"{x:14.1f}" for x in row[1:]), flush=True)


if __name__ == "__main__":
    main()
