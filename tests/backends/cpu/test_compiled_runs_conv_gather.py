"""Convolutions and embedding lookups inside runs of native calls (compiled/conv_member.py,
gather_member.py): the padded copy, the window matrix's copy and np.matmul's own BLAS calls,
and the rows routine. Every convolution's result is compared with the unchained path's
(its Python step: the same copies and BLAS calls) bit for bit, call after call, at several
sizes and argument layouts, and with the reference evaluator's within the convolution
tests' tolerance (its sums in f64); a lookup's with the reference's bit for bit, indices
past the table's rows included (clamped); the structure checks say each did join a run.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import fast, steps
from tests.backends.cpu.test_compiled_conv import _close

F32, F64 = np.float32, np.float64

# x -> negate -> convolution -> + bias -> tanh: a run around the convolution
MODULE = """
HloModule conv_run
ENTRY main {
  x = TY[XSHAPE] parameter(0)
  k = TY[KSHAPE] parameter(1)
  b = TY[] parameter(2)
  n = TY[XSHAPE] negate(x)
  c = TY[OSHAPE] convolution(n, k), window={WINDOW}, dim_labels=LABELS
  bb = TY[OSHAPE] broadcast(b), dimensions={}
  s = TY[OSHAPE] add(c, bb)
  ROOT t = TY[OSHAPE] tanh(s)
}
"""

# (x shape, kernel shape, output shape, window, dim_labels, the sizes of x's dynamic dim)
CASES = {
    "b0f strided, SAME": ("2,<=40,6", "3,6,4", "2,<=20,4", "size=3 stride=2 pad=1_1",
                          "b0f_0io->b0f", (40, 7, 1)),
    "bf0 padded": ("2,6,<=40", "4,6,3", "2,4,<=40", "size=3 pad=1_1", "bf0_oi0->bf0",
                   (40, 9, 1)),
    "bf0 strided, no padding": ("1,3,<=64", "5,3,4", "1,5,<=31", "size=4 stride=2",
                                "bf0_oi0->bf0", (64, 10, 4)),
    "2-d bf01, lhs dilated": ("2,3,<=9,5", "4,3,3,2", "2,4,<=17,4",
                              "size=3x2 pad=1_1x0_0 lhs_dilate=2x1", "bf01_oi01->bf01",
                              (9, 4, 1)),
}


def _text(case: str, ty: str = "f32") -> str:
    x, k, o, window, labels, _ = CASES[case]
    return MODULE.replace("XSHAPE", x).replace("KSHAPE", k).replace("OSHAPE", o) \
        .replace("WINDOW", window).replace("LABELS", labels).replace("TY", ty)


def _args(case: str, size: int, r, dtype=F32) -> tuple:
    x, k, *_ = CASES[case]
    xs = [size if d.startswith("<=") else int(d) for d in x.split(",")]
    ks = [int(d) for d in k.split(",")]
    return (r.standard_normal(xs).astype(dtype), (r.standard_normal(ks) * 0.3).astype(dtype),
            dtype(0.25))


def _bits(value) -> bytes:
    value = np.asarray(value)
    return value.dtype.str.encode() + str(value.shape).encode() + \
        np.ascontiguousarray(value).tobytes()


def _in_runs(exe) -> bool:
    """Whether the entry's latest spec has its convolution inside a run of native calls."""
    program = exe.program
    spec = list(program.evaluator._local.pools[id(program.info)].fast.values())[-1]
    members = [m[1].opcode.name for op in spec.ops if op[0] == steps._CHAIN
               for m in op[8][2]]
    alone = [op for op in spec.ops if op[0] != steps._CHAIN and
             op[1].opcode.name == "CONVOLUTION"]
    return "CONVOLUTION" in members and not alone


@pytest.mark.parametrize("dtype", [F32, F64])
@pytest.mark.parametrize("case", list(CASES))
def test_a_convolution_in_a_run_is_the_unchained_steps_bit_for_bit(case, dtype, monkeypatch):
    text = _text(case, "f32" if dtype is F32 else "f64")
    on = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    monkeypatch.setattr(fast, "_CHAINING", False)
    off = dynhlo.compile(text, backend="cpu", reference=False)
    r = np.random.default_rng(31)
    for size in CASES[case][5] + CASES[case][5][:1]:
        args = _args(case, size, r, dtype)
        want = off(*args)
        for _ in range(3):
            monkeypatch.setattr(fast, "_CHAINING", True)
            got = on(*args)
            monkeypatch.setattr(fast, "_CHAINING", False)
            assert _bits(got) == _bits(want)
        _close(got, ref(*args), rtol=1e-5 if dtype is F32 else 1e-12)
    assert _in_runs(on)


def test_an_input_or_kernel_of_another_layout_later(monkeypatch):
    """x Fortran-ordered, then a strided view; the kernel transposed in memory (its step
    copies it): each call the unchained path's bits, then the recorded layout again."""
    case = "bf0 padded"
    text = _text(case)
    on = dynhlo.compile(text, backend="cpu", reference=False)
    monkeypatch.setattr(fast, "_CHAINING", False)
    off = dynhlo.compile(text, backend="cpu", reference=False)
    r = np.random.default_rng(32)
    x, k, b = _args(case, 9, r)
    wide = np.concatenate([x, x], axis=2)
    layouts = [(x, k), (np.asfortranarray(x), k), (wide[:, :, ::2], k),
               (x, np.asfortranarray(k)), (x, k)]
    for xs, ks in layouts:
        want = off(xs, ks, b)
        for _ in range(3):
            monkeypatch.setattr(fast, "_CHAINING", True)
            got = on(xs, ks, b)
            monkeypatch.setattr(fast, "_CHAINING", False)
            assert _bits(got) == _bits(want)
    assert _in_runs(on)


HELD = """
HloModule held
ENTRY main {
  x = f32[2,<=30,3] parameter(0)
  k = f32[3,3,2] constant({{{0.5,-1},{0.25,2},{1,0}},{{-0.5,1},{3,-2},{0,1}},{{1,1},{-1,-1},{0.5,0.5}}})
  n = f32[2,<=30,3] negate(x)
  c = f32[2,<=15,2] convolution(n, k), window={size=3 stride=2 pad=1_1}, dim_labels=b0f_0io->b0f
  ROOT e = f32[2,<=15,2] exponential(c)
}
"""


def test_a_kernel_the_spec_holds(monkeypatch):
    on = dynhlo.compile(HELD, backend="cpu", reference=False)
    ref = dynhlo.compile(HELD, backend="cpu", reference=True)
    monkeypatch.setattr(fast, "_CHAINING", False)
    off = dynhlo.compile(HELD, backend="cpu", reference=False)
    r = np.random.default_rng(33)
    for n in (30, 5, 1, 30):
        x = r.standard_normal((2, n, 3)).astype(F32)
        want = off(x)
        for _ in range(3):
            monkeypatch.setattr(fast, "_CHAINING", True)
            got = on(x)
            monkeypatch.setattr(fast, "_CHAINING", False)
            assert _bits(got) == _bits(want)
        _close(got, ref(x))
    assert _in_runs(on)


# an embedding's lookup: a held table's rows at per-call ids (negative and past the rows:
# clamped), then a kernel: the gather joins the run
EMBED = """
HloModule embed
ENTRY main {
  ids = IT[2,<=6,1] parameter(0)
  t = f32[5,3] constant({{0,1,2},{3,4,5},{6,7,8},{9,10,11},{12,13,14}})
  g = f32[2,<=6,3] gather(t, ids), offset_dims={2}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=2, slice_sizes={1,3}
  ROOT e = f32[2,<=6,3] negate(g)
}
"""


@pytest.mark.parametrize("it", ["s32", "s64"])
def test_an_embedding_lookup_joins_the_run(it, monkeypatch):
    text = EMBED.replace("IT", it)
    on = dynhlo.compile(text, backend="cpu", reference=False)
    ref = dynhlo.compile(text, backend="cpu", reference=True)
    r = np.random.default_rng(34)
    dtype = np.int32 if it == "s32" else np.int64
    for n in (6, 3, 1, 6):
        ids = r.integers(-3, 9, (2, n, 1)).astype(dtype)
        for _ in range(3):
            assert _bits(on(ids)) == _bits(ref(ids))
    program = on.program
    spec = list(program.evaluator._local.pools[id(program.info)].fast.values())[-1]
    assert [op[0] for op in spec.ops] == [steps._CHAIN]
    strided = np.repeat(r.integers(-3, 9, (2, 6, 1)).astype(dtype), 2, axis=2)[:, :, ::2]
    assert _bits(on(strided)) == _bits(ref(strided))   # (another layout: the steps)
