"""Could dynhlo's own f32 matrix product match NumPy's bits and beat its OpenBLAS on a
transformer layer's shapes? An experiment, not a part of dynhlo: one register-tiled loop
nest in LLVM IR (llvmlite, compiled for this host), timed against np.matmul on one
pinned CPU, one thread.

    python bench/cpu_gemm_tile.py --threads one [--cpu N] [--rows 8] [--vectors 2]
        [--order columns|rows|packed]

The kernel computes C = A @ B (row-major f32; M a multiple of --rows, N of 16 x --vectors)
as one fused multiply-add chain per element over k in order, from +0, in a tile of
`rows x 16*vectors` accumulators: per block of rows and block of columns (in --order's
nesting), for each k, the tile's row of B (`vectors` loads: from B itself, or, packed,
from a dense copy of the column block) times each row's A[i, k] (a broadcast). C is
written once as +0 + the chain (OpenBLAS's beta = 0 zeroes C, then adds: a chain of -0
gives +0 there too). Bit for bit OpenBLAS's result where OpenBLAS does not split K
(K <= 256 on this host's SkylakeX kernels; at K = 512 it adds two chains of 256);
`bits_equal` says so per shape.

Writes bench/results/cpu_gemm_tile.json (or --out) and prints a markdown table.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import cpu_threads  # noqa: E402

SETUP = cpu_threads.from_argv(sys.argv)

import argparse  # noqa: E402
import ctypes  # noqa: E402

import numpy as np  # noqa: E402

import report  # noqa: E402
from timing import best_us  # noqa: E402

SHAPES = [(512, 64, 512), (512, 64, 256), (512, 64, 64), (512, 256, 64), (512, 512, 64)]


ORDERS = ("columns", "rows", "packed")


def kernel(rows: int, vectors: int, order: str = "columns"):
    """The compiled kernel `(A, B, C, M, N, K, scratch)` (addresses and i64 sizes; scratch:
    K x 16*vectors floats) and the engine holding its code. `order`: "columns", each block
    of B's columns kept while A's row blocks pass; "rows", a block of A's rows kept while
    B's column blocks pass; "packed", as "columns" with the block of B copied first into
    the dense scratch (rows of 16*vectors floats, not N apart)."""
    import llvmlite.binding as llvm
    import llvmlite.ir as ir

    from dynhlo.backends.cpu.compiled import machine
    machine._machine()
    tm = machine._target_machine()
    f32, i64 = ir.FloatType(), ir.IntType(64)
    vec, ptr = ir.VectorType(f32, 16), ir.PointerType(f32)
    module = ir.Module("tile")
    fma = ir.Function(module, ir.FunctionType(vec, [vec, vec, vec]), "llvm.fma.v16f32")
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(),
                                             [ptr, ptr, ptr, i64, i64, i64, ptr]), "tile")
    a, b, c, m, n, k, scratch = fn.args
    width = 16 * vectors
    builder = ir.IRBuilder(fn.append_basic_block("entry"))
    zero = ir.Constant(vec, [0.0] * 16)
    splat = ir.Constant(ir.VectorType(ir.IntType(32), 16), [0] * 16)

    def const(v):
        return ir.Constant(i64, v)

    def counted(limit, step, body, carried=()):
        """for i in range(0, limit, step): carried = body(i, carried); the last values."""
        before = builder.block
        head, loop, done = (builder.append_basic_block(x) for x in ("head", "loop", "done"))
        builder.branch(head)
        builder.position_at_end(head)
        i = builder.phi(i64)
        i.add_incoming(const(0), before)
        phis = []
        for value in carried:
            phi = builder.phi(value.type)
            phi.add_incoming(value, before)
            phis.append(phi)
        builder.cbranch(builder.icmp_signed("<", i, limit), loop, done)
        builder.position_at_end(loop)
        new = body(i, phis)
        i.add_incoming(builder.add(i, const(step)), builder.block)
        for phi, value in zip(phis, new, strict=True):
            phi.add_incoming(value, builder.block)
        builder.branch(head)
        builder.position_at_end(done)
        return phis

    def vector_at(base, index):
        return builder.bitcast(builder.gep(base, [index]), vec.as_pointer())

    def tile(i, j):
        def step(kk, accs):
            if order == "packed":
                brow, source = builder.mul(kk, const(width)), scratch
            else:
                brow, source = builder.add(builder.mul(kk, n), j), b
            bs = [builder.load(vector_at(source, builder.add(brow, const(16 * v))), align=4)
                  for v in range(vectors)]
            out = []
            for r in range(rows):
                at = builder.add(builder.mul(builder.add(i, const(r)), k), kk)
                one = builder.insert_element(ir.Constant(vec, ir.Undefined),
                                             builder.load(builder.gep(a, [at])),
                                             ir.Constant(ir.IntType(32), 0))
                av = builder.shuffle_vector(one, ir.Constant(vec, ir.Undefined), splat)
                out += [builder.call(fma, [av, bs[v], accs[r * vectors + v]])
                        for v in range(vectors)]
            return out
        accs = counted(k, 1, step, [zero] * (rows * vectors))
        for r in range(rows):
            crow = builder.add(builder.mul(builder.add(i, const(r)), n), j)
            for v in range(vectors):
                builder.store(builder.fadd(zero, accs[r * vectors + v]),
                              vector_at(c, builder.add(crow, const(16 * v))), align=4)
        return []
    def pack(j):
        def row(kk, _):
            at = builder.add(builder.mul(kk, n), j)
            for v in range(vectors):
                builder.store(builder.load(vector_at(b, builder.add(at, const(16 * v))),
                                           align=4),
                              vector_at(scratch, builder.add(builder.mul(kk, const(width)),
                                                             const(16 * v))), align=4)
            return []
        counted(k, 1, row)

    def column_block(j):
        if order == "packed":
            pack(j)
        return counted(m, rows, lambda i, _: tile(i, j))
    if order == "rows":
        counted(m, rows, lambda i, _: counted(n, width, lambda j, _: tile(i, j)))
    else:
        counted(n, width, lambda j, _: column_block(j))
    builder.ret_void()
    parsed = llvm.parse_assembly(str(module))
    parsed.triple, parsed.data_layout = tm.triple, str(tm.target_data)
    passes = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=3))
    passes.getModulePassManager().run(parsed, passes)
    engine = llvm.create_mcjit_compiler(parsed, tm)
    engine.finalize_object()
    call = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * 3, *[ctypes.c_int64] * 3,
                            ctypes.c_void_p)(engine.get_function_address("tile"))
    return call, engine


def rows_of(tile_rows: int, vectors: int, order: str, seconds: float) -> list:
    call, _engine = kernel(tile_rows, vectors, order)
    gen = np.random.default_rng(0)
    out = []
    for m, k, n in SHAPES:
        if m % tile_rows or n % (16 * vectors):
            continue
        a = gen.standard_normal((m, k)).astype(np.float32)
        b = gen.standard_normal((k, n)).astype(np.float32)
        c, want = np.empty((m, n), np.float32), np.empty((m, n), np.float32)
        scratch = np.empty((k, 16 * vectors), np.float32)

        def ours():
            call(a.ctypes.data, b.ctypes.data, c.ctypes.data, m, n, k, scratch.ctypes.data)
        ours()
        np.matmul(a, b, out=want)
        tile = f"{tile_rows}x{16 * vectors}, {order}"
        out.append({"m": m, "k": k, "n": n, "tile": tile,
                    "tile_us": best_us(ours, seconds),
                    "openblas_us": best_us(lambda: np.matmul(a, b, out=want), seconds),
                    "bits_equal": bool(np.array_equal(c, want)),
                    "max_abs_diff": float(np.abs(c - want).max())})
        print(out[-1], flush=True)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", choices=cpu_threads.MODES, default="one")
    p.add_argument("--cpu", type=int)
    p.add_argument("--rows", type=int, default=8, help="the tile's rows")
    p.add_argument("--vectors", type=int, default=2, help="the tile's columns / 16")
    p.add_argument("--order", choices=ORDERS, default="columns", help="see kernel()")
    p.add_argument("--seconds", type=float, default=1.0, help="per shape and side")
    p.add_argument("--out", help="default: bench/results/cpu_gemm_tile.json")
    opts = p.parse_args()
    if SETUP is None:
        sys.exit("run with --threads one (pinned, one thread)")
    data = {"setup": SETUP, "rows": rows_of(opts.rows, opts.vectors, opts.order,
                                                     opts.seconds)}
    print("| M x K x N | tile | tile us | OpenBLAS us | tile / OpenBLAS | bits equal |")
    print("|---|---|---:|---:|---:|---|")
    for r in data["rows"]:
        print(f"| {r['m']} x {r['k']} x {r['n']} | {r['tile']} | {r['tile_us']:.0f} | "
              f"{r['openblas_us']:.0f} | {r['tile_us'] / r['openblas_us']:.2f} | "
              f"{'yes' if r['bits_equal'] else 'no'} |")
    report.save("cpu_gemm_tile", data, out=opts.out)


if __name__ == "__main__":
    main()
