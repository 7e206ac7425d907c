"""Narrow-row softmax forms that do their elementwise work once, in the flat chunk (issue 10).

The staged row kernel (codegen.py, STAGED_*) computes the softmax's exponentials twice: in
the gathered [37 -> 64 columns, 64 rows] tile for the sum, and again in the flat chunk for
the result, and both layouts are padded to powers of two (4096 slots for 64 x 37 = 2368
values). The forms here compute every elementwise value once, in the flat chunk, and move
only the reductions' operands through shared memory into the tile:

- `flat`: R rows per program with R * C just under a power of two (R a multiple of 4, so a
  chunk starts 16-byte aligned), the exponentials gathered into the tile for the sum;
- `flat_loop`: the same, persistent: a grid of a few programs per SM that loops over the
  chunks with `tl.range(num_stages=S)`, so the next chunk's loads can be issued early;
- `stats`: the current staged form, hand-written (bench/narrow_gather.py), with `tl.max`
  or a NaN-propagating max, to measure what NaN propagation costs.

    python bench/narrow_flat.py [--rows 262144]                # on the GPU: us and x floor
    TRITON_INTERPRET=1 python bench/narrow_flat.py --check     # results, in the interpreter
"""

from __future__ import annotations


import triton
import triton.language as tl


@triton.jit
def _max_nan(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def _row_max(tile, NAN: tl.constexpr):
    if NAN:
        return tl.reduce(tile, 0, _max_nan)
    return tl.max(tile, axis=0)


@triton.jit
def _flat_chunk(x, out, row0, n, C: tl.constexpr, CP: tl.constexpr, R: tl.constexpr,
                RP: tl.constexpr, FLAT: tl.constexpr, NAN: tl.constexpr):
    f = tl.arange(0, FLAT)
    lim = tl.minimum(R * C, (n - row0) * C)
    lim4 = lim // 4 * 4
    chunk = tl.load(x + row0 * C + f, mask=f < lim4, other=0.0)
    if lim4 < lim:   # the last program's rows end inside a vector
        chunk = tl.load(x + row0 * C + f, mask=f < lim, other=0.0)
    c = tl.arange(0, CP)[:, None]
    r = tl.arange(0, RP)[None, :]
    valid = (c < C) & (r < R)
    where = tl.reshape(tl.where(valid, r * C + c, 0), [CP * RP])
    tile = tl.reshape(tl.gather(chunk, where, 0), [CP, RP])
    m = _row_max(tl.where(valid, tile, float("-inf")), NAN)
    row = tl.where(f < R * C, f // C, 0)
    e = tl.exp(chunk - tl.gather(m, row, 0))
    s = tl.sum(tl.where(valid, tl.reshape(tl.gather(e, where, 0), [CP, RP]), 0.0), axis=0)
    y = tl.div_rn(e, tl.gather(s, row, 0))
    tl.store(out + row0 * C + f, y, mask=f < lim4)
    if lim4 < lim:
        tl.store(out + row0 * C + f, y, mask=f < lim)


@triton.jit
def softmax_flat(x, out, n, C: tl.constexpr, CP: tl.constexpr, R: tl.constexpr,
                 RP: tl.constexpr, FLAT: tl.constexpr, NAN: tl.constexpr):
    """Softmax over rows of C floats, R rows per program (CP, RP, FLAT: the powers of two at
    or above C, R and R * C)."""
    _flat_chunk(x, out, tl.program_id(0) * R, n, C, CP, R, RP, FLAT, NAN)


@triton.jit
def softmax_flat_loop(x, out, n, P, ITERS: tl.constexpr, C: tl.constexpr, CP: tl.constexpr, R: tl.constexpr,
                      RP: tl.constexpr, FLAT: tl.constexpr, NAN: tl.constexpr,
                      STAGES: tl.constexpr):
    """`softmax_flat` on a grid of P programs: each loops ITERS times over every P-th chunk,
    pipelined over STAGES."""
    pid = tl.program_id(0)
    for i in tl.range(0, ITERS, num_stages=STAGES):
        # a program's last chunk may lie past the end: all its lanes are masked
        _flat_chunk(x, out, (pid + i * P) * R, n, C, CP, R, RP, FLAT, NAN)


@triton.jit
def softmax_stats(x, out, n, C: tl.constexpr, CP: tl.constexpr, R: tl.constexpr,
                  FLAT: tl.constexpr, NAN: tl.constexpr):
    """The staged kernel's form: max and sum (exponentials in the tile) reduced with a row
    per lane, gathered back by row, the result recomputed in the flat chunk."""
    row0 = tl.program_id(0) * R
    f = tl.arange(0, FLAT)
    lim = tl.minimum(R * C, (n - row0) * C)
    lim4 = lim // 4 * 4
    chunk = tl.load(x + row0 * C + f, mask=f < lim4, other=0.0)
    if lim4 < lim:
        chunk = tl.load(x + row0 * C + f, mask=f < lim, other=0.0)
    c = tl.arange(0, CP)[:, None]
    r = tl.arange(0, R)[None, :]
    valid = (c < C) & (row0 + r < n)
    tile = tl.reshape(tl.gather(chunk, tl.reshape(tl.where(valid, r * C + c, 0), [CP * R]), 0),
                      [CP, R])
    m = _row_max(tl.where(valid, tile, float("-inf")), NAN)
    s = tl.sum(tl.where(valid, tl.exp(tile - m[None, :]), 0.0), axis=0)
    row = tl.where(f < R * C, f // C, 0)
    y = tl.div_rn(tl.exp(chunk - tl.gather(m, row, 0)), tl.gather(s, row, 0))
    tl.store(out + row0 * C + f, y, mask=f < lim4)
    if lim4 < lim:
        tl.store(out + row0 * C + f, y, mask=f < lim)


def _p2(v: int) -> int:
    return triton.next_power_of_2(v)


def launch_flat(x, out, rows: int, warps: int, nan: bool = True, programs: int = 0,
                stages: int = 1) -> None:
    n, cols = x.shape
    shape = dict(C=cols, CP=_p2(cols), R=rows, RP=_p2(rows), FLAT=_p2(rows * cols), NAN=nan)
    if programs:
        grid = min(programs, triton.cdiv(n, rows))
        softmax_flat_loop[(grid,)](x, out, n, grid, triton.cdiv(triton.cdiv(n, rows), grid), **shape, STAGES=stages, num_warps=warps)
    else:
        softmax_flat[(triton.cdiv(n, rows),)](x, out, n, **shape, num_warps=warps)


def launch_stats(x, out, rows: int, warps: int, nan: bool = True, maxnreg=None) -> None:
    n, cols = x.shape
    limit = {} if maxnreg is None else {"maxnreg": maxnreg}   # more programs per SM
    softmax_stats[(triton.cdiv(n, rows),)](
        x, out, n, C=cols, CP=_p2(cols), R=rows, FLAT=_p2(rows * cols), NAN=nan,
        num_warps=warps, **limit)


def main() -> None:
    import torch
    from narrow_gather import check, measure, options, softmax_case, softmax_hlo
    opts = options(__doc__)
    if opts.check:
        cases = ((5, 37, 4, 1), (70, 37, 52, 2), (33, 5, 12, 1), (200, 37, 24, 2))
        check(cases, (launch_flat, lambda x, out, r, w: launch_flat(x, out, r, w, False),
                      lambda x, out, r, w: launch_flat(x, out, r, w, True, 3, 2)))
        check(((70, 37, 64, 2), (5, 37, 32, 1)), (launch_stats,))
        nan = torch.randn(9, 37)
        nan[3, 5] = float("nan")
        out = torch.empty_like(nan)
        launch_flat(nan, out, 4, 1)
        assert out[3].isnan().all() and not out[[0, 1, 2, 4]].isnan().any()
        return
    n, cols = opts.rows, 37
    x, out, want, floor = softmax_case(n, cols)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    big = torch.empty(2 * x.numel(), device="cuda")
    runs = [("torch copy (err: n/a)", lambda: (big[: x.numel()].copy_(big[x.numel():]), None)[1]),
            ("torch softmax", lambda: torch.softmax(x, -1, out=out))]
    import dynhlo
    exe = dynhlo.compile(softmax_hlo(n), backend="gpu")
    runs.append(("dynhlo call", lambda: exe(x)))
    for nan in (False, True):
        tag = " nan" if nan else ""
        runs += [(f"stats R=64 w4{tag}", lambda nan=nan: launch_stats(x, out, 64, 4, nan))]
        runs += [(f"flat R={r} w{w}{tag}", lambda r=r, w=w, nan=nan: launch_flat(x, out, r, w, nan))
                 for r, w in ((52, 2), (52, 4), (108, 4), (108, 8), (64, 4), (24, 1), (24, 2),
                              (216, 8))]
    runs += [(f"stats R=64 w4 nan maxnreg {m}",
              lambda m=m: launch_stats(x, out, 64, 4, True, m)) for m in (64, 72, 80, 88)]
    runs += [(f"stats R=32 w2 nan maxnreg {m}",
              lambda m=m: launch_stats(x, out, 32, 2, True, m)) for m in (None, 64, 80)]
    runs += [(f"flat loop R={r} w{w} x{k} s{s}",
              lambda r=r, w=w, k=k, s=s: launch_flat(x, out, r, w, True, k * sms, s))
             for r, w, k, s in ((52, 4, 8, 1), (52, 4, 8, 2), (52, 2, 16, 2), (108, 4, 4, 2),
                                (108, 4, 4, 3), (52, 4, 4, 3))]
    measure(runs, out, want, floor)


if __name__ == "__main__":
    main()
