"""The GPU backend against the CPU backend on HLO that real emitters write, and on every
integer op kernels generate: integer results bit-exact, floats to 1e-5, errors alike.

Here it runs in Triton's interpreter; on a machine with a GPU the same module compiles
every kernel for real (the interpreter never does: LLVM's poison on an over-wide shift, a
loop-carried accumulator changing type, only show there). On the device:

    python -m pytest -q -n 8 tests/test_gpu_conformance.py

Cases:
- tests/data/tf: TensorFlow's bridge (tf2xla) modules at each saved size (0, 1, middle,
  bound; tools/gen_tf_cases.py);
- tests/data/jax: tests/test_jax_lax_surface.py's modules at 0, 1, middle, bound, and
  threefry (`jax.random.uniform`/`bits`: pure u32 arithmetic), checked against JAX's own
  outputs at the bound too (tools/gen_jax_cases.py);
- integer ops: each integer opcode kernels emit, per integer type, on edge values (the
  type's min and max, 2^31 as u32, shift amounts past the width, negative amounts), fused
  into one kernel; and each fused reduction kind per integer type, over a row short enough
  for one tile and one long enough for the looped accumulator.
"""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

import dynhlo
from gpucheck import GPU, INTERPRET  # skips without torch or triton; the interpreter without a GPU

DATA = os.path.join(os.path.dirname(__file__), "data")
TF = sorted(glob.glob(os.path.join(DATA, "tf", "*.hlo")))
JAX = sorted(glob.glob(os.path.join(DATA, "jax", "*.hlo")))
INT_TYPES = {"s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64,
             "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64}


def _outputs(exe, args):
    """(outputs as a list, None) or (None, the DynHloError raised)."""
    try:
        out = exe(*args)
    except dynhlo.DynHloError as exc:
        return None, exc
    return (list(out) if isinstance(out, tuple) else [out]), None


def assert_same(gpu, cpu, args, where: str) -> list:
    """GPU and CPU outputs alike (integers and predicates bit-exact, floats to 1e-5 and NaN
    where NaN), or both raising the same kind of error. Returns the CPU's outputs."""
    want, cpu_error = _outputs(cpu, args)
    got, gpu_error = _outputs(gpu, args)
    if cpu_error is not None or gpu_error is not None:
        assert type(gpu_error) is type(cpu_error), (where, cpu_error, gpu_error)
        return []
    assert len(got) == len(want), where
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (where, k, g.dtype, g.shape, w.shape)
        if w.dtype.kind in "biu":
            bad = np.flatnonzero(g.reshape(-1) != w.reshape(-1))
            assert not bad.size, (f"{where} output {k}: {bad.size} elements differ, first at "
                                  f"{bad[0]}: gpu {g.reshape(-1)[bad[0]]} cpu "
                                  f"{w.reshape(-1)[bad[0]]}")
        else:
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=1e-5,
                                       atol=1e-5, equal_nan=True, err_msg=f"{where} output {k}")
    return want


def _saved_runs(path: str):
    """(size, arguments) of every saved size: in<n>_<k> arrays, then the TF modules' size
    arguments (one s32 per dynamic input)."""
    data = np.load(path[:-4] + ".npz")
    sizes = sorted({int(k[2:].split("_")[0]) for k in data if k.startswith("in")})
    for n in sizes:
        keys = sorted((k for k in data if k.startswith(f"in{n}_")),
                      key=lambda k: int(k.split("_")[1]))
        args = [data[k] for k in keys]
        if "static" in data and not data["static"]:
            args += [np.int32(n)] * len(args)
        yield n, args


def _compile_both(path: str):
    with open(path) as f:
        text = f.read()
    return dynhlo.compile(text, **GPU), dynhlo.compile(text)


# Triton 3.6's interpreter (not the compiled kernels: these pass on the H200, see
# bench/RESULTS.md) fails a fused `&` of igamma's while body with NumPy's bitwise_and on
# mismatched operand types; strict, so the mark goes when the cause is fixed.
_INTERPRETER_AND = pytest.mark.xfail(INTERPRET, strict=True, reason="Triton interpreter: "
                                     "bitwise_and of a bool and a loaded value in igamma's loop")


@pytest.mark.parametrize("path", [
    pytest.param(p, marks=_INTERPRETER_AND) if os.path.basename(p) in
    ("lax_igamma.hlo", "lax_igammac.hlo") else p for p in TF + JAX],
    ids=lambda p: os.path.basename(p)[:-4])
def test_emitted_module_on_gpu_matches_cpu(path):
    gpu, cpu = _compile_both(path)
    runs = list(_saved_runs(path))
    assert runs, path
    for n, args in runs:
        assert_same(gpu, cpu, args, f"{os.path.basename(path)} at size {n}")


def test_threefry_at_the_bound_is_jax_bit_for_bit():
    """jax.random.uniform and jax.random.bits (threefry2x32) at the bound: the GPU's and the
    CPU's outputs are JAX's exactly (the integer kernels are bit-exact)."""
    path = os.path.join(DATA, "jax", "threefry.hlo")
    data = np.load(path[:-4] + ".npz")
    n = int(data["bound"])
    gpu, cpu = _compile_both(path)
    for exe in (gpu, cpu):
        uniform, bits = exe(np.zeros((n,), np.float32))
        np.testing.assert_array_equal(np.asarray(bits), data["out_1"])
        np.testing.assert_array_equal(np.asarray(uniform), data["out_0"])


# --- dynamic-(update-)slice: XLA's starts, clamped against the bounds --------------------

_SLICES = """HloModule slices
ENTRY main {
  a = s32[<=10,3] parameter(0)
  i = s32[] parameter(1)
  j = s32[] parameter(2)
  u = s32[<=4,2] parameter(3)
  ds = s32[3,2] dynamic-slice(a, i, j), dynamic_slice_sizes={3,2}
  whole = s32[<=10,1] dynamic-slice(a, i, j), dynamic_slice_sizes={10,1}
  dus = s32[<=10,3] dynamic-update-slice(a, u, i, j)
  ROOT r = (s32[3,2], s32[<=10,1], s32[<=10,3]) tuple(ds, whole, dus)
}
"""


@pytest.mark.parametrize("n,i", [(10, 9), (10, -2), (7, 4), (7, 5), (6, 8), (3, 0), (1, 0),
                                 (0, 0)])
def test_dynamic_slices_at_xlas_starts_match_cpu(n, i):
    """Starts clamp against the bound (10) on both backends; where XLA's window reads padding
    (a 3-row slice from row 5 of 7 rows, any slice of fewer than 3 rows) both refuse with a
    DynamicSizeError, and the update's valid rows land where XLA writes them."""
    gpu, cpu = dynhlo.compile(_SLICES, **GPU), dynhlo.compile(_SLICES)
    a = np.arange(n * 3, dtype=np.int32).reshape(n, 3) + 1
    u = -np.arange(8, dtype=np.int32).reshape(4, 2) - 1
    args = [a, np.int32(i), np.int32(2), u[:min(n, 4)]]
    out = assert_same(gpu, cpu, args, f"slices at size {n}, start {i}")
    first = min(max(i, 0), 7)
    if first + 3 > n:
        with pytest.raises(dynhlo.DynamicSizeError, match=f"actual size {n}"):
            gpu(*args)
        return
    np.testing.assert_array_equal(out[0], a[first:first + 3, 1:3])
    np.testing.assert_array_equal(out[1], a[:, 2:3])
    rows = min(max(i, 0), 6)  # against the bounds 10 - 4
    want = a.copy()
    want[rows:rows + min(n, 4), 1:3] = u[:min(n, 4)][:max(0, n - rows)]
    np.testing.assert_array_equal(out[2], want)


@pytest.mark.parametrize("n", [0, 2, 6])
def test_whole_bound_dynamic_update_matches_cpu(n):
    """An update `<=6` into a 6-row operand: the result has the update's size on both."""
    text = ("HloModule m\nENTRY e {\n  a = s32[6] parameter(0)\n  u = s32[<=6] parameter(1)\n"
            "  i = s32[] parameter(2)\n  ROOT s = s32[<=6] dynamic-update-slice(a, u, i)\n}\n")
    args = [np.arange(6, dtype=np.int32), -np.arange(n, dtype=np.int32) - 1, np.int32(3)]
    out = assert_same(dynhlo.compile(text, **GPU), dynhlo.compile(text), args, f"size {n}")
    np.testing.assert_array_equal(out[0], args[1])


@pytest.mark.parametrize("n", [0, 1, 2, 4, 7])
def test_constant_carried_through_a_while_matches_cpu(n):
    """A broadcast constant carried through a loop with x-sized values (igamma's pattern,
    without the `&` the interpreter mis-types): XLA holds it static, on both backends."""
    from test_xla_dynamic_rules import CARRIED_CONSTANT
    x = (np.arange(n * 3, dtype=np.float32).reshape(n, 3) - 4) / 8
    args = [x, np.ones((5, 3), np.float32)]
    out = assert_same(dynhlo.compile(CARRIED_CONSTANT, **GPU), dynhlo.compile(CARRIED_CONSTANT),
                      args, f"size {n}")
    assert len(out) == 3 and out[0].shape == (n, 3)


# --- integer ops: every kernel emitter on edge values ------------------------------------

_BINARY = ("add", "subtract", "multiply", "and", "or", "xor", "maximum", "minimum",
           "shift-left", "shift-right-logical", "shift-right-arithmetic", "mulhi")
_UNARY = ("negate", "abs", "sign", "not")
_COMPARE = ("EQ", "NE", "LT", "LE", "GT", "GE")
N = 40  # elements of the integer modules (a dynamic length, run at N and below)


def _edge_values(t: str, seed: int) -> np.ndarray:
    """N values of type t: min, max, 0, 1, -1 (as the type), 2^(bits-1), small shift
    amounts 0..bits+1, and random ones."""
    dtype = np.dtype(INT_TYPES[t])
    info = np.iinfo(dtype)
    bits = info.bits
    special = [info.min, info.max, 0, 1, info.max // 2 + 1, info.max // 2]
    if info.min < 0:
        special += [-1, info.min + 1]
    special += list(range(0, bits + 2, max(1, bits // 8)))
    rng = np.random.default_rng(seed)
    random = rng.integers(info.min, info.max, size=N, dtype=dtype, endpoint=True)
    out = np.array([int(v) for v in special], dtype=object).astype(dtype)[:N]
    return np.concatenate([out, random[out.size:]])


def _integer_module(t: str) -> str:
    """Every binary, unary and compare op of type t over x and y, fused into one root."""
    lines = [f"  x = {t}[<={N}] parameter(0)", f"  y = {t}[<={N}] parameter(1)"]
    outs = []
    for k, op in enumerate(_BINARY):
        lines.append(f"  b{k} = {t}[<={N}] {op}(x, y)")
        outs.append(f"b{k}")
    for k, op in enumerate(_UNARY):
        lines.append(f"  u{k} = {t}[<={N}] {op}(x)")
        outs.append(f"u{k}")
    for k, direction in enumerate(_COMPARE):
        lines.append(f"  p{k} = pred[<={N}] compare(x, y), direction={direction}")
        lines.append(f"  c{k} = {t}[<={N}] convert(p{k})")
        outs.append(f"c{k}")
    for k, other in enumerate(INT_TYPES):  # convert to every other integer type and back
        lines.append(f"  w{k} = {other}[<={N}] convert(x)")
        lines.append(f"  v{k} = {t}[<={N}] convert(w{k})")
        outs.append(f"v{k}")
    lines.append(f"  f = f32[<={N}] convert(x)")
    lines.append(f"  g = f64[<={N}] convert(y)")
    shapes = ", ".join([f"{t}[<={N}]"] * len(outs) + [f"f32[<={N}]", f"f64[<={N}]"])
    lines.append(f"  ROOT r = ({shapes}) tuple({', '.join(outs + ['f', 'g'])})")
    return "HloModule ints\nENTRY main {\n" + "\n".join(lines) + "\n}\n"


@pytest.mark.parametrize("t", sorted(INT_TYPES))
def test_integer_ops_bit_exact(t):
    text = _integer_module(t)
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    x, y = _edge_values(t, 1), _edge_values(t, 2)
    # y also as shift amounts: each x shifted by every small and past-the-width amount
    for n in (N, 17, 1, 0):
        assert_same(gpu, cpu, [x[:n], y[:n]], f"{t} at size {n}")
        assert_same(gpu, cpu, [y[:n], x[:n]], f"{t} swapped at size {n}")


_REDUCERS = {"add": "add", "max": "maximum", "min": "minimum", "mul": "multiply",
             "and": "and", "or": "or"}


def _reduce_module(t: str, kinds: list, cols: int) -> str:
    """One reduce per kind over the rows of x: f32[<=3, cols] (each its own kernel)."""
    comps = "".join(f"""r_{k} {{
  a = {t}[] parameter(0)
  b = {t}[] parameter(1)
  ROOT c = {t}[] {_REDUCERS[k]}(a, b)
}}
""" for k in kinds)
    body = "".join(f"  s_{k} = {t}[<=3] reduce(x, z), dimensions={{1}}, to_apply=r_{k}\n"
                   for k in kinds)
    shapes = ", ".join([f"{t}[<=3]"] * len(kinds))
    return (f"HloModule red\n{comps}ENTRY main {{\n  x = {t}[<=3,{cols}] parameter(0)\n"
            f"  z = {t}[] parameter(1)\n{body}  ROOT r = ({shapes}) tuple("
            f"{', '.join(f's_{k}' for k in kinds)})\n}}\n")


@pytest.mark.parametrize("cols", [40, 3000], ids=["one_tile", "looped"])
@pytest.mark.parametrize("t", sorted(INT_TYPES) + ["pred"])
def test_integer_reductions_bit_exact(t, cols):
    """Every fused reduction kind per integer type (a looped one: 3000 columns pass the
    one-tile limit), started from a non-identity value, extremes of the type included."""
    rng = np.random.default_rng(cols)
    kinds = [k for k in _REDUCERS if not (t == "pred" and k in ("add", "mul"))]
    text = _reduce_module(t, kinds, cols)
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    assert len(gpu.program.kernels) == len(kinds)
    if t == "pred":
        xs = {True: rng.random((3, cols)) < 0.999, False: rng.random((3, cols)) < 0.001}
        for init in (True, False):
            for n in (3, 1, 0):
                assert_same(gpu, cpu, [xs[init][:n], np.bool_(init)], f"pred from {init} at {n}")
        return
    dtype = np.dtype(INT_TYPES[t])
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, size=(3, cols), dtype=dtype, endpoint=True)
    x[0, 0], x[1, -1] = info.max, info.min
    for n in (3, 1, 0):
        assert_same(gpu, cpu, [x[:n], dtype.type(info.max // 3)], f"{t} over {cols} at {n}")


_LATER_UNARY = {"acos": (-1, 1), "asin": (-1, 1), "atan": (-50, 50), "acosh": (1, 50),
                "asinh": (-50, 50), "atanh": (-0.999, 0.999), "cosh": (-20, 20),
                "sinh": (-20, 20)}


@pytest.mark.parametrize("t", ["f16", "f32", "f64"])
def test_later_unary_ops_fused_match_cpu(t):
    """acos ... sinh (XLA's later opcodes) run in one generated kernel (no host step) and
    match the CPU backend (NumPy) on their domain, tiny arguments and the edges included."""
    names = sorted(_LATER_UNARY)
    params = "\n".join(f"  x{k} = {t}[<={N}] parameter({k})" for k in range(len(names)))
    body = "\n".join(f"  y{k} = {t}[<={N}] {op}(x{k})" for k, op in enumerate(names))
    root = ", ".join(f"y{k}" for k in range(len(names)))
    text = (f"HloModule later\nENTRY main {{\n{params}\n{body}\n  ROOT r = "
            f"({', '.join([f'{t}[<={N}]'] * len(names))}) tuple({root})\n}}\n")
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    steps = gpu.program.plan.steps
    assert [i.opcode.value for i, kind in steps if kind == "library"] == ["tuple"]
    dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[t]
    rng = np.random.default_rng(3)
    args = []
    for op in names:
        lo, hi = _LATER_UNARY[op]
        edge = [lo, hi, 1e-6 if lo < 1e-6 < hi else lo, -1e-6 if lo < -1e-6 < hi else hi]
        args.append(np.concatenate([edge, rng.uniform(lo, hi, N - 4)]).astype(dtype))
    for n in (N, 1, 0):
        want, _ = _outputs(cpu, [a[:n] for a in args])
        got, _ = _outputs(gpu, [a[:n] for a in args])
        for op, g, w in zip(names, got, want, strict=True):
            np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(w, np.float64),
                                       rtol=2e-3 if t == "f16" else 1e-5, atol=1e-6,
                                       err_msg=f"{op} {t} at {n}")
