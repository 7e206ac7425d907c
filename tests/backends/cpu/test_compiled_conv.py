"""The compiled CPU path's convolutions (compiled/conv.py through special.py): each module
runs several times per shape (the specialized step runs from the second call) and its
results are compared with the reference evaluator's (ops_linalg: one einsum per tap, sums
in f64): floats within 1e-5 relative (the matrix product sums in the result's type, in
another order), integers bit for bit (they keep the reference's computation). Covered:
1-d and 2-d, strides, SAME-like, negative and lhs-dilated padding, rhs dilation, window
reversal, feature and batch groups, dim_labels other than the default, a kernel the spec
holds (a constant), a bounded dynamic size at 1, a middle size and the bound, outputs with
no elements, f64, f16, bf16 and c64, windows made in blocks, and group counts a dynamic
batch does not fit.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import steps

F32, F64, F16, S32 = np.float32, np.float64, np.float16, np.int32
SPECIAL = (steps._SPECIAL, steps._SPECIAL_ONE, steps._SPECIAL_TWO)   # specialized steps


def _pair(text):
    return dynhlo.compile(text, backend="cpu", reference=False), \
        dynhlo.compile(text, backend="cpu", reference=True)


def _steps(exe, opcode: str = "CONVOLUTION") -> list:
    """The kinds of the steps of `opcode` in the entry's latest spec."""
    program = exe.program
    pool = program.evaluator._local.pools[id(program.info)]
    fast = list(pool.fast.values())[-1]
    return [op[0] for op in fast.ops if op[1].opcode.name == opcode]


def _close(got, want, rtol=1e-5):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want, strict=True):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        if w.dtype.kind in "iu":
            np.testing.assert_array_equal(g, w)
        else:
            wide = np.complex128 if w.dtype.kind == "c" else F64
            scale = float(np.abs(w.astype(wide)).max()) if w.size else 0.0
            np.testing.assert_allclose(g.astype(wide), w.astype(wide), rtol=rtol,
                                       atol=rtol * scale)


def _check(text, cases, rtol=1e-5, repeat=3):
    exe, ref = _pair(text)
    for args in cases:
        want = ref(*args)
        for _ in range(repeat):
            _close(exe(*args), want, rtol)
    assert _steps(exe) and all(kind in SPECIAL for kind in _steps(exe))
    return exe


def _rand(r, shape, dtype=F32):
    if np.dtype(dtype).kind in "iu":
        return r.integers(-50, 50, shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        return (r.standard_normal(shape) + 1j * r.standard_normal(shape)).astype(dtype)
    return r.standard_normal(shape).astype(dtype)


# 1-d, features last: strided, padded, rhs-dilated over a dynamic length; a grouped one.
CONV_1D = """
HloModule conv1d
ENTRY main {
  x = f32[2,<=40,6] parameter(0)
  k = f32[3,6,4] parameter(1)
  g = f32[3,3,4] parameter(2)
  c = f32[2,<=20,4] convolution(x, k), window={size=3 stride=2 pad=1_2 rhs_dilate=2}, dim_labels=b0f_0io->b0f
  d = f32[2,<=40,4] convolution(x, g), window={size=3 pad=1_1}, dim_labels=b0f_0io->b0f, feature_group_count=2
  ROOT t = (f32[2,<=20,4], f32[2,<=40,4]) tuple(c, d)
}
"""


def test_1d_strided_padded_dilated_and_grouped_over_a_dynamic_length():
    r = np.random.default_rng(8)
    k, g = _rand(r, (3, 6, 4)), _rand(r, (3, 3, 4))
    _check(CONV_1D, [(_rand(r, (2, n, 6)), k, g) for n in (40, 40, 7, 1, 23, 40)])


# 2-d NCHW (features before spatial dims): stride 2 with SAME-like padding, and a
# transposed convolution (lhs_dilate) with rhs_dilate and window reversal.
CONV_2D = """
HloModule conv2d
ENTRY main {
  x = f32[2,3,9,8] parameter(0)
  k = f32[5,3,3,3] parameter(1)
  s = f32[2,5,5,4] convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x0_1}, dim_labels=bf01_oi01->bf01
  t = f32[2,5,19,15] convolution(x, k), window={size=3x3 pad=2_2x1_3 lhs_dilate=2x2 rhs_dilate=1x2 rhs_reversal=1x1}, dim_labels=bf01_oi01->bf01
  ROOT r = (f32[2,5,5,4], f32[2,5,19,15]) tuple(s, t)
}
"""


def test_2d_same_padding_stride_and_transposed_with_reversal():
    r = np.random.default_rng(1)
    _check(CONV_2D, [(_rand(r, (2, 3, 9, 8)), _rand(r, (5, 3, 3, 3)))] * 2)


# dim_labels off the defaults, negative padding (a crop), and the output's features in
# the middle.
CONV_LABELS = """
HloModule labels
ENTRY main {
  x = f32[7,9,2,6] parameter(0)
  k = f32[2,4,6,3] parameter(1)
  ROOT c = f32[4,4,2,7] convolution(x, k), window={size=2x3 stride=1x2 pad=-1_2x1_0}, dim_labels=01bf_0oi1->1fb0
}
"""


def test_dim_labels_other_than_the_default_and_negative_padding():
    r = np.random.default_rng(2)
    _check(CONV_LABELS, [(_rand(r, (7, 9, 2, 6)), _rand(r, (2, 4, 6, 3)))] * 2)


# Batch groups (a weight gradient's form) and depthwise feature groups, 2-d NHWC.
CONV_GROUPS = """
HloModule groups
ENTRY main {
  x = f32[4,6,5,3] parameter(0)
  k = f32[3,2,3,6] parameter(1)
  d = f32[3,3,1,6] parameter(2)
  b = f32[2,4,4,6] convolution(x, k), window={size=3x2}, dim_labels=b01f_01io->b01f, batch_group_count=2
  c = f32[4,6,5,6] convolution(x, d), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=3
  ROOT r = (f32[2,4,4,6], f32[4,6,5,6]) tuple(b, c)
}
"""


def test_batch_groups_and_depthwise_feature_groups():
    r = np.random.default_rng(3)
    _check(CONV_GROUPS, [(_rand(r, (4, 6, 5, 3)), _rand(r, (3, 2, 3, 6)),
                          _rand(r, (3, 3, 1, 6)))] * 2)


# A constant kernel (the spec holds its matrix) over a bounded dynamic length, NCW with
# stride 5 as wav2vec2's feature encoder; lengths shorter than the window give no outputs.
CONV_CONSTANT = """
HloModule held
ENTRY main {
  x = f32[1,2,<=64] parameter(0)
  k = f32[3,2,4] constant({{{1,-2,3,0.5},{0.25,1,-1,2}},{{-3,1,0,1},{2,2,-0.5,1}},{{0,1,1,-1},{1.5,-2,0.75,1}}})
  ROOT c = f32[1,3,<=13] convolution(x, k), window={size=4 stride=5}, dim_labels=bf0_oi0->bf0
}
"""


def test_a_constant_kernel_over_a_bounded_dynamic_length():
    r = np.random.default_rng(4)
    exe = _check(CONV_CONSTANT, [(_rand(r, (1, 2, n)),) for n in (1, 3, 4, 33, 64, 64)])
    assert exe(np.ones((1, 2, 3), F32)).shape == (1, 3, 0)


# The same convolution in f64, f16 and s32 (integers: the reference's computation).
TYPED = """
HloModule typed
ENTRY main {{
  x = {t}[2,<=24,4] parameter(0)
  k = {t}[3,4,5] parameter(1)
  ROOT c = {t}[2,<=24,5] convolution(x, k), window={{size=3 pad=1_1 rhs_dilate=1}}, dim_labels=b0f_0io->b0f
}}
"""


@pytest.mark.parametrize("name,dtype,rtol", [("f64", F64, 1e-12), ("f16", F16, 2e-3),
                                             ("bf16", "bfloat16", 2e-2),
                                             ("c64", np.complex64, 1e-5), ("s32", S32, 0)])
def test_other_element_types(name, dtype, rtol):
    if dtype == "bfloat16":
        dtype = pytest.importorskip("ml_dtypes").bfloat16
    r = np.random.default_rng(5)
    k = _rand(r, (3, 4, 5), dtype)
    _check(TYPED.format(t=name), [(_rand(r, (2, n, 4), dtype), k) for n in (24, 1, 11)],
           rtol=rtol)


def test_a_large_window_matrix_is_made_in_blocks(monkeypatch):
    from dynhlo.backends.cpu.compiled import conv
    monkeypatch.setattr(conv, "_BLOCK_BYTES", 4096)
    r = np.random.default_rng(6)
    k, g = _rand(r, (3, 6, 4)), _rand(r, (3, 3, 4))
    _check(CONV_1D, [(_rand(r, (2, n, 6)), k, g) for n in (40, 17)])
    _check(CONV_2D, [(_rand(r, (2, 3, 9, 8)), _rand(r, (5, 3, 3, 3)))])


# A dynamic batch that batch_group_count must divide.
BATCH_GROUPS = """
HloModule bg
ENTRY main {
  x = f32[<=6,5,3] parameter(0)
  k = f32[2,3,4] parameter(1)
  ROOT c = f32[<=3,4,4] convolution(x, k), window={size=2}, dim_labels=b0f_0io->b0f, batch_group_count=2
}
"""


def test_a_batch_the_group_count_does_not_divide_is_refused_after_good_calls():
    r = np.random.default_rng(7)
    k = _rand(r, (2, 3, 4))
    exe = _check(BATCH_GROUPS, [(_rand(r, (n, 5, 3)), k) for n in (6, 2, 4)])
    for way in (exe, _pair(BATCH_GROUPS)[1]):
        with pytest.raises(dynhlo.DynamicSizeError, match="batch_group_count=2"):
            way(_rand(r, (3, 5, 3)), k)
