"""A narrow-row softmax without shared-memory staging (issue 10: 37 columns at the floor).

The staged row kernel (`bench/narrow_gather.py`, what dynhlo generates at large bounds) moves
its chunk through shared memory twice with `tl.gather`; it runs at 1.6-1.8x the floor
where a copy of the same bytes runs at 1.2-1.3x. This form keeps the chunk in the flat,
vectorised layout it was loaded in and reduces each row with segmented scans: a forward
and a reverse inclusive scan of (value, row) pairs give, at every element, the reduction
over its row's prefix and suffix; the row's max is the max of the two, its sum the two
sums less the element. R rows per program, R * C a multiple of 4 so that every program's
chunk starts 16-byte aligned.

    python bench/narrow_scan.py [--rows 262144]               # on the GPU: us and x floor
    TRITON_INTERPRET=1 python bench/narrow_scan.py --check    # results, in the interpreter
"""

from __future__ import annotations

import sys
from pathlib import Path

import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parent))


@triton.jit
def _max_forward(va, sa, vb, sb):
    # rows increase along the chunk: an inclusive forward scan ends in the larger row
    return tl.where(sa == sb, tl.maximum(va, vb), tl.where(sa > sb, va, vb)), \
        tl.maximum(sa, sb)


@triton.jit
def _max_reverse(va, sa, vb, sb):
    return tl.where(sa == sb, tl.maximum(va, vb), tl.where(sa < sb, va, vb)), \
        tl.minimum(sa, sb)


@triton.jit
def _sum_forward(va, sa, vb, sb):
    return tl.where(sa == sb, va + vb, tl.where(sa > sb, va, vb)), tl.maximum(sa, sb)


@triton.jit
def _sum_reverse(va, sa, vb, sb):
    return tl.where(sa == sb, va + vb, tl.where(sa < sb, va, vb)), tl.minimum(sa, sb)


@triton.jit
def softmax_scan(x, out, n, C: tl.constexpr, R: tl.constexpr, FLAT: tl.constexpr):
    """Softmax over rows of C floats, R rows per program; FLAT: the power of two >= R * C."""
    pid = tl.program_id(0)
    f = tl.arange(0, FLAT)
    lim = tl.minimum(R * C, (n - pid * R) * C)
    inside = f < lim
    v = tl.load(x + pid * (R * C) + f, mask=inside, other=float("-inf"))
    row = f // C
    head, _ = tl.associative_scan((v, row), 0, _max_forward)
    tail, _ = tl.associative_scan((v, row), 0, _max_reverse, reverse=True)
    e = tl.where(inside, tl.exp(v - tl.maximum(head, tail)), 0.0)
    head, _ = tl.associative_scan((e, row), 0, _sum_forward)
    tail, _ = tl.associative_scan((e, row), 0, _sum_reverse, reverse=True)
    tl.store(out + pid * (R * C) + f, tl.div_rn(e, head + tail - e), mask=inside)


def launch(x, out, rows_per_program: int, warps: int) -> None:
    n, cols = x.shape
    softmax_scan[(triton.cdiv(n, rows_per_program),)](
        x, out, n, C=cols, R=rows_per_program,
        FLAT=triton.next_power_of_2(rows_per_program * cols), num_warps=warps)


def main() -> None:
    import torch
    import narrow_gather
    opts = narrow_gather.options(__doc__)
    if opts.check:
        narrow_gather.check(((5, 37, 108, 4), (300, 37, 108, 4), (70, 37, 52, 4),
                             (33, 5, 24, 4)), (launch,))
        return
    n, cols = opts.rows, 37
    x = torch.randn(n, cols, device="cuda")
    out = torch.empty_like(x)
    floor = narrow_gather.floor_us(x)
    print(f"floor {floor:.1f} us")
    runs = [("torch softmax", lambda: torch.softmax(x, -1, out=out)),
            ("gather R=64 w2", lambda: narrow_gather.launch(x, out, 64, 2))]
    runs += [(f"scan R={rpp} w{w}", lambda rpp=rpp, w=w: launch(x, out, rpp, w))
             for rpp, w in ((108, 4), (108, 8), (52, 2), (52, 4), (24, 1), (24, 2),
                            (216, 8), (216, 16))]
    narrow_gather.measure(runs, out, torch.softmax(x, -1), floor)


if __name__ == "__main__":
    main()
