"""The numerics sweep's table: every elementwise and reduction opcode over special values.

One `Case` per opcode (or compare direction, convert pair, reducer) and element type: its
HLO module (static shapes: the sweep is about values) and its inputs, all the values of one
case in one array. tests/ops/test_numerics_special_values.py runs the cases on both backends
against the outputs tools/gen_numerics_expected.py stored from XLA (`run_xla`: the same HLO
text compiled by XLA's CPU backend through jaxlib).

Values: ±0, ±inf, NaN, the smallest and largest subnormals, the smallest normal, the largest
finite, halves (0.5, 1.5, 2.5 and their negatives, the float just below 0.5), odd integers
past 2^p (p the type's mantissa bits: where x + 0.5 rounds), ties at 2^p - 0.5; integer
extremes and shift amounts around the bit width.
"""

from __future__ import annotations

import itertools
import zlib
from dataclasses import dataclass
from pathlib import Path

import ml_dtypes
import numpy as np

from dynhlo.hlo.types import to_numpy_dtype

EXPECTED = Path(__file__).resolve().parents[1] / "data" / "numerics" / "expected.npz"

FLOATS = ("f16", "bf16", "f32", "f64")
INTS = ("s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64")

UNARY_FLOAT = """abs negate sign exponential exponential-minus-one log log-plus-one sqrt rsqrt
cbrt tanh sine cosine tan logistic erf floor ceil round-nearest-even round-nearest-afz
is-finite acos acosh asin asinh atan atanh cosh sinh""".split()
UNARY_INT = "abs negate sign not popcnt count-leading-zeros".split()
SIGNED_ONLY = ("abs", "sign")  # XLA refuses them on unsigned types
BINARY_FLOAT = "add subtract multiply divide remainder maximum minimum power atan2".split()
BINARY_INT = """add subtract multiply divide remainder maximum minimum power and or xor
shift-left shift-right-logical shift-right-arithmetic""".split()
LOGICAL = ("and", "or", "xor")
DIRECTIONS = ("EQ", "NE", "LT", "LE", "GT", "GE")
REDUCERS = ("add", "multiply", "maximum", "minimum", "and", "or")
CONVERT_INTS = ("s8", "s32", "s64", "u8", "u32", "u64")

# Opcodes whose results are rounded approximations (libm, XLA's polynomials): compared
# within a few ulp, special results exactly. Every other opcode is compared bit for bit.
APPROXIMATE = frozenset("""exponential exponential-minus-one log log-plus-one rsqrt cbrt tanh
sine cosine tan logistic erf acos acosh asin asinh atan atanh cosh sinh power
atan2""".split())


def finfo(t: str):
    return ml_dtypes.finfo(to_numpy_dtype(t))


def float_values(t: str) -> np.ndarray:
    """Every special value of the float type `t` (about 50)."""
    fi = finfo(t)
    p = fi.nmant
    tiny, normal, big = float(fi.smallest_subnormal), float(fi.smallest_normal), float(fi.max)
    below_half = 0.5 - 2.0 ** -(p + 2)  # 0.49999997 in f32: x + 0.5 rounds up to 1
    odd = 2.0 ** p + 1  # the first odd integer where x + 0.5 is not representable
    signed = [0.0, np.inf, tiny, normal - tiny, normal, big, 0.5, 1.5, 2.5, below_half, 1.0,
              2.0, 3.0, 0.1, 0.75, odd, 2.0 ** (p + 1) - 1, 2.0 ** p - 0.5, 2.0 ** (p - 1) + 0.5,
              2.0 ** (p + 1) + 2, 10.0, 100.0, 1e4, 88.75, 710.5, np.pi, np.pi / 2]
    values = [v for s in signed for v in (s, -s)] + [np.nan]
    with np.errstate(over="ignore"):
        return np.array(values, np.float64).astype(to_numpy_dtype(t))


def pair_values(t: str) -> np.ndarray:
    """The values crossed with each other for two-operand cases (about 17)."""
    fi = finfo(t)
    values = [0.0, -0.0, np.inf, -np.inf, np.nan, float(fi.smallest_subnormal),
              -float(fi.smallest_normal), 0.5, -0.5, 1.5, -2.5, 1.0, -1.0, 2.0, 3.0,
              float(fi.max), 2.0 ** fi.nmant + 1]
    return np.array(values, np.float64).astype(to_numpy_dtype(t))


def int_values(t: str) -> np.ndarray:
    """Extremes, small numbers and shift amounts around the bit width of integer type `t`."""
    info = np.iinfo(to_numpy_dtype(t))
    bits = info.bits
    wanted = [info.min, info.min + 1, -bits - 1, -2, -1, 0, 1, 2, 3, 5, 7, bits - 1, bits,
              bits + 1, 100, info.max // 3, info.max - 1, info.max]
    kept = sorted({v for v in wanted if info.min <= v <= info.max})
    return np.array(kept, to_numpy_dtype(t))


def reduce_values(t: str) -> np.ndarray:
    """The values paired in a reduce's rows: fewer than `pair_values` (a reduction in Triton's
    interpreter costs one program a row), still ±0, ±inf, NaN, a subnormal, overflow."""
    if t == "pred":
        return values_of(t)
    if t not in FLOATS:
        info = np.iinfo(to_numpy_dtype(t))
        return np.array(sorted({info.min, -1 if info.min else 2, 0, 1, 3, info.max}),
                        to_numpy_dtype(t))
    fi = finfo(t)
    values = [0.0, -0.0, np.inf, -np.inf, np.nan, float(fi.smallest_subnormal),
              -float(fi.smallest_normal), 0.5, -2.5, float(fi.max)]
    return np.array(values, np.float64).astype(to_numpy_dtype(t))


def values_of(t: str) -> np.ndarray:
    if t == "pred":
        return np.array([False, True])
    return float_values(t) if t in FLOATS else int_values(t)


def pairs_of(t: str) -> np.ndarray:
    return pair_values(t) if t in FLOATS else values_of(t)


def cross(*columns: np.ndarray) -> list[np.ndarray]:
    """Every combination of the columns' values, one array per column."""
    index = np.array(list(itertools.product(*(range(len(c)) for c in columns))))
    return [c[index[:, k]] for k, c in enumerate(columns)]


def _convert_values(src: str) -> np.ndarray:
    """`src` values plus those at the edges of the result types: saturation limits, rounding
    ties."""
    if src == "pred":
        return values_of(src)
    extra = [127.5, 128, -128.5, -129, 255.5, 256, 257, 259, 2.0 ** 31 - 128, 2.0 ** 31,
             -2.0 ** 31, 2.0 ** 32, 2.0 ** 63, -2.0 ** 63, 2.0 ** 64, 1e20, -1e20, 0.9999,
             -0.9999, 2.0 ** 24 + 1, 2.0 ** 24 + 3, 2.0 ** 53 + 1, 2049, 65519, 65520]
    if src in FLOATS:
        with np.errstate(over="ignore"):
            more = np.array(extra, np.float64).astype(to_numpy_dtype(src))
        return np.concatenate([values_of(src), more])
    info = np.iinfo(to_numpy_dtype(src))
    more = [int(v) for v in extra if v == int(v) and info.min <= v <= info.max]
    return np.concatenate([values_of(src), np.array(more, to_numpy_dtype(src))])


@dataclass(frozen=True)
class Case:
    """One opcode at one element type. `kind`: unary, binary, compare, select, clamp,
    convert or reduce; `attr`: the compare direction (TOTALORDER ones end in `/total`),
    the reducer's opcode or the convert's result type."""

    kind: str
    opcode: str
    dtype: str
    attr: str = ""

    @property
    def name(self) -> str:
        if self.kind == "convert":
            return f"convert/{self.dtype}-to-{self.attr}"
        if self.kind in ("select", "clamp"):
            return f"{self.kind}/{self.dtype}"
        middle = self.attr if self.kind == "compare" else self.opcode
        return f"{self.kind}/{middle}/{self.dtype}"

    @property
    def out(self) -> str:
        if self.kind == "compare" or self.opcode == "is-finite":
            return "pred"
        return self.attr if self.kind == "convert" else self.dtype

    @property
    def exact(self) -> bool:
        return self.opcode not in APPROXIMATE or self.dtype not in FLOATS

    def inputs(self) -> list[np.ndarray]:
        t = self.dtype
        if self.kind == "unary":
            return [values_of(t)]
        if self.kind == "convert":
            return [_convert_values(t)]
        if self.kind in ("binary", "compare"):
            return cross(pairs_of(t), pairs_of(t))
        if self.kind == "select":
            x = values_of(t)
            pred = np.arange(len(x)) % 3 == 1
            return [pred, x, x[::-1].copy()]
        if self.kind == "clamp":
            return _clamp_inputs(t)
        x, y = cross(reduce_values(t), reduce_values(t))
        return [np.stack([x, y], axis=1)]

    @property
    def group(self) -> str:
        """Cases of one group share their inputs: `binary/f32` holds the compares too."""
        kind = "binary" if self.kind == "compare" else self.kind
        return f"{kind}/{self.dtype}"

    def param_types(self) -> list[str]:
        t = self.dtype
        return {"unary": [t], "convert": [t], "binary": [t, t], "compare": [t, t],
                "select": ["pred", t, t], "clamp": [t, t, t], "reduce": [t]}[self.kind]

    def hlo(self) -> str:
        """The case as a module: its parameters, the one instruction, its result."""
        return module_text([self])


def module_text(cases: list[Case]) -> str:
    """One module computing every case of `cases` (one group: the same parameters), its
    result the tuple of theirs (one case: its own result)."""
    first = cases[0]
    shapes = [s.shape for s in first.inputs()]
    params = [f"  p{k} = {t}[{','.join(map(str, shape))}] parameter({k})"
              for k, (t, shape) in enumerate(zip(first.param_types(), shapes, strict=True))]
    n = shapes[0][0]
    computations, lines = [], []
    for k, case in enumerate(cases):
        lines.append(_instruction(case, f"r{k}", n, computations))
    if len(cases) == 1:
        head, _, last = lines[-1].rpartition("\n")
        lines[-1] = (head + "\n" if head else "") + "  ROOT " + last.lstrip()
    else:
        outs = ", ".join(f"{c.out}[{n}]" for c in cases)
        lines.append(f"  ROOT r = ({outs}) tuple({', '.join(f'r{k}' for k in range(len(cases)))})")
    return ("HloModule numerics\n\n" + "".join(computations)
            + "ENTRY main {\n" + "\n".join(params + lines) + "\n}\n")


def _instruction(case: Case, name: str, n: int, computations: list[str]) -> str:
    """The case's instruction `name` over parameters p0, p1, ...; a reduce adds its init
    value to the line and its reducer to `computations`."""
    t, out = case.dtype, case.out
    if case.kind == "reduce":
        computations.append(f"{name}_reducer {{\n  a = {t}[] parameter(0)\n"
                            f"  b = {t}[] parameter(1)\n"
                            f"  ROOT c = {t}[] {case.opcode}(a, b)\n}}\n\n")
        return (f"  {name}_init = {t}[] constant({_identity(case.opcode, t)})\n"
                f"  {name} = {t}[{n}] reduce(p0, {name}_init), dimensions={{1}}, "
                f"to_apply={name}_reducer")
    args = ", ".join(f"p{k}" for k in range(len(case.param_types())))
    suffix = ""
    if case.kind == "compare":
        direction, _, total = case.attr.partition("/")
        suffix = f", direction={direction}" + (", type=TOTALORDER" if total else "")
    return f"  {name} = {out}[{n}] {case.opcode}({args}){suffix}"


def _clamp_inputs(t: str) -> list[np.ndarray]:
    if t in FLOATS:
        dtype = to_numpy_dtype(t)
        lows = np.array([-1.0, -0.0, 0.0, np.nan, -np.inf], dtype)
        highs = np.array([1.0, -0.0, 0.0, np.nan, np.inf], dtype)
    else:
        info = np.iinfo(to_numpy_dtype(t))
        lows = np.array([info.min, 0, 1] + ([-1] if info.min else []), to_numpy_dtype(t))
        highs = np.array([info.max, 0, 2], to_numpy_dtype(t))
    return cross(lows, pairs_of(t), highs)


def _identity(reducer: str, t: str) -> str:
    """The reducer's identity as an HLO literal: the init value JAX gives each reduction."""
    if t == "pred":
        return "true" if reducer == "and" else "false"
    if reducer in ("add", "or"):
        return "0"
    if reducer == "multiply":
        return "1"
    if reducer == "and":
        return str(-1 if t.startswith("s") else np.iinfo(to_numpy_dtype(t)).max)
    if t in FLOATS:
        return "-inf" if reducer == "maximum" else "inf"
    info = np.iinfo(to_numpy_dtype(t))
    return str(info.min if reducer == "maximum" else info.max)


def _cases():
    for t in FLOATS:
        yield from (Case("unary", op, t) for op in UNARY_FLOAT)
        yield from (Case("binary", op, t) for op in BINARY_FLOAT)
        yield from (Case("compare", "compare", t, d + total)
                    for total in ("", "/total") for d in DIRECTIONS)
        yield from (Case("convert", "convert", t, out)
                    for out in FLOATS + CONVERT_INTS + ("pred",) if out != t)
        yield from (Case("reduce", op, t) for op in REDUCERS[:4])
    for t in INTS:
        yield from (Case("unary", op, t) for op in UNARY_INT
                    if t.startswith("s") or op not in SIGNED_ONLY)
        yield from (Case("binary", op, t) for op in BINARY_INT)
        yield from (Case("compare", "compare", t, d) for d in DIRECTIONS)
        yield from (Case("reduce", op, t) for op in REDUCERS)
    for t in ("s32", "s64", "u32", "u64", "u8", "pred"):
        yield from (Case("convert", "convert", t, out) for out in FLOATS)
    yield Case("unary", "not", "pred")
    yield from (Case("binary", op, "pred") for op in LOGICAL)
    yield from (Case("reduce", op, "pred") for op in ("and", "or"))
    for t in FLOATS + INTS:
        yield Case("select", "select", t)
        yield Case("clamp", "clamp", t)


CASES: dict[str, Case] = {case.name: case for case in _cases()}


# Opcodes XLA's CPU backend does not run as HLO (acos ... sinh: JAX writes them as other
# ops): their answer is JAX's function of the same name, jitted on the CPU; at f16 and bf16
# in f32, rounded once, as XLA computes an f16 or bf16 HLO op (JAX's formulas in f16
# underflow: asin(6e-8) is 0 there).
LAX_ONLY = frozenset("acos acosh asin asinh atan atanh cosh sinh".split())


def run_xla(cases: list[Case]) -> dict[str, np.ndarray]:
    """XLA's answers: the cases of one group (`Case.group`) as one HLO module, parsed and
    compiled by XLA's CPU backend (jaxlib's own entry points, jax 0.10: no public API takes
    HLO text), run on their shared inputs. LAX_ONLY opcodes run as JAX's function."""
    import jax

    # x64 for f64/s64 cases, and only here: left on, it would change later tests' JAX dtypes
    with jax.enable_x64(True):
        arrays = cases[0].inputs()
        out = {c.name: _run_lax(c.opcode, arrays[0]) for c in cases if c.opcode in LAX_ONLY}
        hlo = [c for c in cases if c.opcode not in LAX_ONLY]
        if hlo:
            results = _run_hlo(module_text(hlo), arrays)
            out.update(zip((c.name for c in hlo), results, strict=True))
    return out


def _run_lax(name: str, x: np.ndarray) -> np.ndarray:
    """jax.lax's `name` of `x`, an f16 or bf16 computed in f32."""
    import jax

    wide = x.astype(np.float32) if x.dtype.itemsize < 4 else x
    with np.errstate(over="ignore"):  # rounding to f16 overflows to inf, as it should
        return np.asarray(jax.jit(getattr(jax.lax, name))(wide)).astype(x.dtype)


def _run_hlo(text: str, arrays: list[np.ndarray]) -> list[np.ndarray]:
    import jax
    from jax._src import xla_bridge
    from jax._src.lib import xla_client as xc

    module = xc.hlo.hlo_module_from_text(text)
    stablehlo = xc._xla.mlir.hlo_to_stablehlo(module.as_serialized_hlo_module_proto())
    backend = xla_bridge.get_backend("cpu")
    device = backend.local_devices()[0]
    exe = backend.compile_and_load(stablehlo, xc.DeviceList((device,)), xc.CompileOptions())
    buffers = [jax.device_put(a, device) for a in arrays]
    results = exe.execute_sharded(buffers).disassemble_into_single_device_arrays()
    return [np.asarray(r[0]) for r in results]


def groups() -> dict[str, list[Case]]:
    """The cases by group, in table order."""
    out: dict[str, list[Case]] = {}
    for case in CASES.values():
        out.setdefault(case.group, []).append(case)
    return out


def inputs_digest(arrays: list[np.ndarray]) -> int:
    """A checksum of a case's inputs: the stored outputs are for these inputs only."""
    return zlib.crc32(b"".join(np.ascontiguousarray(a).tobytes() for a in arrays))


def load_expected(path: Path = EXPECTED) -> dict[str, tuple[np.ndarray, np.ndarray, int]]:
    """The stored outputs: case name -> (output, by_hand mask, inputs' digest).

    The file holds, in case order: `names`, `digests`, `lengths` (elements per output),
    `outputs` (every output's bytes, one after another) and `by_hand` (one flag per
    element: expected computed by hand, not by XLA; see tools/gen_numerics_expected.py)."""
    with np.load(path) as data:
        names, digests, lengths = data["names"], data["digests"], data["lengths"]
        outputs, flags = data["outputs"], data["by_hand"]
    table, offset, start = {}, 0, 0
    for name, digest, n in zip(names.tolist(), digests.tolist(), lengths.tolist(),
                               strict=True):
        dtype = to_numpy_dtype(CASES[name].out) if name in CASES else np.dtype(np.uint8)
        size = n * dtype.itemsize
        out = outputs[offset:offset + size].copy().view(dtype)
        table[name] = (out, flags[start:start + n], digest)
        offset, start = offset + size, start + n
    return table


# ulps an approximate opcode's result may be from XLA's, by result type: XLA, NumPy and
# libdevice use different approximations (JAX's cosh and sinh are 13 ulp off in f32); f16
# and bf16 are computed in f32 and rounded, so a last-bit difference can round either way.
ULPS = {"f16": 1, "bf16": 1, "f32": 16, "f64": 16}


def ulps_apart(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """How many steps through their type's floats lead from x to y (0 when equal; -0 and
    +0 are one point); floats of opposite signs count as the whole range apart."""
    width = f"i{x.dtype.itemsize}"
    low = np.int64(np.iinfo(width).min)
    a, b = (x.view(width).astype(np.int64), y.view(width).astype(np.int64))
    a, b = (np.where(v < 0, low - v, v) for v in (a, b))  # magnitudes, negated below zero
    same = (a >= 0) == (b >= 0)
    return np.where(same, np.abs(np.where(same, a - b, 0)), np.iinfo(np.int64).max)


def agree(case: Case, got: np.ndarray, want: np.ndarray, ulps: dict = ULPS) -> np.ndarray:
    """Per element: equal bits (any NaN equals any NaN; -0 is not +0), or, for an
    approximate opcode, within `ulps` of a finite nonzero expected value."""
    if case.out not in FLOATS:
        return got == want
    with np.errstate(invalid="ignore"):  # a signaling NaN widens quietly
        g, w = got.astype(np.float64), want.astype(np.float64)
    same = (np.isnan(g) & np.isnan(w)) | ((g == w) & (np.signbit(g) == np.signbit(w)))
    if case.exact:
        return same
    special = ~np.isfinite(g) | ~np.isfinite(w) | (g == 0) | (w == 0)
    close = ulps_apart(got, want) <= ulps[case.out]
    return same | (~special & close)


def mismatches(case: Case, arrays: list[np.ndarray], got, want: np.ndarray,
               only: np.ndarray | None = None, ulps: dict = ULPS) -> list[str]:
    """A line per element of `got` that does not `agree` with `want` (where `only`)."""
    got = np.asarray(got)
    if got.dtype != want.dtype or got.shape != want.shape:
        return [f"{case.name}: got {got.dtype}{list(got.shape)}, want {want.dtype}"
                f"{list(want.shape)}"]
    bad = ~agree(case, got, want, ulps)
    if only is not None:
        bad &= only
    rows = [a.reshape(len(want), -1) for a in arrays]
    return [f"{case.name}{[r[i].tolist() for r in rows]}: got {got[i].item()!r}, "
            f"XLA {want[i].item()!r}" for i in np.flatnonzero(bad)]
