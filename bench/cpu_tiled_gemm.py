"""The compiled CPU path's register-tiled f32 product (compiled/tiled_gemm.py) against NumPy's
OpenBLAS in its place: the 48-layer transformer of bench/workloads.py, one process, one
pinned CPU and one thread, compiled twice, once with the tiled product taken wherever
matmul_dispatch.tiled_block proves it and once with it kept out; warm calls measured in
turns (timing.paired_warm_ms), and the two outputs compared bit for bit.

    python bench/cpu_tiled_gemm.py --threads one [--cpu N] [--sizes 128 512 2048]
                                   [--budget S] [--out FILE]

Writes bench/results/cpu_tiled_gemm.json (or --out) and prints a markdown table.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import cpu_threads  # noqa: E402

SETUP = cpu_threads.from_argv(sys.argv)

import argparse  # noqa: E402
import json  # noqa: E402

import numpy as np  # noqa: E402

import dynhlo  # noqa: E402
from dynhlo.backends.cpu.compiled import matmul_dispatch  # noqa: E402
from timing import paired_warm_ms  # noqa: E402
from workloads import workloads  # noqa: E402


def arguments(w, n: int) -> list:
    gen = np.random.default_rng(0)
    return [(gen.standard_normal(shape) * (1.0 if k < w.dynamic else 1 / np.sqrt(shape[0])))
            .astype(np.float32) for k, shape in enumerate(w.shapes(n))]


def row(w, n: int, budget: float) -> dict:
    """Both ways at n rows: warm ms, their ratio, the products the tiled way took."""
    args = arguments(w, n)
    tiled = dynhlo.compile(w.hlo, backend="cpu")
    out_tiled = np.asarray(tiled(*args))
    taken = sorted(key[1:] for key, kc in matmul_dispatch._proven.items() if kc is not None)
    least = matmul_dispatch._TILED_LEAST
    matmul_dispatch._TILED_LEAST = 1 << 62   # (the second program's products: BLAS's)
    try:
        blas = dynhlo.compile(w.hlo, backend="cpu")
        out_blas = np.asarray(blas(*args))
    finally:
        matmul_dispatch._TILED_LEAST = least
    tiled_ms, blas_ms = paired_warm_ms([lambda: tiled(*args), lambda: blas(*args)], budget)
    return {"n": n, "tiled_ms": round(tiled_ms, 3), "blas_ms": round(blas_ms, 3),
            "ratio": round(tiled_ms / blas_ms, 3),
            "bits_equal": bool(np.array_equal(out_tiled.view(np.uint32),
                                              out_blas.view(np.uint32))),
            "tiled_products": [list(k) for k in taken]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", choices=cpu_threads.MODES, required=True)
    p.add_argument("--cpu", type=int)
    p.add_argument("--sizes", type=int, nargs="*", default=[128, 512, 2048])
    p.add_argument("--budget", type=float, default=3.0, help="seconds per way and size")
    p.add_argument("--out", default=str(Path(__file__).parent / "results" /
                                        "cpu_tiled_gemm.json"))
    opts = p.parse_args()
    w = workloads()["transformer_48"]
    rows = [row(w, n, opts.budget) for n in opts.sizes]
    Path(opts.out).write_text(json.dumps({"setup": SETUP, "rows": rows}, indent=1) + "\n")
    print("| n | tiled ms | OpenBLAS ms | tiled / OpenBLAS | bits equal |")
    print("|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r['n']} | {r['tiled_ms']:.2f} | {r['blas_ms']:.2f} | {r['ratio']:.3f} | "
              f"{'yes' if r['bits_equal'] else 'no'} |")


if __name__ == "__main__":
    main()
