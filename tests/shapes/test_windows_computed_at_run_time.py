"""Windows computed from the sizes at run time: SAME padding with a stride over a variable
length (StableHLO's dynamic_conv and dynamic_reduce_window, as JAX exports them), a gather
after a strided convolution, and window numbers a module computes from get-dimension-size.

Against jax.jit: the stored modules and outputs of tools/gen_window_cases.py (no jax needed),
and, where jax is importable, from_jax live. One executable serves every size: nothing is
compiled again. The GPU backend runs the same checks in
tests/backends/gpu/test_windows_computed_at_run_time.py.
"""


import numpy as np
import pytest

import dynhlo
from dynhlo import stats
from dynhlo.errors import DynamicSizeError, UnsupportedError
from dynhlo.shapes import algebra
from dynhlo.shapes.algebra_eval import evaluate, walk
from dynhlo.shapes.dynamic import infer_module
from dynhlo.shapes.sizes import size_of
from tests.support.common import TESTS

DATA = TESTS / "data" / "windows"
NAMES = sorted(p.stem for p in DATA.glob("*.hlo"))


def stored(name: str):
    """(module text, [(input, [expected outputs])] per stored size)."""
    arrays = np.load(DATA / f"{name}.npz")
    sizes = sorted(int(k[2:]) for k in arrays.files if k.startswith("in"))
    cases = [(arrays[f"in{n}"], [arrays[k] for k in sorted(arrays.files)
                                 if k.startswith(f"out{n}_")]) for n in sizes]
    return (DATA / f"{name}.hlo").read_text(), cases


def check_every_size(exe, cases):
    """Each stored size against jax.jit's outputs, with no compile between calls."""
    before = stats.snapshot().get("compile", 0)
    for x, expected in cases:
        outs = exe(x)
        outs = outs if isinstance(outs, tuple) else (outs,)
        for out, want in zip(outs, expected, strict=True):
            np.testing.assert_allclose(np.asarray(out), want, rtol=2e-5, atol=2e-5,
                                       err_msg=f"length {x.shape}")
    assert stats.snapshot().get("compile", 0) == before


def test_the_stored_programs_cover_sizes_1_middle_and_bound():
    assert len(NAMES) == 8
    for name in NAMES:
        _, cases = stored(name)
        lengths = [x.shape[-1] if "nhwc" not in name else x.shape[1] for x, _ in cases]
        assert lengths[-1] == 64 and lengths[0] in (1, 3) and len(lengths) == 3


@pytest.mark.parametrize("name", NAMES)
def test_a_stored_window_program_matches_jit_at_every_size(name):
    text, cases = stored(name)
    check_every_size(dynhlo.compile(text), cases)


@pytest.mark.parametrize("name", NAMES)
def test_a_window_program_through_from_jax_matches_jit(name):
    pytest.importorskip("jax")
    from tests.support import window_programs as programs
    fn, spec, _ = programs.PROGRAMS[name]
    exe = dynhlo.from_jax(fn, spec, bounds={"l": programs.BOUND},
                          constraints=programs.constraints(name))
    _, cases = stored(name)
    check_every_size(exe, cases)


def test_a_same_strided_window_is_sized_in_the_algebra_as_ceil_of_n_over_stride():
    """The SAME stride-2 max pool's output size is an expression of the argument's length
    (not a size read off the result), equal to ceil(l / 2) at every length."""
    exe = dynhlo.compile(stored("max_pool_same_stride2")[0])
    info = infer_module(exe.module)
    (call,) = [i for i in info.dims if i.opcode.value == "custom-call"
               and i.attrs.get("custom_call_target", "").strip('"')
               == "stablehlo.dynamic_reduce_window"]
    size = size_of(info.dims[call][2])
    (source,) = [n for n in walk(size) if n.op in algebra.SOURCES]
    assert source.op == "param" and source.args[:2] == (0, 2)   # the length, dimension 2
    for n in range(65):
        assert evaluate(size, lambda node: n, {}) == -(-n // 2)


# A reduce-window whose window size, stride and padding the module computes from the length:
# a global max pool in windows of ceil(n / 3) elements, stride ceil(n / 3) (three windows,
# the last short), padding 1 at the end when n is odd.
COMPUTED = """HloModule computed_window
mx {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY main {
  x = f32[<=40] parameter(0)
  z = f32[] constant(-inf)
  n = s32[] get-dimension-size(x), dimensions={0}
  two = s32[] constant(2)
  three = s32[] constant(3)
  one = s32[] constant(1)
  zero = s32[] constant(0)
  n2 = s32[] add(n, two)
  w = s32[] divide(n2, three)
  wv = s32[1] reshape(w)
  ones = s32[1] reshape(one)
  odd = s32[] remainder(n, two)
  lo = s32[1,1] reshape(zero)
  hi = s32[1,1] reshape(odd)
  pad = s32[1,2] concatenate(lo, hi), dimensions={1}
  ROOT r = f32[?] custom-call(x, z, wv, wv, ones, ones, pad), custom_call_target="stablehlo.dynamic_reduce_window", called_computations={mx}
}
"""


def _max_windows(x, w, s, hi):
    padded = np.concatenate([x, np.full(hi, -np.inf, np.float32)])
    count = max(0, (len(padded) - w) // s + 1)
    return np.array([padded[i * s:i * s + w].max() for i in range(count)], np.float32)


@pytest.mark.parametrize("n", [1, 2, 7, 20, 40])
def test_a_window_size_and_stride_computed_from_the_length_follow_it(n):
    exe = dynhlo.compile(COMPUTED)
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    w = (n + 2) // 3
    np.testing.assert_array_equal(exe(x), _max_windows(x, w, w, n % 2))


def test_an_unsupported_window_number_is_one_line_naming_it_and_the_instruction():
    """A window dilation computed from the sizes: refused, naming the attribute and the
    instruction in one line, not the size expression in full."""
    text = COMPUTED.replace("custom-call(x, z, wv, wv, ones, ones, pad)",
                            "custom-call(x, z, wv, wv, ones, wv, pad)")
    with pytest.raises(UnsupportedError) as caught:
        dynhlo.compile(text)
    message = str(caught.value)
    assert "window_dilations[0]" in message and "'r'" in message
    assert "\n" not in message and len(message) < 300


def test_a_stride_computed_as_zero_is_a_clear_error_at_run_time():
    text = COMPUTED.replace("w = s32[] divide(n2, three)", "w = s32[] divide(n, three)")
    exe = dynhlo.compile(text)
    with pytest.raises(DynamicSizeError, match="window_dimensions|window_strides"):
        exe(np.ones(2, np.float32))


# Window operands read from the arguments: no inference bounds the output, so each call
# checks it against the declared bound before the plain op writes its buffer.
FROM_ARGUMENTS = """HloModule m
add_f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ENTRY main {
  x = f32[<=16] parameter(0)
  z = f32[] constant(0)
  w = s32[1] parameter(1)
  s = s32[1] constant({1})
  p = s32[1,2] parameter(2)
  ROOT r = f32[<=16] custom-call(x, z, w, s, s, s, p), custom_call_target="stablehlo.dynamic_reduce_window", called_computations={add_f}
}
"""

CONV_FROM_ARGUMENTS = """HloModule m
ENTRY main {
  x = f32[1,1,<=16] parameter(0)
  k = f32[1,1,3] parameter(1)
  p = s32[1,2] parameter(2)
  ROOT r = f32[1,1,<=16] custom-call(x, k, p), window={size=3 stride=2}, dim_labels=bf0_oi0->bf0, custom_call_target="stablehlo.dynamic_conv"
}
"""


def window_past_bound_cases():
    """(module, arguments, the size the window gives) past the declared bound 16; the last
    pads by 2**31 - 1 (its output, 2**31 elements, filled memory before the check)."""
    x, k = np.arange(1, 6, dtype=np.float32), np.ones((1, 1, 3), np.float32)
    return [(FROM_ARGUMENTS, [x, np.int32([3]), np.int32([[20, 0]])], 23),
            (FROM_ARGUMENTS, [x, np.int32([3]), np.int32([[8, 8]])], 19),
            (FROM_ARGUMENTS, [x, np.int32([3]), np.int32([[2**31 - 1, 0]])], 2**31 + 2),
            (CONV_FROM_ARGUMENTS, [x.reshape(1, 1, 5), k, np.int32([[30, 0]])], 17)]


@pytest.mark.parametrize("case", range(4))
def test_a_window_read_from_the_arguments_past_the_output_bound_is_an_error(case):
    text, args, size = window_past_bound_cases()[case]
    exe = dynhlo.compile(text)
    with pytest.raises(DynamicSizeError, match=f"size {size}, past its bound 16"):
        exe(*args)


def test_a_window_read_from_the_arguments_within_the_bound_runs():
    exe = dynhlo.compile(FROM_ARGUMENTS)
    x = np.arange(1, 6, dtype=np.float32)
    np.testing.assert_array_equal(exe(x, np.int32([3]), np.int32([[1, 1]])),
                                  [3, 6, 9, 12, 9])
    conv = dynhlo.compile(CONV_FROM_ARGUMENTS)
    np.testing.assert_array_equal(
        conv(x.reshape(1, 1, 5), np.ones((1, 1, 3), np.float32), np.int32([[5, 5]])),
        [[[0, 0, 3, 9, 9, 0, 0]]])


@pytest.mark.parametrize("operand, value", [("stride", 0), ("stride", -3), ("window", -1)])
def test_a_constant_window_stride_below_one_is_a_verify_error_naming_it(operand, value):
    """A constant stride the algebra would divide by (a raw ValueError at compile)."""
    text = FROM_ARGUMENTS.replace("s32[1] parameter(1)", "s32[1] constant({3})").replace(
        "s32[1,2] parameter(2)", "s32[1,2] constant({{0, 0}})").replace(
        "  p = ", f"  c = s32[1] constant({{{value}}})\n  p = ")
    text = text.replace("(x, z, w, s, s, s, p)", "(x, z, w, c, s, s, p)" if operand == "stride"
                        else "(x, z, c, s, s, s, p)")
    what = "window_strides" if operand == "stride" else "window_dimensions"
    with pytest.raises(dynhlo.HloVerifyError, match=f"'r'.*{what} has the constant {value}"):
        dynhlo.compile(text)
