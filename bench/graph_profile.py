"""Where a graph program's time goes: each launch of the 48-layer transformer's graph timed
alone at several n, summed by kernel kind (one GPU). A guide for issue 10's tuning; the
whole-call numbers are bench/compare.py's.

    python bench/graph_profile.py [--sizes 128,512,2048]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def kind(step) -> str:
    block = step.kernel.block
    if "SPLITS" in block and "D" not in block:
        return "attention combine"
    if "D" in block:
        return "attention"
    if step.dot:
        return f"product {'+epilogue' if step.kernel.nsizes > 3 else ''}"
    return f"{step.origin.kind} kernel" if step.origin is not None else "kernel"


def main() -> None:
    import torch
    from triton.testing import do_bench
    import dynhlo
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="128,512,2048")
    opts = parser.parse_args()
    text = (REPO / "tests/data/large/transformer_48_layers_bounded.hlo").read_text()
    exe = dynhlo.compile(text, backend="gpu")
    runner = exe.program.graph
    prog = runner.prog
    gen = torch.Generator(device="cuda").manual_seed(0)
    shapes = [tuple(p.shape.dims) for p in exe.program.info.computation.parameters]
    weights = [torch.randn(s, device="cuda", generator=gen) / (s[0] ** 0.5 if len(s) == 2
                                                                else 10) for s in shapes[1:]]
    for n in [int(s) for s in opts.sizes.split(",")]:
        x = torch.randn(n, 64, device="cuda", generator=gen)
        total = 1e3 * do_bench(lambda: exe(x, *weights), return_mode="median")
        by = defaultdict(float)
        count = defaultdict(int)
        values, sizes = runner.values, runner.sizes
        for k, (step, grid) in enumerate(zip(prog.steps, runner.grids, strict=True)):
            tensors = [values[s] for s in step.inputs] + [values[step.out],
                                                         sizes[step.size_offset:]]
            us = 1e3 * do_bench(lambda: runner.launchers[k]((grid,), tensors, []),
                                warmup=2, rep=10, return_mode="median")
            by[kind(step)] += us
            count[kind(step)] += 1
        print(f"n={n}: whole call {total:.0f} us; launches alone:")
        for name in sorted(by, key=lambda s: -by[s]):
            print(f"   {name:22s} {count[name]:4d} launches {by[name]:9.0f} us "
                  f"({by[name] / count[name]:.1f} each)")


if __name__ == "__main__":
    main()
