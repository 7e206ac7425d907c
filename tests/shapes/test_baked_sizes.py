"""Sizes baked into modules: the BakedSizeWarning of compile and inspect, and from_tf's diff.

The modules are what a JAX user gets by lowering at the bound and marking the parameter `<=`
by hand: a mean that divides by constant(64), or multiplies by 0.015625 (XLA's optimized form).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import dynhlo
from dynhlo import cli
from dynhlo.frontends.lowering_diff import cut_slices, mark_bounded, moving_tokens
from dynhlo.hlo.baked_sizes import baked_sizes

MEAN = """HloModule baked
add_f32 {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}}
ENTRY main {{
  x = f32[<=64,16] parameter(0)
  zero = f32[] constant(0)
  s = f32[16] reduce(x, zero), dimensions={{0}}, to_apply=add_f32
  n = f32[] constant({value})
  nb = f32[16] broadcast(n), dimensions={{}}
  ROOT m = f32[16] {op}(s, nb)
}}
"""


@pytest.mark.parametrize("value, op", [("64", "divide"), ("0.015625", "multiply")])
def test_compile_warns_on_a_baked_mean(value, op):
    text = MEAN.format(value=value, op=op)
    with pytest.warns(dynhlo.BakedSizeWarning, match=r"constant 'n' equal to 64"):
        exe = dynhlo.compile(text)
    # ... and the warning is right: at 3 rows the "mean" is off by 64/3
    x = np.ones((3, 16), np.float32)
    np.testing.assert_allclose(exe(x), np.full(16, 3 / 64, np.float32))


def test_the_warning_points_at_the_callers_line():
    """Before: it pointed at contextlib.py (compile's gc-pause decorator), not the user's."""
    text = MEAN.format(value="64", op="divide")
    with pytest.warns(dynhlo.BakedSizeWarning) as compiled:
        dynhlo.compile(text)
    f = dynhlo.jit(text, cache_dir=False)
    with pytest.warns(dynhlo.BakedSizeWarning) as jitted:
        f(np.ones((3, 16), np.float32))  # compiles here, inside the call
    for record in (*compiled, *jitted):
        assert record.filename == __file__, record.filename


def test_no_warning_for_an_unrelated_constant_or_a_run_time_size():
    text = MEAN.format(value="63", op="divide")
    with warnings.catch_warnings():
        warnings.simplefilter("error", dynhlo.BakedSizeWarning)
        dynhlo.compile(text)
    size = MEAN.format(value="0", op="divide").replace(
        "n = f32[] constant(0)", "k = s32[] get-dimension-size(x), dimensions={0}\n"
        "  n = f32[] convert(k)")
    assert baked_sizes(dynhlo.parse_hlo(size)) == []


def test_inspect_prints_the_warning_on_stderr(tmp_path, capsys):
    path = tmp_path / "m.hlo"
    path.write_text(MEAN.format(value="64", op="divide"))
    assert cli.main(["inspect", str(path)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("dynhlo: warning: instruction 'm' (divide) uses the constant 'n' "
                          "equal to 64")


def test_from_jax_modules_bake_nothing():
    pytest.importorskip("jax")
    exe = dynhlo.from_jax(lambda x: x - x.mean(0), "f32[n,16]", bounds={"n": 64})
    assert baked_sizes(exe.module) == []


def test_tf_diff_marks_only_moving_dims():
    base = ("x = f32[8,4]{1,0} parameter(0)\ns = f32[8,4]{1,0} slice(f32[8,4]{1,0} x), "
            "slice={[0:8], [0:4]}\nc = f32[] constant(4)")
    other = base.replace("8", "7")
    marked = mark_bounded(base, moving_tokens(base, other, "n", 8, 7)[0])
    assert marked == ("x = f32[<=8,4]{1,0} parameter(0)\ns = f32[<=8,4]{1,0} slice(f32[<=8,4]"
                      "{1,0} x), slice={[0:8], [0:4]}\nc = f32[] constant(4)")


def test_tf_diff_refuses_a_moving_constant():
    # 2n is no n + c: 16 becomes 14
    base = "x = f32[8]{0} parameter(0)\nc = s32[] constant(16)"
    other = "x = f32[7]{0} parameter(0)\nc = s32[] constant(14)"
    with pytest.raises(dynhlo.UnsupportedError, match=r"in: c = s32\[\] constant\(16\)"):
        moving_tokens(base, other, "n", 8, 7)


def test_tf_diff_reads_a_count_equal_to_the_size_at_run_time():
    # n (a count), n - 1 (a last index) and n as a float (a hand-written mean's divisor)
    from dynhlo.frontends.tf import _by_name
    from dynhlo.frontends.tf.sizes import read_sizes
    text = ("HloModule m\n\nENTRY %main (a: f32[{n},4]) -> (s32[], s32[], f32[]) {{\n"
            "  %a = f32[{n},4]{{1,0}} parameter(0)\n  %c = s32[] constant({n})\n"
            "  %l = s32[] constant({k})\n  %f = f32[] constant({n})\n"
            "  ROOT %t = (s32[], s32[], f32[]) tuple(%c, %l, %f)\n}}\n")
    base, other = text.format(n=8, k=7), text.format(n=7, k=6)
    dims, constants, _ = moving_tokens(base, other, "n", 8, 7)
    assert sorted(constants.values()) == [-1, 0, 0]   # n + c
    sizes = {i: ("n", c) for i, c in constants.items()}
    marked = read_sizes(mark_bounded(base, dims), _by_name(base, sizes), {"n": (0, 0)},
                        {"n": 8})
    assert "%a = f32[<=8,4]{1,0} parameter(0)" in marked
    assert "%f = f32[] convert(s32[] %f.dynhlo_n)" in marked
    exe = dynhlo.compile(marked)
    for n in (0, 1, 8):
        c, last, f = exe(np.zeros((n, 4), np.float32))
        assert (int(c), int(last), float(f)) == (n, n - 1, float(n))
    # 2n as a float is no n + c
    with pytest.raises(dynhlo.UnsupportedError, match=r"f32\[\] constant\(16\)"):
        moving_tokens(base.replace("f32[] constant(8)", "f32[] constant(16)"),
                      other.replace("f32[] constant(7)", "f32[] constant(14)"), "n", 8, 7)


def test_tf_diff_refuses_a_string_that_moves_but_eigh_sweeps():
    # a custom call's backend_config that moves with the size is baked in (any string was
    # passed over); Eigh's Jacobi sweeps (its third field) follow n and dynhlo's Eigh reads
    # none of them
    line = ('%e = (f32[{n},{n}]{{1,0}}, f32[{n}]{{0}}) custom-call(f32[{n},{n}]{{1,0}} %a), '
            'custom_call_target="{target}", backend_config="1,1,{sweeps},0.000001"')
    eigh = [line.format(n=n, target="Eigh", sweeps=s) for n, s in ((8, 7), (7, 6))]
    assert len(moving_tokens(eigh[0], eigh[1], "n", 8, 7)[0]) == 5   # the dims of n
    other = [line.format(n=n, target="Foo", sweeps=n) for n in (8, 7)]
    with pytest.raises(dynhlo.UnsupportedError, match=r'"1,1,8,0.000001"\' becomes'):
        moving_tokens(other[0], other[1], "n", 8, 7)


SHORT_SLICES = ("HloModule m\n\nENTRY %main (a: f32[{n},5]) -> f32[{k},4] {{\n"
                "  %a = f32[{n},5]{{1,0}} parameter(0)\n"
                "  %s = f32[{m},5]{{1,0}} slice(f32[{n},5]{{1,0}} %a), slice={{[0:{m}], [0:5]}}\n"
                "  %two = f32[] constant(2)\n"
                "  %b = f32[{m},5]{{1,0}} broadcast(f32[] %two), dimensions={{}}\n"
                "  %d = f32[{m},5]{{1,0}} multiply(f32[{m},5]{{1,0}} %s, f32[{m},5]{{1,0}} %b)\n"
                "  ROOT %t = f32[{k},4]{{1,0}} slice(f32[{m},5]{{1,0}} %d), "
                "slice={{[1:{k1}], [0:4]}}\n}}\n")


def _short_slices(n: int) -> str:
    """x[:-1] * 2, then [1:-1, :4] of that: TensorFlow's text for `x` of n rows."""
    return SHORT_SLICES.format(n=n, m=n - 1, k=n - 3, k1=n - 2)


def test_tf_diff_cuts_a_slice_that_stops_short_of_the_size():
    # x[:-1] lowers to slice [0:n-1]: at run time the slice of a <=8 dimension keeps the
    # operand's size (XLA's rule), so the limit alone gave n rows for n-1; the second slice
    # cuts a dimension that is itself n-1
    base, other = _short_slices(8), _short_slices(7)
    dims, sizes, cuts = moving_tokens(base, other, "n", 8, 7)
    assert sorted(cuts.values()) == [("limit", -1)] * 2   # each short of its operand by one
    module = cut_slices(mark_bounded(base, dims), base, cuts)
    assert "ROOT %t = f32[<=5,4]{1,0} set-dimension-size(" in module
    exe = dynhlo.compile(module)
    for n in (0, 1, 2, 3, 4, 8):
        x = np.arange(n * 5, dtype=np.float32).reshape(n, 5)
        np.testing.assert_array_equal(exe(x), (x[:-1] * 2)[1:-1, :4])


def test_tf_diff_refuses_a_short_slice_with_a_stride():
    with pytest.raises(dynhlo.UnsupportedError, match="baked"):
        moving_tokens(_short_slices(8).replace("[0:7]", "[0:7:2]"),
                      _short_slices(7).replace("[0:6]", "[0:6:2]"), "n", 8, 7)


CUMSUM = ("HloModule m\n\nadd {{\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
          "  ROOT c = f32[] add(a, b)\n}}\n\nENTRY %main (x: f32[{n},3]) -> f32[{n},3] {{\n"
          "  %x = f32[{n},3]{{1,0}} parameter(0)\n  %z = f32[] constant(0)\n"
          "  ROOT %r = f32[{n},3]{{1,0}} reduce-window(f32[{n},3]{{1,0}} %x, f32[] %z), "
          "window={{size={n}x1 pad={pad}x0_0}}, to_apply=add\n}}\n")


@pytest.mark.parametrize("pads,prefix", [(("7_0", "6_0"), True), (("0_7", "0_6"), False)])
def test_tf_diff_keeps_a_cumulative_window_at_the_bound(pads, prefix):
    # TensorFlow's cumsum: a window of n rows padded by n-1; at the bound's window and
    # padding every n <= 8 sums the same rows (the region past n reads as the init value)
    base, other = (CUMSUM.format(n=n, pad=p) for n, p in zip((8, 7), pads, strict=True))
    dims, sizes, cuts = moving_tokens(base, other, "n", 8, 7)
    exe = dynhlo.compile(mark_bounded(base, dims))
    for n in (0, 1, 5, 8):
        x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
        want = np.cumsum(x, 0) if prefix else np.cumsum(x[::-1], 0)[::-1]
        np.testing.assert_array_equal(exe(x), want)


def test_tf_diff_keeps_a_cumulative_window_of_a_dimension_that_follows_the_size():
    # tf.cumsum of x padded by 3 rows: a window of n + 3, padded by n + 2 (11 and 10 at the
    # bound); a window of 2n (moving by 2 per row) follows no one dimension and is refused
    base, other = (CUMSUM.format(n=n + 3, pad=f"{n + 2}_0") for n in (8, 7))
    dims, sizes, _ = moving_tokens(base, other, "n", 8, 7)
    exe = dynhlo.compile(mark_bounded(base, dims))
    for rows in (0, 3, 4, 11):
        x = np.arange(rows * 3, dtype=np.float32).reshape(rows, 3)
        np.testing.assert_array_equal(exe(x), np.cumsum(x, 0))
    base, other = (CUMSUM.format(n=2 * n, pad=f"{2 * n - 1}_0") for n in (8, 7))
    with pytest.raises(dynhlo.UnsupportedError, match="baked"):
        moving_tokens(base, other, "n", 8, 7)


@pytest.mark.parametrize("pads", [("0_0", "0_0"), ("4_3", "3_3"), ("7_1", "6_1")])
def test_tf_diff_refuses_other_windows_of_the_size(pads):
    # a window of n with no padding is one sum of all rows (a window of 8 at n = 5 would
    # give no rows); padding on both sides or past n-1 covers other rows at other sizes
    base, other = (CUMSUM.format(n=n, pad=p) for n, p in zip((8, 7), pads, strict=True))
    with pytest.raises(dynhlo.UnsupportedError, match="baked"):
        moving_tokens(base, other, "n", 8, 7)


FOLDED = ("HloModule m\n\nENTRY %main (x: f32[{n},3]) -> f32[{n},3] {{\n"
          "  %one = f32[] constant(1)\n"
          "  %ones = f32[{n},3]{{1,0}} broadcast(f32[] %one), dimensions={{}}\n"
          "  %two = f32[] constant(2)\n"
          "  %twos = f32[{n},3]{{1,0}} broadcast(f32[] %two), dimensions={{}}\n"
          "  %x = f32[{n},3]{{1,0}} parameter(0)\n"
          "  ROOT %s = f32[{n},3]{{1,0}} add(f32[{n},3]{{1,0}} %ones, f32[{n},3]{{1,0}} %twos)"
          "\n}}\n")


def test_tf_folded_shape_is_sized_from_its_argument():
    # tf.ones_like(x) + 2 * tf.ones_like(x): TensorFlow folds the shapes into broadcasts;
    # nothing in the program computes their dimension, which is n in every lowering: it is
    # set from x's (at one row the program gave 8 rows)
    from dynhlo.frontends.tf import _instructions_at, _size_from_arguments, _unsized_in_entry
    base, other = FOLDED.format(n=8), FOLDED.format(n=7)
    moved, sizes, _ = moving_tokens(base, other, "n", 8, 7)
    dims = dict.fromkeys(moved, "n")
    marked = mark_bounded(base, dims)
    unsized = _unsized_in_entry(dynhlo.parse_hlo(marked), _instructions_at(base, dims))
    assert unsized == {"ones": [0], "twos": [0]}
    text = _size_from_arguments(marked, base, unsized, dims, [("f32", ["n", 3])],
                                lambda token, name: (1, 0), [])
    assert "%ones = f32[<=8,3]{1,0} set-dimension-size(" in text
    exe = dynhlo.compile(text)
    for n in (0, 1, 5, 8):
        x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
        np.testing.assert_array_equal(exe(x), np.full((n, 3), 3, np.float32))


GATHER_COLUMNS = ("HloModule m\n\nENTRY %main (x: f32[{n},5]) -> f32[{n},3] {{\n"
                  "  %x = f32[{n},5]{{1,0}} parameter(0)\n"
                  "  %i = s32[3]{{0}} constant({{0, 2, 4}})\n"
                  "  ROOT %g = f32[{n},3]{{1,0}} gather(f32[{n},5]{{1,0}} %x, s32[3]{{0}} %i), "
                  "offset_dims={{0}}, collapsed_slice_dims={{1}}, start_index_map={{1}}, "
                  "index_vector_dim=1, slice_sizes={{{s},1}}\n}}\n")


def test_tf_diff_keeps_a_gather_of_whole_columns_at_the_bound():
    # tf.gather(x, cols, axis=1): each slice is every row, n at n; at the bound it is B rows,
    # and the gather keeps the operand's size
    base, other = (GATHER_COLUMNS.format(n=n, s=n) for n in (8, 7))
    dims, sizes, _ = moving_tokens(base, other, "n", 8, 7)
    exe = dynhlo.compile(mark_bounded(base, dims))
    for n in (0, 1, 5, 8):
        x = np.arange(n * 5, dtype=np.float32).reshape(n, 5)
        np.testing.assert_array_equal(exe(x), x[:, [0, 2, 4]])
    # a slice of n - 1 rows (not the whole dimension) is a size baked in
    base, other = (GATHER_COLUMNS.format(n=n, s=n - 1) for n in (8, 7))
    with pytest.raises(dynhlo.UnsupportedError, match="baked"):
        moving_tokens(base, other, "n", 8, 7)


LAST_ROWS = ("HloModule m\n\nENTRY %main (x: f32[{n},5]) -> f32[2,3] {{\n"
             "  %x = f32[{n},5]{{1,0}} parameter(0)\n"
             "  ROOT %t = f32[2,3]{{1,0}} slice(f32[{n},5]{{1,0}} %x), "
             "slice={{[{s}:{n}], [1:4]}}\n}}\n")


def test_tf_diff_reads_the_last_rows_from_the_size():
    # x[-2:, 1:4]: slice [n-2:n]; at the bound it read rows 6..7 whatever n
    base, other = (LAST_ROWS.format(n=n, s=n - 2) for n in (8, 7))
    dims, sizes, cuts = moving_tokens(base, other, "n", 8, 7)
    assert list(cuts.values()) == [("start", -2)]
    text = cut_slices(mark_bounded(base, dims), base, cuts)
    assert "dynamic-slice(" in text and "dynamic_slice_sizes={2,3}" in text
    exe = dynhlo.compile(text)
    for n in (2, 3, 8):
        x = np.arange(n * 5, dtype=np.float32).reshape(n, 5)
        np.testing.assert_array_equal(exe(x), x[-2:, 1:4])
    with pytest.raises(dynhlo.DynamicSizeError, match="dynamic-slice"):
        exe(np.zeros((1, 5), np.float32))   # TensorFlow gives one row: refused, not wrong


def test_tf_diff_reads_a_window_that_ends_short_of_the_size():
    # x[-3:-1, 1:4]: slice [n-3:n-1]; x is cut to n-1 rows and its last 2 are read
    def text(n):
        return LAST_ROWS.format(n=n, s=n - 3).replace(f"[{n - 3}:{n}]", f"[{n - 3}:{n - 1}]")

    dims, sizes, cuts = moving_tokens(text(8), text(7), "n", 8, 7)
    assert list(cuts.values()) == [("start", -3)]
    exe = dynhlo.compile(cut_slices(mark_bounded(text(8), dims), text(8), cuts))
    for n in (3, 4, 8):
        x = np.arange(n * 5, dtype=np.float32).reshape(n, 5)
        np.testing.assert_array_equal(exe(x), x[-3:-1, 1:4])
    for n in (0, 1, 2):   # TensorFlow gives fewer rows (or a mirror pad refuses): refused
        with pytest.raises(dynhlo.DynamicSizeError):
            exe(np.zeros((n, 5), np.float32))


LOOP_SIZE = """HloModule carried_size
cond {
  s = (s32[], f32[<=16,16], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  three = s32[] constant(3)
  ROOT lt = pred[] compare(i, three), direction=LT
}
body {
  s = (s32[], f32[<=16,16], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  h = f32[<=16,16] get-tuple-element(s), index=1
  b = s32[] get-tuple-element(s), index=2
  one = s32[] constant(1)
  next = s32[] add(i, one)
  width = s32[] constant(16)
  cells = s32[] multiply(b, width)
  hf = f32[<=16,16] add(h, h)
  ROOT t = (s32[], f32[<=16,16], s32[]) tuple(next, hf, cells)
}
ENTRY main {
  x = f32[<=16,16] parameter(0)
  n = s32[] get-dimension-size(x), dimensions={0}
  zero = s32[] constant(0)
  init = (s32[], f32[<=16,16], s32[]) tuple(zero, x, n)
  ROOT w = (s32[], f32[<=16,16], s32[]) while(init), condition=cond, body=body
}
"""


def test_no_warning_for_a_size_carried_through_a_loop_beside_data():
    """A loop state holding a run-time size (JAX's dimension variable in a scan) and data of
    bound 16: the size times the width 16 (haiku's LSTM of 16 units, batch bound 16) is no
    baked size. The whole tuple's data was taken as the size's, and it warned."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", dynhlo.BakedSizeWarning)
        exe = dynhlo.compile(LOOP_SIZE)
    _, h, cells = exe(np.ones((5, 16), np.float32))
    assert int(cells) == 5 * 16 ** 3 and h.shape == (5, 16)
