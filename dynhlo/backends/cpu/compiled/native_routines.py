"""The native routines a run of native calls (native_chain.py) is made of, written in LLVM
IR and compiled once per process into the kernels' engine (machine.py; the object read from
the kernels' disk cache when there: machine.module_object): `run_list` (each
(function, argument array) of a list called in order; the index of the first that refused,
or the count), the matrix products' wrappers (gemm, gemv, dot, NumPy's loop without BLAS:
0 plus each product in order at the type's precision, as NumPy's baseline build computes
it), the strided copies (into a dense or a strided array) and the ufunc wrapper
(ufunc_loops.py); and the BLAS functions NumPy's matmul calls: its bundled scipy-openblas
(ILP64), found among the process's loaded libraries (none found: products stay Python
steps).
"""

from __future__ import annotations

import ctypes
import glob
import os

import llvmlite.binding as llvm
import numpy as np

from . import machine
from .tiled_gemm import GEMM_DECLINES
from .tiled_gemm import IR as _TILED_IR

RUN = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64)

# the list routine and the products' wrappers, `i32 (ptr, ptr)` as a kernel. gemm reads
# [cblas function, transa, transb, M, N, K, A, lda, B, ldb, C, ldc, the byte extents of
# A, B and C, whether A at B's address would be syrk's case]; gemv [function, order, M, N,
# A, lda, X, incx, Y, incy, extents of A, X, Y]; dot [function, n, X, incx, Y, incy, out,
# extents of X, Y, out] (i64 each). A wrapper declines (returns 1: the product is the
# Python step's) where its output overlaps an operand (the ufunc would compute into a
# copy) or, for gemm, A and B are one array in syrk's layout (operands read per call)
_IR = """
define i64 @dynhlo_chain_run(ptr %list, i64 %count) {
entry:
  br label %head
head:
  %i = phi i64 [0, %entry], [%next, %body]
  %more = icmp slt i64 %i, %count
  br i1 %more, label %body, label %end
body:
  %at = shl i64 %i, 1
  %fp = getelementptr i64, ptr %list, i64 %at
  %f = load i64, ptr %fp
  %ap = getelementptr i64, ptr %fp, i64 1
  %a = load i64, ptr %ap
  %fn = inttoptr i64 %f to ptr
  %args = inttoptr i64 %a to ptr
  %r = call i32 %fn(ptr null, ptr %args)
  %next = add i64 %i, 1
  %ok = icmp eq i32 %r, 0
  br i1 %ok, label %head, label %end
end:
  %out = phi i64 [%count, %head], [%i, %body]
  ret i64 %out
}
""" + "".join(f"""
define i32 @dynhlo_chain_gemm_{name}(ptr %unused, ptr %a) {{
entry:
  %p0 = getelementptr i64, ptr %a, i64 0
  %fi = load i64, ptr %p0
  %fn = inttoptr i64 %fi to ptr
  %p1 = getelementptr i64, ptr %a, i64 1
  %t1w = load i64, ptr %p1
  %t1 = trunc i64 %t1w to i32
  %p2 = getelementptr i64, ptr %a, i64 2
  %t2w = load i64, ptr %p2
  %t2 = trunc i64 %t2w to i32
  %p3 = getelementptr i64, ptr %a, i64 3
  %m = load i64, ptr %p3
  %p4 = getelementptr i64, ptr %a, i64 4
  %n = load i64, ptr %p4
  %p5 = getelementptr i64, ptr %a, i64 5
  %k = load i64, ptr %p5
  %p6 = getelementptr i64, ptr %a, i64 6
  %ai = load i64, ptr %p6
  %am = inttoptr i64 %ai to ptr
  %p7 = getelementptr i64, ptr %a, i64 7
  %lda = load i64, ptr %p7
  %p8 = getelementptr i64, ptr %a, i64 8
  %bi = load i64, ptr %p8
  %bm = inttoptr i64 %bi to ptr
  %p9 = getelementptr i64, ptr %a, i64 9
  %ldb = load i64, ptr %p9
  %p10 = getelementptr i64, ptr %a, i64 10
  %ci = load i64, ptr %p10
  %cm = inttoptr i64 %ci to ptr
  %p11 = getelementptr i64, ptr %a, i64 11
  %ldc = load i64, ptr %p11
  %p12 = getelementptr i64, ptr %a, i64 12
  %ea = load i64, ptr %p12
  %p13 = getelementptr i64, ptr %a, i64 13
  %eb = load i64, ptr %p13
  %p14 = getelementptr i64, ptr %a, i64 14
  %ec = load i64, ptr %p14
  %p15 = getelementptr i64, ptr %a, i64 15
  %sy = load i64, ptr %p15
{GEMM_DECLINES}  br i1 %declines, label %decline, label %call
decline:
  ret i32 1
call:
  call void %fn(i32 101, i32 %t1, i32 %t2, i64 %m, i64 %n, i64 %k, {ty} 1.0, ptr %am, i64 %lda,
                ptr %bm, i64 %ldb, {ty} 0.0, ptr %cm, i64 %ldc)
  ret i32 0
}}
""" for name, ty in (("f32", "float"), ("f64", "double"))) + "".join(f"""
define i32 @dynhlo_chain_gemv_{name}(ptr %unused, ptr %a) {{
entry:
  %p0 = getelementptr i64, ptr %a, i64 0
  %fi = load i64, ptr %p0
  %fn = inttoptr i64 %fi to ptr
  %p1 = getelementptr i64, ptr %a, i64 1
  %ow = load i64, ptr %p1
  %order = trunc i64 %ow to i32
  %p2 = getelementptr i64, ptr %a, i64 2
  %m = load i64, ptr %p2
  %p3 = getelementptr i64, ptr %a, i64 3
  %n = load i64, ptr %p3
  %p4 = getelementptr i64, ptr %a, i64 4
  %ai = load i64, ptr %p4
  %am = inttoptr i64 %ai to ptr
  %p5 = getelementptr i64, ptr %a, i64 5
  %lda = load i64, ptr %p5
  %p6 = getelementptr i64, ptr %a, i64 6
  %xi = load i64, ptr %p6
  %xm = inttoptr i64 %xi to ptr
  %p7 = getelementptr i64, ptr %a, i64 7
  %incx = load i64, ptr %p7
  %p8 = getelementptr i64, ptr %a, i64 8
  %yi = load i64, ptr %p8
  %ym = inttoptr i64 %yi to ptr
  %p9 = getelementptr i64, ptr %a, i64 9
  %incy = load i64, ptr %p9
  %p10 = getelementptr i64, ptr %a, i64 10
  %ea = load i64, ptr %p10
  %p11 = getelementptr i64, ptr %a, i64 11
  %ex = load i64, ptr %p11
  %p12 = getelementptr i64, ptr %a, i64 12
  %ey = load i64, ptr %p12
  %ahi = add i64 %ai, %ea
  %xhi = add i64 %xi, %ex
  %yhi = add i64 %yi, %ey
  %a1 = icmp ult i64 %ai, %yhi
  %a2 = icmp ult i64 %yi, %ahi
  %ac = and i1 %a1, %a2
  %x1 = icmp ult i64 %xi, %yhi
  %x2 = icmp ult i64 %yi, %xhi
  %xc = and i1 %x1, %x2
  %no = or i1 %ac, %xc
  br i1 %no, label %decline, label %call
decline:
  ret i32 1
call:
  call void %fn(i32 %order, i32 112, i64 %m, i64 %n, {ty} 1.0, ptr %am, i64 %lda,
                ptr %xm, i64 %incx, {ty} 0.0, ptr %ym, i64 %incy)
  ret i32 0
}}

define i32 @dynhlo_chain_dot_{name}(ptr %unused, ptr %a) {{
entry:
  %p0 = getelementptr i64, ptr %a, i64 0
  %fi = load i64, ptr %p0
  %fn = inttoptr i64 %fi to ptr
  %p1 = getelementptr i64, ptr %a, i64 1
  %n = load i64, ptr %p1
  %p2 = getelementptr i64, ptr %a, i64 2
  %xi = load i64, ptr %p2
  %xm = inttoptr i64 %xi to ptr
  %p3 = getelementptr i64, ptr %a, i64 3
  %incx = load i64, ptr %p3
  %p4 = getelementptr i64, ptr %a, i64 4
  %yi = load i64, ptr %p4
  %ym = inttoptr i64 %yi to ptr
  %p5 = getelementptr i64, ptr %a, i64 5
  %incy = load i64, ptr %p5
  %p6 = getelementptr i64, ptr %a, i64 6
  %oi = load i64, ptr %p6
  %om = inttoptr i64 %oi to ptr
  %p7 = getelementptr i64, ptr %a, i64 7
  %ex = load i64, ptr %p7
  %p8 = getelementptr i64, ptr %a, i64 8
  %ey = load i64, ptr %p8
  %p9 = getelementptr i64, ptr %a, i64 9
  %eo = load i64, ptr %p9
  %xhi = add i64 %xi, %ex
  %yhi = add i64 %yi, %ey
  %ohi = add i64 %oi, %eo
  %x1 = icmp ult i64 %xi, %ohi
  %x2 = icmp ult i64 %oi, %xhi
  %xc = and i1 %x1, %x2
  %y1 = icmp ult i64 %yi, %ohi
  %y2 = icmp ult i64 %oi, %yhi
  %yc = and i1 %y1, %y2
  %no = or i1 %xc, %yc
  br i1 %no, label %decline, label %call
decline:
  ret i32 1
call:
  %r = call {ty} %fn(i64 %n, ptr %xm, i64 %incx, ptr %ym, i64 %incy)
  {widen}
  %sum = fadd double 0.0, %wide
  {narrow}
  ret i32 0
}}
""" for name, ty, widen, narrow in (
    ("f32", "float", "%wide = fpext float %r to double",
     "%back = fptrunc double %sum to float\n  store float %back, ptr %om"),
    ("f64", "double", "%wide = fadd double %r, -0.0", "store double %sum, ptr %om")))

# a ufunc routine's arguments read and its overlap check ([loop, data, in, out, n, in step,
# out step, extents of in and out]; %args points at [in, out]; %no: an output overlapping the
# input other than exactly: declined, as NumPy would compute into a copy)
_UFUNC_ENTRY = """  %fi = load i64, ptr %a
  %fn = inttoptr i64 %fi to ptr
  %p1 = getelementptr i64, ptr %a, i64 1
  %di = load i64, ptr %p1
  %data = inttoptr i64 %di to ptr
  %args = getelementptr i64, ptr %a, i64 2
  %ii = load i64, ptr %args
  %p3 = getelementptr i64, ptr %a, i64 3
  %oi = load i64, ptr %p3
  %dims = getelementptr i64, ptr %a, i64 4
  %steps = getelementptr i64, ptr %a, i64 5
  %p7 = getelementptr i64, ptr %a, i64 7
  %ei = load i64, ptr %p7
  %p8 = getelementptr i64, ptr %a, i64 8
  %eo = load i64, ptr %p8
  %ihi = add i64 %ii, %ei
  %ohi = add i64 %oi, %eo
  %c1 = icmp ult i64 %ii, %ohi
  %c2 = icmp ult i64 %oi, %ihi
  %over = and i1 %c1, %c2
  %apart = icmp ne i64 %ii, %oi
  %no = and i1 %over, %apart"""

_IR += """
define i32 @dynhlo_chain_ufunc(ptr %unused, ptr %a) {
entry:
""" + _UFUNC_ENTRY + """
  br i1 %no, label %decline, label %call
decline:
  ret i32 1
call:
  call void %fn(ptr %args, ptr %dims, ptr %steps, ptr %data)
  ret i32 0
}
"""

# The ufunc's inner loop once per row, as NumPy's iterator calls it on an operand whose rows
# are dense but lie apart (a column block of a wider array: an LSTM's gate): reads the
# ufunc routine's nine values, then [rows, in row stride, out row stride] (bytes), the
# extents spanning every row
_IR += """
define i32 @dynhlo_chain_ufunc_rows(ptr %unused, ptr %a) {
entry:
""" + _UFUNC_ENTRY + """
  %p9 = getelementptr i64, ptr %a, i64 9
  %rows = load i64, ptr %p9
  %p10 = getelementptr i64, ptr %a, i64 10
  %irs = load i64, ptr %p10
  %p11 = getelementptr i64, ptr %a, i64 11
  %ors = load i64, ptr %p11
  %row = alloca [2 x i64]
  %a1 = getelementptr i64, ptr %row, i64 1
  br i1 %no, label %decline, label %head
decline:
  ret i32 1
head:
  %r = phi i64 [0, %entry], [%next, %body]
  %more = icmp slt i64 %r, %rows
  br i1 %more, label %body, label %end
body:
  %io = mul i64 %r, %irs
  %ip = add i64 %ii, %io
  %oo = mul i64 %r, %ors
  %op = add i64 %oi, %oo
  store i64 %ip, ptr %row
  store i64 %op, ptr %a1
  call void %fn(ptr %row, ptr %dims, ptr %steps, ptr %data)
  %next = add i64 %r, 1
  br label %head
end:
  ret i32 0
}
"""

# matmul.c.src's @TYPE@_matmul_inner_noblas: each output element 0 plus the products in
# order, rounded to the type at each step. Reads [0, A, A's row and column strides, B,
# B's row and column strides, C, C's, M, N (the inner size), P, extents of A, B, C] (bytes)
_IR += "".join(f"""
define i32 @dynhlo_chain_noblas_{name}(ptr %unused, ptr %a) {{
entry:
  %p1 = getelementptr i64, ptr %a, i64 1
  %ai = load i64, ptr %p1
  %p2 = getelementptr i64, ptr %a, i64 2
  %am = load i64, ptr %p2
  %p3 = getelementptr i64, ptr %a, i64 3
  %an = load i64, ptr %p3
  %p4 = getelementptr i64, ptr %a, i64 4
  %bi = load i64, ptr %p4
  %p5 = getelementptr i64, ptr %a, i64 5
  %bn = load i64, ptr %p5
  %p6 = getelementptr i64, ptr %a, i64 6
  %bp = load i64, ptr %p6
  %p7 = getelementptr i64, ptr %a, i64 7
  %ci = load i64, ptr %p7
  %p8 = getelementptr i64, ptr %a, i64 8
  %cm = load i64, ptr %p8
  %p9 = getelementptr i64, ptr %a, i64 9
  %cp = load i64, ptr %p9
  %p10 = getelementptr i64, ptr %a, i64 10
  %dm = load i64, ptr %p10
  %p11 = getelementptr i64, ptr %a, i64 11
  %dn = load i64, ptr %p11
  %p12 = getelementptr i64, ptr %a, i64 12
  %dp = load i64, ptr %p12
  %p13 = getelementptr i64, ptr %a, i64 13
  %ea = load i64, ptr %p13
  %p14 = getelementptr i64, ptr %a, i64 14
  %eb = load i64, ptr %p14
  %p15 = getelementptr i64, ptr %a, i64 15
  %ec = load i64, ptr %p15
  %ahi = add i64 %ai, %ea
  %bhi = add i64 %bi, %eb
  %chi = add i64 %ci, %ec
  %a1 = icmp ult i64 %ai, %chi
  %a2 = icmp ult i64 %ci, %ahi
  %ac = and i1 %a1, %a2
  %b1 = icmp ult i64 %bi, %chi
  %b2 = icmp ult i64 %ci, %bhi
  %bc = and i1 %b1, %b2
  %no = or i1 %ac, %bc
  br i1 %no, label %decline, label %mhead
decline:
  ret i32 1
mhead:
  %m = phi i64 [0, %entry], [%mnext, %mlatch]
  %mmore = icmp slt i64 %m, %dm
  br i1 %mmore, label %phead, label %done
phead:
  %pp = phi i64 [0, %mhead], [%pnext, %pend]
  %pmore = icmp slt i64 %pp, %dp
  br i1 %pmore, label %nhead, label %mlatch
nhead:
  %n = phi i64 [0, %phead], [%nnext, %nbody]
  %acc = phi {ty} [0.0, %phead], [%sum, %nbody]
  %nmore = icmp slt i64 %n, %dn
  br i1 %nmore, label %nbody, label %pend
nbody:
  %aoff1 = mul i64 %m, %am
  %aoff2 = mul i64 %n, %an
  %aoff = add i64 %aoff1, %aoff2
  %aat = add i64 %ai, %aoff
  %aptr = inttoptr i64 %aat to ptr
  %x = load {ty}, ptr %aptr
  %boff1 = mul i64 %n, %bn
  %boff2 = mul i64 %pp, %bp
  %boff = add i64 %boff1, %boff2
  %bat = add i64 %bi, %boff
  %bptr = inttoptr i64 %bat to ptr
  %y = load {ty}, ptr %bptr
  %prod = fmul {ty} %x, %y
  %sum = fadd {ty} %acc, %prod
  %nnext = add i64 %n, 1
  br label %nhead
pend:
  %coff1 = mul i64 %m, %cm
  %coff2 = mul i64 %pp, %cp
  %coff = add i64 %coff1, %coff2
  %cat = add i64 %ci, %coff
  %cptr = inttoptr i64 %cat to ptr
  store {ty} %acc, ptr %cptr
  %pnext = add i64 %pp, 1
  br label %phead
mlatch:
  %mnext = add i64 %m, 1
  br label %mhead
done:
  ret i32 0
}}
""" for name, ty in (("f32", "float"), ("f64", "double")))

# np.add.reduce of a C-ordered array over one axis that is not its last, viewed as [outer,
# L, inner] (inner > 1): NumPy's iterator runs the inner axis innermost, so each sum starts
# from +0 and adds the L terms in order, rounded to the type at each step; then the init is
# added. Reads [x, out (dense [outer, inner]), outer, L, inner, x's outer and L byte
# strides, the init as f64 bits]. Declines (1) at a sum that is a zero (XLA's -0 sums are
# the Python step's: ops_reduce._negative_zero_sums) or a NaN (which of two NaNs a sum
# keeps is NumPy's loop's choice)
_IR += "".join("""
define i32 @dynhlo_chain_sums_{name}(ptr %unused, ptr %a) {{
entry:
  %xi = load i64, ptr %a
  %p1 = getelementptr i64, ptr %a, i64 1
  %oi = load i64, ptr %p1
  %p2 = getelementptr i64, ptr %a, i64 2
  %outer = load i64, ptr %p2
  %p3 = getelementptr i64, ptr %a, i64 3
  %len = load i64, ptr %p3
  %p4 = getelementptr i64, ptr %a, i64 4
  %inner = load i64, ptr %p4
  %p5 = getelementptr i64, ptr %a, i64 5
  %so = load i64, ptr %p5
  %p6 = getelementptr i64, ptr %a, i64 6
  %sl = load i64, ptr %p6
  %p7 = getelementptr i64, ptr %a, i64 7
  %ib = load i64, ptr %p7
  %initd = bitcast i64 %ib to double
  {init}
  %rowbytes = mul i64 %inner, {size}
  br label %ohead
ohead:
  %o = phi i64 [0, %entry], [%onext, %ihead]
  %omore = icmp slt i64 %o, %outer
  br i1 %omore, label %obody, label %done
obody:
  %xoff = mul i64 %o, %so
  %xoi = add i64 %xi, %xoff
  %ooff = mul i64 %o, %rowbytes
  %ooi = add i64 %oi, %ooff
  %orow = inttoptr i64 %ooi to ptr
  br label %zhead
zhead:
  %z = phi i64 [0, %obody], [%znext, %zbody]
  %zmore = icmp slt i64 %z, %inner
  br i1 %zmore, label %zbody, label %lhead
zbody:
  %zp = getelementptr {ty}, ptr %orow, i64 %z
  store {ty} 0.0, ptr %zp
  %znext = add i64 %z, 1
  br label %zhead
lhead:
  %l = phi i64 [0, %zhead], [%lnext, %chead]
  %lmore = icmp slt i64 %l, %len
  br i1 %lmore, label %lbody, label %ihead.0
lbody:
  %loff = mul i64 %l, %sl
  %xli = add i64 %xoi, %loff
  %xrow = inttoptr i64 %xli to ptr
  %lnext = add i64 %l, 1
  br label %chead
chead:
  %k = phi i64 [0, %lbody], [%knext, %cbody]
  %kmore = icmp slt i64 %k, %inner
  br i1 %kmore, label %cbody, label %lhead
cbody:
  %xp = getelementptr {ty}, ptr %xrow, i64 %k
  %xv = load {ty}, ptr %xp
  %op = getelementptr {ty}, ptr %orow, i64 %k
  %ov = load {ty}, ptr %op
  %sum = fadd {ty} %ov, %xv
  store {ty} %sum, ptr %op
  %knext = add i64 %k, 1
  br label %chead
ihead.0:
  br label %ihead
ihead:
  %j = phi i64 [0, %ihead.0], [%jnext, %ibody2]
  %onext = add i64 %o, 1
  %jmore = icmp slt i64 %j, %inner
  br i1 %jmore, label %ibody, label %ohead
ibody:
  %jp = getelementptr {ty}, ptr %orow, i64 %j
  %jv = load {ty}, ptr %jp
  %zero = fcmp ueq {ty} %jv, 0.0
  br i1 %zero, label %decline, label %ibody2
ibody2:
  %with = fadd {ty} %jv, %init
  store {ty} %with, ptr %jp
  %jnext = add i64 %j, 1
  br label %ihead
decline:
  ret i32 1
done:
  ret i32 0
}}
""".format(name=name, ty=ty, size=size, init=init)
    for name, ty, size, init in (
        ("f32", "float", 4, "%init = fptrunc double %initd to float"),
        ("f64", "double", 8, "%init = fadd double %initd, -0.0")))

def _copy_ir(size: int, placed: bool) -> str:
    """`copy{size}`: the elements of a strided array of at most 6 dimensions, in C order,
    into a dense one: [destination, source, 6 sizes, 6 byte strides]. `place{size}`
    (`placed`): into a strided one: [destination, source, 6 sizes, the source's 6 byte
    strides, the destination's 6]. A row whose innermost stride is the element's on both
    sides goes as one memmove (the element loop stays scalar: LLVM cannot vectorise a copy of
    run-time strides). `optsize`: at -O3 LLVM's unrolling of the six loops took two thirds
    of the routines' compile time for no faster copy."""
    ty = f"i{8 * size}"
    name = "place" if placed else "copy"
    lines = [f"define i32 @dynhlo_chain_{name}{size}(ptr %unused, ptr %a) optsize {{",
             "entry:",
             "  %d0 = load i64, ptr %a", "  %dst = inttoptr i64 %d0 to ptr",
             "  %p1 = getelementptr i64, ptr %a, i64 1", "  %src = load i64, ptr %p1"]
    for k in range(6):
        lines += [f"  %pn{k} = getelementptr i64, ptr %a, i64 {2 + k}",
                  f"  %n{k} = load i64, ptr %pn{k}",
                  f"  %ps{k} = getelementptr i64, ptr %a, i64 {8 + k}",
                  f"  %s{k} = load i64, ptr %ps{k}"]
        if placed:
            lines += [f"  %pt{k} = getelementptr i64, ptr %a, i64 {14 + k}",
                      f"  %t{k} = load i64, ptr %pt{k}"]
    lines += [f"  %dsrc = icmp eq i64 %s5, {size}", f"  %ddst = icmp eq i64 %t5, {size}",
              "  %dense = and i1 %dsrc, %ddst"] if placed else \
        [f"  %dense = icmp eq i64 %s5, {size}"]
    lines += [f"  %rowbytes = mul i64 %n5, {size}", "  br label %h0"]
    # loop k: head h{k}, index i{k}; at{k}: the source's byte address so far; q{k}: the
    # element's C-order index so far (the destination's is q5 elements on), or (`placed`)
    # the destination's byte address so far
    for k in range(6):
        before = "entry" if k == 0 else f"b{k - 1}"
        base = "%src" if k == 0 else f"%at{k - 1}"
        lines += [f"h{k}:",
                  f"  %i{k} = phi i64 [0, %{before}], [%i{k}n, %l{k}]",
                  f"  %c{k} = icmp slt i64 %i{k}, %n{k}",
                  f"  br i1 %c{k}, label %b{k}, label %x{k}",
                  f"b{k}:",
                  f"  %m{k} = mul i64 %i{k}, %s{k}",
                  f"  %at{k} = add i64 {base}, %m{k}"]
        if placed:
            lines += [f"  %r{k} = mul i64 %i{k}, %t{k}",
                      f"  %q{k} = add i64 {'%d0' if k == 0 else f'%q{k - 1}'}, %r{k}"]
        else:
            lines += [f"  %q{k} = add i64 %i{k}, 0"] if k == 0 else \
                [f"  %r{k} = mul i64 %q{k - 1}, %n{k}", f"  %q{k} = add i64 %r{k}, %i{k}"]
        if k == 4:
            lines += ["  br i1 %dense, label %row, label %h5"]
        else:
            lines += [f"  br label %{'h' + str(k + 1) if k < 5 else 'body'}"]
    lines += ["body:", "  %from = inttoptr i64 %at5 to ptr",
              f"  %v = load {ty}, ptr %from"]
    lines += ["  %to = inttoptr i64 %q5 to ptr"] if placed else \
        [f"  %to = getelementptr {ty}, ptr %dst, i64 %q5"]
    lines += [f"  store {ty} %v, ptr %to", "  br label %l5"]
    # a dense row: i5 = 0's addresses, the whole row at once
    lines += ["row:", "  %rfrom = inttoptr i64 %at4 to ptr"]
    lines += ["  %rto = inttoptr i64 %q4 to ptr"] if placed else \
        ["  %rq = mul i64 %q4, %n5", f"  %rto = getelementptr {ty}, ptr %dst, i64 %rq"]
    lines += ["  call void @llvm.memmove.p0.p0.i64(ptr %rto, ptr %rfrom, i64 %rowbytes, i1 false)",
              "  br label %l4"]
    for k in range(5, -1, -1):
        lines += [f"l{k}:", f"  %i{k}n = add i64 %i{k}, 1", f"  br label %h{k}"]
        lines += [f"x{k}:", f"  br label %{'l' + str(k - 1) if k > 0 else 'done'}"]
    lines += ["done:", "  ret i32 0", "}", ""]
    return "\n".join(lines)


_IR += """
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
""" + "".join(_copy_ir(size, placed) for size in (1, 2, 4, 8) for placed in (False, True))

# `rows{4,8}`: a gather of whole rows of a table at indices read per call, each clamped into
# [0, rows - 1] as XLA clamps a gather's start indices: [destination, table, indices (i32
# or i64, dense), their count, the table's rows, a row's bytes]
_IR += "".join(f"""
define i32 @dynhlo_chain_rows{size}(ptr %unused, ptr %a) {{
entry:
  %d0 = load i64, ptr %a
  %p1 = getelementptr i64, ptr %a, i64 1
  %t0 = load i64, ptr %p1
  %p2 = getelementptr i64, ptr %a, i64 2
  %i0 = load i64, ptr %p2
  %p3 = getelementptr i64, ptr %a, i64 3
  %count = load i64, ptr %p3
  %p4 = getelementptr i64, ptr %a, i64 4
  %rows = load i64, ptr %p4
  %p5 = getelementptr i64, ptr %a, i64 5
  %bytes = load i64, ptr %p5
  %last = sub i64 %rows, 1
  %ids = inttoptr i64 %i0 to ptr
  br label %head
head:
  %k = phi i64 [0, %entry], [%next, %body]
  %more = icmp slt i64 %k, %count
  br i1 %more, label %body, label %done
body:
  %ip = getelementptr {ty}, ptr %ids, i64 %k
  %raw = load {ty}, ptr %ip
  %id = {widen}
  %low = icmp slt i64 %id, 0
  %lifted = select i1 %low, i64 0, i64 %id
  %high = icmp sgt i64 %lifted, %last
  %row = select i1 %high, i64 %last, i64 %lifted
  %from = mul i64 %row, %bytes
  %src = add i64 %t0, %from
  %to = mul i64 %k, %bytes
  %dst = add i64 %d0, %to
  %sp = inttoptr i64 %src to ptr
  %dp = inttoptr i64 %dst to ptr
  call void @llvm.memcpy.p0.p0.i64(ptr %dp, ptr %sp, i64 %bytes, i1 false)
  %next = add i64 %k, 1
  br label %head
done:
  ret i32 0
}}
"""
    for size, ty, widen in ((4, "i32", "sext i32 %raw to i64"), (8, "i64", "add i64 %raw, 0")))

_IR += _TILED_IR

_state: dict = {}
_offered: dict = {}   # the linked routines' object, by key (_link(): for artifacts)


def offer(stored: dict) -> None:
    """Link the routines' object among an artifact's stored objects (key -> bytes, their
    checksums checked; the artifact's compiler identity this host's) unless the process
    has linked them already, so the process that loads it does not compile them (the
    kernels' disk cache may be empty: a fresh machine). Linked at load, not at the first
    run: an object that does not define them is refused by the load, and no later module
    of the process takes it (the loader calls this once the artifact's program is made,
    so a refused artifact leaves nothing behind).

    Raises:
        machine.UnusableObject: the stored object is no object file LLVM reads or does
            not define every routine.
    """
    key = machine.module_key(_IR)
    obj = stored.get(key)
    if obj is None:   # (an artifact written before the routines were stored)
        return
    # (LLVM's reader returns none for what is no object file, which the JIT would
    # dereference; a routine it does not define would be called at address 0; checked
    # where the process has its own linked too, so that a file loads the same anywhere)
    if not llvm.ObjectFileRef.from_data(obj) or \
            any(f"dynhlo_chain_{name}".encode() not in obj for name in _NAMES):
        raise machine.UnusableObject(key)
    if not _state:
        _link(lambda: obj)


def routines_object() -> tuple[str, bytes]:
    """(key, object code) of the routines, for an artifact (aot.to_payload)."""
    return machine.module_key(_IR), machine.module_object(_IR, "dynhlo_chain_run", _offered)
_ROW_MAJOR, _COL_MAJOR, _NO_TRANS, _TRANS = 101, 102, 111, 112   # cblas.h's enums


# the routines' names in `_routines()`, each defined by the IR as dynhlo_chain_<name>
_NAMES = ("run", "ufunc", "ufunc_rows", "sums_f32", "sums_f64",
          *(f"{kind}{size}" for kind in ("copy", "place") for size in (1, 2, 4, 8)),
          "rows4", "rows8",
          *(f"{kind}_{ty}" for kind in ("gemm", "gemv", "dot", "noblas") for ty in ("f32", "f64")),
          "tiled_f32")


def _routines() -> dict:
    """{"run": RUN callable, "gemm_f32" ...: the wrappers' addresses, "sgemm" ...: the BLAS
    functions', "blas_threads": its thread count's getter, "engine": the engine holding
    their code}, compiled once per process into
    an engine of their own (_link)."""
    if not _state:
        _link(lambda: machine.module_object(_IR, "dynhlo_chain_run"))
    return _state


def _link(get_object) -> None:
    """Link the routines' object (`get_object()`: its bytes) once per process; the bytes
    kept for an artifact (routines_object) only once every routine is found in them.

    Raises:
        machine.UnusableObject: the object does not define every routine (nothing kept:
            the next module compiles them).
    """
    with machine._lock:
        if _state:
            return
        machine._machine()   # (LLVM's native target initialised)
        obj = get_object()
        # an engine of their own: an object refused here (an artifact's, naming the
        # routines without defining them) stays out of the kernels' engine, where a
        # definition it holds could stand for a later module's kernel of the same name
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""),
                                            machine._target_machine())
        engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        engine.finalize_object()
        # (the engine kept: its code must outlive every spec holding these addresses)
        found = {name: engine.get_function_address(f"dynhlo_chain_{name}")
                 for name in _NAMES}
        if not all(found.values()):   # (names in the bytes, but not defined there)
            raise machine.UnusableObject(machine.module_key(_IR))
        found["run"] = RUN(found["run"])
        found["engine"] = engine
        found.update(_blas())
        _offered[machine.module_key(_IR)] = bytes(obj)
        _state.update(found)


def _blas() -> dict:
    """{"sgemm", "dgemm", ...}: the addresses of the gemm, gemv and dot functions of the BLAS
    NumPy's matmul calls (its bundled scipy-openblas, ILP64: 64-bit sizes), and
    "blas_threads", the callable giving its thread count, when that library is loaded in
    this process (NumPy loads it at import); else {} (products stay Python steps)."""
    config = getattr(np, "__config__", None)
    blas = getattr(config, "CONFIG", {}).get("Build Dependencies", {}).get("blas", {})
    if blas.get("name") != "scipy-openblas" or \
            "USE64BITINT" not in str(blas.get("openblas configuration", "")):
        return {}
    libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    paths = glob.glob(os.path.join(libs, "libscipy_openblas64_*.so"))
    if len(paths) != 1:
        return {}
    try:   # (already loaded by NumPy: the same library, no second copy)
        lib = ctypes.CDLL(paths[0], mode=os.RTLD_NOLOAD | os.RTLD_LOCAL)
        found = {f"{p}{f}": ctypes.cast(getattr(lib, f"scipy_cblas_{p}{f}64_"),
                                        ctypes.c_void_p).value
                 for p in "sd" for f in ("gemm", "gemv", "dot")}
        threads = lib.scipy_openblas_get_num_threads64_
        threads.restype, threads.argtypes = ctypes.c_int, []
        return {**found, "blas_threads": threads}
    except (OSError, AttributeError):
        return {}
