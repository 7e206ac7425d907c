"""One tensor-parallel transformer layer on 1, 2, 4 devices: time per call, and the scaling.

    python bench/distributed_scaling.py [--backend gpu|cpu] [--nproc 1 2] [--runs 20]
                                        [--out FILE]

The modules are bench/data/transformer_tp_nN.hlo (tools/gen_partitioned.py --bench: JAX's
partitioned layer, 1024 tokens, d_model 2048, 16 heads, MLP 8192, Megatron-style: two
all-reduces per layer). For each N, N processes (one GPU each, NCCL; or gloo on the CPU)
compile the module with distributed=True, make the same full arguments from one seed and
take their shards (the parameters' sharding=), run it `--runs` times after 3 warm-up calls,
and time each call between two barriers (device tensors in and out on the GPU: no host
copies in the figure). The figure is rank 0's median. Every N's result must match N=1's
(rtol 1e-3: the partial sums are added in another order).

Writes bench/results/distributed_scaling.json (and a plot when matplotlib is importable).
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import report  # noqa: E402


def _worker(rank, nproc, backend, cuda, store, runs, out):
    import torch
    import torch.distributed as dist

    import dynhlo
    from dynhlo.hlo.text.parser import parse_hlo
    from dynhlo.hlo.sharding import parse_sharding
    device = torch.device("cuda", rank) if cuda else None
    if cuda:
        torch.cuda.set_device(device)
    dist.init_process_group("nccl" if cuda else "gloo", init_method=f"file://{store}",
                            rank=rank, world_size=nproc, device_id=device,
                            timeout=datetime.timedelta(seconds=300))
    text = (ROOT / "bench" / "data" / f"transformer_tp_n{nproc}.hlo").read_text()
    module = parse_hlo(text)
    rng = np.random.default_rng(0)
    args = []
    for p in module.entry.parameters:
        full = _full_shape(p, nproc)
        value = (rng.standard_normal(full) / np.sqrt(full[0])).astype(np.float32)
        piece = parse_sharding(p.attrs.get("sharding")).piece(value, rank, p.name)
        args.append(torch.from_numpy(piece).cuda() if cuda else piece)
    exe = dynhlo.compile(module, backend=backend, distributed=True)
    for _ in range(3):
        result = exe(*args)
    times = []
    for _ in range(runs):
        dist.barrier()
        if cuda:
            torch.cuda.synchronize()
        start = time.perf_counter()
        result = exe(*args)
        if cuda:
            torch.cuda.synchronize()
        dist.barrier()
        times.append(time.perf_counter() - start)
    if rank == 0:
        value = result.cpu().numpy() if hasattr(result, "cpu") else np.asarray(result)
        np.save(out, value)
        with open(out + ".ms", "w") as f:
            f.write(str(1e3 * statistics.median(times)))
    dist.destroy_process_group()


def _full_shape(param, nproc):
    """The full shape of a parameter: its per-device shape times its tiles."""
    from dynhlo.hlo.sharding import parse_sharding
    sharding = parse_sharding(param.attrs.get("sharding"))
    dims = list(param.shape.dims)
    if sharding.tiles is None:
        return tuple(dims)
    return tuple(d * k for d, k in zip(dims, sharding.tiles.shape, strict=True))


def measure(nproc, backend, runs):
    import torch
    import torch.multiprocessing as mp
    cuda = backend == "gpu" and torch.cuda.is_available()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "result.npy")
        mp.start_processes(_worker, args=(nproc, backend, cuda, os.path.join(tmp, "store"),
                                          runs, out), nprocs=nproc,
                           start_method="spawn" if cuda else "fork")
        with open(out + ".ms") as f:
            return float(f.read()), np.load(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="gpu", choices=("cpu", "gpu"))
    parser.add_argument("--nproc", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--out", help="default: bench/results/distributed_scaling.json")
    opts = parser.parse_args()
    rows, reference = [], None
    for n in opts.nproc:
        ms, value = measure(n, opts.backend, opts.runs)
        if reference is None:
            reference = value
        np.testing.assert_allclose(value, reference, rtol=1e-3, atol=1e-3)
        rows.append((n, ms))
        print(f"N={n}: {ms:.2f} ms per layer (median of {opts.runs})", flush=True)
    base = rows[0][1]
    table = ["| devices | ms per layer | speedup over the first |", "|---:|---:|---:|"]
    table += [f"| {n} | {ms:.2f} | {base / ms:.2f}x |" for n, ms in rows]
    print("\n".join(table))
    device = "CPU (gloo)"
    if opts.backend == "gpu":
        import torch
        device = f"{torch.cuda.get_device_name(0)} x {max(opts.nproc)} (NCCL)"
    report.save("distributed_scaling", {
        "backend": opts.backend, "device": device, "runs": opts.runs,
        "rows": [{"devices": n, "ms_per_layer": ms, "speedup": base / ms} for n, ms in rows]},
        plot=_plot, out=opts.out)


def _plot(data: dict, path: Path) -> None:
    """ms per layer against the number of devices."""
    rows = data["rows"]
    report.bars(path, f"one tensor-parallel layer ({data['device']})",
                [str(r["devices"]) for r in rows],
                {"ms per layer": [r["ms_per_layer"] for r in rows]}, "ms per layer")

if __name__ == "__main__":
    main()
