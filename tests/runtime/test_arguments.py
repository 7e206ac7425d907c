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
from tests.support.common import EXAMPLES, hlo_module


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
    # ints past 64 bits, which NumPy keeps as Python objects: an AttributeError ('int'
    # object has no attribute 'item')
    (10**20, 1, "the value 100000000000000000000 does not fit in s32"),
    ([[10**20, 1, 2, 3, 4]], 0, "the value 100000000000000000000 does not fit in f32"),
    ([[1.5, 10**20, 1, 2, 3]], 0, "the value 100000000000000000000 does not fit in f32"),
    ([[1j, 10**20, 1, 2, 3]], 0, "got a Python complex (1j), not a value of type f32"),
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


@pytest.mark.parametrize("parameter, value, want", [
    ("f64[]", 10**20, 1e20), ("f64[]", -2**70, -2.0**70), ("f32[]", 2**70, 2.0**70),
    ("u64[]", 2**63, 2**63), ("u64[]", 2**64 - 1, 2**64 - 1), ("c64[]", 2**64, 2.0**64)])
def test_python_ints_past_int64_keep_their_value_where_the_type_holds_it(parameter, value, want):
    """Ints past int64 (read by NumPy as uint64 or as Python objects): 2**63 for a u64 was
    'not a value of type u64', and 10**20 for an f64 an AttributeError."""
    exe = dynhlo.compile(hlo_module(f"ENTRY m {{\n  a = {parameter} parameter(0)\n"
                                    f"  ROOT c = {parameter} copy(a)\n}}"))
    out = exe(value)
    assert out.dtype == {"f64[]": np.float64, "f32[]": np.float32, "u64[]": np.uint64,
                         "c64[]": np.complex64}[parameter]
    assert out[()] == want


@pytest.mark.parametrize("parameter", ["s64[]", "s32[]", "f16[]"])
def test_python_ints_past_int64_that_do_not_fit_are_argument_errors(parameter):
    # 2**63 for an s64 passed NumPy's round trip through uint64 unnoticed
    exe = dynhlo.compile(hlo_module(f"ENTRY m {{\n  a = {parameter} parameter(0)\n"
                                    f"  ROOT c = {parameter} copy(a)\n}}"))
    for value in (2**63, 10**20, -10**20, 10**400):
        with pytest.raises(dynhlo.ArgumentError, match=f"the value {value} does not fit in "
                                                       f"{parameter[:-2]}"):
            exe(value)


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
