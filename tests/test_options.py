"""The compile options in one place (dynhlo/options.py): every name, every value's check, and
the error that names a bad one, whichever entry point (compile, jit, the driver) it came in by."""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo import compiler
from dynhlo.options import (PADDING_READS, PRECISIONS, CompileOptions, canonical,
                            check_precision, check_while_limit)

MODULE = """HloModule m
ENTRY main {
  x = f32[<=4] parameter(0)
  ROOT y = f32[<=4] add(x, x)
}
"""


def test_defaults_are_the_documented_ones():
    options = CompileOptions.of()
    assert options == CompileOptions()
    assert (options.precision, options.padding_reads) == ("highest", "zeros")
    assert PRECISIONS[0] == "highest" and PADDING_READS[0] == "zeros"
    assert options.max_while_iterations is None and options.given() == {}


def test_of_keeps_what_is_given_and_spells_precision_one_way():
    options = CompileOptions.of({"precision": "TensorFloat32", "graph": False},
                                max_while_iterations=3, backend="gpu", bounds=None)
    assert options.given() == {"precision": "default", "graph": False,
                               "max_while_iterations": 3}
    assert CompileOptions.of(options) == options     # a checked one passes through as is
    assert check_precision("FLOAT32") == "highest"


@pytest.mark.parametrize("options, words", [
    ({"interpet": True}, "unknown compile option(s) interpet; the options are"),
    ({"precision": "high"}, "compile option precision='high' is not one of"),
    ({"padding_reads": "nan"}, "compile option padding_reads='nan' is not one of"),
    ({"graph": 1}, "compile option graph=1 is not True, False or None"),
    ({"interpret": "yes"}, "compile option interpret='yes' is not True, False or None"),
    ({"distributed": 2}, "compile option distributed=2 is not True, False or None"),
    ({"fast_launch": "no"}, "compile option fast_launch='no' is not True, False or None"),
    ({"reference": 0}, "compile option reference=0 is not True, False or None"),
    ({"target": 90}, "compile option target=90 is not a target name"),
    ({"max_while_iterations": 0}, "max_while_iterations=0: give a positive number"),
    ({"max_while_iterations": True}, "max_while_iterations=True: give a positive number"),
])
def test_a_bad_option_is_named_by_every_entry_point(options, words):
    for check in (lambda: CompileOptions.of(options), lambda: canonical(options),
                  lambda: compiler.compile_program(MODULE, "cpu", **options),
                  lambda: dynhlo.compile(MODULE, **options),
                  lambda: dynhlo.jit(MODULE, cache_dir=False, **options)):
        with pytest.raises(dynhlo.UnsupportedError) as info:
            check()
        assert words in str(info.value)


def test_check_while_limit_takes_none_and_positive_ints():
    assert check_while_limit(None) is None and check_while_limit(7) == 7


def test_the_cpu_takes_the_gpus_options_and_computes_as_before():
    exe = dynhlo.compile(MODULE, graph=True, fast_launch=False, precision="default")
    x = np.array([1.5, -2.0, 3.25], dtype=np.float32)
    np.testing.assert_array_equal(exe(x), x + x)
    assert exe.options["precision"] == "default"     # what the artifact keeps
