"""The GPU backend against the CPU backend on HLO that real emitters write, and on every
integer op kernels generate: integer results bit-exact, floats to 1e-5, errors alike.

Here it runs in Triton's interpreter; on a machine with a GPU the same module compiles
every kernel for real (the interpreter never does: LLVM's poison on an over-wide shift, a
loop-carried accumulator changing type, only show there). On the device:

    python -m pytest -q -n 8 tests/backends/gpu/test_conformance.py

Cases:
- tests/data/tf: TensorFlow's bridge (tf2xla) modules at each saved size (0, 1, middle,
  bound; tools/gen_tf_cases.py);
- tests/data/jax: tests/frontends/test_jax_lax_surface.py's modules at 0, 1, middle, bound, and
  threefry (`jax.random.uniform`/`bits`: pure u32 arithmetic), checked against JAX's own
  outputs at the bound too (tools/gen_jax_cases.py);
- integer ops: each integer opcode kernels emit, per integer type, on edge values (the
  type's min and max, 2^31 as u32, shift amounts past the width, negative amounts), fused
  into one kernel; and each fused reduction kind per integer type, over a row short enough
  for one tile and one long enough for the looped accumulator;
- custom calls (TopK, tf2xla's dynamic SAME windows and convolution gradients, JAX's SVD)
  at sizes 0, 1, middle and the bound, each also checked to run on the device (no host
  fallback counted); SVD by singular values, info and u s vt = A (vectors are unique only
  up to sign).
"""

from __future__ import annotations

import glob
import os

import ml_dtypes
import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import F32_REDUCERS, GPU  # skips without torch or triton; the
# interpreter without a GPU
from dynhlo import stats
from tests.support.common import TESTS

DATA = str(TESTS / "data")
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


# lax_igamma and lax_igammac: their while body `&`s a scalar comparison with a tile, which
# Triton's interpreter mis-typed (compile/source.py _patch_interpreter_compares).
@pytest.mark.parametrize("path", TF + JAX, ids=lambda p: os.path.basename(p)[:-4])
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
    (a 3-row slice from row 5 of 7 rows, any slice of fewer than 3 rows) both read zeros
    there (padding_reads="error": both refuse with a DynamicSizeError), and the update's
    valid rows land where XLA writes them."""
    gpu, cpu = dynhlo.compile(_SLICES, **GPU), dynhlo.compile(_SLICES)
    a = np.arange(n * 3, dtype=np.int32).reshape(n, 3) + 1
    u = -np.arange(8, dtype=np.int32).reshape(4, 2) - 1
    args = [a, np.int32(i), np.int32(2), u[:min(n, 4)]]
    out = assert_same(gpu, cpu, args, f"slices at size {n}, start {i}")
    first = min(max(i, 0), 7)
    buffer = np.zeros((10, 3), np.int32)
    buffer[:n] = a
    np.testing.assert_array_equal(out[0], buffer[first:first + 3, 1:3])
    if first + 3 > n:
        strict = dynhlo.compile(_SLICES, padding_reads="error", **GPU)
        with pytest.raises(dynhlo.DynamicSizeError, match=f"actual size {n}"):
            strict(*args)
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
    without its `&`): XLA holds it static, on both backends."""
    from tests.shapes.test_xla_dynamic_rules import CARRIED_CONSTANT
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


# --- custom calls on the device: each runs in the library tier, never on the host --------

def assert_on_device(gpu, cpu, args, where: str) -> list:
    """assert_same, and the GPU run took no host fallback (the `gpu_host_fallback` counter,
    as tests/backends/gpu/library/test_library_ops.py checks the library tier)."""
    before = stats.snapshot().get("gpu_host_fallback", 0)
    want = assert_same(gpu, cpu, args, where)
    after = stats.snapshot().get("gpu_host_fallback", 0)
    assert after == before, f"{where}: {after - before} step(s) ran on the host"
    return want


def _same_window_sizes(path: str) -> tuple[int, list]:
    """(the bound, sizes 0, 1, a middle one and the bound) of a saved TF module."""
    data = np.load(path[:-4] + ".npz")
    bound = next(data[k] for k in data if k.startswith("in")).shape[1]
    return bound, [0, 1, bound // 2, bound]


@pytest.mark.parametrize("name", ["conv_same", "conv_grad_input", "conv_grad_kernel",
                                  "conv_stride2_grads", "max_pool", "max_pool_grad"])
def test_tf_same_window_custom_calls_run_on_the_device(name):
    """tf2xla's DynamicConvolution{Forward,InputGrad,KernelGrad},
    DynamicReduceWindowSamePadding and DynamicSelectAndScatterSamePadding at sizes 0, 1,
    the middle and the bound; inputs with ties (small integers), so a max-pool gradient's
    choice among equal maxima shows."""
    path = os.path.join(DATA, "tf", f"{name}.hlo")
    gpu, cpu = _compile_both(path)
    bound, sizes = _same_window_sizes(path)
    rng = np.random.default_rng(len(name))
    x = rng.integers(-3, 4, (1, bound, 2)).astype(np.float32)
    for n in sizes:
        assert assert_on_device(gpu, cpu, [x, np.int32(n)], f"{name} at size {n}")


_SAME_2D = F32_REDUCERS + """ge_f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
ENTRY main {
  x = f32[2,<=9,<=7,3] parameter(0)
  k = f32[3,2,3,4] parameter(1)
  g = f32[<=5,<=4] parameter(2)
  p = f32[<=9,<=7] parameter(3)
  z = f32[] constant(0)
  c = f32[2,<=5,<=7,4] custom-call(x, k), window={size=3x2 stride=2x1 pad=1_1x0_1 rhs_dilate=1x2}, dim_labels=b01f_01io->b01f, padding_type=PADDING_SAME, custom_call_target="DynamicConvolutionForward"
  m = f32[<=5,<=4] custom-call(p, z), window={size=3x2 stride=2x2 pad=1_1x0_0}, custom_call_target="DynamicReduceWindowSamePadding", called_computations={max_f}
  s = f32[<=5,<=4] custom-call(p, z), window={size=2x3 stride=2x2 pad=0_1x1_1}, custom_call_target="DynamicReduceWindowSamePadding", called_computations={add_f}
  b = f32[<=9,<=7] custom-call(p, g, z), window={size=3x2 stride=2x2 pad=1_1x0_0}, custom_call_target="DynamicSelectAndScatterSamePadding", called_computations={ge_f, add_f}
  ROOT r = (f32[2,<=5,<=7,4], f32[<=5,<=4], f32[<=5,<=4], f32[<=9,<=7]) tuple(c, m, s, b)
}
"""


@pytest.mark.parametrize("rows,cols", [(0, 0), (1, 1), (0, 5), (4, 3), (5, 6), (9, 7)])
def test_same_window_custom_calls_over_two_dynamic_dims(rows, cols):
    """2-D SAME windows with strides, a window dilation and both spatial dims dynamic: the
    padding is recomputed per dimension from its actual size (0, 1, odd, even, the bound)."""
    text = "HloModule same2d\n" + _SAME_2D
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    rng = np.random.default_rng(rows * 10 + cols)
    args = [rng.standard_normal((2, rows, cols, 3)).astype(np.float32),
            rng.standard_normal((3, 2, 3, 4)).astype(np.float32),
            rng.standard_normal((-(-rows // 2), -(-cols // 2))).astype(np.float32),
            rng.integers(-2, 3, (rows, cols)).astype(np.float32)]
    assert assert_on_device(gpu, cpu, args, f"2-D SAME windows at {rows}x{cols}")


def _topk_module(t: str, direction: str, k: int) -> str:
    return f"""HloModule topk
cmp {{
  a = {t}[] parameter(0)
  b = {t}[] parameter(1)
  ROOT c = pred[] compare(a, b), direction={direction}
}}
ENTRY main {{
  x = {t}[<=4,<=9] parameter(0)
  ROOT t = ({t}[<=4,{k}], s32[<=4,{k}]) custom-call(x), custom_call_target="TopK", to_apply=cmp
}}
"""


@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("direction", ["GT", "LT"])
@pytest.mark.parametrize("t", ["f32", "s32", "bf16"])
def test_topk_custom_call_on_the_device(t, direction, k):
    """XLA's TopK custom call (GT: the k largest, LT: the k smallest) over a dynamic last
    dimension at 0, 1, k, the middle and the bound and a dynamic batch at 0: indices
    bit-exact (ties to the lower index, as TopkDecomposer's stable sort), NaN largest, -0
    below +0 (totalOrder); fewer than k elements is the same DynamicSizeError."""
    text = _topk_module(t, direction, k)
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    rng = np.random.default_rng(k)
    if t == "s32":
        x = rng.integers(-3, 4, (4, 9)).astype(np.int32)
        x[0, :4] = [np.iinfo(np.int32).min, np.iinfo(np.int32).max, 0, -1]
    else:
        x = rng.integers(-3, 4, (4, 9)).astype(np.float32)
        x[0, :6] = [np.nan, -0.0, 0.0, np.inf, -np.inf, -np.nan]
        x = x.astype(np.float32 if t == "f32" else ml_dtypes.bfloat16)
    for rows, n in [(4, 9), (4, 5), (3, k), (2, 1), (4, 0), (0, 9)]:
        want = assert_on_device(gpu, cpu, [x[:rows, :n]], f"TopK {t} {direction} k={k} at "
                                f"{rows}x{n}")
        assert bool(want) == (n >= k), (rows, n)  # fewer than k: an error on both


def test_pad_to_static_declared_unbounded_runs_on_the_device():
    """XLA's PadToStatic gives the operand at its bound: a result declared `?` (inferred, as
    on any instruction) was padded to the declared -1 on both backends."""
    text = ("HloModule m\nENTRY e {\n  a = f32[<=5,2] parameter(0)\n  ROOT p = (f32[?,?], "
            "s32[], s32[]) custom-call(a), custom_call_target=\"PadToStatic\"\n}\n")
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    for rows in (0, 3, 5):
        padded, n, _ = assert_on_device(gpu, cpu, [x[:rows]], f"PadToStatic at {rows} rows")
        np.testing.assert_array_equal(padded, np.where(np.arange(5)[:, None] < rows, x, 0))
        assert n == rows


_SVD = """HloModule svd
ENTRY main {{
  a = {t}[<=4,<=6,3] parameter(0)
  s = ({t}[<=4,<=6,3]{{1,2,0}}, {r}[<=4,3], {t}[<=4,<=6,{u}]{{1,2,0}}, {t}[<=4,{v},3]{{1,2,0}}, s32[<=4]) custom-call(a), custom_call_target="lapack_{k}gesdd_ffi", api_version=API_VERSION_TYPED_FFI, backend_config={{mode = {mode} : ui8}}
  a0 = {t}[<=4,<=6,3] get-tuple-element(s), index=0
  s1 = {r}[<=4,3] get-tuple-element(s), index=1
  u2 = {t}[<=4,<=6,{u}] get-tuple-element(s), index=2
  v3 = {t}[<=4,{v},3] get-tuple-element(s), index=3
  i4 = s32[<=4] get-tuple-element(s), index=4
  ROOT t = ({t}[<=4,<=6,3], {r}[<=4,3], {t}[<=4,<=6,{u}], {t}[<=4,{v},3], s32[<=4]) tuple(a0, s1, u2, v3, i4)
}}
"""
_SVD_TYPES = {"f32": ("s", "f32", np.float32, 1e-5), "f64": ("d", "f64", np.float64, 1e-10),
              "c64": ("c", "f32", np.complex64, 1e-5)}


def _svd_module(t: str, mode: str) -> str:
    """JAX's SVD call on [<=4 batch, <=6 rows, 3 columns]: mode S (reduced), A (full), N."""
    k, r = _SVD_TYPES[t][:2]
    u = 3 if mode == "S" else "<=6"  # u: [rows, 3] reduced, else [rows, rows] (JAX's N too)
    return _SVD.format(t=t, r=r, k=k, u=u, v=3, mode=ord(mode))


@pytest.mark.parametrize("mode", ["S", "A", "N"])
@pytest.mark.parametrize("t", sorted(_SVD_TYPES))
def test_svd_custom_call_on_the_device(t, mode):
    """lapack_?gesdd_ffi at batch sizes 0, 1, 2 and the bound and rows 3..6 (the bound):
    singular values and info as the CPU's, A unchanged; singular vectors are unique only up
    to sign (phase), so u s vt must rebuild A and u's columns be orthonormal; mode N's u and
    vt are the CPU's zeros. A matrix holding a NaN gives info 1 and NaN results on both."""
    text = _svd_module(t, mode)
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    dtype, tol = _SVD_TYPES[t][2:]
    rng = np.random.default_rng(ord(mode))
    x = rng.standard_normal((4, 6, 3))
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal((4, 6, 3))
    x = x.astype(dtype)
    x[3, 0, 0] = np.nan
    for batch, rows in [(0, 6), (1, 3), (2, 4), (4, 6)]:
        where = f"SVD {t} mode {mode} at {batch}x{rows}"
        args = [x[:batch, :rows]]
        want = cpu(*args)
        before = stats.snapshot().get("gpu_host_fallback", 0)
        got = [np.asarray(v) for v in gpu(*args)]
        assert stats.snapshot().get("gpu_host_fallback", 0) == before, where
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype and g.shape == w.shape, (where, g.shape, w.shape)
        a, s, u, vt, info = got
        np.testing.assert_array_equal(a, want[0], err_msg=where)
        np.testing.assert_array_equal(info, want[4], err_msg=where)
        np.testing.assert_allclose(s, want[1], rtol=tol, atol=tol, err_msg=where)
        if mode == "N":  # zeros (NaN for a NaN matrix), as the CPU's
            np.testing.assert_array_equal(u, want[2], err_msg=where)
            np.testing.assert_array_equal(vt, want[3], err_msg=where)
            continue
        ok = info == 0
        kk = s.shape[-1]
        rebuilt = (u[ok, :, :kk] * s[ok, None, :]) @ vt[ok, :kk, :]
        np.testing.assert_allclose(rebuilt, args[0][ok], rtol=10 * tol, atol=10 * tol,
                                   err_msg=where)
        gram = np.conj(np.swapaxes(u[ok], -1, -2)) @ u[ok]
        np.testing.assert_allclose(gram, np.broadcast_to(np.eye(u.shape[-1]), gram.shape),
                                   atol=10 * tol, err_msg=where)
        assert np.isnan(s[~ok]).all() and np.isnan(u[~ok]).all(), where


@pytest.mark.parametrize("full", [False, True])
def test_jax_lowered_svd_runs_on_the_device(full):
    """jnp.linalg.svd as JAX lowers it (lapack_sgesdd_ffi inside a call, column-major
    layouts, info checked by compare/select): on the device, singular values as NumPy's and
    u s vt = A."""
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    x = np.random.default_rng(5).standard_normal((3, 5, 4)).astype(np.float32)
    # lowered for the CPU platform (on a GPU machine JAX would write cuSOLVER's target)
    text = jax.jit(lambda a: jnp.linalg.svd(a, full_matrices=full)).trace(x).lower(
        lowering_platforms=("cpu",)).as_text(dialect="hlo")
    assert "lapack_sgesdd_ffi" in text
    gpu = dynhlo.compile(text, **GPU)
    before = stats.snapshot().get("gpu_host_fallback", 0)
    u, s, vt = (np.asarray(v) for v in gpu(x))
    assert stats.snapshot().get("gpu_host_fallback", 0) == before
    np.testing.assert_allclose(s, np.linalg.svd(x, compute_uv=False), rtol=1e-5, atol=1e-5)
    assert u.shape == ((3, 5, 5) if full else (3, 5, 4)) and vt.shape == (3, 4, 4)
    np.testing.assert_allclose((u[..., :4] * s[..., None, :]) @ vt, x, rtol=1e-4, atol=1e-4)
