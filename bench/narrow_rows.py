"""Where a narrow-row softmax's time goes on one GPU (issue 10: softmax over 37 columns).

Times the row kernel dynhlo generates for `softmax_rows` at 262144 x 37 (f32) against
variants of it, a plain copy of the same bytes and torch's own softmax, and prints µs and
the multiple of the floor (bytes read and written once at the copy bandwidth measured here):

    tile R x 64      the generated kernel with R rows per program (BN = 64), W warps
    recip            the same, the divide by the row sum as a multiply by its reciprocal
    loop R x BN      the generated looped form (a pass per reduction over column tiles of BN,
                     re-reading the row from L1) with narrow tiles: at BN = 1 a lane owns a
                     row (no shuffles, no shared memory; Triton's layout for [R, 64] puts 32
                     lanes and two warps along a row, so each reduction is 10 shuffles and a
                     barrier per element held)
    copy R x 64      loads and stores the same [R, 64] tile: the access pattern alone
    flat copy        a 1-D contiguous copy: what the bytes cost at best
    torch softmax    torch.softmax(x, -1) (a hand-written CUDA kernel)

    python bench/narrow_rows.py [--rows 262144]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

_COPY = """import triton
import triton.language as tl


@triton.jit
def kernel(x, out, n, C: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    c = tl.arange(0, BN)[None, :]
    m = (r < n) & (c < C)
    tl.store(out + r * C + c, tl.load(x + r * C + c, mask=m), mask=m)
"""

_FLAT = """import triton
import triton.language as tl


@triton.jit
def kernel(x, out, numel, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i, mask=i < numel), mask=i < numel)
"""


def main() -> None:
    import torch
    from triton.testing import do_bench
    import dynhlo
    from dynhlo.backends.gpu.launch.kernel_cache import load_kernel
    from dynhlo.backends.gpu.plan.fusion import kernels_of
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=262144)
    opts = parser.parse_args()
    n, cols = opts.rows, 37
    text = (REPO / "tests/data/models/softmax_rows/module.hlo").read_text()
    text = text.replace("<=100", f"<={n}")
    exe = dynhlo.compile(text, backend="gpu")
    (kernel,) = kernels_of(exe.program.plan)
    print(kernel.source)
    x = torch.randn(n, cols, device="cuda")
    out = torch.empty_like(x)
    want = torch.softmax(x, -1)
    nbytes = 2 * x.numel() * 4
    big = torch.empty(64 << 20, device="cuda")
    copy_us = 1e3 * do_bench(lambda: big[: 32 << 20].copy_(big[32 << 20:]),
                             return_mode="median")
    floor = nbytes / ((64 << 20) * 4 / (copy_us * 1e-6)) * 1e6

    def report(name, fn, check=True):
        try:
            fn()
            torch.cuda.synchronize()
            err = (out - want).abs().max().item() if check else 0.0
            us = 1e3 * do_bench(fn, return_mode="median")
            print(f"{name:28s} {us:8.1f} us  {us / floor:5.2f}x floor  err {err:.1e}",
                  flush=True)
        except Exception as exc:  # noqa: BLE001
            print(f"{name:28s} failed: {type(exc).__name__}: {str(exc)[:300]}", flush=True)

    print(f"floor {floor:.1f} us ({nbytes / 1e6:.1f} MB at {copy_us:.1f} us per 256 MB copy)")
    report("dynhlo call", lambda: out.copy_(exe(x)), check=True)
    report("torch softmax", lambda: torch.softmax(x, -1, out=out))
    gen = load_kernel(kernel.source, "kernel", False)
    recip_src = kernel.source.replace("tl.div_rn(v5, v7)", "v5 * (1.0 / v7)")
    recip = load_kernel(recip_src, "kernel", False)
    for bm in (16, 32, 64, 128, 256):
        for w in (1, 2, 4, 8):
            grid = (triton_cdiv(n, bm),)
            report(f"tile {bm}x64 w{w}", lambda: gen[grid](x, out, n, BM=bm, BN=64,
                                                         num_warps=w))
            if bm in (64, 128) and w in (2, 4):
                report(f"recip {bm}x64 w{w}", lambda: recip[grid](x, out, n, BM=bm, BN=64,
                                                                num_warps=w))
    looped = load_kernel(_looped_source(text), "kernel", False)
    for bm in (128, 256, 512):
        for bn in (1, 2, 4, 8):
            for w in (2, 4):
                report(f"loop {bm}x{bn} w{w}", lambda: looped[(triton_cdiv(n, bm),)](
                    x, out, n, BM=bm, BN=bn, num_warps=w))
    copy = load_kernel(_COPY, "kernel", False)
    for bm in (32, 64, 128):
        report(f"copy {bm}x64 w4", lambda: copy[(triton_cdiv(n, bm),)](
            x, out, n, C=cols, BM=bm, BN=64, num_warps=4), check=False)
    flat = load_kernel(_FLAT, "kernel", False)
    report("flat copy 4096", lambda: flat[(triton_cdiv(x.numel(), 4096),)](
        x, out, x.numel(), BLOCK=4096, num_warps=4), check=False)


def _looped_source(text: str) -> str:
    """The module's row kernel as codegen writes it for reductions too wide to hold."""
    import dynhlo
    from dynhlo.backends.gpu.kernels import codegen
    from dynhlo.backends.gpu.plan.fusion import kernels_of
    saved, codegen.PERSISTENT_MAX = codegen.PERSISTENT_MAX, 16
    try:
        text = text.replace("HloModule jit_softmax_rows", "HloModule looped_softmax_rows")
        (kernel,) = kernels_of(dynhlo.compile(text, backend="gpu").program.plan)
    finally:
        codegen.PERSISTENT_MAX = saved
    assert "for cstart in range" in kernel.source
    return kernel.source


def triton_cdiv(a: int, b: int) -> int:
    return -(-a // b)


if __name__ == "__main__":
    main()
