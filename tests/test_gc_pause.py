"""gc_paused: collection off while a module compiles, back as it was after."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import dynhlo
from dynhlo.gc_pause import gc_paused

MODULE = """HloModule m
ENTRY main {
  x = f32[<=4] parameter(0)
  ROOT y = f32[<=4] negate(x)
}"""


def test_collection_is_off_inside_and_back_on_after():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_collection_comes_back_after_an_error():
    with pytest.raises(dynhlo.HloParseError):
        dynhlo.compile("HloModule m\nENTRY e {\n  ROOT x = f32[2] nonsense()\n}")
    assert gc.isenabled()


def test_a_callers_choice_to_keep_it_off_is_kept():
    gc.disable()
    try:
        exe = dynhlo.compile(MODULE)
        np.testing.assert_array_equal(exe(np.ones(3, np.float32)), -np.ones(3))
        assert not gc.isenabled()
    finally:
        gc.enable()
