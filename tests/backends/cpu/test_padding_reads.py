"""The padding_reads compile option on the CPU backend, through the API, artifacts and the
command: "zeros" (the default) reads a dynamic array's padding as zeros, "error" refuses a
read past the actual size naming the instruction. The reads themselves are tested per kind
with numpy by hand in tests/shapes/test_xla_dynamic_rules.py (static slice) and
tests/ops/test_indexing.py (dynamic-slice window, gather row); tf2xla's modules in
tests/frontends/test_tf_bridge.py.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo import cli
from tests.support.common import assert_one_line_error, run_cli

# element 2 of a <=4 array, for every size (a length-1 slice is static in XLA)
THIRD = """HloModule m
ENTRY e {
  x = s32[<=4] parameter(0)
  ROOT s = s32[1] slice(x), slice={[2:3]}
}
"""


def test_padding_reads_default_is_zeros_and_an_unknown_value_is_refused():
    np.testing.assert_array_equal(dynhlo.compile(THIRD)(np.int32([7, 8])), [0])
    np.testing.assert_array_equal(dynhlo.compile(THIRD)(np.int32([7, 8, 9])), [9])
    with pytest.raises(dynhlo.UnsupportedError, match="padding_reads='nan' is not one of "
                       "'zeros', 'error'"):
        dynhlo.compile(THIRD, padding_reads="nan")


def test_an_artifact_keeps_padding_reads(tmp_path):
    path = tmp_path / "third.dynhlo"
    dynhlo.compile(THIRD, padding_reads="error").save(path)
    exe = dynhlo.load(path)
    np.testing.assert_array_equal(exe(np.int32([7, 8, 9])), [9])
    with pytest.raises(dynhlo.DynamicSizeError, match="instruction 's'"):
        exe(np.int32([7, 8]))
    dynhlo.compile(THIRD).save(path)
    np.testing.assert_array_equal(dynhlo.load(path)(np.int32([7, 8])), [0])


def test_cli_padding_reads_option(tmp_path, capsys):
    path = tmp_path / "third.hlo"
    path.write_text(THIRD)
    assert cli.main(["run", str(path), "s32[2] {7, 8}"]) == 0
    assert capsys.readouterr().out == "s32[1] {0}\n"
    proc = run_cli("run", str(path), "s32[2] {7, 8}", "--padding-reads", "error")
    assert_one_line_error(proc, "instruction 's'", "padding_reads='error'")


def test_a_window_marked_strict_refuses_padding_whatever_the_option():
    """from_tf marks the windows it writes over a size's last rows (TensorFlow keeps fewer
    rows there): frontend_attributes={dynhlo_padding_reads="error"} refuses under "zeros"."""
    text = THIRD.replace("slice={[2:3]}", 'slice={[2:3]}, '
                         'frontend_attributes={dynhlo_padding_reads="error"}')
    np.testing.assert_array_equal(dynhlo.compile(text)(np.int32([7, 8, 9])), [9])
    with pytest.raises(dynhlo.DynamicSizeError, match="instruction 's'"):
        dynhlo.compile(text)(np.int32([7, 8]))
