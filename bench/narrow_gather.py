"""A narrow-row softmax with a lane per row (issue 10: softmax over 37 columns at the floor).

The generated row kernel lays a 37-float row over 32 lanes (its stride is not 16-byte
aligned, so Triton cannot vectorise along it), and each of its two reductions then costs
shuffles and barriers per element: 2.4x the memory floor at best. This form reads the
program's rows as one contiguous, aligned chunk (vector loads), moves them through shared
memory with `tl.gather` so that each lane holds a whole row (reductions without shuffles),
and back the same way for a contiguous store.

    python bench/narrow_gather.py [--rows 262144]        # on the GPU: us and x floor
    TRITON_INTERPRET=1 python bench/narrow_gather.py --check   # results, in the interpreter
"""

from __future__ import annotations

import argparse

import triton
import triton.language as tl


@triton.jit
def softmax_gather(x, out, n, C: tl.constexpr, CP: tl.constexpr, R: tl.constexpr,
                   FLAT: tl.constexpr, SPLIT: tl.constexpr):
    """Softmax over rows of C floats, R rows per program; CP and FLAT are the powers of two
    at or above C and R * C. SPLIT: whole chunks take a branch of their own."""
    row0 = tl.program_id(0) * R
    f = tl.arange(0, FLAT)
    if SPLIT and row0 + R <= n:   # a whole chunk: a static mask, so loads and stores are vectors
        _softmax_chunk(x + row0 * C, out + row0 * C, f < R * C, C, CP, R, FLAT)
    else:
        _softmax_chunk(x + row0 * C, out + row0 * C, (f < R * C) & (f < (n - row0) * C),
                       C, CP, R, FLAT)


@triton.jit
def _softmax_chunk(x, out, inside, C: tl.constexpr, CP: tl.constexpr, R: tl.constexpr,
                   FLAT: tl.constexpr):
    f = tl.arange(0, FLAT)
    chunk = tl.load(x + f, mask=inside, other=0.0)
    c = tl.arange(0, CP)[:, None]
    r = tl.arange(0, R)[None, :]
    valid = c < C
    where = tl.reshape(tl.where(valid, r * C + c, 0), [CP * R])
    tile = tl.reshape(tl.gather(chunk, where, 0), [CP, R])
    m = tl.max(tl.where(valid, tile, float("-inf")), axis=0, keep_dims=True)
    e = tl.where(valid, tl.exp(tile - m), 0.0)
    y = tl.div_rn(e, tl.sum(e, axis=0, keep_dims=True))
    back = tl.where(f < R * C, (f % C) * R + f // C, 0)
    tl.store(out + f, tl.gather(tl.reshape(y, [CP * R]), back, 0), mask=inside)


@triton.jit
def _chunk_and_tile(x, row0, n, C: tl.constexpr, CP: tl.constexpr, R: tl.constexpr,
                    FLAT: tl.constexpr):
    """The program's chunk of R rows as loaded (flat, masked by `inside`) and gathered into
    a [CP, R] tile with a row per lane (`valid`: the columns < C)."""
    f = tl.arange(0, FLAT)
    inside = (f < R * C) & (f < (n - row0) * C)
    chunk = tl.load(x + row0 * C + f, mask=inside, other=0.0)
    c = tl.arange(0, CP)[:, None]
    r = tl.arange(0, R)[None, :]
    valid = c < C
    where = tl.reshape(tl.where(valid, r * C + c, 0), [CP * R])
    return f, inside, chunk, tl.reshape(tl.gather(chunk, where, 0), [CP, R]), valid


@triton.jit
def softmax_stats(x, out, n, C: tl.constexpr, CP: tl.constexpr, R: tl.constexpr,
                  FLAT: tl.constexpr):
    """The staged form with one trip through shared memory: the rows' max and sum are
    reduced in the gathered tile (a row per lane), then only those two per-row values are
    gathered back to the flat chunk, where the result is computed and stored."""
    row0 = tl.program_id(0) * R
    f, inside, chunk, tile, valid = _chunk_and_tile(x, row0, n, C, CP, R, FLAT)
    m = tl.max(tl.where(valid, tile, float("-inf")), axis=0)
    s = tl.sum(tl.where(valid, tl.exp(tile - m[None, :]), 0.0), axis=0)
    row = tl.where(f < R * C, f // C, 0)
    y = tl.div_rn(tl.exp(chunk - tl.gather(m, row, 0)), tl.gather(s, row, 0))
    tl.store(out + row0 * C + f, y, mask=inside)


def launch_stats(x, out, rows_per_program: int, warps: int) -> None:
    n, cols = x.shape
    softmax_stats[(triton.cdiv(n, rows_per_program),)](
        x, out, n, C=cols, CP=triton.next_power_of_2(cols), R=rows_per_program,
        FLAT=triton.next_power_of_2(rows_per_program * cols), num_warps=warps)


@triton.jit
def softmax_tile_store(x, out, n, C: tl.constexpr, CP: tl.constexpr, R: tl.constexpr,
                       FLAT: tl.constexpr):
    """The staged form's first trip only: the result is stored from the tile (a row per
    lane: each store spans R rows, strided by the row's bytes)."""
    row0 = tl.program_id(0) * R
    f, inside, chunk, tile, valid = _chunk_and_tile(x, row0, n, C, CP, R, FLAT)
    m = tl.max(tl.where(valid, tile, float("-inf")), axis=0, keep_dims=True)
    e = tl.where(valid, tl.exp(tile - m), 0.0)
    y = tl.div_rn(e, tl.sum(e, axis=0, keep_dims=True))
    r = tl.arange(0, R)[None, :]
    tl.store(out + row0 * C + r * C + tl.arange(0, CP)[:, None], y,
             mask=valid & (row0 + r < n))


def launch_tile_store(x, out, rows_per_program: int, warps: int) -> None:
    n, cols = x.shape
    softmax_tile_store[(triton.cdiv(n, rows_per_program),)](
        x, out, n, C=cols, CP=triton.next_power_of_2(cols), R=rows_per_program,
        FLAT=triton.next_power_of_2(rows_per_program * cols), num_warps=warps)


def launch(x, out, rows_per_program: int, warps: int, split: bool = True) -> None:
    n, cols = x.shape
    cp = triton.next_power_of_2(cols)
    flat = triton.next_power_of_2(rows_per_program * cols)
    softmax_gather[(triton.cdiv(n, rows_per_program),)](
        x, out, n, C=cols, CP=cp, R=rows_per_program, FLAT=flat, SPLIT=split,
        num_warps=warps)


def check(cases, forms) -> None:
    """Each form(x, out, rows_per_program, warps) against torch's softmax in f64, for each
    case (rows, cols, rows_per_program, warps): in the interpreter, results only."""
    import torch
    for n, cols, rpp, w in cases:
        x = torch.randn(n, cols) * 4
        out = torch.empty_like(x)
        for form in forms:
            out.fill_(float("nan"))
            form(x, out, rpp, w)
            err = (out - torch.softmax(x.double(), -1).float()).abs().max().item()
            print(f"n={n} cols={cols} R={rpp}: max error {err:.1e}")
            assert err < 1e-6


def floor_us(x) -> float:
    """Reading and writing `x` once at the bandwidth of a 128 MiB device copy (us)."""
    import torch
    from triton.testing import do_bench
    big = torch.empty(64 << 20, device="cuda")
    copy_us = 1e3 * do_bench(lambda: big[: 32 << 20].copy_(big[32 << 20:]),
                             return_mode="median")
    return 2 * x.numel() * 4 / ((64 << 20) * 4 / (copy_us * 1e-6)) * 1e6


def measure(runs: list, out, want, floor: float) -> None:
    """Print each run's median us, its multiple of `floor` and its largest error against
    `want` (a run writes `out` or returns its result)."""
    import torch
    from triton.testing import do_bench
    for name, fn in runs:
        try:
            out.fill_(float("nan"))
            got = fn()
            torch.cuda.synchronize()
            err = ((out if got is None else got) - want).abs().max().item()
            us = 1e3 * do_bench(fn, return_mode="median")
            print(f"{name:24s} {us:8.1f} us  {us / floor:5.2f}x floor  err {err:.1e}",
                  flush=True)
        except Exception as exc:  # noqa: BLE001
            print(f"{name:24s} failed: {type(exc).__name__}: {str(exc)[:300]}", flush=True)


def softmax_hlo(rows: int) -> str:
    """The softmax_rows model (37 columns) with its row bound raised to `rows`."""
    from pathlib import Path
    return (Path(__file__).resolve().parents[1] / "tests/data/models/softmax_rows/module.hlo"
            ).read_text().replace("<=100", f"<={rows}")


def softmax_case(rows: int, cols: int):
    """(x, out, want, floor us) of a softmax over [rows, cols] on the GPU; prints the floor."""
    import torch
    x = torch.randn(rows, cols, device="cuda")
    floor = floor_us(x)
    print(f"floor {floor:.1f} us")
    return x, torch.empty_like(x), torch.softmax(x, -1), floor


def options(doc: str):
    """The narrow-row scripts' command line: --rows (at the bound) and --check."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--rows", type=int, default=262144)
    parser.add_argument("--check", action="store_true", help="results only (interpreter)")
    return parser.parse_args()


def main() -> None:
    import torch
    opts = options(__doc__)
    if opts.check:
        check(((5, 37, 32, 1), (70, 37, 64, 2), (33, 5, 32, 1)),
              (lambda x, out, rpp, w: launch(x, out, rpp, w, split=x.shape[0] % 2 == 0),
               launch_stats, launch_tile_store))
        return
    n, cols = opts.rows, 37
    x, out, want, floor = softmax_case(n, cols)
    import dynhlo
    text = softmax_hlo(n)
    from dynhlo.backends.gpu.kernels import codegen
    runs = [("torch softmax", lambda: torch.softmax(x, -1, out=out))]
    saved = codegen.STAGED_ROWS, codegen.STAGED_WARPS
    for rows, warps in ((64, 4), (64, 2)):
        # dynhlo's own call (its output allocated, as a call returns) with other tiles
        codegen.STAGED_ROWS, codegen.STAGED_WARPS = rows, warps
        exe = dynhlo.compile(text.replace("HloModule ", f"HloModule r{rows}w{warps}_"),
                             backend="gpu")
        runs.append((f"dynhlo call R={rows} w{warps}", lambda exe=exe: exe(x)))
    codegen.STAGED_ROWS, codegen.STAGED_WARPS = saved
    runs += [(f"gather R={rpp} w{w}{'' if split else ' one branch'}",
              lambda rpp=rpp, w=w, split=split: launch(x, out, rpp, w, split))
             for rpp, w, split in ((64, 2, True), (64, 2, False), (128, 4, True))]
    runs += [(f"stats R={rpp} w{w}", lambda rpp=rpp, w=w: launch_stats(x, out, rpp, w))
             for rpp, w in ((64, 2), (64, 4), (128, 4), (128, 2), (128, 8), (256, 8), (32, 1))]
    runs += [(f"tile store R={rpp} w{w}",
              lambda rpp=rpp, w=w: launch_tile_store(x, out, rpp, w))
             for rpp, w in ((64, 2), (128, 4))]
    measure(runs, out, want, floor)

if __name__ == "__main__":
    main()
