"""Staged row kernels (codegen._stage_rows, _staged_final) against numpy by hand.

A row kernel is staged when its one reduced dimension is the minor one, at most 64 columns
at the bound, over at least codegen.STAGED_MIN_ROWS rows at the bound: each program loads
its rows as one flat chunk, gathers them into a row-per-lane tile for the reductions, and
computes a domain-shaped root on the chunk with each row's reduced value gathered back by
row (`crow`). These tests reach that path (asserted on the kernel) with each reducer kind
and element type, several reductions in one kernel, operands broadcast along either axis,
iotas, several kept dimensions, dynamic columns and kept-shaped roots, at row counts of 0,
1, 3, one program (64) and more (130: the last program ends inside a 4-element vector
whenever the column count is odd).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU, INTERPRET, torch  # noqa: F401  (skips without torch/triton)

ROWS = (0, 1, 3, 64, 130)
NP = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "s32": np.int32,
      "s8": np.int8, "u8": np.uint8, "pred": np.bool_}
TOL = {"f32": 1e-5, "f16": 2e-3, "bf16": 2e-2}


def reducer(name: str, t: str, op: str) -> str:
    return (f"{name} {{\n  a = {t}[] parameter(0)\n  b = {t}[] parameter(1)\n"
            f"  ROOT c = {t}[] {op}(a, b)\n}}\n")


def staged(exe, *, flat_root=True):
    """The one kernel of `exe`, asserted staged; `flat_root`: its root is computed on the
    chunk (a domain-shaped root), else stored per row."""
    (kernel,) = exe.program.kernels
    assert "FLAT" in kernel.block and ("crow" in kernel.source) == flat_root
    return kernel


def close(got, want, tol):
    got = np.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=tol, atol=tol)


# --- one reduction of each kind and type, with an init that is not the identity ----------

NP_REDUCE = {"add": np.sum, "maximum": np.max, "minimum": np.min, "multiply": np.prod,
             "and": np.bitwise_and.reduce, "or": np.bitwise_or.reduce}
KINDS = [("f32", "add", "5", 37), ("f16", "maximum", "1", 3), ("bf16", "minimum", "-1", 64),
         ("f32", "multiply", "2", 5), ("s32", "multiply", "-2", 5), ("s8", "add", "5", 33),
         ("s8", "minimum", "-1", 32), ("u8", "maximum", "200", 31), ("s32", "and", "6", 2),
         ("u8", "or", "8", 1), ("pred", "and", "true", 37), ("pred", "or", "false", 63)]


def row_reduce_text(t: str, op: str, init: str, cols: int) -> str:
    combine = "xor" if t == "pred" else "subtract"
    return "HloModule row_reduce\n" + reducer("red", t, op) + f"""ENTRY main {{
  x = {t}[<=40000,{cols}] parameter(0)
  i = {t}[] constant({init})
  s = {t}[<=40000] reduce(x, i), dimensions={{1}}, to_apply=red
  sb = {t}[<=40000,{cols}] broadcast(s), dimensions={{0}}
  ROOT r = {t}[<=40000,{cols}] {combine}(x, sb)
}}
"""


def row_reduce_want(x, t: str, op: str, init: str):
    """x op (init op reduce(x)) per row: floats in f64, integers in i64 wrapped to the type."""
    dtype = NP[t]
    if t == "pred":
        s = NP_REDUCE[op](np.concatenate([x, np.full((len(x), 1), init == "true")], 1), axis=1)
        return x ^ s[:, None]
    wide = np.float64 if t in TOL else np.int64
    xw = x.astype(wide)
    s = NP_REDUCE[op](np.concatenate([xw, np.full((len(x), 1), int(init), wide)], 1), axis=1)
    if t in TOL:
        s = s.astype(dtype).astype(wide)   # the reduce's result has the element type
    return (xw - s[:, None]).astype(dtype)


def row_input(rng, t: str, op: str, shape):
    if t == "pred":
        return rng.random(shape) < (0.9 if op == "and" else 0.1)
    if op == "multiply":
        values = rng.uniform(0.5, 1.5, shape) if t in TOL else rng.integers(-2, 3, shape)
        return values.astype(NP[t])
    if t in TOL:
        return rng.standard_normal(shape).astype(NP[t])
    return rng.integers(0 if t == "u8" else -100, 100, shape).astype(NP[t])


@pytest.mark.parametrize("t,op,init,cols", KINDS)
def test_each_reducer_kind_and_type(t, op, init, cols):
    """Each reducer kind in several element types (s8 sums past the type's range wrap),
    its init not the identity, the row's value gathered back to the chunk by row."""
    exe = dynhlo.compile(row_reduce_text(t, op, init, cols), **GPU)
    staged(exe)
    rng = np.random.default_rng(cols)
    for n in ROWS:
        x = row_input(rng, t, op, (n, cols))
        close(exe(x), row_reduce_want(x, t, op, init), TOL.get(t, 0))


# --- several reductions, operands along either axis, iotas, select -----------------------

MIXED = "HloModule mixed\n" + reducer("add_f", "f32", "add") + reducer(
    "max_f", "f32", "maximum") + """ENTRY main {
  x = f32[<=B,C] parameter(0)
  p = f32[<=B] parameter(1)
  q = f32[C] parameter(2)
  k = f32[] parameter(3)
  pb = f32[<=B,C] broadcast(p), dimensions={0}
  qb = f32[<=B,C] broadcast(q), dimensions={1}
  xq = f32[<=B,C] multiply(x, qb)
  y = f32[<=B,C] add(xq, pb)
  lo = f32[] constant(-3)
  m = f32[<=B] reduce(y, lo), dimensions={1}, to_apply=max_f
  mb = f32[<=B,C] broadcast(m), dimensions={0}
  d = f32[<=B,C] subtract(y, mb)
  e = f32[<=B,C] exponential(d)
  zero = f32[] constant(0)
  s = f32[<=B] reduce(e, zero), dimensions={1}, to_apply=add_f
  ys = f32[<=B] reduce(y, k), dimensions={1}, to_apply=add_f
  sb = f32[<=B,C] broadcast(s), dimensions={0}
  ysb = f32[<=B,C] broadcast(ys), dimensions={0}
  w = f32[<=B,C] divide(e, sb)
  ic = s32[<=B,C] iota(), iota_dimension=1
  ir = f32[<=B,C] iota(), iota_dimension=0
  icf = f32[<=B,C] convert(ic)
  kb = f32[<=B,C] broadcast(k), dimensions={}
  t1 = f32[<=B,C] add(w, icf)
  t2 = f32[<=B,C] multiply(ir, kb)
  t3 = f32[<=B,C] add(t1, t2)
  t4 = f32[<=B,C] subtract(t3, y)
  three = s32[] constant(3)
  threeb = s32[<=B,C] broadcast(three), dimensions={}
  lt = pred[<=B,C] compare(ic, threeb), direction=LT
  ROOT r = f32[<=B,C] select(lt, t4, ysb)
}
"""


def mixed_want(x, p, q, k):
    y = x * q + p[:, None]
    m = np.maximum(y.max(axis=1, initial=-np.inf), -3.0)
    e = np.exp(y - m[:, None])
    w = e / e.sum(axis=1)[:, None]
    ic = np.arange(x.shape[1])
    t4 = w + ic + np.arange(len(x))[:, None] * k - y
    ys = y.sum(axis=1) + k
    return np.where(ic < 3, t4, ys[:, None]).astype(np.float32)


@pytest.mark.parametrize("bound", [40000, 40000000])
@pytest.mark.parametrize("cols", [1, 2, 33, 64])
def test_several_reductions_with_operands_along_both_axes(cols, bound):
    """A max, a sum of exp and a sum from a parameter init in one kernel, over a [rows]
    parameter and a [cols] one broadcast (a [rows] parameter of its own dynamic size meets
    the input's: the domain is their meet, no input is a chunk), beside a scalar, iotas
    over both axes and a select on a compare; at 4e7 rows the offsets are 64-bit."""
    text = MIXED.replace("<=B", f"<={bound}").replace(",C]", f",{cols}]").replace(
        "f32[C]", f"f32[{cols}]")
    exe = dynhlo.compile(text, **GPU)
    staged(exe)
    rng = np.random.default_rng(cols)
    q, k = rng.standard_normal(cols).astype(np.float32), np.float32(0.5)
    for n in ROWS if bound == 40000 else (3, 65):
        x = rng.standard_normal((n, cols)).astype(np.float32)
        p = rng.standard_normal(n).astype(np.float32)
        close(exe(x, p, q, k), mixed_want(x, p, q, k), 1e-4)


def test_rows_meeting_a_single_row_operand():
    """x + y where y has one row (XLA's broadcast-a-1 rule on dynamic sizes): the domain
    is the meet of two row counts, neither input is loaded as a chunk, the root still is."""
    text = "HloModule meet\n" + reducer("max_f", "f32", "maximum") + """ENTRY main {
  x = f32[<=40000,37] parameter(0)
  y = f32[<=40000,37] parameter(1)
  a = f32[<=40000,37] add(x, y)
  lo = f32[] constant(-inf)
  m = f32[<=40000] reduce(a, lo), dimensions={1}, to_apply=max_f
  mb = f32[<=40000,37] broadcast(m), dimensions={0}
  ROOT r = f32[<=40000,37] subtract(a, mb)
}
"""
    exe = dynhlo.compile(text, **GPU)
    staged(exe)
    rng = np.random.default_rng(5)
    for n in (1, 3, 130):
        x, y = rng.standard_normal((n, 37), np.float32), rng.standard_normal((1, 37), np.float32)
        a = x + y
        close(exe(x, y), a - a.max(axis=1, keepdims=True), 1e-6)


def test_at_the_staged_threshold():
    """STAGED_MIN_ROWS rows at the bound are staged, one fewer is not; the staged kernel
    over all but one of its 32768 rows (512 programs, the last ending inside a vector)."""
    text = row_reduce_text("f32", "maximum", "-1", 5).replace("<=40000", "<=32768")
    assert "FLAT" not in dynhlo.compile(text.replace("<=32768", "<=32767"), **GPU
                                        ).program.kernels[0].block
    exe = dynhlo.compile(text, **GPU)
    staged(exe)
    x = np.random.default_rng(19).standard_normal((32767, 5)).astype(np.float32)
    close(exe(x), row_reduce_want(x, "f32", "maximum", "-1"), 0)


# --- several kept dimensions -------------------------------------------------------------

KEPT = "HloModule kept\n" + reducer("add_f", "f32", "add") + reducer(
    "min_f", "f32", "minimum") + """ENTRY main {
  x = f32[D,C] parameter(0)
  zero = f32[] constant(0)
  s = f32[D] reduce(x, zero), dimensions={R}, to_apply=add_f
  hi = f32[] constant(1)
  m = f32[D] reduce(x, hi), dimensions={R}, to_apply=min_f
  sm = f32[D] multiply(s, m)
  sb = f32[D,C] broadcast(sm), dimensions={K}
  ia = f32[D,C] iota(), iota_dimension=A
  ic = f32[D,C] iota(), iota_dimension=R
  t = f32[D,C] multiply(x, ic)
  u = f32[D,C] add(t, ia)
  ROOT r = f32[D,C] subtract(u, sb)
}
"""
DOMAINS = [("<=300,<=200", 5, 1), ("3,<=15000", 37, 0), ("<=200,2,<=100", 3, 2),
           ("1,<=40000", 64, 0)]


@pytest.mark.parametrize("kept,cols,iota", DOMAINS)
def test_several_kept_dimensions(kept, cols, iota):
    """Rank-3 and rank-4 domains (two dynamic kept dimensions, a static one before a
    dynamic one, a leading 1): the chunk's flat index split into every dimension, the row
    values gathered back at the kept ones, an iota over a kept one."""
    rank = kept.count(",") + 2
    text = KEPT.replace("f32[D]", f"f32[{kept}]").replace("D,C]", f"{kept},{cols}]").replace(
        "={R}", f"={{{rank - 1}}}").replace("={K}", "={" + ",".join(
            map(str, range(rank - 1))) + "}").replace("=A\n", f"={iota}\n").replace(
        "=R\n", f"={rank - 1}\n")
    exe = dynhlo.compile(text, **GPU)
    staged(exe)
    rng = np.random.default_rng(cols)
    for actual in ([0, 4], [1, 1], [3, 5], [7, 9]):
        shape = tuple(int(d) if not d.startswith("<=") else actual.pop(0)
                      for d in kept.split(",")) + (cols,)
        x = rng.standard_normal(shape).astype(np.float32)
        sm = x.sum(axis=-1) * np.minimum(x.min(axis=-1, initial=np.inf), 1)
        ia = np.arange(shape[iota]).reshape([-1 if d == iota else 1 for d in range(rank)])
        want = x * np.arange(cols) + ia - sm[..., None]
        close(exe(x), want.astype(np.float32), 1e-4)


# --- dynamic columns and kept-shaped roots -----------------------------------------------

DYNAMIC_COLS = "HloModule dyncols\n" + reducer("add_f", "f32", "add") + reducer(
    "max_f", "f32", "maximum") + """ENTRY main {
  x = f32[<=40000,<=37] parameter(0)
  lo = f32[] constant(-1)
  m = f32[<=40000] reduce(x, lo), dimensions={1}, to_apply=max_f
  mb = f32[<=40000,<=37] broadcast(m), dimensions={0}
  d = f32[<=40000,<=37] subtract(x, mb)
  e = f32[<=40000,<=37] exponential(d)
  zero = f32[] constant(0)
  s = f32[<=40000] reduce(e, zero), dimensions={1}, to_apply=add_f
  n = s32[] get-dimension-size(x), dimensions={1}
  nf = f32[] convert(n)
  nb = f32[<=40000] broadcast(nf), dimensions={}
  mean = f32[<=40000] divide(s, nb)
  sb = f32[<=40000,<=37] broadcast(mean), dimensions={0}
  ic = f32[<=40000,<=37] iota(), iota_dimension=1
  w = f32[<=40000,<=37] divide(e, sb)
  ROOT r = f32[<=40000,<=37] add(w, ic)
}
"""


def test_dynamic_columns():
    """Dynamic columns are staged too (the chunk's row length is a size argument): the
    column count in the row values (get-dimension-size) and an iota over the columns."""
    exe = dynhlo.compile(DYNAMIC_COLS, **GPU)
    staged(exe)
    rng = np.random.default_rng(11)
    for n, cols in ((0, 5), (1, 37), (3, 5), (64, 36), (130, 1), (67, 4)):
        x = rng.standard_normal((n, cols)).astype(np.float32)
        e = np.exp(x - np.maximum(x.max(axis=1, initial=-np.inf), -1)[:, None])
        want = e / (e.sum(axis=1) / cols)[:, None] + np.arange(cols)
        close(exe(x), want.astype(np.float32), 1e-5)


KEPT_ROOT = "HloModule kept_root\n" + reducer("add_f", "f32", "add") + reducer(
    "max_f", "f32", "maximum") + """ENTRY main {
  x = f32[<=40000,<=37] parameter(0)
  e = f32[<=40000,<=37] exponential(x)
  two = f32[] constant(2)
  s = f32[<=40000] reduce(e, two), dimensions={1}, to_apply=add_f
  lo = f32[] constant(-1)
  m = f32[<=40000] reduce(x, lo), dimensions={1}, to_apply=max_f
  l = f32[<=40000] log(s)
  ROOT r = f32[<=40000] subtract(l, m)
}
"""


def test_kept_shaped_root_over_dynamic_columns():
    """A root of the rows' shape (two reductions combined per row) is stored per row; at 0
    columns each row holds its inits (log 2 + 1)."""
    exe = dynhlo.compile(KEPT_ROOT, **GPU)
    staged(exe, flat_root=False)
    rng = np.random.default_rng(13)
    for n, cols in ((0, 3), (3, 0), (1, 37), (65, 33), (130, 2)):
        x = rng.standard_normal((n, cols)).astype(np.float32)
        want = np.log(np.exp(x).sum(axis=1) + 2) - np.maximum(x.max(axis=1, initial=-1), -1)
        close(exe(x), want.astype(np.float32), 1e-5)


# --- NaN in max / min reductions ---------------------------------------------------------

NAN_ROWS = "HloModule nan_rows\n" + reducer("max_f", "f32", "maximum") + reducer(
    "min_f", "f32", "minimum") + """ENTRY main {
  x = f32[<=B,37] parameter(0)
  zero = f32[] constant(0)
  m = f32[<=B] reduce(x, zero), dimensions={1}, to_apply=max_f
  n = f32[<=B] reduce(x, zero), dimensions={1}, to_apply=min_f
  mb = f32[<=B,37] broadcast(m), dimensions={0}
  nb = f32[<=B,37] broadcast(n), dimensions={0}
  ROOT r = f32[<=B,37] subtract(mb, nb)
}
"""


@pytest.mark.parametrize("bound", [70, 40000])
def test_nan_propagates_through_max_and_min_reductions(bound):
    """A row holding a NaN reduces to NaN under maximum and minimum (XLA: JAX's
    lax.reduce(x, 0., lax.max, (1,)) on the CPU gives NaN for [1, nan, 3]), in the staged
    kernel (40000 rows at the bound) and the plain row kernel (70) alike: tl.max and
    tl.maximum drop NaN unless asked (reductions.py)."""
    exe = dynhlo.compile(NAN_ROWS.replace("<=B", f"<={bound}"), **GPU)
    assert ("crow" in exe.program.kernels[0].source) == (bound == 40000)
    x = np.random.default_rng(17).standard_normal((3, 37)).astype(np.float32)
    x[1, 5] = np.nan
    want = np.broadcast_to((np.maximum(x.max(axis=1), 0) - np.minimum(x.min(axis=1), 0))[:, None],
                           (3, 37))
    got = np.asarray(exe(x))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got[[0, 2]], want[[0, 2]], rtol=1e-6)


# --- bf16 from integers in Triton's interpreter ------------------------------------------

BF16_FROM_INT = "HloModule bf16_from_int\n" + reducer("add_b", "bf16", "add") + """ENTRY main {
  x = bf16[<=40000,5] parameter(0)
  zero = bf16[] constant(0)
  s = bf16[<=40000] reduce(x, zero), dimensions={1}, to_apply=add_b
  sb = bf16[<=40000,5] broadcast(s), dimensions={0}
  FROM
  ROOT r = bf16[<=40000,5] add(sb, b)
}
"""
BF16_SOURCES = {"iota": "b = bf16[<=40000,5] iota(), iota_dimension=1",
                "convert": "k = s32[<=40000,5] iota(), iota_dimension=1\n"
                           "  b = bf16[<=40000,5] convert(k)"}


@pytest.mark.parametrize("source", sorted(BF16_SOURCES))
def test_bf16_from_integers_in_a_staged_root(source):
    """A bf16 iota over the columns (or a convert of an s32 one) beside the rows' sums:
    column j adds j (XLA Iota / ConvertElementType: exact for these small integers)."""
    exe = dynhlo.compile(BF16_FROM_INT.replace("FROM", BF16_SOURCES[source]), **GPU)
    staged(exe)
    x = np.random.default_rng(23).standard_normal((3, 5)).astype(ml_dtypes.bfloat16)
    s = x.astype(np.float32).sum(axis=1).astype(ml_dtypes.bfloat16).astype(np.float32)
    want = (s[:, None] + np.arange(5)).astype(ml_dtypes.bfloat16)
    close(exe(x), want, 2e-2)
