"""The public API of DESIGN.md §2: parse_hlo, compile, calling an executable, the error family.

Values are checked against NumPy computed by hand at the actual sizes.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo

ROW_SUMS = """HloModule row_sums
add_f32 {
  p = f32[] parameter(0)
  q = f32[] parameter(1)
  ROOT s = f32[] add(p, q)
}
ENTRY main {
  x = f32[<=8,3]{1,0} parameter(0)
  zero = f32[] constant(0)
  sums = f32[<=8]{0} reduce(x, zero), dimensions={1}, to_apply=add_f32
  total = f32[] reduce(x, zero), dimensions={0,1}, to_apply=add_f32
  rows = s32[] get-dimension-size(x), dimensions={0}
  ROOT out = (f32[<=8]{0}, f32[], s32[]) tuple(sums, total, rows)
}
"""

SCALE = """HloModule scale
ENTRY main {
  x = f32[<=4]{0} parameter(0)
  k = f32[] parameter(1)
  kb = f32[<=4]{0} broadcast(k), dimensions={}
  ROOT y = f32[<=4]{0} multiply(x, kb)
}
"""


def test_parse_hlo_gives_a_module():
    module = dynhlo.parse_hlo(ROW_SUMS)
    assert isinstance(module, dynhlo.HloModule)
    assert module.name == "row_sums"
    assert [p.name for p in module.entry.parameters] == ["x"]
    assert str(module.entry.root.shape) == "(f32[<=8]{0}, f32[], s32[])"
    assert dynhlo.parse_hlo(ROW_SUMS.encode()) == module  # bytes are read as UTF-8


def test_compile_text_and_module_agree():
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    from_text = dynhlo.compile(ROW_SUMS)(x)
    from_module = dynhlo.compile(dynhlo.parse_hlo(ROW_SUMS), backend="cpu")(x)
    for a, b in zip(from_text, from_module, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("rows", [0, 1, 5, 8])
def test_tuple_root_at_actual_sizes(rows):
    x = (np.arange(rows * 3, dtype=np.float32).reshape(rows, 3) - 4) / 3
    sums, total, count = dynhlo.compile(ROW_SUMS)(x)
    assert sums.shape == (rows,) and sums.dtype == np.float32
    np.testing.assert_allclose(sums, x.sum(axis=1), rtol=1e-6)
    np.testing.assert_allclose(total, x.sum(), rtol=1e-6, atol=1e-6)
    assert total.shape == () and count.dtype == np.int32 and int(count) == rows


def test_broadcast_of_a_parameter_scalar_takes_the_size_it_meets():
    exe = dynhlo.compile(SCALE)
    out = exe(np.array([1, 2, 3], np.float32), np.float32(2.5))
    np.testing.assert_array_equal(out, [2.5, 5.0, 7.5])


def test_executable_properties():
    exe = dynhlo.compile(SCALE)
    assert isinstance(exe, dynhlo.Executable)
    assert exe.backend == "cpu"
    assert [p.name for p in exe.parameters] == ["x", "k"]
    assert "scale" in repr(exe)


def test_one_executable_serves_every_size():
    exe = dynhlo.compile(SCALE)
    for n in range(5):
        x = np.arange(n, dtype=np.float32)
        np.testing.assert_array_equal(exe(x, np.float32(-1)), -x)


def test_arguments_may_be_array_likes_of_the_right_dtype():
    exe = dynhlo.compile(SCALE)
    # A list of float32 scalars is read as a float32 array; a 0-d array is a scalar.
    out = exe([np.float32(1), np.float32(2)], np.array(3.0, np.float32))
    np.testing.assert_array_equal(out, [3.0, 6.0])


def test_errors_form_one_family():
    for cls in (dynhlo.HloParseError, dynhlo.HloVerifyError, dynhlo.ArgumentError,
                dynhlo.UnsupportedError, dynhlo.ArtifactError, dynhlo.DynamicSizeError):
        assert issubclass(cls, dynhlo.DynHloError)
    assert issubclass(dynhlo.DynHloError, Exception)


def test_public_names():
    for name in ("parse_hlo", "compile", "Executable", "HloModule", "DynHloError",
                 "__version__"):
        assert name in dynhlo.__all__ and hasattr(dynhlo, name)


def test_parse_error_has_line_and_column():
    with pytest.raises(dynhlo.HloParseError) as info:
        dynhlo.parse_hlo("HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT b = f32[2] "
                         "negate(zz)\n}\n")
    assert info.value.line == 4
    assert info.value.column > 1
    assert "zz" in str(info.value)


def test_compile_rejects_what_is_not_a_module():
    with pytest.raises(dynhlo.DynHloError):
        dynhlo.compile(42)


def test_compile_rejects_an_unknown_backend():
    with pytest.raises(dynhlo.UnsupportedError) as info:
        dynhlo.compile(SCALE, backend="tpu")
    assert "tpu" in str(info.value)


def test_argument_error_from_the_api():
    exe = dynhlo.compile(SCALE)
    with pytest.raises(dynhlo.ArgumentError) as info:
        exe(np.zeros(5, np.float32), np.float32(1))
    err = info.value
    assert (err.parameter, err.name, err.dimension, err.size, err.bound) == (0, "x", 0, 5, 4)
