"""Artifact size and load time of a 4.2M-parameter model: weights stored as bytes.

    python bench/artifact_weights.py [--runs N] [--backend cpu|gpu] [--target sm_90]

The model: 4 dense layers of 1024 x 1024 with biases and tanh (4,198,400 float32 parameters,
16.8 MB), closed over by the function given to dynhlo.from_jax, so they are constants of the
module. Reported: from_jax (export, import, compile) and save; the artifact's bytes against
the weights' bytes; `load` warm (dynhlo.load in this process, median of N after a warm-up)
and cold (dynhlo.load in a fresh process, after `import dynhlo`, median of N processes; the
file is in the page cache either way), each with the first call at n = 5 checked against
jax.jit; and for comparison the module as decimal text (the form format 3 stored) and
parse_hlo of that text.

GPU (`--backend gpu`): the kernels are cross-compiled for --target (Triton needs no GPU to
compile); on a machine without CUDA the load is read_artifact and the stored module with
its constants (the part of a load the format decides; launching the cubins needs the GPU).
"""

from __future__ import annotations

import argparse
import os
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
from dynhlo.runtime.artifact import read_artifact  # noqa: E402
from dynhlo.runtime.loader import stored_module  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--backend", default="cpu", choices=["cpu", "gpu"])
    parser.add_argument("--target", default="sm_90")
    args = parser.parse_args()
    import jax
    ws, bs = weights()
    weight_bytes = sum(a.nbytes for a in ws + bs)
    options = {"target": args.target} if args.backend == "gpu" else {}
    start = time.perf_counter()
    exe = dynhlo.from_jax(model(ws, bs), f"f32[n,{WIDTH}]", bounds={"n": BOUND},
                          backend=args.backend, **options)
    from_jax_s = time.perf_counter() - start
    x = np.random.default_rng(1).standard_normal((N, WIDTH)).astype(np.float32)
    want = np.asarray(jax.jit(model(ws, bs))(x))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mlp.dynhlo"
        start = time.perf_counter()
        exe.save(path)
        save_ms = (time.perf_counter() - start) * 1e3
        size = path.stat().st_size
        print(f"backend {args.backend}: {weight_bytes / 4:,.0f} parameters, weights "
              f"{weight_bytes:,} bytes; from_jax {from_jax_s:.2f} s, save {save_ms:.1f} ms")
        print(f"artifact {size:,} bytes = {size / weight_bytes:.4f} x the weights")
        device = args.backend == "cpu" or _cuda()
        if device:
            loaded = dynhlo.load(path)
            np.testing.assert_allclose(np.asarray(loaded(x)), want, rtol=1e-4, atol=1e-4)
            warm = median_ms(lambda: dynhlo.load(path), args.runs)
            first = median_ms(lambda: np.asarray(dynhlo.load(path)(x)), args.runs)
            print(f"load warm {warm:.1f} ms (load + first call {first:.1f} ms)")
            imp, cold, call = cold_loads(path, x, want, args.runs)
            print(f"load cold {cold:.1f} ms (fresh process; import dynhlo {imp:.0f} ms before "
                  f"it, first call {call:.1f} ms after)")
        else:
            data = path.read_bytes()
            checks = median_ms(lambda: stored_module(read_artifact(
                Path(path).read_bytes())), args.runs)
            print(f"no CUDA here: read + checks + stored module with its constants "
                  f"{checks:.1f} ms (of {len(data):,} bytes); launching needs the GPU")
        text = exe.module.to_text()
        parse = median_ms(lambda: dynhlo.parse_hlo(text), 1)
        print(f"for comparison, the module as decimal text (format 3's form): "
              f"{len(text):,} bytes, parse_hlo {parse / 1e3:.2f} s")


def _cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


if __name__ == "__main__":
    main()
