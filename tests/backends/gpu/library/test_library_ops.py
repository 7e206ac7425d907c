"""The GPU backend's torch lowerings (ops_torch_*.py) against the CPU backend, on the device.

Every case runs on backend="gpu" (Triton's interpreter and torch CPU tensors without a GPU)
and on backend="cpu" (the reference), at a static shape and at dynamic sizes 0, 1 and more,
and checks two things: the results agree (exactly for integers and bit-level ops, to float
rounding where the order of a float sum may differ), and the op ran on the device: the
`gpu_host_fallback` counter did not move, except for the cases listed as host-only (what
torch cannot do exactly; see the lowering modules' docstrings).

Two sources of cases: the CPU backend's op tables (tests/ops/test_*.py), each at every size
it lists and in its static form; and the tables below for ops those tables do not cover
(numerics, converts, bit ops), plus "leak" modules whose dynamic operand comes from
set-dimension-size over a static array with NaN/huge values past the size: any padding
that leaked into a result would change it.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import F32_REDUCERS  # skips without torch or triton; interpreter mode
from tests.support.opcheck import compiled
from dynhlo import stats  # noqa: E402

TABLES = {
    "data": ["CASES"],
    "control": ["CASES"],
    "indexing": ["SLICE_CASES", "GATHER_CASES", "SCATTER_CASES"],
    "linalg": ["CONVOLUTION"],
    "sort": ["SORT", "TOPK"],
    "window": ["REDUCE_WINDOW", "SELECT_AND_SCATTER"],
}

# Table cases that still take the host fallback, and why (documented in the modules); they
# are compared with the CPU backend without the device check.
HOST_ONLY = {
    "u32-reversed-operands",  # a u32 comparator: torch has no u32 comparisons
}

def _same(got, want, where: str, exact: bool = False, tol: float = 1e-5):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), where
        for g, w in zip(got, want, strict=True):
            _same(g, w, where, exact, tol)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{where}: shape {got.shape} != {want.shape}"
    assert got.dtype == want.dtype, f"{where}: dtype {got.dtype} != {want.dtype}"
    if want.dtype.kind in "fcV" and not exact:
        np.testing.assert_allclose(got.astype(np.complex128 if want.dtype.kind == "c"
                                              else np.float64),
                                   want.astype(np.complex128 if want.dtype.kind == "c"
                                               else np.float64),
                                   rtol=tol, atol=tol, err_msg=where)
    elif want.dtype.kind in "fcV":  # the same values, NaNs and the signs of zeros included
        # (not the sign of a NaN: XLA leaves it unspecified, and ml_dtypes' casts set it)
        wide = np.complex128 if want.dtype.kind == "c" else np.float64
        g, w = got.astype(wide), want.astype(wide)
        np.testing.assert_array_equal(g, w, err_msg=where)
        real = ~np.isnan(w.real)
        assert np.array_equal(np.signbit(g.real[real]), np.signbit(w.real[real])), where
    else:
        np.testing.assert_array_equal(got, want, err_msg=where)


def check(text: str, args, where: str, on_device: bool = True, exact: bool = False,
          tol: float = 1e-5):
    """Run `text` on both backends; same results; no host fallback when `on_device`."""
    with np.errstate(all="ignore"):
        want = compiled(text, "cpu")(*args)
    before = stats.snapshot().get("gpu_host_fallback", 0)
    got = compiled(text, "gpu")(*args)
    fallbacks = stats.snapshot().get("gpu_host_fallback", 0) - before
    _same(got, want, where, exact, tol)
    if on_device:
        assert fallbacks == 0, f"{where}: {fallbacks} host fallback(s)"
    return fallbacks


def _table_params():
    params = []
    for family, lists in TABLES.items():
        module = importlib.import_module(f"tests.ops.test_{family}")
        for list_name in lists:
            for case in getattr(module, list_name):
                label = f"{family}-{case.name}"
                for n in sorted(set(case.sizes)):
                    params.append(pytest.param(case, n, id=f"{label}-n{n}"))
                if case.static:
                    params.append(pytest.param(case, "static", id=f"{label}-static"))
    return params


@pytest.mark.parametrize("case,n", _table_params())
def test_op_table_case_runs_on_device_like_cpu(case, n):
    text = case.text
    if n == "static":
        text, n = text.replace("<=", ""), case.sizes[0]
    args = [np.asarray(a) for a in case.args(n, np.random.default_rng(n))]
    check(text, args, case.name, on_device=case.name not in HOST_ONLY)



def _collective_params():
    module = importlib.import_module("tests.ops.test_collective")
    params = []
    for name, body, _ in module.RECORDS:
        for t in ("f32", "s32", "bf16"):
            for n in (0, 1, 5, "static"):
                d = "5" if n == "static" else "<=8"
                text = module._module(t, d, body.replace("T[", f"{t}[").replace("D,", f"{d},"))
                params.append(pytest.param(name, text, t, 5 if n == "static" else n,
                                           id=f"{name}-{t}-n{n}"))
    return params


@pytest.mark.parametrize("name,text,t,n", _collective_params())
def test_single_device_collectives_run_on_device_like_cpu(name, text, t, n):
    """One-device collectives, tokens and identity custom calls (tests/ops/test_collective.py's
    table); async-start/done run their wrapped computation on the host."""
    from dynhlo.hlo.types import to_numpy_dtype
    x = (np.arange(n * 4).reshape(n, 4) - 7).astype(to_numpy_dtype(t))
    check(text, [x], name, on_device=not name.startswith("async"), exact=True)

# --- numerics, converts and bit ops --------------------------------------------------------

BOUND = 8
SIZES = [0, 1, 5, BOUND, "static"]


def _dims(n, tail="3"):
    return (f"{BOUND}" if n == "static" else f"<={BOUND}") + (f",{tail}" if tail else "")


def _rows(n) -> int:
    return BOUND if n == "static" else n


def unary(op: str, src: str, dst: str, n, extra: str = "") -> str:
    d = _dims(n)
    return (f"HloModule t\nENTRY main {{\n  x = {src}[{d}] parameter(0)\n"
            f"  ROOT y = {dst}[{d}] {op}(x){extra}\n}}\n")


def binary(op: str, t: str, n, dst: str | None = None) -> str:
    d = _dims(n)
    return (f"HloModule t\nENTRY main {{\n  x = {t}[{d}] parameter(0)\n"
            f"  y = {t}[{d}] parameter(1)\n  ROOT z = {dst or t}[{d}] {op}(x, y)\n}}\n")


SPECIAL_FLOATS = [0.0, -0.0, 2.5, -2.5, 0.5, -0.5, np.nan, np.inf, -np.inf, 1e10, -1e10,
                  3e9, -3e9, 127.9, -128.9, 255.5, 65535.7, 2.0 ** 63, -(2.0 ** 63), 1e-30]


def _floats(t: str, n: int, seed: int = 0) -> np.ndarray:
    from dynhlo.hlo.types import to_numpy_dtype
    rng = np.random.default_rng(seed)
    values = np.array(SPECIAL_FLOATS + list(rng.normal(size=3 * n) * 300), np.float64)
    with np.errstate(all="ignore"):
        return values[:3 * n].reshape(n, 3).astype(to_numpy_dtype(t))


def _ints(t: str, n: int, seed: int = 0) -> np.ndarray:
    from dynhlo.hlo.types import to_numpy_dtype
    dtype = to_numpy_dtype(t)
    info = np.iinfo(dtype)
    special = [info.min, info.max, 0, 1, -1 if dtype.kind == "i" else 2, info.max // 3]
    rand = np.random.default_rng(seed).integers(info.min, info.max, size=3 * n, dtype=dtype,
                                                endpoint=True)
    return np.concatenate([np.array(special, dtype), rand])[:3 * n].reshape(n, 3)


def _complex(re, im, t: str) -> np.ndarray:
    """re + i im without arithmetic (1j * inf would put a NaN in the real part)."""
    out = np.empty(re.shape, np.complex64 if t == "c64" else np.complex128)
    out.real, out.imag = re, im
    return out


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("src", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("dst", ["s8", "u8", "s16", "u16", "s32", "u32", "s64"])
def test_convert_float_to_int_saturates(src, dst, n):
    check(unary("convert", src, dst, n), [_floats(src, _rows(n))], f"{src}->{dst}")


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("src,dst", [("c64", "f32"), ("c64", "s32"), ("f32", "c64"),
                                     ("c128", "c64"), ("s32", "c128")])
def test_convert_complex(src, dst, n):
    rows = _rows(n)
    if src.startswith("c"):
        x = _complex(_floats("f64", rows), _floats("f64", rows, 1), src)
    else:
        x = _floats(src, rows) if src.startswith("f") else _ints(src, rows)
    with np.errstate(all="ignore"):
        check(unary("convert", src, dst, n), [x], f"{src}->{dst}")


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t", ["s8", "s16", "s32", "s64", "u8"])
@pytest.mark.parametrize("op", ["divide", "remainder"])
def test_integer_divide_and_remainder(op, t, n):
    rows = _rows(n)
    x, y = _ints(t, rows), _ints(t, rows, 1)
    y.reshape(-1)[::4] = 0                    # x / 0 = -1, x % 0 = x
    if t != "u8" and rows:
        x[0, 0], y[0, 0] = np.iinfo(x.dtype).min, -1  # MIN / -1 = MIN, no trap
    check(binary(op, t, n), [x, y], f"{op} {t}")


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t", ["s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64"])
@pytest.mark.parametrize("op", ["popcnt", "count-leading-zeros"])
def test_bit_counts(op, t, n):
    check(unary(op, t, t, n), [_ints(t, _rows(n))], f"{op} {t}")


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("c,f", [("c64", "f32"), ("c128", "f64")])
def test_real_imag_complex(c, f, n):
    rows = _rows(n)
    z = _complex(_floats("f64", rows), _floats("f64", rows, 2), c)
    check(unary("real", c, f, n), [z], "real", exact=True)
    check(unary("imag", c, f, n), [z], "imag", exact=True)
    check(binary("complex", f, n, dst=c), [_floats(f, rows), _floats(f, rows, 3)], "complex",
          exact=True)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t,e,m", [("f32", 8, 7), ("f32", 5, 10), ("f32", 8, 0),
                                   ("f64", 8, 23), ("f64", 5, 10), ("f16", 4, 3),
                                   ("bf16", 5, 2)])
def test_reduce_precision_bit_exact(t, e, m, n):
    x = _floats(t, _rows(n))
    if x.size:
        x.reshape(-1)[-1] = np.array(1 + 2 ** -8, np.float32).astype(x.dtype)  # a tie
    check(unary("reduce-precision", t, t, n, f", exponent_bits={e}, mantissa_bits={m}"),
          [x], f"reduce-precision {t} e{e}m{m}", exact=True)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("src,dst", [("f32", "s32"), ("s32", "f32"), ("f32", "u8"),
                                     ("u8", "f32"), ("f64", "u16"), ("u16", "f64"),
                                     ("bf16", "s16"), ("s64", "f64")])
def test_bitcast_convert(src, dst, n):
    rows = _rows(n)
    from dynhlo.hlo.types import to_numpy_dtype
    size_src, size_dst = to_numpy_dtype(src).itemsize, to_numpy_dtype(dst).itemsize
    d = _dims(n)
    out = f"{d},{size_src // size_dst}" if size_src > size_dst else d
    shape = f"{d},{size_dst // size_src}" if size_dst > size_src else d
    text = (f"HloModule t\nENTRY main {{\n  x = {src}[{shape}] parameter(0)\n"
            f"  ROOT y = {dst}[{out}] bitcast-convert(x)\n}}\n")
    x = np.random.default_rng(4).integers(0, 256, size=rows * 3 * max(size_src, size_dst),
                                          dtype=np.uint8).view(to_numpy_dtype(src))
    x = x.reshape((rows, 3) + ((size_dst // size_src,) if size_dst > size_src else ()))
    check(text, [x], f"bitcast-convert {src}->{dst}", exact=True)


@pytest.mark.parametrize("n", SIZES)
def test_stochastic_convert(n):
    text = binary("stochastic-convert", "f32", n, dst="s8").replace(
        "y = f32", "y = u32")
    rows = _rows(n)
    x = _floats("f32", rows)
    r = np.random.default_rng(5).integers(0, 2 ** 32, size=(rows, 3), dtype=np.uint32)
    check(text, [x, r], "stochastic-convert")


# --- batch norm ------------------------------------------------------------------------------

def _bn(kind: str, t: str, n) -> str:
    d = _dims(n, "3,2")
    if kind == "training":
        return (f"HloModule t\nENTRY main {{\n  x = {t}[{d}] parameter(0)\n"
                f"  s = {t}[3] parameter(1)\n  o = {t}[3] parameter(2)\n"
                f"  ROOT bn = ({t}[{d}], {t}[3], {t}[3]) batch-norm-training(x, s, o), "
                f"epsilon=0.001, feature_index=1\n}}\n")
    if kind == "inference":
        return (f"HloModule t\nENTRY main {{\n  x = {t}[{d}] parameter(0)\n"
                f"  s = {t}[3] parameter(1)\n  o = {t}[3] parameter(2)\n"
                f"  m = {t}[3] parameter(3)\n  v = {t}[3] parameter(4)\n"
                f"  ROOT y = {t}[{d}] batch-norm-inference(x, s, o, m, v), epsilon=0.01, "
                f"feature_index=1\n}}\n")
    return (f"HloModule t\nENTRY main {{\n  x = {t}[{d}] parameter(0)\n"
            f"  s = {t}[3] parameter(1)\n  m = {t}[3] parameter(2)\n"
            f"  v = {t}[3] parameter(3)\n  dy = {t}[{d}] parameter(4)\n"
            f"  ROOT g = ({t}[{d}], {t}[3], {t}[3]) batch-norm-grad(x, s, m, v, dy), "
            f"epsilon=0.001, feature_index=1\n}}\n")


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t", ["f32", "f64", "bf16"])
@pytest.mark.parametrize("kind", ["training", "inference", "grad"])
def test_batch_norm(kind, t, n):
    from dynhlo.hlo.types import to_numpy_dtype
    dtype = to_numpy_dtype(t)
    rng = np.random.default_rng(9)
    rows = _rows(n)
    x = (rng.normal(size=(rows, 3, 2)) * 3 + 1).astype(dtype)
    vec = [rng.uniform(0.5, 2, size=3).astype(dtype) for _ in range(4)]
    if kind == "training":
        args = [x, vec[0], vec[1]]
    elif kind == "inference":
        args = [x] + vec
    else:
        args = [x, vec[0], vec[1], vec[2], rng.normal(size=(rows, 3, 2)).astype(dtype)]
    check(_bn(kind, t, n), args, f"batch-norm-{kind} {t}", tol=2e-2 if t == "bf16" else 1e-5)


# --- padding never leaks -------------------------------------------------------------------
# x is a static f32[8,6] whose rows past n are NaN and 1e30; d = set-dimension-size(x, n)
# holds the first n rows. Any of those rows reaching a result changes it.

LEAK_HEAD = "HloModule t\n" + F32_REDUCERS + """ge_f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
ENTRY main {
  x = f32[8,6] parameter(0)
  n = s32[] parameter(1)
  d = f32[<=8,6] set-dimension-size(x, n), dimensions={0}
"""

LEAKS = {
    "cumsum-reverse": "  z = f32[] constant(0)\n  ROOT r = f32[<=8,6] reduce-window(d, z), "
                      "window={size=8x1 pad=0_7x0_0}, to_apply=add_f",
    "maxpool": "  z = f32[] constant(-inf)\n  ROOT r = f32[<=8,6] reduce-window(d, z), "
               "window={size=3x1 pad=1_1x0_0}, to_apply=max_f",
    "pad-interior": "  z = f32[] constant(-1)\n  ROOT r = f32[<=25,6] pad(d, z), "
                    "padding=1_2_2x0_0",
    "pad-negative": "  z = f32[] constant(-1)\n  ROOT r = f32[<=8,6] pad(d, z), padding=-1_1x1_-1",
    "concatenate": "  ROOT r = f32[<=16,6] concatenate(d, d), dimensions={0}",
    "topk": "  t = f32[6,<=8] transpose(d), dimensions={1,0}\n"
            "  ROOT r = (f32[6,1], s32[6,1]) topk(t), k=1, largest=true",
    "dynamic-update-slice": "  u = f32[1,6] constant({{7,7,7,7,7,7}})\n"
                            "  i = s32[] constant(100)\n  j = s32[] constant(0)\n"
                            "  ROOT r = f32[<=8,6] dynamic-update-slice(d, u, i, j)",
    "scatter-add": "  i = s32[2,1] constant({{0},{7}})\n  u = f32[2,6] constant("
                   "{{1,1,1,1,1,1},{2,2,2,2,2,2}})\n  ROOT r = f32[<=8,6] scatter(d, i, u), "
                   "update_window_dims={1}, inserted_window_dims={0}, "
                   "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add_f",
    "convolution": "  b = f32[1,<=8,6] reshape(d)\n  k = f32[3,6,2] constant({"
                   "{{1,0},{0,1},{1,1},{0,0},{1,-1},{2,0}},"
                   "{{0,1},{1,0},{1,1},{0,0},{-1,1},{0,2}},"
                   "{{1,1},{1,1},{1,1},{1,1},{1,1},{1,1}}})\n"
                   "  ROOT r = f32[1,<=8,2] convolution(b, k), window={size=3 pad=1_1}, "
                   "dim_labels=b0f_0io->b0f",
    "select-and-scatter": "  z = f32[] constant(0)\n  ROOT r = f32[<=8,6] select-and-scatter("
                          "d, d, z), window={size=3x1 pad=1_1x0_0}, select=ge_f, "
                          "scatter=add_f",
}


@pytest.mark.parametrize("n", [0, 1, 5, 8])
@pytest.mark.parametrize("name", sorted(LEAKS))
def test_padding_past_the_actual_size_never_leaks(name, n):
    text = LEAK_HEAD + LEAKS[name] + "\n}\n"
    x = np.random.default_rng(n).normal(size=(8, 6)).astype(np.float32)
    x[n:, ::2], x[n:, 1::2] = np.nan, 1e30
    if name == "topk" and n == 0:
        # top-1 of nothing: an error on both backends (a row written into no rows is not:
        # XLA's start clamps against the bound and the row lands in padding)
        for backend in ("cpu", "gpu"):
            with pytest.raises(dynhlo.DynamicSizeError, match="actual size 0"):
                compiled(text, backend)(x, np.int32(n))
        return
    check(text, [x, np.int32(n)], name)
    # The same op on a parameter of actual size n (a size from the argument) agrees.
    from_param = text.replace("x = f32[8,6] parameter(0)", "x = f32[<=8,6] parameter(0)").replace(
        "set-dimension-size(x, n), dimensions={0}", "copy(x)")
    _same(compiled(text, "gpu")(x, np.int32(n)), compiled(from_param, "gpu")(x[:n].copy(), np.int32(n)),
          name)


# --- element types and attributes generated kernels refuse -----------------------------------

def _small_complex(t: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return _complex(rng.normal(size=(n, 3)) * 2, rng.normal(size=(n, 3)) * 2, t)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t", ["c64", "c128"])
@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide", "power"])
def test_complex_binary(op, t, n):
    rows = _rows(n)
    check(binary(op, t, n), [_small_complex(t, rows, 1), _small_complex(t, rows, 2)],
          f"{op} {t}")


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t", ["c64", "c128"])
@pytest.mark.parametrize("op", ["negate", "sign", "exponential", "log", "sqrt", "rsqrt",
                                "tanh", "sine", "cosine", "copy"])
def test_complex_unary(op, t, n):
    check(unary(op, t, t, n), [_small_complex(t, _rows(n), 3)], f"{op} {t}")


@pytest.mark.parametrize("n", SIZES)
def test_complex_abs_and_compare(n):
    z = _small_complex("c64", _rows(n), 4)
    w = z.copy()
    w.reshape(-1)[::2] += 1
    check(unary("abs", "c64", "f32", n), [z], "abs c64")
    check(binary("compare", "c64", n, dst="pred").replace(
        "compare(x, y)", "compare(x, y), direction=NE"), [z, w], "compare c64")


TOTAL = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 1e-30, -2.5]


@pytest.mark.parametrize("direction", ["EQ", "NE", "LT", "LE", "GT", "GE"])
@pytest.mark.parametrize("t", ["f16", "bf16", "f32", "f64"])
def test_total_order_compare(t, direction):
    from dynhlo.hlo.types import to_numpy_dtype
    pairs = [(a, b) for a in TOTAL for b in TOTAL]
    x = np.array([a for a, _ in pairs] + [0.0, 0.0], np.float64)
    y = np.array([b for _, b in pairs] + [0.0, 0.0], np.float64)
    with np.errstate(all="ignore"):
        x, y = x.astype(to_numpy_dtype(t)), y.astype(to_numpy_dtype(t))
    text = (f"HloModule t\nENTRY main {{\n  x = {t}[<=128] parameter(0)\n"
            f"  y = {t}[<=128] parameter(1)\n  ROOT z = pred[<=128] compare(x, y), "
            f"direction={direction}, type=TOTALORDER\n}}\n")
    for n in (0, 1, len(x)):
        check(text, [x[:n], y[:n]], f"totalorder {direction} {t}")


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t", ["s8", "s32", "s64", "u8"])
def test_integer_power(t, n):
    from dynhlo.hlo.types import to_numpy_dtype
    rows = _rows(n)
    rng = np.random.default_rng(6)
    low = 0 if t == "u8" else -3
    x = rng.integers(low, 4, size=(rows, 3)).astype(to_numpy_dtype(t))
    y = rng.integers(low, 9, size=(rows, 3)).astype(to_numpy_dtype(t))
    if rows and t != "u8":
        x[0], y[0] = [-1, 1, -1], [-3, -2, -4]
    check(binary("power", t, n), [x, y], f"power {t}")


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("t", ["c64", "f8e4m3fn"])
def test_data_movement_of_types_kernels_refuse(t, n):
    """broadcast, slice, reverse, select and copy move complex and float8 values exactly."""
    d, rows_dim = _dims(n), _dims(n, "")
    text = f"""HloModule t
ENTRY main {{
  x = {t}[{d}] parameter(0)
  y = {t}[{d}] parameter(1)
  p = pred[{d}] parameter(2)
  b = {t}[{d},2] broadcast(x), dimensions={{0,1}}
  s = {t}[{rows_dim},1,1] slice(b), slice={{[0:{BOUND}], [1:3:2], [1:2]}}
  r = {t}[{d}] reverse(x), dimensions={{0,1}}
  e = {t}[{d}] select(p, r, y)
  c = {t}[{d}] copy(e)
  ROOT o = ({t}[{rows_dim},1,1], {t}[{d}]) tuple(s, c)
}}
"""
    rows = _rows(n)
    from dynhlo.hlo.types import to_numpy_dtype
    if t == "c64":
        x, y = _small_complex(t, rows, 7), _small_complex(t, rows, 8)
    else:
        rng = np.random.default_rng(9)
        x, y = (rng.normal(size=(rows, 3)).astype(to_numpy_dtype(t)) for _ in range(2))
    p = np.random.default_rng(10).random((rows, 3)) < 0.5
    check(text, [x, y, p], f"data movement {t}", exact=True)


INT_CONV = """HloModule t
ENTRY main {{
  x = {t}[<=6,5,3] parameter(0)
  k = {t}[3,3,4] parameter(1)
  ROOT y = {out}[<=6,5,4] convolution(x, k), window={{size=3 pad=1_1}}, dim_labels=b0f_0io->b0f
}}
"""


@pytest.mark.parametrize("n", [0, 1, 6])
@pytest.mark.parametrize("t,out,big", [("s8", "s32", False), ("u8", "s32", False),
                                       ("s32", "s32", False), ("s32", "s32", True),
                                       ("s8", "s8", False)])
def test_integer_convolution_exact(t, out, big, n):
    """Integer convs run in f64 where every partial sum is exact (wrapping as the CPU's);
    magnitudes past that bound take the host fallback, still exact."""
    from dynhlo.hlo.types import to_numpy_dtype
    dtype = to_numpy_dtype(t)
    info = np.iinfo(dtype)
    rng = np.random.default_rng(11)
    x = rng.integers(info.min, info.max, size=(n, 5, 3), endpoint=True, dtype=dtype)
    k = rng.integers(info.min, info.max, size=(3, 3, 4), endpoint=True, dtype=dtype)
    if not big and t == "s32":
        x, k = x // 65536, k // 65536  # |x| * |k| * 9 below 2**40
    fallbacks = check(INT_CONV.format(t=t, out=out), [x, k], f"conv {t}->{out}",
                      on_device=not big)
    assert fallbacks == (1 if big and n else 0)


GENERAL_SCATTER = """HloModule t
upd {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  two = f32[] constant(2)
  m = f32[] multiply(a, two)
  ROOT r = f32[] {combine}
}}
ENTRY main {{
  x = f32[<=6,2] parameter(0)
  i = s32[<=9,1] parameter(1)
  u = f32[<=9,2] parameter(2)
  ROOT y = f32[<=6,2] scatter(x, i, u), update_window_dims={{1}}, {dims}, to_apply=upd
}}
"""


@pytest.mark.parametrize("n", [0, 1, 4, 6])
@pytest.mark.parametrize("combine,on_device", [("subtract(m, b)", True),
                                               ("exponential(b)", False)])
def test_general_scatter_applies_repeated_updates_in_order(combine, on_device, n):
    """2a - b is not order-free: an element hit three times sees each earlier result.
    A to_apply with a transcendental takes the host fallback (still the CPU's result)."""
    rng = np.random.default_rng(12)
    x = rng.normal(size=(n, 2)).astype(np.float32)
    i = np.array([[0], [2], [0], [5], [0], [-1], [2], [7], [1]], np.int32)
    u = rng.normal(size=(9, 2)).astype(np.float32)
    dims = ("inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
            "index_vector_dim=1")
    fallbacks = check(GENERAL_SCATTER.format(combine=combine, dims=dims), [x, i, u], combine,
                      on_device=on_device, exact=True)
    assert fallbacks == (0 if on_device else 1)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("src,dst,on_device", [
    (src, dst, on) for src in ("f8e4m3fn", "f8e5m2")
    for dst, on in (("f32", True), ("bf16", True), ("s8", True), ("f8e5m2", False),
                    ("f8e4m3fn", False)) if dst != src])
def test_convert_from_and_to_float8(src, dst, on_device, n):
    """Decoding float8 is exact on the device; encoding stays on the host (torch saturates
    an f8e4m3fn overflow, ml_dtypes gives NaN)."""
    from dynhlo.hlo.types import to_numpy_dtype
    patterns = np.array([0x7F, 0x7C, 0xFF, 0xFC, 0x7E, 0x7B, 0x77, 0x80, 0x01, 0x81, 0x38, 0xB8,
                         0x3F, 0x40, 0x08, 0x07, 0xFE, 0xFB, 0xF7, 0xF0, 0x55, 0xAA, 0x00, 0x70],
                        np.uint8)  # NaNs, infinities, the largest, -0, subnormals, ...
    x = patterns[:3 * _rows(n)].view(to_numpy_dtype(src)).reshape(-1, 3)
    check(unary("convert", src, dst, n), [x], f"{src}->{dst}", on_device=on_device,
          exact=True)


ARGSORT = """HloModule t
by_key_then_index {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  lt = pred[] compare(a, b), direction=LT, type=TOTALORDER
  eq = pred[] compare(a, b), direction=EQ, type=TOTALORDER
  li = pred[] compare(i, j), direction={index_direction}
  tie = pred[] and(eq, li)
  ROOT c = pred[] or(lt, tie)
}}
ENTRY main {{
  x = f32[{dims}] parameter(0)
  i = s32[{dims}] iota(), iota_dimension={axis}
  ROOT s = (f32[{dims}], s32[{dims}]) sort(x, i), dimensions={{{axis}}}, to_apply=by_key_then_index
}}
"""


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 33, 100])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("index_direction", ["LT", "GT"])
def test_general_comparator_sort_on_device(index_direction, axis, n):
    """A two-operand comparator (keys with many ties and NaNs, then the index either way)
    through the bitonic network, at sizes that are not powers of two, along either axis."""
    dims = "<=100,3" if axis == 0 else "3,<=100"
    text = ARGSORT.format(dims=dims, axis=axis, index_direction=index_direction)
    rng = np.random.default_rng(n)
    keys = rng.integers(-3, 4, size=(n, 3)).astype(np.float32)
    keys.reshape(-1)[::5] = np.nan
    keys.reshape(-1)[1::7] = -0.0
    check(text, [keys if axis == 0 else keys.T.copy()], f"argsort {n}", exact=True)


def test_rank0_dynamic_slice_and_update():
    """No start indices at all: the slice is the value, the update replaces it."""
    text = """HloModule t
ENTRY main {
  x = f32[] parameter(0)
  u = f32[] parameter(1)
  d = f32[] dynamic-slice(x), dynamic_slice_sizes={}
  ROOT r = f32[] dynamic-update-slice(d, u)
}"""
    check(text, [np.float32(3), np.float32(5)], "rank-0 dynamic slices", exact=True)
