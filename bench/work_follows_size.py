"""Does the GPU backend's time follow the actual size? (issue 4; DESIGN.md section 6)

The shared layernorm_residual and attention modules, with their row bound raised (the bound
is only text) so the GPU is busy, run through backend="gpu" at B/8, B/2 and B rows. Times
are medians of CUDA-event-timed calls (after warm-up) of the whole executable, host
overhead included, with inputs already on the device ("call"), and of replays of one call
captured as a CUDA graph ("dev": the device time alone, no host overhead). torch eager on the same shapes, and
the memory floor for layernorm (read x once, write once), give scale.

    python bench/work_follows_size.py [--layernorm-bound 65536] [--attention-bound 16384]
                                      [--reps 30] [--out results.json]

Target: time(B/8) / time(B) <= 0.25; and zero Triton compilations after the first size.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
MODELS = REPO.parent / "shared" / "models"
if not MODELS.is_dir():
    MODELS = REPO / "shared" / "models"

import torch  # noqa: E402

import dynhlo  # noqa: E402
from dynhlo import stats  # noqa: E402


def cuda_time(fn, reps: int, warmup: int = 5) -> float:
    """Median milliseconds of `fn()` between CUDA events."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def graph_time(fn, reps: int) -> float:
    """Median ms of replaying `fn` captured as a CUDA graph: device time, no host overhead."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()
        fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fn()
    return cuda_time(graph.replay, reps)


def layernorm_eager(x, gamma, beta):
    return x + torch.nn.functional.layer_norm(x, (x.shape[1],), gamma, beta, eps=1e-5)


def attention_eager(q, k, v):
    s = (q @ k.T) / 8.0
    return torch.softmax(s, dim=1) @ v


def bench_model(name: str, old_bound: int, bound: int, make_args, eager, reps: int,
                bytes_moved=None) -> list[dict]:
    text = (MODELS / name / "module.hlo").read_text().replace(f"<={old_bound}", f"<={bound}")
    exe = dynhlo.compile(text, backend="gpu")
    rows = []
    compiles_after_first = None
    for n in (bound, bound // 2, bound // 8):
        args = make_args(n)
        out = exe(*args)
        ref = eager(*args)
        err = (out - ref).abs().max().item() / max(ref.abs().max().item(), 1e-30)
        if compiles_after_first is None:
            compiles_after_first = stats.snapshot().get("kernel_compile", 0)
        t = cuda_time(lambda: exe(*args), reps)
        te = cuda_time(lambda: eager(*args), reps)
        tg = graph_time(lambda: exe(*args), reps)
        teg = graph_time(lambda: eager(*args), reps)
        row = {"model": name, "bound": bound, "rows": n, "dynhlo_ms": t, "eager_ms": te,
               "dynhlo_device_ms": tg, "eager_device_ms": teg, "max_rel_err_vs_eager": err}
        if bytes_moved:
            row["floor_ms"] = bytes_moved(n) / 4.25e12 * 1e3
        rows.append(row)
    recompiles = stats.snapshot().get("kernel_compile", 0) - compiles_after_first
    for row in rows:
        row["ratio_to_B"] = row["dynhlo_ms"] / rows[0]["dynhlo_ms"]
        row["device_ratio_to_B"] = row["dynhlo_device_ms"] / rows[0]["dynhlo_device_ms"]
        row["compiles_after_first_size"] = recompiles
    return rows


def sweep(opts, ln_args, attn_args) -> None:
    """Layernorm at B and attention at B under other (tile, warps, loop BN) settings."""
    from dynhlo.backends.gpu.kernels import codegen
    saved = codegen.ROW_TILE, codegen.ROW_WARPS, codegen.LOOP_BN
    ln = (MODELS / "layernorm_residual" / "module.hlo").read_text().replace(
        "<=256", f"<={opts.layernorm_bound}")
    at = (MODELS / "attention" / "module.hlo").read_text().replace(
        "<=256", f"<={opts.attention_bound}")
    x = ln_args(opts.layernorm_bound)
    q = attn_args(opts.attention_bound)
    for tile, warps, loop_bn in [(4096, 4, 512), (2048, 4, 512), (8192, 8, 1024),
                                 (4096, 8, 1024), (2048, 8, 2048), (1024, 4, 1024)]:
        codegen.ROW_TILE, codegen.ROW_WARPS, codegen.LOOP_BN = tile, warps, loop_bn
        t_ln = cuda_time(lambda e=dynhlo.compile(ln, backend="gpu"): e(*x), opts.reps)
        t_at = cuda_time(lambda e=dynhlo.compile(at, backend="gpu"): e(*q), opts.reps)
        print(f"sweep tile={tile:5d} warps={warps} loop_bn={loop_bn:5d}: layernorm(B) "
              f"{t_ln:.4f} ms  attention(B) {t_at:.4f} ms")
    codegen.ROW_TILE, codegen.ROW_WARPS, codegen.LOOP_BN = saved


ELEMENTWISE = """HloModule gelu_like
ENTRY main {
  x = f32[<=65536,1024]{1,0} parameter(0)
  c = f32[] constant(0.7978846)
  h = f32[] constant(0.5)
  one = f32[] constant(1)
  cb = f32[<=65536,1024]{1,0} broadcast(c), dimensions={}
  hb = f32[<=65536,1024]{1,0} broadcast(h), dimensions={}
  ob = f32[<=65536,1024]{1,0} broadcast(one), dimensions={}
  s = f32[<=65536,1024]{1,0} multiply(x, cb)
  t = f32[<=65536,1024]{1,0} tanh(s)
  a = f32[<=65536,1024]{1,0} add(t, ob)
  m = f32[<=65536,1024]{1,0} multiply(a, hb)
  ROOT y = f32[<=65536,1024]{1,0} multiply(x, m)
}
"""


def elementwise_bandwidth(reps: int) -> None:
    """A fused elementwise chain (one kernel) against a device-to-device copy, 256 MiB."""
    exe = dynhlo.compile(ELEMENTWISE, backend="gpu")
    x = torch.randn(65536, 1024, device="cuda")
    y = torch.empty_like(x)
    moved = 2 * x.numel() * 4
    t = graph_time(lambda: exe(x), reps)
    tc = graph_time(lambda: y.copy_(x), reps)
    print(f"fused elementwise (5 ops, 1 kernel) at 65536x1024 f32: {t:.4f} ms = "
          f"{moved / t / 1e6:.0f} GB/s; torch copy {tc:.4f} ms = {moved / tc / 1e6:.0f} GB/s; "
          f"ratio {tc / t:.2f}")


def host_overhead(reps: int) -> None:
    """Per-call time of a one-kernel module at 3 rows: all host overhead."""
    small = dynhlo.compile((MODELS / "softmax_rows" / "module.hlo").read_text(), backend="gpu")
    tiny = torch.randn(3, 37, device="cuda")
    print(f"host overhead: softmax_rows at 3 rows (one kernel) "
          f"{cuda_time(lambda: small(tiny), reps) * 1e3:.1f} us/call; torch.softmax "
          f"{cuda_time(lambda: torch.softmax(tiny, 1), reps) * 1e3:.1f} us/call")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layernorm-bound", type=int, default=65536)
    parser.add_argument("--attention-bound", type=int, default=16384)
    parser.add_argument("--reps", type=int, default=30)
    parser.add_argument("--out")
    parser.add_argument("--sweep", action="store_true",
                        help="also time layernorm at B under other row-kernel tilings")
    opts = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = "cuda"
    gen = torch.Generator(device=dev).manual_seed(0)

    def ln_args(n):
        return (torch.randn(n, 512, device=dev, generator=gen),
                torch.randn(512, device=dev, generator=gen),
                torch.randn(512, device=dev, generator=gen))

    def attn_args(n):
        return tuple(torch.randn(n, 64, device=dev, generator=gen) for _ in range(3))

    if opts.sweep:
        sweep(opts, ln_args, attn_args)
    rows = bench_model("layernorm_residual", 256, opts.layernorm_bound, ln_args,
                       layernorm_eager, opts.reps, bytes_moved=lambda n: 2 * n * 512 * 4)
    rows += bench_model("attention", 256, opts.attention_bound, attn_args, attention_eager,
                        opts.reps)
    print(f"{'model':18s} {'bound':>6s} {'rows':>6s} {'call ms':>8s} {'eager':>8s} "
          f"{'t/t(B)':>6s} {'dev ms':>8s} {'eager':>8s} {'dev/B':>6s} {'floor':>7s} "
          f"{'relerr':>7s} recomp")
    for r in rows:
        print(f"{r['model'][:18]:18s} {r['bound']:6d} {r['rows']:6d} {r['dynhlo_ms']:8.4f} "
              f"{r['eager_ms']:8.4f} {r['ratio_to_B']:6.3f} {r['dynhlo_device_ms']:8.4f} "
              f"{r['eager_device_ms']:8.4f} {r['device_ratio_to_B']:6.3f} "
              f"{r.get('floor_ms', float('nan')):7.4f} {r['max_rel_err_vs_eager']:7.1e} "
              f"{r['compiles_after_first_size']}")
    host_overhead(200)
    elementwise_bandwidth(opts.reps)
    if opts.out:
        Path(opts.out).write_text(json.dumps({"device": torch.cuda.get_device_name(),
                                              "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
