"""What a hostile (or just unlucky) user does to dynhlo: arguments and results.

Python numbers (JAX's weak types), tokens, byte orders, and results that are always NumPy
arrays.

Each test here was a crash, a hang, a silent wrong answer or lost data before its fix.
Expected values are numpy on the static computation.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from conftest import EXAMPLES, hlo_module


# -- Python numbers as arguments (JAX's weak types) --------------------------------------------

SIZED = (EXAMPLES / "seed_set_dimension_size.hlo")


def test_python_numbers_take_the_parameters_type():
    """Before: `exe(x, 3)` for an s32[] parameter was 'expects s32, got s64', and a Python
    list could never be f32."""
    exe = dynhlo.compile(SIZED.read_text())
    rows = [[float(5 * r + c) for c in range(5)] for r in range(5)]
    out = exe(rows, 3)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, np.float32(rows)[:3])
    np.testing.assert_array_equal(exe([[1, 2, 3, 4, 5]], 1), np.float32([[1, 2, 3, 4, 5]]))


@pytest.mark.parametrize("value, parameter, fragment", [
    (2**40, 1, "does not fit in s32"),
    # these were "expects s32, got f64; convert with .astype('int32')": a wrong hint
    (1.5, 1, "expects s32 (s32[]), got a Python float (1.5), not a value of type s32"),
    (True, 1, "expects s32 (s32[]), got a Python bool (True)"),
    ([[1j] * 5], 0, "expects f32 (f32[<=5,5]{1,0}), got a Python complex (1j)"),
    ([[1e300] * 5], 0, "does not fit in f32"),
    (np.float64(1.0), 0, "expects f32"),   # NumPy values keep their exact dtype
    ([np.ones(5)], 0, "expects f32"),
])
def test_python_numbers_that_do_not_fit(value, parameter, fragment):
    exe = dynhlo.compile(SIZED.read_text())
    args = [np.zeros((5, 5), np.float32), np.int32(3)]
    args[parameter] = value
    with pytest.raises(dynhlo.ArgumentError) as info:
        exe(*args)
    assert info.value.parameter == parameter and fragment in str(info.value)


# -- argument and result types ---------------------------------------------------------


def test_a_token_parameter_takes_none():
    """JAX's ordered effects give ENTRY a token[] parameter. Before: no value passed the
    argument check ('expects token, got f64; convert with .astype('float64')')."""
    exe = dynhlo.compile(hlo_module("""ENTRY m {
  tok = token[] parameter(0)
  a = f32[<=4] parameter(1)
  after = token[] after-all(tok)
  n = f32[<=4] negate(a)
  ROOT r = (token[], f32[<=4]) tuple(after, n)
}"""))
    _, out = exe(None, np.float32([1, 2]))
    np.testing.assert_array_equal(out, [-1, -2])
    with pytest.raises(dynhlo.ArgumentError, match="token") as info:
        exe(3.0, np.float32([1, 2]))
    assert (info.value.parameter, info.value.name) == (0, "tok")


def test_big_endian_arrays_are_their_element_type():
    """Before: a '>f4' array (np.load of a .npy written big-endian) was 'expects f32, got
    >f4'."""
    exe = dynhlo.compile((EXAMPLES / "seed.hlo").read_text())
    x = np.arange(10, dtype=">f4").reshape(2, 5)
    y = exe(x)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y, np.arange(10, dtype=np.float32).reshape(2, 5))


def test_a_scalar_result_is_a_numpy_array():
    """Before: a constant root came back as np.int32 (a NumPy scalar), not an array, unlike
    every other result ('NumPy out'): `out[...] = 0` failed on it."""
    exe = dynhlo.compile(hlo_module("ENTRY m {\n  c = s32[] constant(3)\n  d = f32[] constant(2)\n"
                                    "  ROOT t = (s32[], f32[]) tuple(c, d)\n}"))
    for out, want in zip(exe(), (3, 2.0), strict=True):
        assert isinstance(out, np.ndarray) and out.shape == () and out == want
    one = dynhlo.compile(hlo_module("ENTRY m {\n  ROOT c = s32[] constant(3)\n}"))()
    assert isinstance(one, np.ndarray)
    one[...] = 5
    assert dynhlo.compile(hlo_module("ENTRY m {\n  ROOT c = s32[] constant(3)\n}"))() == 3


@pytest.mark.parametrize("value, fragment", [
    (None, "got None"),
    ("abc", "got a Python str (read as NumPy dtype <U3)"),
    ({"a": 1}, "got a Python dict"),
    (np.array(["a", "b"]), "got an array of NumPy dtype <U1"),
])
def test_a_value_of_no_element_type_is_named_as_passed(value, fragment):
    """Before: None was 'got object; convert with .astype('float32')' and a str 'got <U3',
    NumPy's codes, with an astype that cannot work."""
    exe = dynhlo.compile((EXAMPLES / "seed.hlo").read_text())
    with pytest.raises(dynhlo.ArgumentError) as info:
        exe(value)
    message = str(info.value)
    assert fragment in message and "astype" not in message
    assert (info.value.parameter, info.value.name) == (0, "a")


def test_a_torch_tensor_of_another_type_is_told_torchs_conversion():
    """Before: 'convert with .astype('float32')', which a torch tensor does not have."""
    torch = pytest.importorskip("torch")
    exe = dynhlo.compile((EXAMPLES / "seed.hlo").read_text())
    with pytest.raises(dynhlo.ArgumentError) as info:
        exe(torch.ones((2, 5), dtype=torch.float64))
    assert str(info.value).endswith("got f64; convert with .to(torch.float32)")
    x = torch.ones((2, 5), dtype=torch.float64).to(torch.float32)  # the advice works
    np.testing.assert_array_equal(exe(x), np.ones((2, 5), np.float32))
