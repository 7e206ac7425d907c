"""Runs of a spec's native calls made one native call (Fast's _CHAIN op).

A spec (fast.py) holds many ops that are one native call each with arguments known for the
key: kernels whose argument arrays are filled (_KERNEL_IN_PLACE), kernels that only need the
addresses of values made before them written or a new array made (_KERNEL), f32/f64 matrix
products (_DOT, _BATCH_DOT without copies), dense one-input ufuncs (_UFUNC) and
dynamic-reshapes that copy (_SPECIAL_ONE). Each costs a Python dispatch of about a
microsecond; a run of them becomes one op that makes the new arrays, writes the per-call
addresses (strides and shapes compared with the recorded ones: another layout runs the
run's steps on their own) and calls `run_list` once: a routine written here in LLVM IR that
calls each (function, argument array) of a list in order and returns the index of the
first that refused (non-zero), or the count. A kernel's refusal resumes the call's Python
steps at that kernel exactly as before (its reference value, then the steps after it); a
wrapper's (an output overlapping an input, where NumPy would compute into a copy) at the
step of its own.

A matrix product calls what NumPy's matmul calls on the same arrays
(numpy/_core/src/umath/matmul.c.src, @TYPE@_matmul for one matrix each): gemm for matrices,
gemv for a vector times a matrix, @TYPE@_dot's cblas dot summed in double for a row times a
column, and its loop without BLAS (written here in IR: 0 plus each product in order, at the
type's precision, as NumPy's baseline build computes it) where it takes that; a matrix times
its own transpose (syrk) and operands or outputs it would copy stay Python steps. The BLAS
is NumPy's bundled scipy-openblas (ILP64), found among the process's loaded libraries; where
it is not found products stay Python steps. A ufunc calls NumPy's own inner loop
(ufunc_loops.py).
"""

from __future__ import annotations

import ctypes
import glob
import os
from array import array

import llvmlite.binding as llvm
import numpy as np

from ....hlo.opcodes import Opcode
from . import machine, ufunc_loops
from .steps import (_BATCH_DOT, _CHAIN, _DOT, _KERNEL, _KERNEL_IN_PLACE, _SPECIAL_ONE, _UFUNC,
                    blas_layout, data_address)

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
  %ahi = add i64 %ai, %ea
  %bhi = add i64 %bi, %eb
  %chi = add i64 %ci, %ec
  %a1 = icmp ult i64 %ai, %chi
  %a2 = icmp ult i64 %ci, %ahi
  %ac = and i1 %a1, %a2
  %b1 = icmp ult i64 %bi, %chi
  %b2 = icmp ult i64 %ci, %bhi
  %bc = and i1 %b1, %b2
  %same = icmp eq i64 %ai, %bi
  %maybe = icmp ne i64 %sy, 0
  %sc = and i1 %same, %maybe
  %o1 = or i1 %ac, %bc
  %no = or i1 %o1, %sc
  br i1 %no, label %decline, label %call
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

_IR += """
define i32 @dynhlo_chain_ufunc(ptr %unused, ptr %a) {
entry:
  %fi = load i64, ptr %a
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
  %no = and i1 %over, %apart
  br i1 %no, label %decline, label %call
decline:
  ret i32 1
call:
  call void %fn(ptr %args, ptr %dims, ptr %steps, ptr %data)
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

def _copy_ir(size: int) -> str:
    """`copy{size}`: the elements of a strided array of at most 6 dimensions, in C order,
    into a dense one: [destination, source, 6 sizes, 6 byte strides]."""
    ty = f"i{8 * size}"
    lines = [f"define i32 @dynhlo_chain_copy{size}(ptr %unused, ptr %a) {{", "entry:",
             "  %d0 = load i64, ptr %a", "  %dst = inttoptr i64 %d0 to ptr",
             "  %p1 = getelementptr i64, ptr %a, i64 1", "  %src = load i64, ptr %p1"]
    for k in range(6):
        lines += [f"  %pn{k} = getelementptr i64, ptr %a, i64 {2 + k}",
                  f"  %n{k} = load i64, ptr %pn{k}",
                  f"  %ps{k} = getelementptr i64, ptr %a, i64 {8 + k}",
                  f"  %s{k} = load i64, ptr %ps{k}"]
    lines += ["  br label %h0"]
    # loop k: head h{k}, index i{k}; at{k}: the source's byte address so far; q{k}: the
    # element's C-order index so far (the destination's is q5 elements on)
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
        lines += [f"  %q{k} = add i64 %i{k}, 0"] if k == 0 else \
            [f"  %r{k} = mul i64 %q{k - 1}, %n{k}", f"  %q{k} = add i64 %r{k}, %i{k}"]
        lines += [f"  br label %{'h' + str(k + 1) if k < 5 else 'body'}"]
    lines += ["body:", "  %from = inttoptr i64 %at5 to ptr",
              f"  %v = load {ty}, ptr %from",
              f"  %to = getelementptr {ty}, ptr %dst, i64 %q5",
              f"  store {ty} %v, ptr %to",
              "  br label %l5"]
    for k in range(5, -1, -1):
        lines += [f"l{k}:", f"  %i{k}n = add i64 %i{k}, 1", f"  br label %h{k}"]
        lines += [f"x{k}:", f"  br label %{'l' + str(k - 1) if k > 0 else 'done'}"]
    lines += ["done:", "  ret i32 0", "}", ""]
    return "\n".join(lines)


_IR += _copy_ir(4) + _copy_ir(8)

_state: dict = {}
_ROW_MAJOR, _COL_MAJOR, _NO_TRANS, _TRANS = 101, 102, 111, 112   # cblas.h's enums


def _routines() -> dict:
    """{"run": RUN callable, "gemm_f32" ...: the wrappers' addresses, "sgemm" ...: the BLAS
    functions', "engine": the engine holding their code}, compiled once per process into
    the kernels' engine of the time (machine.py)."""
    if not _state:
        with machine._lock:
            if not _state:
                tm, engine, _ = machine._machine()
                obj = machine._compile(tm, _IR)
                engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
                engine.finalize_object()
                # (the engine kept: its code must outlive every spec holding these
                # addresses, even where the kernels' engine is replaced by a new one)
                found = {"run": RUN(engine.get_function_address("dynhlo_chain_run")),
                         "engine": engine}
                found["ufunc"] = engine.get_function_address("dynhlo_chain_ufunc")
                for size in (4, 8):
                    found[f"copy{size}"] = engine.get_function_address(
                        f"dynhlo_chain_copy{size}")
                for kind in ("gemm", "gemv", "dot", "noblas"):
                    for name in ("f32", "f64"):
                        found[f"{kind}_{name}"] = engine.get_function_address(
                            f"dynhlo_chain_{kind}_{name}")
                found.update(_blas())
                _state.update(found)
    return _state


def _blas() -> dict:
    """{"sgemm", "dgemm"}: the addresses of the gemm functions of the BLAS NumPy's matmul
    calls (its bundled scipy-openblas, ILP64: 64-bit sizes), when that library is loaded in
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
        return {f"{p}{f}": ctypes.cast(getattr(lib, f"scipy_cblas_{p}{f}64_"),
                                       ctypes.c_void_p).value
                for p in "sd" for f in ("gemm", "gemv", "dot")}
    except (OSError, AttributeError):
        return {}


def _blasable(s1: int, s2: int, d1: int, d2: int, size: int) -> bool:
    """matmul.c.src's is_blasable2d: the faster axis dense, the slower's unit stride whole
    and at least the faster's length."""
    return s2 == size and s1 % size == 0 and d2 <= s1 // size < (1 << 62)


def gemm_args(a: np.ndarray, b: np.ndarray, out: np.ndarray, fn: int) -> list | None:
    """The gemm wrapper's arguments for `np.matmul(a, b, out=out)` when NumPy computes it by
    one gemm of these arrays (matmul_call's matrix-matrix case), else None."""
    made = _matmul_case(a, b, out)
    if made is None or made[0] != "gemm":
        return None
    return [fn, *made[1]]


def matmul_call(a: np.ndarray, b: np.ndarray, out: np.ndarray, routines: dict):
    """(wrapper address, its arguments, the slots of a's and b's addresses) of the BLAS call
    `np.matmul(a, b, out=out)` makes on these 2-d arrays: @TYPE@_matmul's dispatch
    (matmul.c.src) for one matrix each: a row times a column by @TYPE@_dot (cblas dot,
    summed in double), a vector times a matrix or a matrix times a vector by @TYPE@_gemv,
    matrices by gemm, and its loop without BLAS where it takes that for a 1 among the
    sizes; None for what it computes otherwise (syrk, copies of operands or output that
    are not blasable, a row times a column it does not give BLAS, an output overlapping an
    operand)."""
    made = _matmul_case(a, b, out)
    if made is None:
        return None
    how, args, slots = made[0], made[1], made[2]
    prefix = "s" if a.dtype == np.float32 else "d"
    blas = 0 if how == "noblas" else routines.get(prefix + how)
    if blas is None:
        return None
    name = "f32" if prefix == "s" else "f64"
    return routines[f"{how}_{name}"], [blas, *args], slots


def _matmul_case(a, b, out):
    """("gemm" | "gemv" | "dot", wrapper arguments after the function, (slot of a, slot of
    b) in the full argument list) or None: matmul_call's dispatch."""
    if not (a.__class__ is b.__class__ is out.__class__ is np.ndarray and
            a.ndim == b.ndim == out.ndim == 2 and a.dtype == b.dtype == out.dtype and
            a.dtype in _GEMMS and a.flags.aligned and b.flags.aligned and
            out.flags.aligned and out.flags.writeable):
        return None
    sz = a.dtype.itemsize
    (dm, dn), (dn2, dp) = a.shape, b.shape
    if dn != dn2 or out.shape != (dm, dp) or min(dm, dn, dp) < 1 or \
            max(dm, dn, dp) >= 1 << 31:
        return None   # (no work, or too big: NumPy's loop without BLAS)
    if np.may_share_memory(out, a) or np.may_share_memory(out, b):
        return None   # (the ufunc may compute into a copy)
    (is1_m, is1_n), (is2_n, is2_p), (os_m, os_p) = a.strides, b.strides, out.strides
    i1c, i1f = _blasable(is1_m, is1_n, dm, dn, sz), _blasable(is1_n, is1_m, dn, dm, sz)
    i2c, i2f = _blasable(is2_n, is2_p, dn, dp, sz), _blasable(is2_p, is2_n, dp, dn, sz)
    ea, eb, eo = _extent(a), _extent(b), _extent(out)
    if dm == 1 or dn == 1 or dp == 1:   # @TYPE@_matmul's special cases
        if dm == 1 and dp == 1:   # a row times a column: @TYPE@_dot
            if not (_unit(is1_n, sz) and _unit(is2_n, sz)) or dn >= 1 << 30:
                return None   # (its loop without BLAS; more than one chunk)
            return "dot", [dn, data_address(a), is1_n // sz, data_address(b), is2_n // sz,
                           data_address(out), ea, eb, eo], (2, 4)
        if dn == 1:   # (1,1) @ vector or vector @ (1,1), column @ row: its loop
            return _noblas(a, b, out, ea, eb, eo)
        if dm == 1 and (i2c or i2f) and _blasable(is1_n, sz, dn, 1, sz):
            if not _unit(os_p, sz):
                return None
            # vector @ matrix: gemv(ip2, is2_p, is2_n, ip1, is1_n, op, os_p, dp, dn)
            return "gemv", _gemv(b, is2_p, is2_n, a, is1_n, out, os_p, dp, dn, sz,
                                 eb, ea, eo), (6, 4)
        if dp == 1 and (i1c or i1f) and _blasable(is2_n, sz, dn, 1, sz):
            if not _unit(os_m, sz):
                return None
            return "gemv", _gemv(a, is1_m, is1_n, b, is2_n, out, os_m, dm, dn, sz,
                                 ea, eb, eo), (4, 6)
        return _noblas(a, b, out, ea, eb, eo)   # (not blasable: its loop without BLAS)
    if not (i1c or i1f) or not (i2c or i2f) or \
            not (_blasable(os_m, os_p, dm, dp, sz) and abs(os_m) >= abs(os_p)):
        return None   # (copies, or the transposed product into a transposed output)
    if i1c:
        trans1, lda = _NO_TRANS, is1_m // sz
    else:
        trans1, lda = _TRANS, is1_n // sz
    if i2c:
        trans2, ldb = _NO_TRANS, is2_n // sz
    else:
        trans2, ldb = _TRANS, is2_p // sz
    syrk = dm == dp and is1_m == is2_p and is1_n == is2_n and trans1 != trans2
    if syrk and data_address(a) == data_address(b):
        return None   # (syrk and a copied triangle)
    return "gemm", [trans1, trans2, dm, dp, dn, data_address(a), lda, data_address(b), ldb,
                    data_address(out), os_m // sz, ea, eb, eo, int(syrk)], (6, 8)


def _noblas(a, b, out, ea, eb, eo) -> tuple | None:
    """matmul.c.src's @TYPE@_matmul_inner_noblas's call (after the function): strides in
    bytes, as NumPy hands them."""
    (dm, dn), dp = a.shape, b.shape[1]
    if any(n > 1 and st < 0 for x in (a, b, out) for n, st in zip(x.shape, x.strides,
                                                                  strict=True)):
        return None   # (the extents of the overlap check: positive strides)
    return "noblas", [data_address(a), *a.strides, data_address(b), *b.strides,
                      data_address(out), *out.strides, dm, dn, dp, ea, eb, eo], (1, 4)


def _gemv(m, is_m, is_n, x, is_x, out, os, dm, dn, sz, em, ex, eo) -> list:
    """@TYPE@_gemv's call (after the function): `m` (dm, dn) by its strides times the
    vector `x`, into `out` at stride `os`."""
    if _blasable(is_m, is_n, dm, dn, sz):
        order, lda = _COL_MAJOR, is_m // sz
    else:
        order, lda = _ROW_MAJOR, is_n // sz
    return [order, dn, dm, data_address(m), lda, data_address(x), is_x // sz,
            data_address(out), os // sz, em, ex, eo]


def _unit(stride: int, size: int) -> bool:
    """blas_stride's test: a positive multiple of the element size."""
    return stride > 0 and stride % size == 0 and stride // size < 1 << 31


def _extent(a: np.ndarray) -> int:
    """The bytes from `a`'s first element to past its last (positive strides)."""
    return sum((n - 1) * s for n, s in zip(a.shape, a.strides, strict=True)) + a.itemsize


def _member(op, values: dict):
    """([(function address, argument array), ...] in order, patches, out, kernel or None)
    of an op that can join a run, else None. A patch: [argument array, slot, the value
    whose address (plus an offset) it takes per call, its strides, the offset, its shape or
    None: unchecked, its restride or None]: a restride, where a call's value has other
    strides than recorded, gives (index, arguments written there) for them, or None (the
    rest of the call step by step); the recorded strides are then the new ones.
    `values`: the values of the call the spec was made from."""
    kind = op[0]
    if kind == _KERNEL_IN_PLACE:
        _, _, fn, _, out, what, packed = op
        return [(ctypes.cast(fn, ctypes.c_void_p).value, packed)], (), out, what, None
    if kind == _KERNEL:
        _, _, fn, packed, _, patches, out, shape, what = op
        # (out None: a new array per call, made before the run)
        return [(ctypes.cast(fn, ctypes.c_void_p).value, packed)], tuple(
            [packed, slot, leaf, strides, 0, None, _kernel_strides(slot)]
            for slot, leaf, strides in patches), \
            out, what, None if out is not None else (shape, what.dtype, packed)
    if kind == _DOT:
        _, _, lhs, rhs, lhs_t, rhs_t, a, b, out = op
        ins = [_operand(lhs, a, lhs_t, values, None), _operand(rhs, b, rhs_t, values, None)]
        if None in ins or out is None:
            return None
        made = _products(ins[0][0], ins[1][0], out, ins)
        return None if made is None else (*made, out, None, None)
    if kind == _UFUNC:
        _, _, fn, source, fixed, out, held = op
        x = held if fixed is True else values.get(source) if fixed is False else None
        found = None if x is None or out is None else ufunc_loops.loop(fn, out.dtype)
        if found is None or x.__class__ is not np.ndarray or x.dtype != out.dtype or \
                x.shape != out.shape or not x.flags.c_contiguous or \
                not out.flags.c_contiguous or not out.flags.writeable or \
                np.may_share_memory(x, out) and data_address(x) != data_address(out):
            return None
        # NumPy's one inner loop call over the dense arrays: [loop, data, in, out, n,
        # in step, out step, extents of in and out] (the wrapper declines a partial overlap)
        size = out.dtype.itemsize
        packed = array("q", [found[0], found[1], data_address(x), data_address(out), out.size,
                             size, size, out.size * size, out.size * size])
        patches = () if fixed is True else ([packed, 2, source, x.strides, 0, x.shape, None],)
        return [(_routines()["ufunc"], packed)], patches, out, None, None
    if kind == _BATCH_DOT and len(op) > 7:
        what, a, b, out = op[7]
        if out is None:
            return None
        a = values[what.lhs] if a is None else a
        b = values[what.rhs] if b is None else b
        if a.__class__ is not np.ndarray or b.__class__ is not np.ndarray:
            return None
        sa, sb, _ = what.shapes(a.shape, b.shape)
        # batch_dot's NumPy calls: its 3-d views of the operands, or the copies it makes
        # (`astype`: C order), made by the copy routine into arrays the run holds
        calls, patches = [], []
        ins = []
        for inst, held, perm, shape in ((what.lhs, op[7][1], what.pa, sa),
                                        (what.rhs, op[7][2], what.pb, sb)):
            seen = _operand(inst, held, None, values, (perm, shape))
            if seen is None:
                copied = _batch_copy(inst, held, values, perm, shape, what.dtype)
                if copied is None:
                    return None
                calls += copied[0]
                patches += copied[1]
                seen = (copied[2], None, copied[2])
            ins.append(seen)
        a3, b3 = ins[0][0], ins[1][0]
        out3 = np.ndarray((sa[0], sa[1], sb[2]), what.dtype, out)
        for k in range(sa[0]):   # matmul's loop over the batch: one gemm each
            one = _products(a3[k], b3[k], out3[k], ins)
            if one is None:
                return None
            calls += one[0]
            patches += one[1]
        return calls, tuple(patches), out, None, None
    if kind == _SPECIAL_ONE and op[1].opcode is Opcode.DYNAMIC_RESHAPE:
        # (special.py's step, or a chain of movement steps ending in one: chains.py)
        return _reshape_copy(op, values)
    return None


def _kernel_strides(slot: int):
    """A kernel leaf's restride (see _member): its loops take any strides, written after
    its address and sizes in its argument array."""
    return lambda x: (slot + 1 + x.ndim, list(x.strides))


def _batch_copy(inst, held, values: dict, perm, shape: tuple, dtype):
    """([copy call], patches, the copy) of a batch_dot operand its NumPy calls copy, made
    by the copy routine into an array the run holds (seen by nothing else but the product),
    x's address written per call unless held. BatchDot reads `x.transpose(perm)
    .reshape(shape)`: where that reshape copies, the copy is in C order; where it is a view
    that is not C-ordered, `astype` copies it in its own order (NumPy's "K"): the copy has
    that layout (the product's BLAS arguments follow it)."""
    value = values.get(inst) if held is None else held
    if value.__class__ is not np.ndarray or value.dtype != dtype or \
            dtype.itemsize not in (4, 8):
        return None
    view = value if perm is None else value.transpose(perm)
    seen = view.reshape(shape)
    if np.shares_memory(seen, value):   # astype's copy, in the view's own order
        copy = seen.astype(dtype)
        order = sorted(range(len(shape)), key=lambda d: -copy.strides[d])
        if not copy.transpose(order).flags.c_contiguous or \
                np.shares_memory(copy, value):   # pragma: no cover - astype copies
            return None
        source = seen.transpose(order)
    else:   # reshape's copy, in C order of the transposed view
        copy = np.empty(shape, dtype)
        source = view
    made = _copy_args(source)
    if made is None or source.size != copy.size:
        return None
    packed = array("q", [data_address(copy), *made])
    # (reshape's copy reads the transposed view in C order whatever its layout: another
    # layout of x has its sizes and strides written; astype's follows x's layout)
    restride = (lambda x: (1, _copy_args(x if perm is None else x.transpose(perm)))) \
        if source is view else None
    patches = () if held is not None else \
        ([packed, 1, inst, value.strides, made[0] - data_address(value), value.shape,
          restride],)
    # (the copy kept alive with its call: the run holds its calls)
    return [(_routines()[f"copy{dtype.itemsize}"], packed, copy)], patches, copy


def _copy_args(x: np.ndarray) -> list | None:
    """The copy routine's arguments after the destination: x's address, its sizes and
    strides as 6 (sizes of 1 left out, 1s in front); None beyond 6."""
    dims = [(n, st) for n, st in zip(x.shape, x.strides, strict=True) if n != 1]
    if len(dims) > 6:
        return None
    dims = [(1, 0)] * (6 - len(dims)) + dims
    return [data_address(x), *[n for n, _ in dims], *[st for _, st in dims]]


def _is_reshape(fn, x: np.ndarray, shape: tuple) -> bool:
    """Whether the step's function gives `x.reshape(shape)` of every array of x's shape,
    strides and dtype: tried on one of distinct values (1, 2, ...) laid out as x is, so
    the same values in the same places is the same placement."""
    if any(st < 0 for st in x.strides) or not 0 < x.size < 1 << 24:
        return False   # (no elements: no probe to lay out, and nothing to copy)
    extent = sum((n - 1) * st for n, st in zip(x.shape, x.strides, strict=True))
    base = np.zeros(extent // x.itemsize + 1, x.dtype)
    probe = np.lib.stride_tricks.as_strided(base, x.shape, x.strides)
    probe[...] = np.arange(1, x.size + 1).reshape(x.shape)
    try:
        with np.errstate(all="ignore"):
            got = fn(probe)
    except Exception:   # noqa: BLE001 - (a step declining this layout: not joined)
        return False
    return got.__class__ is np.ndarray and got.shape == shape and \
        got.dtype == x.dtype and got.tobytes() == probe.reshape(shape).tobytes()


def _reshape_copy(op, values: dict):
    """A dynamic-reshape whose `x.reshape(shape)` (special.py) copies: x in its recorded
    layout (address written per call) copied in C order into a new array made before the
    run, by the copy routine: [new array, x, 6 sizes, 6 strides in bytes]."""
    x, value = values.get(op[3]), values.get(op[1])
    if x.__class__ is not np.ndarray or value.__class__ is not np.ndarray or \
            x.shape != op[4] or x.dtype != value.dtype or x.size != value.size or \
            x.dtype.itemsize not in (4, 8) or not value.flags.c_contiguous or \
            np.may_share_memory(x, value) or not _is_reshape(op[2], x, value.shape):
        return None
    made = _copy_args(x)
    if made is None:
        return None
    packed = array("q", [0, *made])
    return [(_routines()[f"copy{x.dtype.itemsize}"], packed)], \
        ([packed, 1, op[3], x.strides, 0, x.shape, lambda x: (1, _copy_args(x))],), None, None, \
        (value.shape, value.dtype, packed)


def _operand(inst, held, transposed, values: dict, batch):
    """(the array a product reads, the value read per call or None, that value): `held`
    when the spec holds it (for a 2-d product its view as read), else the value of the
    spec's call when the product reads it as
    it is (NumPy's layout, no copy) and it is a parameter or a value made before (its
    address written per call); None where a copy would be made. `batch`: (permutation or
    None, 3-d shape) of batch_dot's view, else the 2-d product's (`transposed`)."""
    value = values.get(inst) if held is None else held
    if value.__class__ is not np.ndarray:
        return None
    if batch is None:   # (a held operand is the product's view already)
        seen = value if held is not None else value.T if transposed else value
        if blas_layout(seen) is not seen:
            return None
    else:
        seen = (value if batch[0] is None else value.transpose(batch[0])).reshape(batch[1])
        if not seen.flags.c_contiguous or not np.shares_memory(seen, value):
            return None
    return seen, (None if held is not None else inst), value


def _products(a, b, out, ins) -> tuple | None:
    """([(wrapper address, its argument array)], patches) of np.matmul(a, b, out=out) by
    one BLAS call (matmul_call), else None. `ins`: _operand's of the two operands (a and b
    are theirs or views into them): an operand read per call is patched."""
    made = matmul_call(a, b, out, _routines())
    if made is None:
        return None
    fn, args, slots = made
    packed = array("q", args)   # (the operands stay alive: the spec's ops hold them)
    patches = tuple([packed, slot, leaf, value.strides, args[slot] - data_address(value),
                     value.shape, None]
                    for slot, (_, leaf, value) in zip(slots, ins, strict=True)
                    if leaf is not None)
    return [(fn, packed)], patches


_GEMMS = frozenset({np.dtype(np.float32), np.dtype(np.float64)})


def chained(ops: list, where: list, done: list, values: dict) -> tuple[list, list, list]:
    """(ops, where, done) with each run of two or more consecutive ops that can join
    (_member) made one _CHAIN op:
    (_CHAIN, first inst, run, list address, count, ((inst, buffer view), ...) in order,
     patches (_member's), per native call (inst, kernel or None, the step index a
     refusal resumes at, the pairs before its own), what the op keeps alive, the kernels
     writing new arrays (inst, shape, dtype, argument array): made before the call, their
     values set first, so members after them read them as any value made before the run).
    Its `where` is its first member's, its `done` its last's. A member that reads per call
    a buffer a member before it in the run writes ends the run there. `values`: those of
    the call the spec was made from."""
    out_ops, out_where, out_done = [], [], []
    k = 0
    while k < len(ops):
        run, made = [], set()
        while k + len(run) < len(ops):
            op = ops[k + len(run)]
            member = _member(op, values)
            if member is None or any(p[2] in made for p in member[1]):
                break
            run.append(member)
            if member[4] is None:   # (a new array is made before the run)
                made.add(op[1])
        if len(run) < 2:
            count = max(len(run), 1)
            out_ops += ops[k:k + count]
            out_where += where[k:k + count]
            out_done += done[k:k + count]
            k += count
            continue
        members = ops[k:k + len(run)]
        entries = array("q")
        refusals = []   # per native call: (inst, kernel or None, resume step, pairs run)
        pairs = []   # (inst, its buffer's view) of the members writing buffers
        for n, (op, (calls, _, out, what, _)) in enumerate(zip(members, run, strict=True)):
            # a kernel's refusal: its reference value, then the steps after it; a
            # product's (an operand overlapping its buffer): the steps from its own
            resume = done[k + n] if what is not None else \
                done[k + n - 1] if k + n else 0
            for fn, packed, *_ in calls:
                entries.append(fn)
                entries.append(packed.buffer_info()[0])
                refusals.append((op[1], what, resume, len(pairs)))
            if out is not None:
                pairs.append((op[1], out))   # (a new array's value is set before the run)
        out_ops.append((
            _CHAIN, members[0][1], _routines()["run"], entries.buffer_info()[0],
            len(refusals), tuple(pairs), tuple(p for m in run for p in m[1]),
            tuple(refusals), (entries, run, members),   # (members: arrays only they hold)
            tuple((op[1], *m[4]) for op, m in zip(members, run, strict=True)
                  if m[4] is not None)))
        out_where.append(where[k])
        out_done.append(done[k + len(run) - 1])
        k += len(run)
    return out_ops, out_where, out_done
