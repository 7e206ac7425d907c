"""A register-tiled f32 matrix product in LLVM IR, `dynhlo_chain_tiled_f32`, for the runs of
native calls: C[M,N] = A[M,K] B[K,N], row-major C and A, B transposed or not (a transposed
A, rare outside gradients, stays BLAS's).

Why: NumPy's OpenBLAS packs both operands, zeroes C (beta = 0) and then adds each K block
into it. This kernel reads A in place, reads B's rows in place (a transposed B is packed
once into 32-column panels), and writes each C tile once: the 48-layer transformer on one
CPU runs 3-9% faster (bench/RESULTS.md, "A register-tiled product").

Its bits are BLAS's only where it sums in BLAS's order: each element is one chain of fused
multiply-adds over k from +0, over K blocks whose sums are added into C in order, K split
as OpenBLAS's level-3 driver splits it with GEMM_Q = `kc`: blocks of kc while 2 kc or more
are left, then what is left in one block if at most kc, else in two, the first half
rounded up to 16. Whether that order is the one NumPy's BLAS takes at given sizes is not
assumed: a product takes this kernel only where a probe at those sizes gave equal bits
(matmul_dispatch).

The routine reads the gemm wrapper's argument array (native_routines.py) with the BLAS
function's slot holding `kc` (BLAS's GEMM_Q): [kc, transa, transb, M, N, K, A, lda, B, ldb,
C, ldc, the byte extents of A, B and C, syrk's case]; it declines (returns 1) for a
transposed A, and where C overlaps an operand or a B to pack cannot be allocated.
"""

from __future__ import annotations

ROWS = 12          # rows of a register tile: 12 x 2 accumulators of 16 lanes, of 32 registers
# the tiles' row counts: M's last rows run through the largest that fits, and so on (few
# tiles: each costs LLVM ~25 ms to compile, at every process's start without a disk cache)
TILE_ROWS = (ROWS, 4, 1)
COLUMNS = 32       # columns of a tile (two vectors) and of a packed panel of B
_V = "<16 x float>"


def _tile(rows: int) -> str:
    """`tile<rows>`: C[0:rows, 0:32 masked] (+)= A rows times a B panel over `kk` steps
    (`add`: whether the sums are added to C: a K block after the first); A's element (r, k)
    at r * lda + k (k's stride a constant: LLVM keeps every row's address in a register)."""
    out = [f"define internal void @tile{rows}(ptr %A, i64 %lda, ptr %B, i64 %bks, "
           "ptr %C, i64 %ldc, i64 %kk, <16 x i1> %m0, <16 x i1> %m1, i1 %add) alwaysinline {",
           "entry:", "  br label %loop", "loop:", "  %k = phi i64 [0, %entry], [%kn, %loop]"]
    for r in range(rows):
        out += [f"  %s{r}_{h} = phi {_V} [zeroinitializer, %entry], [%t{r}_{h}, %loop]"
                for h in (0, 1)]
    out += ["  %bo = mul i64 %k, %bks",
            "  %b0p = getelementptr float, ptr %B, i64 %bo",
            "  %b1p = getelementptr float, ptr %b0p, i64 16",
            f"  %b0 = call {_V} @llvm.masked.load.v16f32.p0(ptr %b0p, i32 4, <16 x i1> %m0, "
            f"{_V} zeroinitializer)",
            f"  %b1 = call {_V} @llvm.masked.load.v16f32.p0(ptr %b1p, i32 4, <16 x i1> %m1, "
            f"{_V} zeroinitializer)",
            ]
    for r in range(rows):
        out += [f"  %ar{r} = mul i64 %lda, {r}",
                f"  %ao{r} = add i64 %ar{r}, %k",
                f"  %ap{r} = getelementptr float, ptr %A, i64 %ao{r}",
                f"  %a{r} = load float, ptr %ap{r}",
                f"  %ai{r} = insertelement {_V} poison, float %a{r}, i64 0",
                f"  %av{r} = shufflevector {_V} %ai{r}, {_V} poison, <16 x i32> zeroinitializer"]
        out += [f"  %t{r}_{h} = call {_V} @llvm.fma.v16f32({_V} %av{r}, {_V} %b{h}, "
                f"{_V} %s{r}_{h})" for h in (0, 1)]
    out += ["  %kn = add i64 %k, 1", "  %more = icmp slt i64 %kn, %kk",
            "  br i1 %more, label %loop, label %done",
            "done:", "  br i1 %add, label %sum, label %store", "sum:"]
    for r in range(rows):   # (a later K block: C's partial sum plus this block's, as BLAS)
        out += [f"  %co{r} = mul i64 %ldc, {r}",
                f"  %c{r}_0 = getelementptr float, ptr %C, i64 %co{r}",
                f"  %c{r}_1 = getelementptr float, ptr %c{r}_0, i64 16"]
        for h in (0, 1):
            out += [f"  %o{r}_{h} = call {_V} @llvm.masked.load.v16f32.p0(ptr %c{r}_{h}, "
                    f"i32 4, <16 x i1> %m{h}, {_V} zeroinitializer)",
                    f"  %p{r}_{h} = fadd {_V} %o{r}_{h}, %t{r}_{h}",
                    f"  call void @llvm.masked.store.v16f32.p0({_V} %p{r}_{h}, "
                    f"ptr %c{r}_{h}, i32 4, <16 x i1> %m{h})"]
    out += ["  ret void", "store:"]
    for r in range(rows):
        out += [f"  %so{r} = mul i64 %ldc, {r}",
                f"  %d{r}_0 = getelementptr float, ptr %C, i64 %so{r}",
                f"  %d{r}_1 = getelementptr float, ptr %d{r}_0, i64 16"]
        out += [f"  call void @llvm.masked.store.v16f32.p0({_V} %t{r}_{h}, "
                f"ptr %d{r}_{h}, i32 4, <16 x i1> %m{h})" for h in (0, 1)]
    return "\n".join(out + ["  ret void", "}"])


def _loads(names: tuple) -> str:
    """i64 loads of the argument array's slots, in order, named by `names`."""
    return "".join(f"  %{name}.p = getelementptr i64, ptr %a, i64 {k}\n"
                   f"  %{name} = load i64, ptr %{name}.p\n" for k, name in enumerate(names))


# `%declines`: where a gemm wrapper leaves the product to its Python step, from the
# argument array's A, B and C addresses (%ai, %bi, %ci), byte extents (%ea, %eb, %ec) and
# syrk's case (%sy): C overlapping an operand (NumPy would compute into a copy), or A and B
# one array in syrk's layout (native_routines.py's gemm wrappers and this routine)
GEMM_DECLINES = """  %ahi = add i64 %ai, %ea
  %bhi = add i64 %bi, %eb
  %chi = add i64 %ci, %ec
  %x1 = icmp ult i64 %ai, %chi
  %x2 = icmp ult i64 %ci, %ahi
  %xa = and i1 %x1, %x2
  %y1 = icmp ult i64 %bi, %chi
  %y2 = icmp ult i64 %ci, %bhi
  %yb = and i1 %y1, %y2
  %same = icmp eq i64 %ai, %bi
  %maybe = icmp ne i64 %sy, 0
  %sc = and i1 %same, %maybe
  %o1 = or i1 %xa, %yb
  %declines = or i1 %o1, %sc
"""

_ARGS = ("kc", "ta", "tb", "m", "n", "k", "ai", "lda", "bi", "ldb", "ci", "ldc", "ea", "eb",
         "ec", "sy")

_CASES = " ".join(f"i64 {rows}, label %rows{rows}" for rows in TILE_ROWS)
_CALLS = "".join(f"""rows{rows}:
  call void @tile{rows}(ptr %Aik, i64 %lda, ptr %Bjk, i64 %bks, ptr %Cij, i64 %ldc,
                              i64 %kk, <16 x i1> %m0, <16 x i1> %m1, i1 %later)
  br label %kcont
""" for rows in TILE_ROWS)



def _pick_rows() -> str:
    """`%mr`: the largest of TILE_ROWS at most `%left` (the rows left from `%i`)."""
    out, last = [], "1"
    for k, rows in enumerate(TILE_ROWS[-2::-1]):   # (1 is the default)
        out += [f"  %fits{k} = icmp sge i64 %left, {rows}",
                f"  %mr{k} = select i1 %fits{k}, i64 {rows}, i64 {last}"]
        last = f"%mr{k}"
    return "\n".join(out) + f"\n  %mr = add i64 {last}, 0\n"


# the lane masks %m0, %m1 of a panel's two vectors from their column counts %c0, %c1
_MASKS = "".join(f"""  %h{v} = shl i64 1, %c{v}
  %k{v} = sub i64 %h{v}, 1
  %q{v} = trunc i64 %k{v} to i16
  %m{v} = bitcast i16 %q{v} to <16 x i1>
""" for v in (0, 1))

_ENTRY = f"""
declare {_V} @llvm.fma.v16f32({_V}, {_V}, {_V})
declare {_V} @llvm.masked.load.v16f32.p0(ptr, i32, <16 x i1>, {_V})
declare void @llvm.masked.store.v16f32.p0({_V}, ptr, i32, <16 x i1>)
declare i64 @llvm.smin.i64(i64, i64)
declare i64 @llvm.smax.i64(i64, i64)
declare ptr @malloc(i64)
declare void @free(ptr)

define i32 @dynhlo_chain_tiled_f32(ptr %unused, ptr %a) {{
entry:
{_loads(_ARGS)}{GEMM_DECLINES}  %at = icmp ne i64 %ta, 111
  %no = or i1 %declines, %at
  br i1 %no, label %decline, label %go
decline:
  ret i32 1
go:
  %A = inttoptr i64 %ai to ptr
  %B = inttoptr i64 %bi to ptr
  %C = inttoptr i64 %ci to ptr
  %btr = icmp ne i64 %tb, 111
  %n.31 = add i64 %n, 31
  %panels = lshr i64 %n.31, 5
  br i1 %btr, label %pack, label %direct
direct:
  br label %ihead
pack:
  %cells = mul i64 %panels, %k
  %bytes = mul i64 %cells, 128
  %P = call ptr @malloc(i64 %bytes)
  %none = icmp eq ptr %P, null
  br i1 %none, label %decline, label %phead
phead:
  %pan = phi i64 [0, %pack], [%pann, %pnext]
  %pmore = icmp slt i64 %pan, %panels
  br i1 %pmore, label %plhead, label %ihead
plhead:
  %lane = phi i64 [0, %phead], [%lanen, %plast]
  %lanem = icmp slt i64 %lane, 32
  br i1 %lanem, label %plbody, label %pnext
plbody:
  %col0 = shl i64 %pan, 5
  %col = add i64 %col0, %lane
  %inside = icmp slt i64 %col, %n
  %colc = select i1 %inside, i64 %col, i64 0
  %srow = mul i64 %colc, %ldb
  %prow = mul i64 %pan, %k
  %pbase = shl i64 %prow, 5
  %pstart = add i64 %pbase, %lane
  br label %pk
pk:
  %kq = phi i64 [0, %plbody], [%kqn, %pk]
  %sidx = add i64 %srow, %kq
  %sp = getelementptr float, ptr %B, i64 %sidx
  %sv = load float, ptr %sp
  %svz = select i1 %inside, float %sv, float 0.0
  %kq32 = shl i64 %kq, 5
  %didx = add i64 %pstart, %kq32
  %dp = getelementptr float, ptr %P, i64 %didx
  store float %svz, ptr %dp
  %kqn = add i64 %kq, 1
  %kqm = icmp slt i64 %kqn, %k
  br i1 %kqm, label %pk, label %plast
plast:
  %lanen = add i64 %lane, 1
  br label %plhead
pnext:
  %pann = add i64 %pan, 1
  br label %phead
ihead:
  %Pb = phi ptr [null, %direct], [%P, %phead], [%Pb, %jend]
  %i = phi i64 [0, %direct], [0, %phead], [%inext, %jend]
  %imore = icmp slt i64 %i, %m
  br i1 %imore, label %ibody, label %exit
ibody:
  %left = sub i64 %m, %i
{_pick_rows()}  %ao = mul i64 %i, %lda
  %Ai = getelementptr float, ptr %A, i64 %ao
  %co = mul i64 %i, %ldc
  %Ci = getelementptr float, ptr %C, i64 %co
  br label %jhead
jhead:
  %j = phi i64 [0, %ibody], [%jnext, %kend]
  %jmore = icmp slt i64 %j, %n
  br i1 %jmore, label %jbody, label %jend
jbody:
  %cols = sub i64 %n, %j
  %c0 = call i64 @llvm.smin.i64(i64 %cols, i64 16)
  %c1a = sub i64 %cols, 16
  %c1b = call i64 @llvm.smax.i64(i64 %c1a, i64 0)
  %c1 = call i64 @llvm.smin.i64(i64 %c1b, i64 16)
{_MASKS}  %Cij = getelementptr float, ptr %Ci, i64 %j
  %packed = icmp ne ptr %Pb, null
  %pj = mul i64 %j, %k
  %Bpj = getelementptr float, ptr %Pb, i64 %pj
  %Bdj = getelementptr float, ptr %B, i64 %j
  %Bj = select i1 %packed, ptr %Bpj, ptr %Bdj
  %bks = select i1 %packed, i64 {COLUMNS}, i64 %ldb
  br label %khead
khead:
  %k0s = phi i64 [0, %jbody], [%kstop, %kcont]
  %kmore = icmp slt i64 %k0s, %k
  br i1 %kmore, label %kbody, label %kend
kbody:
  %kleft = sub i64 %k, %k0s
  %q2 = shl i64 %kc, 1
  %whole = icmp sge i64 %kleft, %q2
  %split = icmp sgt i64 %kleft, %kc
  %half = lshr i64 %kleft, 1
  %half16 = add i64 %half, 15
  %halves = and i64 %half16, -16
  %kk1 = select i1 %split, i64 %halves, i64 %kleft
  %kk = select i1 %whole, i64 %kc, i64 %kk1
  %kstop = add i64 %k0s, %kk
  %later = icmp ne i64 %k0s, 0
  %Aik = getelementptr float, ptr %Ai, i64 %k0s
  %bks0 = mul i64 %k0s, %bks
  %Bjk = getelementptr float, ptr %Bj, i64 %bks0
  switch i64 %mr, label %kcont [ {_CASES} ]
{_CALLS}kcont:
  br label %khead
kend:
  %jnext = add i64 %j, {COLUMNS}
  br label %jhead
jend:
  %inext = add i64 %i, %mr
  br label %ihead
exit:
  call void @free(ptr %Pb)
  ret i32 0
}}
"""

IR = _ENTRY + "\n".join(_tile(rows) for rows in TILE_ROWS) + "\n"
