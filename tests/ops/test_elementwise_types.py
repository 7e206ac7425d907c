"""What a hostile (or just unlucky) user does to dynhlo: numerics.

Random elementwise chains against numpy, arithmetic on pred, sub-byte integers, complex
ops, converts across ml_dtypes, IEEE results without NumPy warnings.

Each test here was a crash, a hang, a silent wrong answer or lost data before its fix.
Expected values are numpy on the static computation.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import dynhlo
from tests.support.common import assert_verify_error, hlo_module


# -- random elementwise chains over a dynamic dimension, against numpy ----------------------

ROWS, COLS = 6, 3
_UNARY = {"negate": np.negative, "abs": np.abs, "tanh": np.tanh, "sine": np.sin,
          "floor": np.floor, "sign": np.sign}
_BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
           "maximum": np.maximum, "minimum": np.minimum}
_REDUCE = {"add": (np.add, "0"), "maximum": (np.maximum, "-inf"),
           "minimum": (np.minimum, "inf")}


class _Chain:
    """A random module `x f32[<=6,3], y f32[3], z f32[<=6] -> f32[<=6,3]` and its numpy
    reference. `static=True` declares intermediates at the bound (XLA's params-only form)."""

    def __init__(self, seed: int, static: bool):
        import random
        self.rng = random.Random(seed)
        self.dim0 = str(ROWS) if static else f"<={ROWS}"
        self.full = f"f32[{self.dim0},{COLS}]"
        self.lines = [f"  x = f32[<={ROWS},{COLS}] parameter(0)", f"  y = f32[{COLS}] "
                      "parameter(1)", f"  z = f32[<={ROWS}] parameter(2)"]
        self.count = 0
        cur, ref = "x", (lambda x, y, z: x)
        for _ in range(self.rng.randint(1, 8)):
            cur, ref = getattr(self, "_" + self.rng.choice(
                ["unary", "binary", "binary", "select", "reduce1", "reduce0", "reshape",
                 "transpose", "reverse", "sort", "cumsum", "window", "dot"]))(cur, ref)
        self.lines.append(f"  ROOT root = {self.full} copy({cur})")
        reducers = "".join(f"{r}_f {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                           f"  ROOT r = f32[] {r}(a, b)\n}}\n" for r in _REDUCE)
        reducers += ("less_f {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                     "  ROOT r = pred[] compare(a, b), direction=LT\n}\n")
        self.text = f"HloModule rand\n{reducers}ENTRY main {{\n" + "\n".join(self.lines) + "\n}"
        self.reference = ref

    def _name(self) -> str:
        self.count += 1
        return f"v{self.count}"

    def _emit(self, shape: str, expr: str) -> str:
        name = self._name()
        self.lines.append(f"  {name} = {shape} {expr}")
        return name

    def _unary(self, cur, ref):
        op = self.rng.choice(sorted(_UNARY))
        return self._emit(self.full, f"{op}({cur})"), lambda x, y, z: _UNARY[op](ref(x, y, z))

    def _operand(self, cur, ref):
        """Another [<=6,3] operand: x, the chain itself, or something broadcast or sizeless."""
        kind = self.rng.choice(["x", "self", "y", "z", "const", "iota0", "iota1"])
        if kind == "x":
            return "x", lambda x, y, z: x
        if kind == "self":
            return cur, ref
        if kind == "y":
            return (self._emit(self.full, "broadcast(y), dimensions={1}"),
                    lambda x, y, z: np.broadcast_to(y, (len(x), COLS)))
        if kind == "z":
            return (self._emit(self.full, "broadcast(z), dimensions={0}"),
                    lambda x, y, z: np.broadcast_to(z[:, None], (len(x), COLS)))
        if kind == "const":
            c = self.rng.choice([-2.0, 0.5, 3.0])
            scalar = self._emit("f32[]", f"constant({c})")
            return (self._emit(self.full, f"broadcast({scalar}), dimensions={{}}"),
                    lambda x, y, z: np.full((len(x), COLS), c, np.float32))
        d = int(kind[-1])
        return (self._emit(self.full, f"iota(), iota_dimension={d}"),
                lambda x, y, z: np.indices((len(x), COLS))[d].astype(np.float32))

    def _binary(self, cur, ref):
        other, oref = self._operand(cur, ref)
        op = self.rng.choice(sorted(_BINARY))
        return (self._emit(self.full, f"{op}({cur}, {other})"),
                lambda x, y, z: _BINARY[op](ref(x, y, z), oref(x, y, z)))

    def _select(self, cur, ref):
        other, oref = self._operand(cur, ref)
        pred = self._emit(f"pred[{self.dim0},{COLS}]", f"compare({cur}, {other}), direction=LT")
        return (self._emit(self.full, f"select({pred}, {cur}, {other})"),
                lambda x, y, z: np.where(ref(x, y, z) < oref(x, y, z), ref(x, y, z),
                                         oref(x, y, z)))

    def _reduce1(self, cur, ref):  # over the static dim, broadcast back
        op = self.rng.choice(sorted(_REDUCE))
        fn, init = _REDUCE[op]
        zero = self._emit("f32[]", f"constant({init})")
        row = self._emit(f"f32[{self.dim0}]",
                         f"reduce({cur}, {zero}), dimensions={{1}}, to_apply={op}_f")
        return (self._emit(self.full, f"broadcast({row}), dimensions={{0}}"),
                lambda x, y, z: np.broadcast_to(
                    fn.reduce(ref(x, y, z), axis=1, initial=float(init))[:, None],
                    (len(x), COLS)))

    def _reduce0(self, cur, ref):  # over the dynamic dim (padding must not leak), then + x
        op = self.rng.choice(sorted(_REDUCE))
        fn, init = _REDUCE[op]
        zero = self._emit("f32[]", f"constant({init})")
        col = self._emit(f"f32[{COLS}]",
                         f"reduce({cur}, {zero}), dimensions={{0}}, to_apply={op}_f")
        wide = self._emit(self.full, f"broadcast({col}), dimensions={{1}}")
        return (self._emit(self.full, f"add({wide}, x)"),
                lambda x, y, z: fn.reduce(ref(x, y, z), axis=0, initial=float(init)) + x)

    def _reshape(self, cur, ref):
        flat_dim = str(ROWS * COLS) if self.dim0 == str(ROWS) else f"<={ROWS * COLS}"
        flat = self._emit(f"f32[{flat_dim}]", f"reshape({cur})")
        return self._emit(self.full, f"reshape({flat})"), ref

    def _reverse(self, cur, ref):
        return (self._emit(self.full, f"reverse({cur}), dimensions={{0}}"),
                lambda x, y, z: ref(x, y, z)[::-1])

    def _sort(self, cur, ref):  # along the dynamic dim: padding must not sort in
        return (self._emit(self.full, f"sort({cur}), dimensions={{0}}, to_apply=less_f"),
                lambda x, y, z: np.sort(ref(x, y, z), axis=0))

    def _cumsum(self, cur, ref):  # jnp.cumsum's reduce-window over the dynamic dim
        zero = self._emit("f32[]", "constant(0)")
        return (self._emit(self.full, f"reduce-window({cur}, {zero}), window={{size={ROWS}x1 "
                                      f"pad={ROWS - 1}_0x0_0}}, to_apply=add_f"),
                lambda x, y, z: np.cumsum(ref(x, y, z), axis=0))

    def _window(self, cur, ref):  # max of each row and the one after it (the last: itself)
        ninf = self._emit("f32[]", "constant(-inf)")
        return (self._emit(self.full, f"reduce-window({cur}, {ninf}), window={{size=2x1 "
                                      "pad=0_1x0_0}, to_apply=maximum_f"),
                lambda x, y, z: np.maximum(ref(x, y, z), np.concatenate(
                    [ref(x, y, z)[1:], np.full((min(1, len(x)), COLS), -np.inf)])))

    def _dot(self, cur, ref):  # cur @ (cur^T cur) / 8: contracts the dynamic dim once
        gram = self._emit(f"f32[{COLS},{COLS}]", f"dot({cur}, {cur}), lhs_contracting_dims={{0}}, "
                                                 "rhs_contracting_dims={0}")
        prod = self._emit(self.full, f"dot({cur}, {gram}), lhs_contracting_dims={{1}}, "
                                     "rhs_contracting_dims={0}")
        eighth = self._emit("f32[]", "constant(0.125)")
        scale = self._emit(self.full, f"broadcast({eighth}), dimensions={{}}")
        return (self._emit(self.full, f"multiply({prod}, {scale})"),
                lambda x, y, z: (lambda v: v @ (v.T @ v) * np.float32(0.125))(ref(x, y, z)))

    def _transpose(self, cur, ref):
        t = self._emit(f"f32[{COLS},{self.dim0}]{{0,1}}", f"transpose({cur}), dimensions={{1,0}}")
        return self._emit(self.full, f"transpose({t}), dimensions={{1,0}}"), ref


# derandomize: the same 150 chains on every run. A fresh draw now and then makes a chain
# too ill-conditioned for one f32 tolerance (seed 15266, rows 1: the sine of a product of
# sums, where NumPy's and dynhlo's equally correct summation orders differ by 1.6e-5),
# which would fail CI at random without finding a bug.
@settings(max_examples=150, deadline=None, print_blob=True, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), static=st.booleans(), rows=st.integers(0, ROWS))
def test_random_chains_equal_numpy_at_the_actual_size(seed, static, rows):
    """A failure prints `seed`: `_Chain(seed, static).text` is the module."""
    chain = _Chain(seed, static)
    data = np.random.default_rng(seed)
    x = data.standard_normal((rows, COLS)).astype(np.float32)
    y = data.standard_normal(COLS).astype(np.float32)
    z = data.standard_normal(rows).astype(np.float32)
    with np.errstate(all="ignore"):
        want = chain.reference(x, y, z).astype(np.float32)
    got = dynhlo.compile(chain.text)(x, y, z)
    assert got.shape == want.shape, chain.text
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=chain.text)


# -- arithmetic on pred ---------------------------------------------------------------


@pytest.mark.parametrize("op, want", [
    ("subtract", [False, True, True, False]),   # a - b on 0/1, nonzero is true: a xor b
    ("negate", [True, True, False, False]),
    ("sign", [True, True, False, False]),
])
def test_arithmetic_on_pred(op, want):
    """Before: NumPy refused boolean subtract, negative and sign (TypeError from inside)."""
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    if op == "subtract":
        body = "b = pred[<=8] parameter(1)\n  ROOT r = pred[<=8] subtract(a, b)"
        args = (a, b)
    else:
        body = f"ROOT r = pred[<=8] {op}(a)"
        args = (a,)
    exe = dynhlo.compile(hlo_module(f"ENTRY m {{\n  a = pred[<=8] parameter(0)\n  {body}\n}}"))
    np.testing.assert_array_equal(exe(*args), want)


# -- sub-byte integers (s4/u4: ml_dtypes, held in a byte by NumPy) --------------------------


def _elementwise(op: str, element_type: str, *arrays):
    params = "\n".join(f"  p{i} = {element_type}[<=8] parameter({i})" for i in range(len(arrays)))
    names = ", ".join(f"p{i}" for i in range(len(arrays)))
    exe = dynhlo.compile(hlo_module(f"ENTRY m {{\n{params}\n  ROOT r = {element_type}[<=8] "
                                    f"{op}({names})\n}}"))
    return exe(*arrays).astype(int).tolist()


@pytest.mark.parametrize("op, element_type, args, want", [
    ("and", "s4", ([-8, 7, -1, 5], [7, 3, -1, 6]), [0, 3, -1, 4]),
    ("or", "u4", ([8, 1], [7, 2]), [15, 3]),
    ("xor", "s4", ([-1, 5], [7, 3]), [-8, 6]),
    ("not", "s4", ([0, -1, 5],), [-1, 0, -6]),
    ("not", "u4", ([0, 15, 5],), [15, 0, 10]),
    ("shift-right-logical", "s4", ([-8, -1], [1, 3]), [4, 1]),   # 0b1000 >> 1 = 0b0100
    ("count-leading-zeros", "s4", ([0, 1, -1, 4],), [4, 3, 0, 1]),
    ("popcnt", "s4", ([0, -1, 5],), [0, 4, 2]),
    ("add", "s4", ([7, -8, 3], [1, -1, 2]), [-8, 7, 5]),         # wraps in 4 bits
    ("divide", "s4", ([7, -8, 3], [2, -1, 0]), [3, -8, -1]),     # XLA: x / 0 = -1
    ("remainder", "s4", ([7, -7, 3], [2, 2, 0]), [1, -1, 3]),    # XLA: x % 0 = x
    ("subtract", "u4", ([0, 5], [1, 3]), [15, 2]),
])
def test_sub_byte_integers(op, element_type, args, want):
    """Before: and/or/xor/not were TypeErrors (ml_dtypes has no bitwise ufuncs); shifts,
    clz and popcnt counted 8 bits; arithmetic ran in f32 (x / 0 was not -1)."""
    import ml_dtypes
    dtype = {"s4": ml_dtypes.int4, "u4": ml_dtypes.uint4}[element_type]
    assert _elementwise(op, element_type, *[np.array(a, dtype) for a in args]) == want


@pytest.mark.parametrize("op, element_type", [
    ("and", "f32"), ("or", "bf16"), ("not", "f32"), ("shift-left", "f32"),
    ("popcnt", "c64"), ("floor", "c64"), ("erf", "c64"), ("round-nearest-even", "c128"),
    ("logistic", "pred"), ("exponential", "s32"), ("sqrt", "s32"),
])
def test_elementwise_op_on_a_type_xla_rejects(op, element_type):
    """Before: a TypeError from NumPy at run time, or (exp of an s32) silently truncated."""
    text = hlo_module(f"ENTRY m {{\n  a = {element_type}[<=8] parameter(0)\n"
                      f"  b = {element_type}[<=8] parameter(1)\n  ROOT r = {element_type}[<=8] "
                      f"{op}(a{', b' if op in ('and', 'or', 'shift-left') else ''})\n}}")
    assert_verify_error(text, "r", f"{op} takes")


def test_complex_cube_root_and_unsupported_complex_ops():
    exe = dynhlo.compile(hlo_module("ENTRY m {\n  a = c64[<=4] parameter(0)\n"
                                    "  ROOT r = c64[<=4] cbrt(a)\n}"))
    x = np.complex64([8, -8, 1j])
    np.testing.assert_allclose(exe(x) ** 3, x, atol=1e-5)
    for op in ("atan2", "remainder"):
        with pytest.raises(dynhlo.UnsupportedError, match=f"{op} of complex"):
            dynhlo.compile(hlo_module(f"ENTRY m {{\n  a = c64[<=4] parameter(0)\n"
                                      f"  ROOT r = c64[<=4] {op}(a, a)\n}}"))


@pytest.mark.parametrize("source, target, values, want", [
    ("f32", "s64", [np.inf, -np.inf, 1e30, 3.5, np.nan, -2.5],
     [2**63 - 1, -2**63, 2**63 - 1, 3, 0, -2]),               # before: INT64_MIN for inf
    ("f32", "u64", [np.inf, -1, 2**63], [2**64 - 1, 0, 2**63]),
    ("f32", "u4", [20, -3, 2.7, np.nan], [15, 0, 2, 0]),
    ("s4", "u4", [-1, 7, -8], [15, 7, 8]),                     # before: TypeError (no cast)
    ("u4", "s2", [3, 2, 15], [-1, -2, -1]),
    ("f8e8m0fnu", "f8e4m3fn", [1, 2, 0.5], [1, 2, 0.5]),
])
def test_convert_saturates_and_crosses_ml_dtypes(source, target, values, want):
    from dynhlo.hlo.types import to_numpy_dtype
    x = np.array(values, np.float64).astype(to_numpy_dtype(source))
    exe = dynhlo.compile(hlo_module(f"ENTRY m {{\n  a = {source}[<=8] parameter(0)\n"
                                    f"  ROOT r = {target}[<=8] convert(a)\n}}"))
    got = exe(x)
    got = got.tolist() if got.dtype.kind in "iu" else got.astype(np.float64).tolist()
    assert got == want


# -- IEEE special values ----------------------------------------------------------------


def test_ieee_results_raise_no_numpy_warnings():
    """inf - inf in a cumsum and inf * 0 in a dot are NaNs, as in XLA. Before: NumPy's
    RuntimeWarnings ('invalid value encountered in accumulate / matmul') reached the user."""
    import warnings
    exe = dynhlo.compile(hlo_module("""add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY m {
  x = f32[<=4] parameter(0)
  y = f32[<=4] parameter(1)
  z = f32[] constant(0)
  c = f32[<=4] reduce-window(x, z), window={size=4 pad=3_0}, to_apply=add
  d = f32[] dot(x, y), lhs_contracting_dims={0}, rhs_contracting_dims={0}
  ROOT t = (f32[<=4], f32[]) tuple(c, d)
}"""))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c, d = exe(np.float32([np.inf, -np.inf, 1]), np.float32([0, 1, 1]))
    np.testing.assert_array_equal(c, [np.inf, np.nan, np.nan])
    assert np.isnan(d)
