"""A module's size checks (jax.export's shape assertions, from_tf's least sizes) survive
printing it as HLO text: the printed module, compiled again or run by the CLI, refuses what
the executable it came from refuses (dynhlo.runtime.module_text). Before, the text dropped
them and a short argument ran, giving rows TensorFlow never gives."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import dynhlo
from dynhlo.hlo.text.parser import parse_hlo
from dynhlo.hlo.shape_assertions import ShapeAssertion
from dynhlo.hlo.size_requirements import SizeRequirement
from dynhlo.runtime.module_text import KEY, keep_in_text

TEXT = """HloModule m
ENTRY e {
  x = f32[<=8] parameter(0)
  ROOT n = f32[<=8] negate(x)
}
"""


def _checked():
    module = parse_hlo(TEXT)   # as a frontend gives it: checks kept in its text
    module.shape_assertions = [
        SizeRequirement("lowering", "TopKV2", (0, 0), "n", 3, "x"),
        ShapeAssertion(("cmpNE", ("dim", 0, 0, 0, 8), ("c", 5)), "n must not be {0}",
                       [("dim", 0, 0, 0, 8)])]
    keep_in_text(module)
    return module


def test_printed_module_keeps_size_requirements_and_shape_assertions():
    text = dynhlo.compile(_checked()).module.to_text()
    assert KEY in text.splitlines()[0]
    again = dynhlo.compile(text)
    with pytest.raises(dynhlo.DynamicSizeError, match="TopKV2.*needs at least 3"):
        again(np.ones(2, np.float32))
    with pytest.raises(dynhlo.ArgumentError, match="n must not be 5"):
        again(np.ones(5, np.float32))
    np.testing.assert_array_equal(again(np.arange(4, dtype=np.float32)), -np.arange(4))
    # printed again, the text is the same (the checks are not written twice)
    assert again.module.to_text() == text


def test_printed_module_keeps_its_checks_through_the_cli(tmp_path):
    path = tmp_path / "m.hlo"
    path.write_text(dynhlo.compile(_checked()).module.to_text())
    run = subprocess.run([sys.executable, "-m", "dynhlo", "run", str(path), "f32[2] {1,2}"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "TopKV2" in run.stderr and "needs at least 3" in run.stderr


def test_module_without_checks_prints_no_attribute():
    module = parse_hlo(TEXT)
    keep_in_text(module)
    assert KEY not in module.to_text()


@pytest.mark.parametrize("stored", [
    '"[1]"',                                                            # not an object
    '"{\\"shape_assertions\\":[],\\"size_requirements\\":[{\\"kind\\":\\"lowering\\"}]}"',
    '"{\\"shape_assertions\\":[],\\"size_requirements\\":[{\\"kind\\":\\"lowering\\",'
    '\\"op\\":\\"T\\",\\"param\\":4,\\"dim\\":0,\\"name\\":\\"n\\",\\"least\\":3,'
    '\\"argument\\":null}]}"',                                          # no parameter 4
    '"{not json"',
])
def test_malformed_size_checks_in_text_are_a_verify_error(stored):
    text = TEXT.replace("HloModule m", f"HloModule m, frontend_attributes={{{KEY}={stored}}}")
    with pytest.raises(dynhlo.HloVerifyError, match=f"{KEY}: malformed size checks"):
        dynhlo.compile(text)


def test_an_artifact_keeps_the_checks_in_its_header_only(tmp_path):
    exe = dynhlo.compile(_checked())
    blob = exe.serialize()
    assert KEY.encode() not in blob   # the header's lists hold them, not the module text too
    loaded = dynhlo.deserialize(blob)
    with pytest.raises(dynhlo.DynamicSizeError, match="TopKV2.*needs at least 3"):
        loaded(np.ones(2, np.float32))
    assert KEY in loaded.module.to_text()   # printed from the loaded module, kept again
