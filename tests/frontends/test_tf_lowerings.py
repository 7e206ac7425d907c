"""from_tf's comparison of lowerings, run on texts TensorFlow wrote (tests/data/tf_lowerings,
made by tools/gen_tf_lowerings.py; CI has no TensorFlow): tf.roll, mirror pads and tf.range
over the dynamic axis, each against NumPy at sizes 0, 1, small and the bound; the size used
as a float, ranges of n + 1 values or of a stride, loops over the dynamic axis (tf.scan,
tf.map_fn) and random numbers of the size, against TensorFlow's own outputs stored with
them. Where TensorFlow refuses a size (a pad longer than the rows it mirrors, tf.range(1, n)
at n = 0) the executable raises an ArgumentError, never an answer.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import dynhlo
from dynhlo.frontends.tf import module_from_lowerings
from dynhlo.frontends.tf.least import LoweringRefused
from dynhlo.hlo.text.printer import print_module
from dynhlo.hlo.values import parse_shape
from tests.support.common import TESTS

DATA = str(TESTS / "data" / "tf_lowerings")


def _lowering(name: str):
    """lower(sizes) for module_from_lowerings: the stored text (and elided constants) of
    case `name` at sizes["n"]."""
    def lower(sizes):
        path = os.path.join(DATA, f"{name}.{sizes['n']}")
        if os.path.exists(path + ".refused"):   # TensorFlow refused this size
            with open(path + ".refused") as f:
                raise LoweringRefused(f"tensorflow refused size {sizes['n']}", f.read())
        with open(path + ".hlo") as f:
            text = f.read()
        if not os.path.exists(path + ".npz"):
            return text, []
        data = np.load(path + ".npz")
        return text, [(str(n), parse_shape(str(s)), data[f"value{k}"])
                      for k, (n, s) in enumerate(zip(data["names"], data["shapes"], strict=True))]
    return lower


def _executable(name: str, shape: str, bound: int):
    return dynhlo.compile(module_from_lowerings(_lowering(name), [shape], {"n": bound}))


def _rows(n: int, cols: int) -> np.ndarray:
    return (np.arange(n * cols, dtype=np.float32).reshape(n, cols) * 0.5 - 3) ** 2


def _cumulative(x):
    return np.cumsum(x, 0)


def _causal_attention(x):
    """softmax(x x^T, row i over columns j <= i) x, by hand."""
    scores = x @ x.T
    scores = np.where(np.tril(np.ones_like(scores)) > 0, scores, -np.inf)
    weights = np.exp(scores - scores.max(1, keepdims=True, initial=-np.inf))
    return (weights / weights.sum(1, keepdims=True)) @ x


@pytest.mark.parametrize("name,expected", [
    ("roll", lambda x: np.roll(x, 2, axis=0)),
    ("roll_2d", lambda x: np.roll(x, (-3, 1), axis=(0, 1))),
    ("range_scale", lambda x: x * np.arange(len(x), dtype=np.float32)[:, None]),
    ("range_mask", _cumulative),   # (i >= j) of tf.range(n) twice, matrix times x
    ("range_only", lambda x: np.arange(len(x), dtype=np.int32) * 2),
    ("causal_attention", _causal_attention),   # a band_part mask TensorFlow folded
    ("concat_first_rows", lambda x: x * 2 + 1),   # the first n of 2n rows: n from x
])
def test_from_tf_lowerings_match_numpy_at_every_size(name, expected):
    exe = _executable(name, "f32[n,3]", 8)
    for n in (0, 1, 2, 5, 8):
        x = _rows(n, 3)
        got, want = np.asarray(exe(x)), expected(x)
        assert got.shape == want.shape and got.dtype == want.dtype, (n, got.shape)
        np.testing.assert_allclose(got, want, rtol=1e-5, err_msg=f"n={n}")


@pytest.mark.parametrize("name,check", [
    ("mean_by_hand", "get-dimension-size("),          # f32[] constant(n), read and converted
    ("range_plus_one", "s32[<=9]{0} set-dimension-size("),   # n + 1 values
    ("range_step", "divide("),                        # ceil(n / 2) rows: the even ones
    ("range_step3", "divide("),                       # ceil((n + 1) / 3)
    ("scan", "get-tuple-element("),                   # the loop reads n from its state
    ("scan_reverse", "add("),                         # and starts at n - 2
    ("map_fn", "get-tuple-element("),
    ("random_uniform", "rng-bit-generator("),         # Philox bits at the bound, cut to n
    ("random_normal", "f32[<=8,3]{1,0} constant("),   # Philox normals TensorFlow folded
    ("random_threefry", "algorithm=rng_three_fry"),   # drawn per axis XLA splits, picked at n
    ("normal_rows", ".dynhlo_rows = f32[<=8]{0} set-dimension-size("),   # pairs of rows, cut
    ("range_from_one", "s32[<=7]{0} set-dimension-size("),   # n - 1 values; 0 refused
    # rows of x * 2; at n = 0 tf.function's (0, 3): XLA refuses no rows, and eager's shape
    # is (0,) only where fn_output_signature leaves the rows' shape unknown, which the
    # program does not say (tests/frontends/test_tf.py runs both)
    ("map_fn_rows", "get-tuple-element("),
])
def test_from_tf_lowerings_match_tensorflows_outputs(name, check):
    # the expected outputs are TensorFlow's (eager; its XLA lowering's for random numbers;
    # tf.function's for map_fn_rows: tools/gen_tf_lowerings.py)
    module = module_from_lowerings(_lowering(name), ["f32[n,3]"], {"n": 8})
    assert check in print_module(module)
    exe = dynhlo.compile(module)
    data = np.load(os.path.join(DATA, f"{name}.expected.npz"))
    assert 1 in data["sizes"] and 8 in data["sizes"]
    for n in data["sizes"]:
        got, want = np.asarray(exe(data[f"in{n}"])), data[f"out{n}"]
        assert got.shape == want.shape and got.dtype == want.dtype, (name, n)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=f"n={n}")


def test_from_tf_lowering_of_a_range_looks_its_length_up():
    # at 8, 7 and 5 rows tf.range(2, n + 3, 3) has 3, 3 and 2 values: (n + 1) / 3 and others
    # fit; lowerings at other sizes tell them apart (stored: 0, where TensorFlow writes
    # another text, is passed over); 1 and 2 are checked by value (tf/small.py)
    asked = []
    lower = _lowering("range_step3")
    module_from_lowerings(lambda sizes: asked.append(sizes["n"]) or lower(sizes),
                          ["f32[n,3]"], {"n": 8})
    assert {8, 7, 5, 2, 1} <= set(asked) and len(set(asked)) <= 5 + 6
    # without the look-ups the length is not known: refused, never a guess
    def no_more(sizes):
        if sizes["n"] not in (8, 7, 5, 2, 1):
            raise OSError("not stored")
        return lower(sizes)
    with pytest.raises(dynhlo.UnsupportedError, match="is no one range's length"):
        module_from_lowerings(no_more, ["f32[n,3]"], {"n": 8})


def test_from_tf_roll_reads_n_rows_of_the_doubled_input():
    # TensorFlow concatenates x with itself and takes n rows from n - 2: the window of the
    # bound's 8 rows ran past the 2n valid rows; it reads the operand extended to its bound
    # from a start clamped to [0, 2n - n], and is cut to n rows
    text = print_module(module_from_lowerings(_lowering("roll"), ["f32[n,3]"], {"n": 8}))
    assert "f32[<=16,3]{1,0} concatenate(" in text
    assert "clamp(" in text and "dynamic_slice_sizes={8,3}" in text
    assert "f32[<=8,3]{1,0} set-dimension-size(" in text


@pytest.mark.parametrize("name,pads,mode,shortest", [
    ("pad_reflect", ((2, 1), (1, 1)), "reflect", 3),     # TensorFlow: pad < n
    ("pad_symmetric", ((0, 2), (1, 0)), "symmetric", 2),  # TensorFlow: pad <= n
])
def test_from_tf_mirror_pads_match_numpy_or_refuse_short_inputs(name, pads, mode, shortest):
    exe = _executable(name, "f32[n,3]", 8)
    for n in range(shortest, 9):
        x = _rows(n, 3)
        np.testing.assert_array_equal(exe(x), np.pad(x, pads, mode=mode), err_msg=f"n={n}")
    for n in range(shortest):   # TensorFlow refuses these pads; XLA's rows would be others
        with pytest.raises(dynhlo.ArgumentError, match=rf"^TensorFlow's MirrorPad 'MirrorPad' "
                           rf".* of argument 0 \(size 'n'\), which has {n}: it needs at least "
                           rf"{shortest} \(TensorFlow refuses"):
            exe(_rows(n, 3))
    # an artifact stores the requirement (format 3): a loaded executable refuses the short
    # input with the same message, before its strict slices would (a DynamicSizeError)
    loaded = dynhlo.deserialize(exe.serialize())
    assert loaded.module.shape_assertions == exe.module.shape_assertions
    for n in range(shortest):
        with pytest.raises(dynhlo.ArgumentError) as before:
            exe(_rows(n, 3))
        with pytest.raises(dynhlo.ArgumentError) as after:
            loaded(_rows(n, 3))
        assert str(after.value) == str(before.value)
    for n in (shortest, 8):
        np.testing.assert_array_equal(loaded(_rows(n, 3)), np.pad(_rows(n, 3), pads, mode=mode))


def test_from_tf_range_of_an_elided_literal():
    # 12 values are elided in TensorFlow's text at the bound and at 11 rows, written out at 7:
    # compared as arrays, each the first values of the bound's
    exe = _executable("range_elided", "f32[n,2]", 12)
    for n in (0, 1, 7, 12):
        x = _rows(n, 2)
        np.testing.assert_array_equal(exe(x), x + np.arange(n, dtype=np.float32)[:, None])


FOLDED_RANGE = ("HloModule m, entry_computation_layout={{(f32[{n}]{{0}})->f32[{n}]{{0}}}}\n\n"
                "ENTRY %main (x: f32[{n}]) -> f32[{n}] {{\n"
                "  %x = f32[{n}]{{0}} parameter(0)\n"
                "  %r = f32[{n}]{{0}} constant({{{values}}})\n"
                "  ROOT %y = f32[{n}]{{0}} add(f32[{n}]{{0}} %x, f32[{n}]{{0}} %r)\n}}\n")


def _folded(order):
    """lower(sizes) of x + a range TensorFlow folded into a literal, in `order` (1: up)."""
    def lower(sizes):
        values = range(sizes["n"])[::order]
        return FOLDED_RANGE.format(n=sizes["n"], values=", ".join(map(str, values))), []
    return lower


def test_from_tf_takes_a_literal_only_where_it_is_a_prefix():
    # 0..n-1 at n is the bound's first n values: one literal of <=8 values, sized from x
    exe = dynhlo.compile(module_from_lowerings(_folded(1), ["f32[n]"], {"n": 8}))
    for n in (0, 1, 3, 8):
        x = np.full(n, 0.5, np.float32)
        np.testing.assert_array_equal(exe(x), x + np.arange(n))
    # n-1..0 is not: the bound's values at 3 rows would be 7, 6, 5
    with pytest.raises(dynhlo.UnsupportedError, match=r"structure changes.*first in: %r = "
                       r"f32\[8\]\{0\} constant\(\{7, 6, 5"):
        module_from_lowerings(_folded(-1), ["f32[n]"], {"n": 8})


RANDOM = ("HloModule m\n\nENTRY %main (x: f32[{n}]) -> f32[{n}] {{\n"
          "  %x = f32[{n}]{{0}} parameter(0)\n"
          "  %Rand.1 = u64[2]{{0}} constant({{1, 2}})\n"
          "  %Rand.2 = (u64[2]{{0}}, u32[4]{{0}}) rng-bit-generator(u64[2]{{0}} %Rand.1), "
          "algorithm=rng_philox\n"
          "  %Rand.3 = u32[4]{{0}} get-tuple-element((u64[2]{{0}}, u32[4]{{0}}) %Rand.2), "
          "index=1\n"
          "  %Rand.4 = f32[4]{{0}} convert(u32[4]{{0}} %Rand.3)\n{cut}"
          "  ROOT %y = f32[{n}]{{0}} add(f32[{n}]{{0}} %x, f32[{n}]{{0}} %Rand.5)\n}}\n")


def test_from_tf_names_the_op_that_draws_random_numbers_of_the_size():
    # TensorFlow draws 4 numbers (Philox's block) and slices n of them: at 4 no slice
    def lower(sizes):
        n = sizes["n"]
        cut = "  %Rand.5 = f32[4]{0} copy(f32[4]{0} %Rand.4)\n" if n == 4 else \
            f"  %Rand.5 = f32[{n}]{{0}} slice(f32[4]{{0}} %Rand.4), slice={{[0:{n}]}}\n"
        return RANDOM.format(n=n, cut=cut), []
    with pytest.raises(dynhlo.UnsupportedError, match="op 'Rand' draws random numbers of a "
                       "shape that follows the size"):
        module_from_lowerings(lower, ["f32[n]"], {"n": 4})


DRAWN = ("HloModule m\n\nENTRY %main (x: f32[{n},3]) -> ({out}) {{\n"
         "  %x = f32[{n},3]{{1,0}} parameter(0)\n"
         "  %Rand.1 = u64[2]{{0}} constant({{1, 2}})\n"
         "  %Rand.2 = (u64[2]{{0}}, u32[{shape}]{{{layout}}}) rng-bit-generator(u64[2]{{0}} "
         "%Rand.1), algorithm={algorithm}\n"
         "  %Rand.3 = u32[{shape}]{{{layout}}} get-tuple-element(%Rand.2), index=1\n"
         "  %Rand.4 = u64[2]{{0}} get-tuple-element(%Rand.2), index=0\n"
         "  ROOT %t = ({out}) tuple({root})\n}}\n")


def _drawn(algorithm="rng_philox", rows=True, state=False):
    """lower(sizes) of bits drawn at [n, 3] (or [3, n]), returned with the new state or not."""
    def lower(sizes):
        n = sizes["n"]
        shape, layout = (f"{n},3", "1,0") if rows else (f"3,{n}", "1,0")
        out = f"u32[{shape}]{{{layout}}}" + (", u64[2]{0}" if state else "")
        root = "%Rand.3" + (", %Rand.4" if state else "")
        return DRAWN.format(n=n, shape=shape, layout=layout, algorithm=algorithm, out=out,
                            root=root), []
    return lower


def test_from_tf_draws_philox_bits_at_the_bound_and_cuts_them():
    # Philox's element k comes from block k // 4 whatever the shape: the first n rows of the
    # bound's bits are the bits of n rows (dynhlo's own generator drawn at n is the answer)
    from dynhlo.backends.cpu import rng_bits
    exe = dynhlo.compile(module_from_lowerings(_drawn(), ["f32[n,3]"], {"n": 8}))
    state = np.array([1, 2], np.uint64)
    for n in (0, 1, 5, 8):
        (got,) = exe(np.zeros((n, 3), np.float32))
        want = rng_bits.generate("rng_philox", state, (n, 3), np.dtype(np.uint32))[1]
        np.testing.assert_array_equal(got, want)


def test_from_tf_draws_threefry_bits_per_the_axis_xla_splits():
    # u32 ThreeFry bits of [n, 3]: XLA pairs a block's words along rows, but along columns at
    # n = 1 ([1, 3] has no even dimension, and 3 is the longest): drawn both ways at the
    # bound, picked at run time. dynhlo's own generator drawn at n is the answer
    from dynhlo.backends.cpu import rng_bits
    module = module_from_lowerings(_drawn("rng_three_fry"), ["f32[n,3]"], {"n": 8})
    text = print_module(module)
    assert text.count("rng-bit-generator(") == 2 and "constant({0, 1, 0, 0, 0, 0, 0, 0, 0})" \
        in text
    exe = dynhlo.compile(module)
    state = np.array([1, 2], np.uint64)
    for n in range(9):
        (got,) = exe(np.zeros((n, 3), np.float32))
        want = rng_bits.generate("rng_three_fry", state, (n, 3), np.dtype(np.uint32))[1]
        np.testing.assert_array_equal(got, want, err_msg=f"n={n}")


def test_threefry_axes_follow_xlas_split_rule():
    # SplitShapeIntoHalves: the first even dimension, else the longest (the first of equal)
    from dynhlo.frontends.tf.threefry import axes_by_size
    assert axes_by_size((8, 3)) == [0, 1, 0, 0, 0, 0, 0, 0, 0]
    assert axes_by_size((5, 4)) == [1, 1, 0, 1, 0, 1]
    assert axes_by_size((6,)) == [0] * 7
    assert axes_by_size((4, 3, 2)) == [0, 2, 0, 2, 0]


@pytest.mark.parametrize("kwargs,match", [
    ({"algorithm": "rng_three_fry", "state": True}, "algorithm=rng_three_fry pairs u32 bits"),
    ({"algorithm": "rng_three_fry", "rows": False}, "algorithm=rng_three_fry pairs u32 bits"),
    ({"rows": False}, r"follow the size in dimensions \[1\], not in the most major"),
    ({"state": True}, "the new state it returns is used"),
])
def test_from_tf_refuses_bits_the_bound_cannot_stand_for(kwargs, match):
    with pytest.raises(dynhlo.UnsupportedError, match=rf"TensorFlow's op 'Rand' .*{match}"):
        module_from_lowerings(_drawn(**kwargs), ["f32[n,3]"], {"n": 8})


def test_from_tf_refuses_a_range_tensorflow_refuses_before_running():
    # tf.range(1, n) at n = 0: TensorFlow's Range requires start <= limit when delta > 0; the
    # folded program would give no values. The least size is stored in an artifact too.
    exe = _executable("range_from_one", "f32[n,3]", 8)
    loaded = dynhlo.deserialize(exe.serialize())
    for run in (exe, loaded):
        with pytest.raises(dynhlo.ArgumentError, match=r"^TensorFlow's range or shape "
                           r"'constant\.1' has a length it computed from size 'n', of dimension "
                           r"0 of argument 0, which has 0: it needs at least 1 \(.*Range "
                           r"requires start <= limit when delta > 0"):
            run(np.zeros((0, 3), np.float32))
        for n in (1, 2, 8):   # n - 1 values from 1: NumPy's range
            np.testing.assert_array_equal(run(np.zeros((n, 3), np.float32)),
                                          np.arange(1, n, dtype=np.int32))


def test_from_tf_refuses_normals_xla_pairs_along_columns_at_some_size():
    # tf.random.stateless_normal of [n, 3]: Box-Muller pairs along the rows at n >= 2, along
    # the columns at n = 1 ([1, 3]: no even dimension, 3 the longest), where the bound's
    # pairs of rows are other numbers: refused, never a guess
    with pytest.raises(dynhlo.UnsupportedError, match=r"pairs the normals of "
                       r"StatelessRandomNormalV2 \(a Box-Muller transform of \[n,3\]\) along "
                       r"another dimension than the rows at n in \[1\]"):
        module_from_lowerings(_lowering("normal_pairs_cols"), ["f32[n,3]"], {"n": 8})


FIRST_ROWS_OF_ANOTHER = ("HloModule m\n\nENTRY %main (x: f32[{n},5], y: f32[{m},5]) -> "
                         "f32[{n},5] {{\n  %x = f32[{n},5]{{1,0}} parameter(0)\n"
                         "  %y = f32[{m},5]{{1,0}} parameter(1)\n"
                         "  ROOT %s = f32[{n},5]{{1,0}} slice(f32[{m},5]{{1,0}} %y), "
                         "slice={{[0:{n}], [0:5]}}\n}}\n")


def test_from_tf_refuses_the_first_n_rows_of_another_size():
    # y[:n] of y's m rows: TensorFlow gives min(n, m) rows; n rows would read past m
    with pytest.raises(dynhlo.UnsupportedError, match=r"'8' becomes '7'.*slice\("):
        module_from_lowerings(lambda sizes: (FIRST_ROWS_OF_ANOTHER.format(**sizes), []),
                              ["f32[n,5]", "f32[m,5]"], {"n": 8, "m": 8})


@pytest.mark.parametrize("name,op,least", [
    ("top_k", "TopKV2", 5),                     # top_k(x, k=5) needs 5 values
    ("conv_valid", r"conv1d \(Conv2D\)", 3),    # a VALID window of 3 needs 3 rows
    ("pool_valid", r"MaxPool1d \(MaxPool\)", 3),
])
def test_from_tf_refuses_per_call_the_sizes_tensorflow_refuses(name, op, least):
    # TensorFlow lowers these only from `least` on (below, the op's shape check fails, in
    # tf.function as in eager, where a VALID window one row longer than the input is the
    # only exception: eager gives no rows); XLA's program at the bound would make values up
    # (top_k) or give an empty array: each call below is a DynamicSizeError naming the op
    # and the size, also once saved and loaded
    exe = _executable(name, "f32[n,3]", 8)
    loaded = dynhlo.deserialize(exe.serialize())
    data = np.load(os.path.join(DATA, f"{name}.expected.npz"))
    assert {5, 8} <= set(data["sizes"])   # eager ran at 0, 1, 2, 5, 8
    for run in (exe, loaded):
        for n in range(least):
            with pytest.raises(dynhlo.DynamicSizeError, match=rf"^TensorFlow's op '{op}' "
                               rf"refuses dimension 0 of argument 0 \(size 'n'\) of {n}: it "
                               rf"needs at least {least} "):
                run(_rows(n, 3))
        for n in (n for n in data["sizes"] if n >= least):
            got, want = np.asarray(run(data[f"in{n}"])), data[f"out{n}"]
            assert got.shape == want.shape, (name, n)
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"n={n}")


@pytest.mark.parametrize("name", ["branch_python", "branch_cond"])
def test_from_tf_refuses_a_branch_on_a_small_size(name):
    # `x * 2 if x.shape[0] > 2 else x + 1`, and tf.cond on tf.shape(x)[0] > 2: TensorFlow
    # folds the branch at each static size, so the lowerings at 8, 7 and 5 agree; at 1 and 2
    # TensorFlow's own program adds 1 where the bound's doubles
    with pytest.raises(dynhlo.UnsupportedError, match=r"size 'n' is baked into the program: "
                       r"at n = 1 TensorFlow's program gives other outputs than the one "
                       r"lowered at 8 \(output 0 differs by up to .*\), first different in: "):
        module_from_lowerings(_lowering(name), ["f32[n,3]"], {"n": 8})


CAPTURED = ("HloModule f, entry_computation_layout={{(f32[{n},4]{{1,0}}, f32[4,3]{{1,0}}, "
            "f32[3]{{0}})->f32[{n},3]{{1,0}}}}\n\n"
            "ENTRY %f (arg0.1: f32[{n},4], arg1.1: f32[4,3], arg2.1: f32[3]) -> f32[{n},3] {{\n"
            "  %arg0.1 = f32[{n},4]{{1,0}} parameter(0)\n"
            "  %arg1.1 = f32[4,3]{{1,0}} parameter(1)\n"
            "  %dot.1 = f32[{n},3]{{1,0}} dot(f32[{n},4]{{1,0}} %arg0.1, f32[4,3]{{1,0}} "
            "%arg1.1), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}\n"
            "  %arg2.1 = f32[3]{{0}} parameter(2)\n"
            "  %b.1 = f32[{n},3]{{1,0}} broadcast(f32[3]{{0}} %arg2.1), dimensions={{1}}\n"
            "  ROOT %add.1 = f32[{n},3]{{1,0}} add(f32[{n},3]{{1,0}} %dot.1, "
            "f32[{n},3]{{1,0}} %b.1)\n}}\n")


def test_from_tf_freezes_captured_inputs_into_constants():
    # x @ w + b with w a tf.Variable and b an eager tensor: TensorFlow's program takes them
    # as parameters 1 and 2 (its text, as TensorFlow writes it); they become constants
    from dynhlo.frontends.tf.captures import freeze_captures
    w = np.arange(12, dtype=np.float32).reshape(4, 3)
    b = np.array([1, 2, 3], np.float32)

    def lower(sizes):
        return freeze_captures(CAPTURED.format(n=sizes["n"]), [], 1, [w, b])
    exe = dynhlo.compile(module_from_lowerings(lower, ["f32[n,4]"], {"n": 8}))
    assert len(exe.module.entry.parameters) == 1
    for n in (0, 1, 5, 8):
        x = _rows(n, 4)
        np.testing.assert_array_equal(exe(x), x @ w + b)
