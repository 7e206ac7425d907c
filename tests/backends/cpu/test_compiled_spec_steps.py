"""The compiled CPU path's specialized steps that cut per-call work (fast.Fast, special.py):
views of buffers set once instead of run as steps, dots with batch dimensions into buffers
(batch_dot.py), power and atan2 as the lowering's own call, reduces by NumPy
reductions, gathers from a folded table (an embedding) and gathers that are a box of their
operand. Every module runs several times per shape (the
specialized steps run from the second call) and every result is compared with the
reference evaluator's, bit for bit (NaNs included).
"""

from __future__ import annotations

import numpy as np

import dynhlo
from dynhlo.backends.cpu.compiled import fast, steps

F32, S32 = np.float32, np.int32
SPECIAL = (steps._SPECIAL, steps._SPECIAL_ONE, steps._SPECIAL_TWO)   # specialized steps' kinds


def _pair(text, **options):
    return dynhlo.compile(text, backend="cpu", reference=False, **options), \
        dynhlo.compile(text, backend="cpu", reference=True, **options)


def _bits(value) -> np.ndarray:
    value = np.asarray(value)
    return value.view(np.uint8) if value.dtype.kind == "f" else value


def _same(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(_bits(np.ascontiguousarray(g)),
                                      _bits(np.ascontiguousarray(w)))


def _run(exe, ref, args_list, repeat: int = 3):
    for args in args_list:
        for _ in range(repeat):
            _same(exe(*args), ref(*args))


def _fast(exe) -> "fast.Fast":
    """The entry's latest spec."""
    program = exe.program
    pool = program.evaluator._local.pools[id(program.info)]
    return list(pool.fast.values())[-1]


def _kinds(exe, opcode: str) -> list:
    """The kinds of the spec's ops for `opcode`'s steps (a run of native calls' members
    counted as their own kinds: native_chain.py)."""
    ops = [m for op in _fast(exe).ops
           for m in (op[8][2] if op[0] == steps._CHAIN else (op,))]
    return [op[0] for op in ops if op[1].opcode.name == opcode]


def _awkward(r, shape) -> np.ndarray:
    """f32 values of both signs with zeros of both signs, infinities, NaN, subnormals,
    halves and x*x's ties (4097: 4097^2 is halfway between two f32 values)."""
    x = r.standard_normal(shape).astype(F32) * F32(3)
    special = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 4097, -4097,
                        0.5, -0.5, 1e30, -1e30, 1, -1], F32)
    flat = x.reshape(-1)
    flat[:min(flat.size, special.size)] = special[:flat.size]
    return x


# Power by folded exponents (XLA's broadcast constants cut to the actual size, as torch's
# `x ** 2` and GPT-2's `x ** 3` export) and by an exponent read per call; atan2.
POWER = """
HloModule pw
ENTRY main {
  x = f32[2,<=16,8] parameter(0)
  y = f32[2,<=16,8] parameter(1)
  n = s32[] get-dimension-size(x), dimensions={1}
  two = f32[] constant(2)
  b2 = f32[2,16,8] broadcast(two), dimensions={}
  e2 = f32[2,<=16,8] set-dimension-size(b2, n), dimensions={1}
  p2 = f32[2,<=16,8] power(x, e2)
  three = f32[] constant(3)
  b3 = f32[2,16,8] broadcast(three), dimensions={}
  e3 = f32[2,<=16,8] set-dimension-size(b3, n), dimensions={1}
  p3 = f32[2,<=16,8] power(x, e3)
  pxy = f32[2,<=16,8] power(x, y)
  a = f32[2,<=16,8] atan2(x, y)
  s = f32[2,<=16,8] add(p2, p3)
  ROOT r = (f32[2,<=16,8], f32[2,<=16,8], f32[2,<=16,8], f32[2,<=16,8], f32[2,<=16,8]) tuple(p2, p3, pxy, a, s)
}
"""


def test_power_and_atan2_are_the_lowerings_own_ufunc_calls():
    """Power by a folded exponent of 2 or 3 is a kernel's (float_power.py's f64 products);
    by an exponent read per call, and atan2 (NumPy's SIMD lanes, not correctly rounded),
    the specialized step makes the lowering's own call, so every bit is the reference's,
    mixed signs, ties, zeros, infinities and NaN too."""
    exe, ref = _pair(POWER)
    r = np.random.default_rng(4)
    cases = [(_awkward(r, (2, n, 8)), _awkward(r, (2, n, 8))) for n in (1, 16, 5, 1, 0)]
    _run(exe, ref, cases)
    exe(*cases[0])
    assert _kinds(exe, "POWER")[:2] == [steps._KERNEL] * 2 and \
        _kinds(exe, "POWER")[2] in SPECIAL
    assert _kinds(exe, "ATAN2") == [steps._SPECIAL_TWO]


# Reduces no kernel computes: `and` over a leading dimension of pred (a mask's), add over one
# (XLA's -0 sums) with a constant and a per-call init, maximum.
REDUCE = """
HloModule rd
and_fn {
  a = pred[] parameter(0)
  b = pred[] parameter(1)
  ROOT c = pred[] and(a, b)
}
add_fn {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
max_fn {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] maximum(a, b)
}
ENTRY main {
  m = pred[2,<=16,3] parameter(0)
  x = f32[<=16,4] parameter(1)
  i = f32[] parameter(2)
  t = pred[] constant(true)
  all = pred[2,3] reduce(m, t), dimensions={1}, to_apply=and_fn
  z = f32[] constant(-0)
  s = f32[4] reduce(x, z), dimensions={0}, to_apply=add_fn
  s2 = f32[4] reduce(x, i), dimensions={0}, to_apply=add_fn
  lo = f32[] constant(-inf)
  mx = f32[4] reduce(x, lo), dimensions={0}, to_apply=max_fn
  ROOT r = (pred[2,3], f32[4], f32[4], f32[4]) tuple(all, s, s2, mx)
}
"""


def test_reduces_by_numpy_reductions_are_the_references():
    exe, ref = _pair(REDUCE)
    r = np.random.default_rng(5)
    cases = []
    for n, init in ((3, 0.0), (16, -0.0), (1, 2.5), (3, -0.0)):
        x = _awkward(r, (n, 4))
        x[:, 1] = -0.0   # a column of -0 sums to -0 (from a -0 init), as XLA adds
        cases.append((r.random((2, n, 3)) < 0.9, x, F32(init)))
    _run(exe, ref, cases)
    assert _kinds(exe, "REDUCE") and all(k in SPECIAL for k in _kinds(exe, "REDUCE"))


# An embedding: a constant table gathered at token ids read per call (clamped where they
# run past the table, as XLA clamps a gather's starts).
EMBED = """
HloModule emb
ENTRY main {
  ids = s32[2,<=16,1] parameter(0)
  table = f32[5,3] constant({{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}, {-0, 13, 14}})
  e = f32[2,<=16,3] gather(table, ids), offset_dims={2}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=2, slice_sizes={1,3}
  f = f32[2,<=16,3] negate(e)
  ROOT r = (f32[2,<=16,3], f32[2,<=16,3]) tuple(e, f)
}
"""


def test_gathers_from_a_folded_table_are_the_references():
    exe, ref = _pair(EMBED)
    r = np.random.default_rng(6)
    cases = [(r.integers(-3, 8, (2, n, 1)).astype(S32),) for n in (1, 16, 1, 7)]
    _run(exe, ref, cases)
    assert _kinds(exe, "GATHER") == [steps._SPECIAL_ONE]


# Views of buffers: a kernel's result reshaped and transposed, read by a ufunc and a dot
# with batch dimensions; torch's gather at arange indices of the transposed value (a box of
# the whole operand). (The root's values are new arrays, not views of buffers: the dot's
# result is read by a kernel.)
VIEWS = """
HloModule hv
ENTRY main {
  x = f32[2,<=8,6] parameter(0)
  w = f32[2,6,5] parameter(1)
  k = f32[2,<=8,6] negate(x)
  n = s32[] get-dimension-size(x), dimensions={1}
  twelve = s32[] constant(12)
  m = s32[] multiply(n, twelve)
  flat = f32[<=96] dynamic-reshape(k, m)
  e = f32[<=96] exponential(flat)
  t = f32[2,6,<=8] transpose(k), dimensions={0,2,1}
  d = f32[2,<=8,5] dot(t, w), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={1}
  io = s32[2,1] iota(), iota_dimension=0
  g = f32[2,6,<=8] gather(t, io), offset_dims={1,2}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,6,8}
  c = f32[2,6,<=8] cosine(g)
  d2 = f32[2,<=8,5] add(d, d)
  ROOT r = (f32[<=96], f32[2,<=8,5], f32[2,6,<=8]) tuple(e, d2, c)
}
"""


def _views_cases(r):
    return [(r.standard_normal((2, n, 6)).astype(F32), r.standard_normal((2, 6, 5)).astype(F32))
            for n in (1, 8, 3, 1)]


def test_views_of_buffers_are_set_once_and_are_the_references():
    exe, ref = _pair(VIEWS)
    cases = _views_cases(np.random.default_rng(7))
    _run(exe, ref, cases)
    fast = _fast(exe)
    held = set(fast.start) - set(fast.folded)
    assert {i.name for i in held} >= {"flat", "t"}   # views of buffers: no step of theirs
    assert not held & {op[1] for op in fast.ops}
    # the dot with batch dimensions: the reference's NumPy calls, into a buffer
    assert _kinds(exe, "DOT") == [steps._BATCH_DOT]


def test_a_kernel_refusing_after_held_views_makes_them_again(monkeypatch):
    """A kernel that refuses (its reference value is a new array): the rest of the call runs
    step by step from the step after it, so the views of its buffer set before the call are
    made again of the new array. (A kernel step on its own: no runs of native calls, whose
    members' refusals test_compiled_attack_native.py tries.)"""
    monkeypatch.setattr("dynhlo.backends.cpu.compiled.fast._CHAINING", False)
    exe, ref = _pair(VIEWS)
    cases = _views_cases(np.random.default_rng(8))
    _run(exe, ref, cases[1:2])
    fast = _fast(exe)
    at = next(k for k, op in enumerate(fast.ops) if op[1].opcode.name == "NEGATE")
    assert fast.ops[at][0] in (steps._KERNEL, steps._KERNEL_IN_PLACE)
    op = fast.ops[at]
    fast.ops[at] = (op[0], op[1], lambda _, args: 1, *op[3:])   # refuses every call
    r = np.random.default_rng(9)
    for _ in range(2):   # new values at the spec's shape: a stale buffer would show
        args = (r.standard_normal((2, 8, 6)).astype(F32), cases[1][1])
        _same(exe(*args), ref(*args))


# torch's slicing as arange gathers (GPT-2's qkv split, Llama's rotary halves): all rows of
# a value (the reference's result in a transposed layout), then columns of that; a dot of
# the columns, so the layout the reference gives them is what BLAS reads.
ARANGE_GATHERS = """
HloModule ag
ENTRY main {
  x = f32[2,<=16,12] parameter(0)
  w = f32[2,4,3] parameter(1)
  k = f32[2,<=16,12] negate(x)
  n = s32[] get-dimension-size(x), dimensions={1}
  rows = s32[16,1] iota(), iota_dimension=0
  live = s32[<=16,1] set-dimension-size(rows, n), dimensions={0}
  g = f32[2,<=16,12] gather(k, live), offset_dims={0,2}, collapsed_slice_dims={1}, start_index_map={1}, index_vector_dim=1, slice_sizes={2,1,12}
  four = s32[4] iota(), iota_dimension=0
  eight = s32[] constant(8)
  at = s32[4] broadcast(eight), dimensions={}
  cols = s32[4] add(four, at)
  ci = s32[4,1] reshape(cols)
  h = f32[2,<=16,4] gather(g, ci), offset_dims={0,1}, collapsed_slice_dims={2}, start_index_map={2}, index_vector_dim=1, slice_sizes={2,16,1}
  d = f32[2,<=16,3] dot(h, w), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
  ROOT r = (f32[2,<=16,12], f32[2,<=16,4], f32[2,<=16,3]) tuple(g, h, d)
}
"""


def test_box_gathers_copy_into_the_references_layout():
    """A gather that is a box of its operand, where the reference's result has a transposed
    layout: np.copyto into that layout (no index array), the same elements and strides as
    the reference's, so the dot reading it is the reference's bit for bit."""
    exe, ref = _pair(ARANGE_GATHERS)
    r = np.random.default_rng(10)
    cases = [(_awkward(r, (2, n, 12)), r.standard_normal((2, 4, 3)).astype(F32))
             for n in (16, 2, 7, 16)]
    _run(exe, ref, cases)
    fast = _fast(exe)
    ops = [m for op in fast.ops for m in (op[8][2] if op[0] == steps._CHAIN else (op,))]
    made = [op[2] for op in ops if op[1].opcode.name == "GATHER"]
    assert len(made) == 2 and all("_laid_out" in fn.__qualname__ for fn in made)
    for got, want in zip(exe(*cases[-1])[:2], ref(*cases[-1])[:2], strict=True):
        assert np.asarray(got).strides == np.asarray(want).strides


# Llama's rotary halves as torch exports them: three gathers that each read every element
# in place (at arange indices of one dimension), then the first half of the last dimension;
# a dot of the half, so its layout is what BLAS reads.
GATHER_CHAIN = """
HloModule gc
ENTRY main {
  x = f32[2,<=16,8] parameter(0)
  w = f32[2,4,3] parameter(1)
  k = f32[2,<=16,8] negate(x)
  t = f32[2,8,<=16] transpose(k), dimensions={0,2,1}
  n = s32[] get-dimension-size(x), dimensions={1}
  b = s32[2,1] iota(), iota_dimension=0
  g0 = f32[2,8,<=16] gather(t, b), offset_dims={1,2}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8,16}
  c = s32[8,1] iota(), iota_dimension=0
  g1 = f32[2,8,<=16] gather(g0, c), offset_dims={0,2}, collapsed_slice_dims={1}, start_index_map={1}, index_vector_dim=1, slice_sizes={2,1,16}
  rows = s32[16,1] iota(), iota_dimension=0
  live = s32[<=16,1] set-dimension-size(rows, n), dimensions={0}
  g2 = f32[2,8,<=16] gather(g1, live), offset_dims={0,1}, collapsed_slice_dims={2}, start_index_map={2}, index_vector_dim=1, slice_sizes={2,8,1}
  h = s32[4,1] iota(), iota_dimension=0
  g3 = f32[2,4,<=16] gather(g2, h), offset_dims={0,2}, collapsed_slice_dims={1}, start_index_map={1}, index_vector_dim=1, slice_sizes={2,1,16}
  d = f32[2,<=16,3] dot(g3, w), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={1}
  ROOT r = (f32[2,4,<=16], f32[2,<=16,3]) tuple(g3, d)
}
"""


def test_gathers_of_every_element_read_only_by_gathers_pass_their_operand_on(monkeypatch):
    """g0-g2 read every element in place and only gathers read them: each is its operand
    (no copy); g3 copies its half into the reference's layout from whatever layout it gets,
    so its elements, its strides and the dot reading it are the reference's bit for bit.
    (The gathers' own steps looked at: joining them, joined.py, is turned off.)"""
    monkeypatch.setattr("dynhlo.backends.cpu.compiled.fast.joined",
                        lambda ops, where, *_: (ops, where))
    exe, ref = _pair(GATHER_CHAIN)
    r = np.random.default_rng(12)
    cases = [(_awkward(r, (2, n, 8)), r.standard_normal((2, 4, 3)).astype(F32))
             for n in (16, 3, 9, 16)]
    _run(exe, ref, cases)
    fast = _fast(exe)
    made = {op[1].name: op[2] for op in fast.ops if op[1].opcode.name == "GATHER"}
    probe = np.zeros((2, 8, 16), F32)
    assert all(made[name](probe) is probe for name in ("g0", "g1", "g2"))
    assert made["g3"](probe) is not probe
    got, want = exe(*cases[-1])[0], ref(*cases[-1])[0]
    assert np.asarray(got).strides == np.asarray(want).strides
