"""Specialized steps of the small real-library programs (optax's and keras' column sums,
JAX's qkv split and real_dynamic_slice written as gathers, a loop's dynamic-update-slice at
its counter, keras' convolutions with a kernel passed per call): each module runs several
times per shape (the specialized steps run from the second call) and every result is
compared with the reference evaluator's bit for bit (floats by their bits, so -0 is not
+0), a convolution within float tolerance (its sums run in f32); and the stored programs'
outputs against the stored reference outputs.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import steps

F32, S32 = np.float32, np.int32
SPECIAL = (steps._SPECIAL, steps._SPECIAL_ONE, steps._SPECIAL_TWO)


def _pair(text):
    return dynhlo.compile(text, backend="cpu", reference=False), \
        dynhlo.compile(text, backend="cpu", reference=True)


def _bits(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a.view(np.uint8) if a.dtype.kind == "f" else a


def _same(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(_bits(g), _bits(w))


def _kinds(exe, opcode: str) -> list:
    """The kinds of the steps of `opcode` in the entry's latest spec (a run of native
    calls: its members')."""
    program = exe.program
    pool = program.evaluator._local.pools[id(program.info)]
    fast = list(pool.fast.values())[-1]
    ops = [m for op in fast.ops for m in (op[8][2] if op[0] == steps._CHAIN else (op,))]
    return [op[0] for op in ops if op[1].opcode.name == opcode]


def _run(exe, ref, args_list, repeat: int = 3):
    for args in args_list:
        for _ in range(repeat):
            _same(exe(*args), ref(*args))


# A sum over the leading (batch) dimension, as optax's gradients of a bias and keras'
# average pooling write it, then the same over a dimension of one element; from -0, so a
# sum of -0s stays -0.
COLUMN_SUMS = """
HloModule columns
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[<=8,5] parameter(0)
  zero = f32[] constant(-0)
  s = f32[5] reduce(x, zero), dimensions={0}, to_apply=add
  r = f32[1,5] reshape(s)
  t = f32[5] reduce(r, zero), dimensions={0}, to_apply=add
  y = f32[1,<=8,5] reshape(x)
  u = f32[<=8,5] reduce(y, zero), dimensions={0}, to_apply=add
  ROOT out = (f32[5], f32[5], f32[<=8,5]) tuple(s, t, u)
}
"""


def _columns(n: int) -> np.ndarray:
    """Columns whose sums are: -0 (every term -0), +0 (+0 and -0 mixed), an exact +0 of
    nonzero terms, NaN, and ordinary values."""
    x = np.random.RandomState(n).standard_normal((n, 5)).astype(F32)
    x[:, 0] = -0.0
    x[:, 1] = -0.0
    x[0, 1] = 0.0
    x[:, 2] = 0.0
    if n > 1:
        x[0, 2], x[1, 2] = 1.5, -1.5
    x[n - 1, 3] = np.nan
    return x


def test_column_sums_keep_negative_zero_and_every_bit():
    exe, ref = _pair(COLUMN_SUMS)
    _run(exe, ref, [(_columns(n),) for n in (1, 3, 8, 3)])
    assert set(_kinds(exe, "REDUCE")) <= set(SPECIAL) and _kinds(exe, "REDUCE")
    # no zero sum at all (the check skipped), then zeros again at the same shape
    x = np.random.RandomState(5).uniform(1, 2, (3, 5)).astype(F32)
    _run(exe, ref, [(x,), (_columns(3),), (-np.zeros((3, 5), F32),)])
    got = exe(-np.zeros((3, 5), F32))
    assert np.signbit(got[0]).all() and np.signbit(got[1]).all()


# JAX's qkv split under a symbolic length: a gather along the length at folded iota
# indices (the reference lays its result out length-major), then one of the columns at
# constant indices; both read a kernel's buffer.
SPLIT = """
HloModule split
ENTRY main {
  x = f32[2,<=8,6] parameter(0)
  y = f32[2,<=8,6] negate(x)
  n = s32[] get-dimension-size(x), dimensions={1}
  io = s32[8,1] iota(), iota_dimension=0
  rows = s32[<=8,1] set-dimension-size(io, n), dimensions={0}
  g = f32[2,<=8,6] gather(y, rows), offset_dims={0,2}, collapsed_slice_dims={1}, start_index_map={1}, index_vector_dim=1, slice_sizes={2,1,6}
  cols = s32[2,1] constant({{2},{3}})
  h = f32[2,<=8,2] gather(g, cols), offset_dims={0,1}, collapsed_slice_dims={2}, start_index_map={2}, index_vector_dim=1, slice_sizes={2,8,1}
  k = f32[2,<=8,2] add(h, h)
  ROOT r = (f32[2,<=8,6], f32[2,<=8,2], f32[2,<=8,2]) tuple(g, h, k)
}
"""


def test_gathers_of_a_box_in_the_references_layout():
    exe, ref = _pair(SPLIT)
    args = [(np.random.RandomState(n).standard_normal((2, n, 6)).astype(F32),)
            for n in (1, 5, 8, 5)]
    args.append((np.full((2, 5, 6), -0.0, F32),))
    _run(exe, ref, args)
    assert _kinds(exe, "GATHER") and set(_kinds(exe, "GATHER")) <= set(SPECIAL)
    for got, want in zip(exe(*args[1])[:2], ref(*args[1])[:2], strict=True):
        assert got.strides == want.strides   # the reference's layout, for later readers


# real_dynamic_slice's last gather: one column window per index read per call (a loop's
# arange): the windows, in the result's order, are the operand's box; other indices
# (reversed, clamped past the end) are np.take's positions.
WINDOWS = """
HloModule windows
ENTRY main {
  x = f32[1,4,<=8] parameter(0)
  idx = s32[<=8,1] parameter(1)
  ROOT g = f32[1,4,<=8] gather(x, idx), offset_dims={0,1}, collapsed_slice_dims={2}, start_index_map={2}, index_vector_dim=1, slice_sizes={1,4,1}
}
"""


def test_gathers_of_windows_that_are_a_box_in_the_results_order():
    exe, ref = _pair(WINDOWS)
    rng = np.random.RandomState(0)
    args = []
    for n in (1, 6, 8, 6):
        x = rng.standard_normal((1, 4, n)).astype(F32)
        args.append((x, np.arange(n, dtype=S32).reshape(n, 1)))
    x = rng.standard_normal((1, 4, 6)).astype(F32)
    args += [(x, np.arange(6, dtype=S32)[::-1].reshape(6, 1).copy()),
             (x, np.array([[0], [9], [-3], [2], [2], [5]], S32)),
             (x, np.arange(6, dtype=S32).reshape(6, 1))]
    _run(exe, ref, args)
    assert _kinds(exe, "GATHER") == [steps._SPECIAL_TWO]
    got, want = exe(*args[1]), ref(*args[1])
    assert got.strides == want.strides


# JAX's dynamic_update_index_in_dim in a loop: the state's row written at the counter,
# the other starts constants.
UPDATE = """
HloModule update
body {
  p = (s32[], f32[4,3], f32[3]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  acc = f32[4,3] get-tuple-element(p), index=1
  v = f32[3] get-tuple-element(p), index=2
  row = f32[1,3] reshape(v)
  zero = s32[] constant(0)
  upd = f32[4,3] dynamic-update-slice(acc, row, i, zero)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  w = f32[3] negate(v)
  ROOT t = (s32[], f32[4,3], f32[3]) tuple(j, upd, w)
}
cond {
  p = (s32[], f32[4,3], f32[3]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  four = s32[] constant(4)
  ROOT lt = pred[] compare(i, four), direction=LT
}
ENTRY main {
  v = f32[3] parameter(0)
  zero = s32[] constant(0)
  z = f32[] constant(0)
  acc = f32[4,3] broadcast(z), dimensions={}
  init = (s32[], f32[4,3], f32[3]) tuple(zero, acc, v)
  loop = (s32[], f32[4,3], f32[3]) while(init), condition=cond, body=body
  ROOT out = f32[4,3] get-tuple-element(loop), index=1
}
"""


def test_dynamic_update_slice_at_a_counter():
    exe, ref = _pair(UPDATE)
    rng = np.random.RandomState(1)
    _run(exe, ref, [(rng.standard_normal(3).astype(F32),) for _ in range(3)])
    _run(exe, ref, [(np.array([-0.0, 0.0, np.nan], F32),)])


# keras' Conv1D: a kernel (K, I, O) passed per call, the lhs (N, W, C) with stride 2.
CONV = """
HloModule conv
ENTRY main {
  x = f32[2,<=16,3] parameter(0)
  w = f32[3,3,4] parameter(1)
  ROOT c = f32[2,<=7,4] convolution(x, w), window={size=3 stride=2}, dim_labels=b0f_0io->b0f
}
"""


def test_convolution_with_a_kernel_passed_per_call():
    exe, ref = _pair(CONV)
    rng = np.random.RandomState(2)
    for n in (3, 9, 16, 9):
        x = rng.standard_normal((2, n, 3)).astype(F32)
        w = rng.standard_normal((3, 3, 4)).astype(F32)
        for ww in (w, np.asfortranarray(w), w.astype(np.float64).astype(F32)):
            for _ in range(2):
                got, want = exe(x, ww), ref(x, ww)
                assert got.shape == want.shape
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # the kernel's matrix is a view of a C-ordered kernel: one written after a call is read
    w = rng.standard_normal((3, 3, 4)).astype(F32)
    x = rng.standard_normal((2, 9, 3)).astype(F32)
    exe(x, w)
    w[1] += 1
    np.testing.assert_allclose(exe(x, w), ref(x, w), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", ["hf_wav2vec2_features", "jax_transformer_12",
                                  "optax_adam_step", "keras_conv1d_stride2"])
def test_stored_programs_match_their_reference_outputs(name):
    from tests.support.reallibs_data import MANIFEST, case, check_outputs, module_text
    text = module_text(name)
    exe = dynhlo.compile(dynhlo.parse_stablehlo(text), backend="cpu", reference=False)
    ref = dynhlo.compile(dynhlo.parse_stablehlo(text), backend="cpu", reference=True)
    for size in MANIFEST[name]["sizes"]:
        args, expected = case(name, size)
        for _ in range(3):   # the spec's calls
            got = exe(*args)
            got = list(got) if isinstance(got, tuple) else [got]
            check_outputs(name, [np.asarray(g) for g in got], expected)
        want = ref(*args)
        want = list(want) if isinstance(want, tuple) else [want]
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-5, atol=1e-5)


# A head split on a parameter: dynamic-reshape, transpose, transpose (each value read only
# by the next), returned with a kernel of another parameter; CHAIN_SHARED also returns the
# reshape (two readers: only the transposes join).
CHAIN = """
HloModule chain
ENTRY main {
  x = f32[2,<=8,6] parameter(0)
  y = f32[2,<=8,6] parameter(1)
  n = s32[] get-dimension-size(x), dimensions={1}
  two = s32[] constant(2)
  three = s32[] constant(3)
  r = f32[2,<=8,2,3] dynamic-reshape(x, two, n, two, three)
  t = f32[2,2,<=8,3] transpose(r), dimensions={0,2,1,3}
  u = f32[2,2,3,<=8] transpose(t), dimensions={0,1,3,2}
  z = f32[2,<=8,6] add(y, y)
  ROOT out = (f32[2,2,3,<=8], f32[2,<=8,6]) tuple(u, z)
}
"""
CHAIN_SHARED = CHAIN.replace(
    "ROOT out = (f32[2,2,3,<=8], f32[2,<=8,6]) tuple(u, z)",
    "ROOT out = (f32[2,2,3,<=8], f32[2,<=8,6], f32[2,<=8,2,3]) tuple(u, z, r)")


@pytest.mark.parametrize("text, ops", [(CHAIN, 1), (CHAIN_SHARED, 2)])
def test_steps_that_hand_a_value_on_run_as_one(text, ops):
    exe, ref = _pair(text)
    rng = np.random.RandomState(3)
    args = [(rng.standard_normal((2, n, 6)).astype(F32),
             rng.standard_normal((2, n, 6)).astype(F32)) for n in (1, 5, 8, 5)]
    _run(exe, ref, args)
    assert len(_kinds(exe, "TRANSPOSE") + _kinds(exe, "DYNAMIC_RESHAPE")) == ops
    # another layout of y after the joined op: the rest of the call step by step
    x, y = args[1]
    _run(exe, ref, [(x, np.asfortranarray(y)), (x, y)])


# optax's bias under a symbolic batch, as its stored program writes it (a broadcast, a
# reshape step and a broadcast of a parameter) into a transpose: one op from the parameter.
BIAS = """
HloModule bias
ENTRY main {
  b = f32[4] parameter(0)
  x = f32[2,<=8,6] parameter(1)
  b1 = f32[1,4] broadcast(b), dimensions={1}
  r = f32[4] reshape(b1)
  bb = f32[3,4] broadcast(r), dimensions={1}
  t = f32[2,6,<=8] transpose(x), dimensions={0,2,1}
  f = f32[12,<=8] reshape(t)
  ROOT out = (f32[3,4], f32[12,<=8]) tuple(bb, f)
}
"""


def test_reshape_steps_join_the_run():
    exe, ref = _pair(BIAS)
    rng = np.random.RandomState(4)
    args = [(rng.standard_normal(4).astype(F32), rng.standard_normal((2, n, 6)).astype(F32))
            for n in (1, 5, 8, 5)]
    _run(exe, ref, args)
    kinds = _kinds(exe, "RESHAPE") + _kinds(exe, "BROADCAST") + _kinds(exe, "TRANSPOSE")
    assert kinds == [steps._SPECIAL_ONE] * 2   # a run of three and a run of two
    b, x = args[1]
    _run(exe, ref, [(b[::-1], x), (np.asfortranarray(b), x.transpose(0, 1, 2).copy())])


# A reshape and the transpose reading it, with a specialized step of another parameter
# between them (quiet: they join), or a kernel between them (its refusal may start the
# step-by-step rest there: they stay apart); a kernel after them reads y too.
APART = """
HloModule apart
ENTRY main {
  x = f32[2,<=8,6] parameter(0)
  y = f32[2,<=8,6] parameter(1)
  n = s32[] get-dimension-size(x), dimensions={1}
  two = s32[] constant(2)
  three = s32[] constant(3)
  r = f32[2,<=8,2,3] dynamic-reshape(x, two, n, two, three)
  BETWEEN
  t = f32[2,2,<=8,3] transpose(r), dimensions={0,2,1,3}
  z = f32[2,<=8,6] multiply(y, y)
  ROOT out = (f32[2,2,<=8,3], f32[2,6,<=8], f32[2,<=8,6]) tuple(t, q, z)
}
"""


@pytest.mark.parametrize("between, ops", [
    ("q = f32[2,6,<=8] transpose(y), dimensions={0,2,1}", 2),
    ("k = f32[2,<=8,6] add(y, y)\n  q = f32[2,6,<=8] transpose(k), dimensions={0,2,1}", 3)])
def test_steps_apart_join_only_across_quiet_steps(between, ops):
    exe, ref = _pair(APART.replace("BETWEEN", between))
    rng = np.random.RandomState(6)
    args = [(rng.standard_normal((2, n, 6)).astype(F32),
             rng.standard_normal((2, n, 6)).astype(F32)) for n in (1, 5, 8, 5)]
    _run(exe, ref, args)
    kinds = _kinds(exe, "TRANSPOSE") + _kinds(exe, "DYNAMIC_RESHAPE")
    assert len(kinds) == ops
    x, y = args[1]
    _run(exe, ref, [(x, np.asfortranarray(y)), (x, y), (np.asfortranarray(x), y)])


# The split's two gathers with only the second one read (then a reshape and a transpose, as
# JAX's heads): one strided copy of the operand's box into the reference's final layout.
SPLIT_HEADS = SPLIT.replace(
    "  k = f32[2,<=8,2] add(h, h)\n"
    "  ROOT r = (f32[2,<=8,6], f32[2,<=8,2], f32[2,<=8,2]) tuple(g, h, k)",
    "  n2 = s32[] constant(2)\n  n1 = s32[] constant(1)\n"
    "  d = f32[2,<=8,2,1] dynamic-reshape(h, n2, n, n2, n1)\n"
    "  t = f32[2,2,<=8,1] transpose(d), dimensions={0,2,1,3}\n"
    "  ROOT r = (f32[2,2,<=8,1], f32[2,<=8,6]) tuple(t, y)")


def test_a_run_of_gathers_is_one_copy():
    assert SPLIT_HEADS != SPLIT
    exe, ref = _pair(SPLIT_HEADS)
    args = [(np.random.RandomState(n).standard_normal((2, n, 6)).astype(F32),)
            for n in (1, 5, 8, 5)]
    _run(exe, ref, args)
    kinds = [_kinds(exe, op) for op in ("GATHER", "DYNAMIC_RESHAPE", "TRANSPOSE")]
    assert sum(kinds, []) == [steps._SPECIAL_ONE]
    got, want = exe(*args[1])[0], ref(*args[1])[0]
    assert got.strides == want.strides
