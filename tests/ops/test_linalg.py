"""convolution, cholesky, triangular-solve and fft on the CPU backend.

References are written here independently of the backend: convolution as explicit loops over
output elements, features and kernel taps (StableHLO's grouping rules); cholesky as the
Cholesky-Banachiewicz recurrence; triangular-solve through numpy.linalg.solve on the
triangular matrix (a general LU solve, not substitution); fft as explicit DFT sums. Inputs
are small integers, so the comparisons are exact or to a few ulps. Rows run at a static
shape and at dynamic sizes 0, 1, some and the bound; `leak` rows build the dynamic operand
with set-dimension-size over a full array whose tail would change the answer if read.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.opcheck import OpCase, check_case, crossed, run_hlo

from dynhlo.errors import DynamicSizeError, HloVerifyError, UnsupportedError


def ref_conv(lhs, rhs, labels, size, stride=None, pad=None, lhs_dilate=None, rhs_dilate=None,
             reversal=None, groups=1, batch_groups=1, dtype=np.float32):
    """Convolution by loops. labels like "b01f_01io->b01f"; spatial dims 0, 1, ..."""
    (lhs_l, rhs_l), out_l = labels.split("->")[0].split("_"), labels.split("->")[1]
    k = len(size)
    spatial = "".join(str(d) for d in range(k))
    stride, pad = stride or (1,) * k, pad or ((0, 0),) * k
    lhs_dilate, rhs_dilate = lhs_dilate or (1,) * k, rhs_dilate or (1,) * k
    reversal = reversal or (False,) * k
    x = np.transpose(lhs, [lhs_l.index(c) for c in "bf" + spatial])
    w = np.transpose(rhs, [rhs_l.index(c) for c in "oi" + spatial])
    n_out, n_features = x.shape[0] // batch_groups, w.shape[0]
    per_group = n_features // (groups * batch_groups)
    out_spatial = []
    for d in range(k):
        extent = pad[d][0] + pad[d][1] + ((x.shape[2 + d] - 1) * lhs_dilate[d] + 1
                                          if x.shape[2 + d] else 0)
        span = (w.shape[2 + d] - 1) * rhs_dilate[d] + 1
        out_spatial.append((extent - span) // stride[d] + 1 if extent >= span else 0)
    out = np.zeros([n_out, n_features] + out_spatial)
    for b, o, *p in np.ndindex(*out.shape):
        g = o // per_group
        batch = g * n_out + b if batch_groups > 1 else b
        for ci in range(w.shape[1]):
            c = g * w.shape[1] + ci if groups > 1 else ci
            for taps in np.ndindex(*w.shape[2:]):
                pos = [p[d] * stride[d] + taps[d] * rhs_dilate[d] - pad[d][0] for d in range(k)]
                if any(q < 0 or q % lhs_dilate[d] or q // lhs_dilate[d] >= x.shape[2 + d]
                       for d, q in enumerate(pos)):
                    continue
                kt = tuple(w.shape[2 + d] - 1 - t if reversal[d] else t
                           for d, t in enumerate(taps))
                xi = tuple(q // lhs_dilate[d] for d, q in enumerate(pos))
                out[(b, o) + tuple(p)] += float(x[(batch, c) + xi]) * float(w[(o, ci) + kt])
    return np.transpose(out, np.argsort([out_l.index(c) for c in "bf" + spatial])).astype(dtype)


def _ints(shape, rng, dtype=np.float32, low=-3, high=4):
    return rng.integers(low, high, size=shape).astype(dtype)


CONVOLUTION = [
    OpCase("b0f-dynamic-batch", """
HloModule m
ENTRY e {
  x = f32[<=5,7,2] parameter(0)
  k = f32[3,2,4] parameter(1)
  ROOT y = f32[<=5,7,4] convolution(x, k), window={size=3 pad=1_1}, dim_labels=b0f_0io->b0f
}""", lambda n, rng: [_ints((n, 7, 2), rng), _ints((3, 2, 4), rng)],
        lambda x, k: ref_conv(x, k, "b0f_0io->b0f", (3,), pad=((1, 1),)), (5, 0, 1, 3)),
    OpCase("b01f-dynamic-spatial-stride", """
HloModule m
ENTRY e {
  x = f32[2,<=6,5,3] parameter(0)
  k = f32[3,2,3,4] parameter(1)
  ROOT y = f32[2,<=3,5,4] convolution(x, k), window={size=3x2 stride=2x1 pad=1_1x0_1}, dim_labels=b01f_01io->b01f
}""", lambda n, rng: [_ints((2, n, 5, 3), rng), _ints((3, 2, 3, 4), rng)],
        lambda x, k: ref_conv(x, k, "b01f_01io->b01f", (3, 2), (2, 1), ((1, 1), (0, 1))),
        (6, 0, 1, 4)),
    OpCase("bf01-dilations-reversal", """
HloModule m
ENTRY e {
  x = f32[1,2,<=7,4] parameter(0)
  k = f32[3,2,2,2] parameter(1)
  ROOT y = f32[1,3,<=13,4] convolution(x, k), window={size=2x2 pad=1_0x1_1 lhs_dilate=2x1 rhs_dilate=1x2 rhs_reversal=1x0}, dim_labels=bf01_oi01->bf01
}""", lambda n, rng: [_ints((1, 2, n, 4), rng), _ints((3, 2, 2, 2), rng)],
        lambda x, k: ref_conv(x, k, "bf01_oi01->bf01", (2, 2), pad=((1, 0), (1, 1)),
                              lhs_dilate=(2, 1), rhs_dilate=(1, 2), reversal=(True, False)),
        (7, 0, 1, 3)),
    OpCase("f0b-odd-labels", """
HloModule m
ENTRY e {
  x = f32[3,<=6,2] parameter(0)
  k = f32[4,2,3] parameter(1)
  ROOT y = f32[<=5,4,2] convolution(x, k), window={size=2}, dim_labels=f0b_o0i->0fb
}""", lambda n, rng: [_ints((3, n, 2), rng), _ints((4, 2, 3), rng)],
        lambda x, k: ref_conv(x, k, "f0b_o0i->0fb", (2,)), (6, 0, 1, 3)),
    OpCase("feature-groups", """
HloModule m
ENTRY e {
  x = f32[<=3,5,4] parameter(0)
  k = f32[2,2,6] parameter(1)
  ROOT y = f32[<=3,4,6] convolution(x, k), window={size=2}, dim_labels=b0f_0io->b0f, feature_group_count=2
}""", lambda n, rng: [_ints((n, 5, 4), rng), _ints((2, 2, 6), rng)],
        lambda x, k: ref_conv(x, k, "b0f_0io->b0f", (2,), groups=2), (3, 0, 1)),
    OpCase("batch-groups", """
HloModule m
ENTRY e {
  x = f32[<=4,5,3] parameter(0)
  k = f32[2,3,6] parameter(1)
  ROOT y = f32[<=2,4,6] convolution(x, k), window={size=2}, dim_labels=b0f_0io->b0f, batch_group_count=2
}""", lambda n, rng: [_ints((n, 5, 3), rng), _ints((2, 3, 6), rng)],
        lambda x, k: ref_conv(x, k, "b0f_0io->b0f", (2,), batch_groups=2), (4, 0, 2)),
    OpCase("negative-padding", """
HloModule m
ENTRY e {
  x = f32[1,<=8,1] parameter(0)
  k = f32[2,1,1] parameter(1)
  ROOT y = f32[1,<=4,1] convolution(x, k), window={size=2 pad=-1_-2}, dim_labels=b0f_0io->b0f
}""", lambda n, rng: [_ints((1, n, 1), rng), _ints((2, 1, 1), rng)],
        lambda x, k: ref_conv(x, k, "b0f_0io->b0f", (2,), pad=((-1, -2),)), (8, 0, 3, 4)),
    OpCase("no-spatial-dims", """
HloModule m
ENTRY e {
  x = f32[<=4,3] parameter(0)
  k = f32[3,2] parameter(1)
  ROOT y = f32[<=4,2] convolution(x, k), dim_labels=bf_io->bf
}""", lambda n, rng: [_ints((n, 3), rng), _ints((3, 2), rng)],
        lambda x, k: (x.astype(np.float64) @ k).astype(np.float32), (4, 0, 1)),
    # A dynamic kernel size: the static computation at size k has window size k.
    OpCase("dynamic-kernel", """
HloModule m
ENTRY e {
  x = f32[2,6,1] parameter(0)
  k = f32[<=3,1,2] parameter(1)
  ROOT y = f32[2,<=6,2] convolution(x, k), window={size=3}, dim_labels=b0f_0io->b0f
}""", lambda n, rng: [_ints((2, 6, 1), rng), _ints((n, 1, 2), rng)],
        lambda x, k: ref_conv(x, k, "b0f_0io->b0f", (len(k),)), (3, 1, 2), static=False),
    OpCase("s32-static", """
HloModule m
ENTRY e {
  x = s32[2,6,3] parameter(0)
  k = s32[3,3,2] parameter(1)
  ROOT y = s32[2,2,2] convolution(x, k), window={size=3 stride=2}, dim_labels=b0f_0io->b0f
}""", lambda n, rng: [_ints((2, 6, 3), rng, np.int32, -100, 100),
                      _ints((3, 3, 2), rng, np.int32, -100, 100)],
        lambda x, k: ref_conv(x, k, "b0f_0io->b0f", (3,), (2,), dtype=np.int32), (6,)),
    # The padding of the spatial dimension is 1e6: reading it would change the last outputs.
    OpCase("leak-spatial", """
HloModule m
ENTRY e {
  full = f32[1,8,1] parameter(0)
  n = s32[] parameter(1)
  k = f32[3,1,1] parameter(2)
  x = f32[1,<=8,1] set-dimension-size(full, n), dimensions={1}
  ROOT y = f32[1,<=8,1] convolution(x, k), window={size=3 pad=1_1}, dim_labels=b0f_0io->b0f
}""", lambda n, rng: [_leaky((1, 8, 1), n, rng), np.int32(n), _ints((3, 1, 1), rng)],
        lambda full, n, k: ref_conv(full[:, :n], k, "b0f_0io->b0f", (3,), pad=((1, 1),)),
        (8, 0, 1, 3)),
]


def _leaky(shape, n, rng, fill=1e6):
    """A full array whose dimension 1 holds n data values, then padding `fill`."""
    x = np.full(shape, fill, dtype=np.float32)
    x[:, :n] = _ints((shape[0], n) + shape[2:], rng)
    return x


@pytest.mark.parametrize("case,n", crossed(CONVOLUTION))
def test_convolution(case, n):
    check_case(case, n)


def test_convolution_batch_not_divisible_by_batch_groups():
    case = _case(CONVOLUTION, "batch-groups")
    x, k = np.zeros((3, 5, 3), np.float32), np.zeros((2, 3, 6), np.float32)
    with pytest.raises(DynamicSizeError, match="batch_group_count=2"):
        run_hlo(case.text, x, k)


def test_convolution_bad_dim_labels():
    text = """
HloModule m
ENTRY e {
  x = f32[1,5,2] parameter(0)
  k = f32[3,2,4] parameter(1)
  ROOT y = f32[1,3,4] convolution(x, k), window={size=3}, dim_labels=b0f_0iq->b0f
}"""
    with pytest.raises(HloVerifyError, match="dim_labels"):
        run_hlo(text, np.zeros((1, 5, 2), np.float32), np.zeros((3, 2, 4), np.float32))


def ref_cholesky(a):
    """Cholesky-Banachiewicz on each matrix: L with a = L L^H, from a's lower triangle."""
    out = np.zeros(a.shape, dtype=np.complex128 if a.dtype.kind == "c" else np.float64)
    for index in np.ndindex(*a.shape[:-2]):
        m, l = a[index], out[index]
        for i in range(m.shape[0]):
            for j in range(i + 1):
                s = sum(l[i, k] * np.conj(l[j, k]) for k in range(j))
                l[i, j] = np.sqrt(m[i, i] - s) if i == j else (m[i, j] - s) / l[j, j]
    return out.astype(a.dtype)


def _spd(batch, n, rng, dtype=np.float32, garbage=None):
    """Hermitian positive definite matrices; the triangle `garbage` ('upper'/'lower') is 99."""
    m = rng.integers(-2, 3, size=batch + (n, n)).astype(np.float64)
    if np.dtype(dtype).kind == "c":
        m = m + 1j * rng.integers(-2, 3, size=batch + (n, n))
    a = m @ np.conj(np.swapaxes(m, -1, -2)) + 3 * np.eye(n)
    if garbage == "upper":
        a = np.where(np.triu(np.ones((n, n)), 1) > 0, 99, a)
    elif garbage == "lower":
        a = np.where(np.tril(np.ones((n, n)), -1) > 0, 99, a)
    return a.astype(dtype)


def _upper_from(a):
    """The upper factor U = L^H computed from a's upper triangle only."""
    full = np.triu(a) + np.conj(np.swapaxes(np.triu(a, 1), -1, -2))
    return np.conj(np.swapaxes(ref_cholesky(full), -1, -2))


CHOLESKY = [
    # The triangle XLA does not read holds 99: reading it would change the factor.
    OpCase("lower-dynamic-batch", """
HloModule m
ENTRY e {
  a = f32[<=4,3,3] parameter(0)
  ROOT l = f32[<=4,3,3] cholesky(a), lower=true
}""", lambda n, rng: [_spd((n,), 3, rng, garbage="upper")],
        lambda a: ref_cholesky(np.tril(a) + np.swapaxes(np.tril(a, -1), -1, -2)),
        (4, 0, 1)),
    OpCase("upper-f64-static", """
HloModule m
ENTRY e {
  a = f64[4,4] parameter(0)
  ROOT u = f64[4,4] cholesky(a), lower=false
}""", lambda n, rng: [_spd((), 4, rng, np.float64, garbage="lower")], _upper_from, (4,)),
    OpCase("lower-c64-static", """
HloModule m
ENTRY e {
  a = c64[2,3,3] parameter(0)
  ROOT l = c64[2,3,3] cholesky(a), lower=true
}""", lambda n, rng: [_spd((2,), 3, rng, np.complex64)], ref_cholesky, (3,)),
    OpCase("dynamic-matrix-size", """
HloModule m
ENTRY e {
  a = f32[<=5,<=5] parameter(0)
  ROOT l = f32[<=5,<=5] cholesky(a), lower=true
}""", lambda n, rng: [_spd((), n, rng)], ref_cholesky, (5, 0, 1, 3)),
]


@pytest.mark.parametrize("case,n", crossed(CHOLESKY))
def test_cholesky(case, n):
    check_case(case, n)


def test_cholesky_not_positive_definite_gives_nan():
    a = np.stack([np.eye(2), -np.eye(2)]).astype(np.float32)
    out = run_hlo(_case(CHOLESKY, "lower-dynamic-batch").text, _three(a))
    np.testing.assert_array_equal(out[0], np.eye(3, dtype=np.float32))
    assert np.isnan(out[1]).all()


def _three(a2):
    """2x2 test matrices embedded as 3x3 blocks with a 1 in the corner (the op is 3x3)."""
    out = np.zeros((len(a2), 3, 3), np.float32)
    out[:, :2, :2] = a2
    out[:, 2, 2] = 1
    return out


def test_cholesky_non_square_argument_is_a_size_error():
    with pytest.raises(DynamicSizeError):
        run_hlo(_case(CHOLESKY, "dynamic-matrix-size").text, np.eye(3, 2, dtype=np.float32))


def ref_solve(a, b, left, lower, transpose, unit):
    """numpy.linalg.solve (LU) on op(triangle of a): op(a) x = b or x op(a) = b."""
    t = np.tril(a) if lower else np.triu(a)
    t = t.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    if unit:
        t[..., np.arange(t.shape[-1]), np.arange(t.shape[-1])] = 1
    op = {"NO_TRANSPOSE": t, "TRANSPOSE": np.swapaxes(t, -1, -2),
          "ADJOINT": np.conj(np.swapaxes(t, -1, -2))}[transpose]
    if not b.size:
        return np.zeros(b.shape, b.dtype)
    if left:
        return np.linalg.solve(op, b).astype(b.dtype)
    # x op = b  <=>  op^T x^T = b^T
    return np.swapaxes(np.linalg.solve(np.swapaxes(op, -1, -2), np.swapaxes(b, -1, -2)),
                       -1, -2).astype(b.dtype)


def _tri_args(a_shape, b_shape, rng, dtype=np.float32):
    """A well-conditioned a (diagonal 4..6; the other triangle holds 50) and a small b."""
    a = rng.integers(-2, 3, size=a_shape).astype(np.float64)
    n = a_shape[-1]
    a[..., np.arange(n), np.arange(n)] = rng.integers(4, 7, size=a_shape[:-1])
    b = rng.integers(-5, 6, size=b_shape).astype(np.float64)
    if np.dtype(dtype).kind == "c":
        a, b = a + 1j * rng.integers(-1, 2, size=a_shape), b - 2j
    return [a.astype(dtype), b.astype(dtype)]


TRIANGULAR_SOLVE = [
    OpCase("left-lower-dynamic-batch", """
HloModule m
ENTRY e {
  a = f32[<=3,4,4] parameter(0)
  b = f32[<=3,4,2] parameter(1)
  ROOT x = f32[<=3,4,2] triangular-solve(a, b), left_side=true, lower=true, unit_diagonal=false, transpose_a=NO_TRANSPOSE
}""", lambda n, rng: _tri_args((n, 4, 4), (n, 4, 2), rng),
        lambda a, b: ref_solve(a, b, True, True, "NO_TRANSPOSE", False), (3, 0, 1)),
    OpCase("left-upper-transpose-unit", """
HloModule m
ENTRY e {
  a = f32[3,3] parameter(0)
  b = f32[3,2] parameter(1)
  ROOT x = f32[3,2] triangular-solve(a, b), left_side=true, lower=false, unit_diagonal=true, transpose_a=TRANSPOSE
}""", lambda n, rng: _tri_args((3, 3), (3, 2), rng),
        lambda a, b: ref_solve(a, b, True, False, "TRANSPOSE", True), (3,)),
    OpCase("right-lower-adjoint-c64", """
HloModule m
ENTRY e {
  a = c64[3,3] parameter(0)
  b = c64[2,3] parameter(1)
  ROOT x = c64[2,3] triangular-solve(a, b), left_side=false, lower=true, unit_diagonal=false, transpose_a=ADJOINT
}""", lambda n, rng: _tri_args((3, 3), (2, 3), rng, np.complex64),
        lambda a, b: ref_solve(a, b, False, True, "ADJOINT", False), (3,)),
    OpCase("right-upper-dynamic-matrix", """
HloModule m
ENTRY e {
  a = f32[<=5,<=5] parameter(0)
  b = f32[2,<=5] parameter(1)
  ROOT x = f32[2,<=5] triangular-solve(a, b), left_side=false, lower=false, transpose_a=NO_TRANSPOSE
}""", lambda n, rng: _tri_args((n, n), (2, n), rng),
        lambda a, b: ref_solve(a, b, False, False, "NO_TRANSPOSE", False), (5, 0, 1, 3)),
    OpCase("left-lower-adjoint-f64", """
HloModule m
ENTRY e {
  a = f64[4,4] parameter(0)
  b = f64[4,3] parameter(1)
  ROOT x = f64[4,3] triangular-solve(a, b), left_side=true, lower=true, transpose_a=ADJOINT
}""", lambda n, rng: _tri_args((4, 4), (4, 3), rng, np.float64),
        lambda a, b: ref_solve(a, b, True, True, "ADJOINT", False), (4,)),
    OpCase("right-lower-transpose-unit", """
HloModule m
ENTRY e {
  a = f32[4,4] parameter(0)
  b = f32[3,4] parameter(1)
  ROOT x = f32[3,4] triangular-solve(a, b), left_side=false, lower=true, unit_diagonal=true, transpose_a=TRANSPOSE
}""", lambda n, rng: _tri_args((4, 4), (3, 4), rng),
        lambda a, b: ref_solve(a, b, False, True, "TRANSPOSE", True), (4,)),
    # Back substitution starts from the last row: padding rows of a and b (large values)
    # would flow into every solved row if they were read.
    OpCase("leak-upper", """
HloModule m
ENTRY e {
  fa = f32[6,6] parameter(0)
  fb = f32[6,2] parameter(1)
  n = s32[] parameter(2)
  a0 = f32[<=6,6] set-dimension-size(fa, n), dimensions={0}
  a = f32[<=6,<=6] set-dimension-size(a0, n), dimensions={1}
  b = f32[<=6,2] set-dimension-size(fb, n), dimensions={0}
  ROOT x = f32[<=6,2] triangular-solve(a, b), left_side=true, lower=false, transpose_a=NO_TRANSPOSE
}""", lambda n, rng: _leaky_solve(n, rng),
        lambda fa, fb, n: ref_solve(fa[:n, :n], fb[:n], True, False, "NO_TRANSPOSE", False),
        (6, 0, 1, 3)),
]


def _leaky_solve(n, rng):
    a, b = _tri_args((6, 6), (6, 2), rng)
    a[n:, :], a[:, n:], b[n:] = 1, 1000, 1000
    return [a, b, np.int32(n)]


@pytest.mark.parametrize("case,n", crossed(TRIANGULAR_SOLVE))
def test_triangular_solve(case, n):
    check_case(case, n)


def dft(x, axis, inverse=False):
    """The DFT along one axis as an explicit sum of exp(-2 pi i j k / n) (1/n when inverse)."""
    n = x.shape[axis]
    sign = 1 if inverse else -1
    j = np.arange(n)
    matrix = np.exp(sign * 2j * np.pi * np.outer(j, j) / max(n, 1))
    out = np.moveaxis(np.tensordot(matrix, np.moveaxis(x, axis, 0), axes=(1, 0)), 0, axis)
    return out / n if inverse and n else out


def ref_irfft(x, length):
    """Real inverse DFT of a half spectrum: the full Hermitian spectrum, then the inverse."""
    k = np.arange(length)
    low = k <= length // 2
    spectrum = np.where(low, x[..., np.where(low, k, 0)],
                        np.conj(x[..., np.where(low, 0, length - k)]))
    # The DC and Nyquist bins of a real signal are real: their imaginary parts are ignored.
    spectrum[..., 0] = spectrum[..., 0].real
    if length % 2 == 0:
        spectrum[..., length // 2] = spectrum[..., length // 2].real
    return dft(spectrum, -1, inverse=True).real


def _complex(shape, rng):
    return (rng.integers(-3, 4, size=shape) + 1j * rng.integers(-3, 4, size=shape)
            ).astype(np.complex64)


FFT = [
    OpCase("fft-dynamic-batch", """
HloModule m
ENTRY e {
  x = c64[<=4,8] parameter(0)
  ROOT y = c64[<=4,8] fft(x), fft_type=FFT, fft_length={8}
}""", lambda n, rng: [_complex((n, 8), rng)],
        lambda x: dft(x.astype(np.complex128), -1).astype(np.complex64), (4, 0, 1)),
    # A dynamic transformed dimension is transformed at its actual size.
    OpCase("ifft-dynamic-length", """
HloModule m
ENTRY e {
  x = c64[3,<=8] parameter(0)
  ROOT y = c64[3,<=8] fft(x), fft_type=IFFT, fft_length={8}
}""", lambda n, rng: [_complex((3, n), rng)],
        lambda x: dft(x.astype(np.complex128), -1, inverse=True).astype(np.complex64),
        (8, 0, 1, 5)),
    OpCase("rfft-dynamic-length", """
HloModule m
ENTRY e {
  x = f32[2,<=8] parameter(0)
  ROOT y = c64[2,<=5] fft(x), fft_type=RFFT, fft_length={8}
}""", lambda n, rng: [_ints((2, n), rng)],
        lambda x: dft(x.astype(np.complex128), -1)[:, :x.shape[1] // 2 + 1 if x.shape[1] else 0]
        .astype(np.complex64), (8, 0, 1, 5)),
    OpCase("irfft-static", """
HloModule m
ENTRY e {
  x = c64[<=2,5] parameter(0)
  ROOT y = f32[<=2,8] fft(x), fft_type=IRFFT, fft_length={8}
}""", lambda n, rng: [_complex((n, 5), rng)],
        lambda x: ref_irfft(x.astype(np.complex128), 8).astype(np.float32), (2, 0, 1)),
    OpCase("irfft-odd-length", """
HloModule m
ENTRY e {
  x = c128[3] parameter(0)
  ROOT y = f64[5] fft(x), fft_type=IRFFT, fft_length={5}
}""", lambda n, rng: [_complex((3,), rng).astype(np.complex128)],
        lambda x: ref_irfft(x, 5), (3,)),
    OpCase("fft-2d", """
HloModule m
ENTRY e {
  x = c64[<=3,4,6] parameter(0)
  ROOT y = c64[<=3,4,6] fft(x), fft_type=FFT, fft_length={4,6}
}""", lambda n, rng: [_complex((n, 4, 6), rng)],
        lambda x: dft(dft(x.astype(np.complex128), -1), -2).astype(np.complex64), (3, 0, 1)),
    # Padding of 100 would add to every frequency bin if it were read.
    OpCase("leak-rfft", """
HloModule m
ENTRY e {
  full = f32[1,8] parameter(0)
  n = s32[] parameter(1)
  x = f32[1,<=8] set-dimension-size(full, n), dimensions={1}
  ROOT y = c64[1,<=5] fft(x), fft_type=RFFT, fft_length={8}
}""", lambda n, rng: [_leaky((1, 8), n, rng, 100.0), np.int32(n)],
        lambda full, n: dft(full[:, :n].astype(np.complex128), -1)[:, :n // 2 + 1 if n else 0]
        .astype(np.complex64), (8, 0, 1, 5)),
]


@pytest.mark.parametrize("case,n", crossed(FFT))
def test_fft(case, n):
    check_case(case, n)


def test_irfft_over_a_dynamic_dimension_is_unsupported():
    text = """
HloModule m
ENTRY e {
  x = c64[<=5] parameter(0)
  ROOT y = f32[8] fft(x), fft_type=IRFFT, fft_length={8}
}"""
    with pytest.raises(UnsupportedError, match="'y'.*IRFFT over a dynamic dimension"):
        run_hlo(text, np.zeros(5, np.complex64))


def test_fft_length_must_match_the_operand():
    text = """
HloModule m
ENTRY e {
  x = c64[6] parameter(0)
  ROOT y = c64[6] fft(x), fft_type=FFT, fft_length={8}
}"""
    with pytest.raises(HloVerifyError, match="fft_length"):
        run_hlo(text, np.zeros(6, np.complex64))


def _case(table, name):
    """The row of an op table with this name."""
    return next(c for c in table if c.name == name)
