"""`dynhlo bench`: the sizes it picks, the arguments it makes, its table and its errors."""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo import cli
from dynhlo.cli import bench as cli_bench
from tests.support.common import EXAMPLES

MIXED = """HloModule mixed
ENTRY main {
  x = f32[<=1024,3]{1,0} parameter(0)
  k = s32[<=16]{0} parameter(1)
  p = pred[2]{0} parameter(2)
  z = f32[] constant(0)
  s = f32[] reduce(x, z), dimensions={0,1}, to_apply=add
  ROOT t = (f32[], s32[<=16]{0}, pred[2]{0}) tuple(s, k, p)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
"""


def _parameters(text):
    return list(dynhlo.compile(text).parameters)


def test_default_sizes_are_one_and_fractions_of_the_largest_bound():
    assert cli_bench.default_sizes(_parameters(MIXED)) == [1, 64, 256, 1024]
    static = "HloModule s\nENTRY m {\n  ROOT x = f32[4]{0} parameter(0)\n}\n"
    assert cli_bench.default_sizes(_parameters(static)) == [1]


def test_an_unbounded_dimension_needs_sizes():
    text = "HloModule u\nENTRY m {\n  ROOT x = f32[?,4]{1,0} parameter(0)\n}\n"
    with pytest.raises(cli_bench.BenchError, match=r"parameter 'x' dimension 0 is unbounded"):
        cli_bench.default_sizes(_parameters(text))


@pytest.mark.parametrize("clip, expected", [(True, [(200, 3), (16,), (2,)]),
                                            (False, [(200, 3), (200,), (2,)])])
def test_arguments_take_the_size_in_every_dynamic_dimension(clip, expected):
    arrays = cli_bench.random_arguments(_parameters(MIXED), 200, np.random.default_rng(0),
                                        clip=clip)
    assert [a.shape for a in arrays] == expected
    assert [a.dtype for a in arrays] == [np.float32, np.int32, np.bool_]
    assert arrays[0].std() > 0.5 and 0 <= arrays[1].min() and arrays[1].max() < 8


def test_time_calls_counts_every_call():
    calls = []
    first, median, count = cli_bench.time_calls(lambda: calls.append(1), lambda: None)
    assert len(calls) == count + 1 and count >= 3 and 0 <= median and 0 <= first


def test_bench_prints_a_row_per_size(capsys):
    assert cli.main(["bench", str(EXAMPLES / "seed.hlo"), "--sizes", "0,2,5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("cpu: compiled or loaded in ")
    rows = [line.split() for line in lines[2:]]
    assert [int(r[0]) for r in rows] == [0, 2, 5]
    assert all(float(r[1]) > 0 and float(r[2]) > 0 and int(r[3]) >= 3 for r in rows)


def test_a_size_over_the_bound_is_refused_before_the_first_row(capsys):
    """It was the call's ArgumentError, printed under the table's header and naming no
    option; the message names --sizes and the bound, and no header is printed."""
    assert cli.main(["bench", str(EXAMPLES / "seed.hlo"), "--sizes", "2,6"]) == 1
    captured = capsys.readouterr()
    assert "--sizes 6: over the bound 5 of parameter 0 'a' dimension 0" in captured.err
    assert "give sizes up to 5" in captured.err and "first call" not in captured.out


@pytest.mark.parametrize("sizes", ["-1", ",", "x"])
def test_bad_sizes_are_one_line_errors(capsys, sizes):
    assert cli.main(["bench", str(EXAMPLES / "seed.hlo"), "--sizes", sizes]) == 1
    assert "--sizes" in capsys.readouterr().err
