"""from_tf's least sizes (a MirrorPad's rows, TensorFlow's rule) survive artifacts (format 3).

Before format 3 a saved and loaded from_tf executable met a short argument only at its strict
slices, a DynamicSizeError naming internal instructions; now it refuses with the same
ArgumentError as before saving. Stored requirements are untrusted: every malformed form is an
ArtifactError. The executable comes from TensorFlow's stored lowerings (CI has no TensorFlow).
"""

from __future__ import annotations

import json
import os
import random

import numpy as np
import pytest

import dynhlo
from dynhlo.runtime import artifact, stored_requirements
from tests.runtime.test_artifact import resection, resign
from tests.runtime.test_fuzz_artifacts import WEIRD, mutate_json, nested_dumps
from tests.frontends.test_tf_lowerings import _executable, _rows

# tf.pad(x, [[2, 1], [1, 1]], mode="REFLECT"): TensorFlow requires each pad < n, so n >= 3
REFLECT_PADS = ((2, 1), (1, 1))
STORED = [{"kind": "mirror_pad", "op": "MirrorPad", "param": 0, "dim": 0, "name": "n",
           "least": 3, "argument": None}]


@pytest.fixture(scope="module")
def pad_exe():
    return _executable("pad_reflect", "f32[n,3]", 8)


def _refusal(exe, n: int) -> str:
    with pytest.raises(dynhlo.ArgumentError) as info:
        exe(_rows(n, 3))
    return str(info.value)


def _header(blob: bytes) -> dict:
    found = []
    resection(blob, lambda header, sections: found.append(dict(header)))
    return found[0]


def test_the_requirement_is_stored_as_tensorflows_rule_says(pad_exe):
    blob = pad_exe.serialize()
    assert _header(blob)["size_requirements"] == STORED
    assert artifact.FORMAT_VERSION >= 3   # the version that stores requirements, or later
    loaded = dynhlo.deserialize(blob)
    assert stored_requirements.to_data(loaded.module.shape_assertions) == STORED
    for n in (0, 1, 2):
        assert _refusal(loaded, n) == _refusal(pad_exe, n)
        assert f"which has {n}: it needs at least 3" in _refusal(loaded, n)
    for n in (3, 8):
        np.testing.assert_array_equal(loaded(_rows(n, 3)),
                                      np.pad(_rows(n, 3), REFLECT_PADS, mode="reflect"))
    assert "size requirements: 1" in artifact.describe(artifact.read_artifact(blob))


def test_a_version_2_artifact_has_no_requirements_and_still_loads(pad_exe):
    """Format 2 did not store them: the program's strict slices still refuse, as before."""
    def as_v2(header):
        del header["size_requirements"]
    loaded = dynhlo.deserialize(resign(pad_exe.serialize(), version=2, edit=as_v2))
    assert stored_requirements.to_data(loaded.module.shape_assertions) == []
    with pytest.raises(dynhlo.DynamicSizeError):
        loaded(_rows(1, 3))
    with pytest.raises(dynhlo.ArtifactError, match="field 'size_requirements' is missing"):
        dynhlo.deserialize(resign(pad_exe.serialize(), edit=as_v2))


def _with(blob: bytes, data) -> bytes:
    def edit(header, sections):
        header["size_requirements"] = data
    return resection(blob, edit)


def _good(**changes) -> list:
    return [{**STORED[0], **changes}]


MALFORMED = {
    "not-a-list": ({"kind": "mirror_pad"}, "not a list"),
    "not-an-object": ([["mirror_pad"]], "exactly the keys"),
    "extra-key": (_good(code="__import__('os')"), "exactly the keys"),
    "missing-key": ([{k: v for k, v in STORED[0].items() if k != "least"}],
                    "exactly the keys"),
    "unknown-kind": (_good(kind="system"), "kind 'system' is not one of"),
    "kind-not-str": (_good(kind=[1]), "is not one of"),
    "op-empty": (_good(op=""), "op is not a non-empty string"),
    "op-huge": (_good(op="x" * 2000), "op is not a non-empty string"),
    "name-not-str": (_good(name=7), "name is not a non-empty string"),
    "argument-not-str": (_good(argument=3), "argument is neither null nor"),
    "least-zero": (_good(least=0), r"least an integer in \[1, 2\*\*63\)"),
    "least-huge": (_good(least=2**63), r"least an integer in \[1, 2\*\*63\)"),
    "least-float": (_good(least=3.0), "must be integers"),
    "least-bool": (_good(least=True), "must be integers"),
    "param-string": (_good(param="0"), "must be integers"),
    "param-out-of-range": (_good(param=1), "reads parameter 1; the module has 1"),
    "param-negative": (_good(param=-1), "reads parameter -1"),
    "dim-out-of-range": (_good(dim=2), "reads dimension 2 of parameter 0"),
    "dim-negative": (_good(dim=-1), "reads dimension -1 of parameter 0"),
    "too-many": (_good() * 4097, "4097 requirements, over the limit"),
}


@pytest.mark.parametrize("data,message", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_stored_requirements_are_artifact_errors(pad_exe, data, message):
    with pytest.raises(dynhlo.ArtifactError, match=message):
        dynhlo.deserialize(_with(pad_exe.serialize(), data))


def test_a_well_formed_hand_made_requirement_is_checked_as_written(pad_exe):
    """The reader takes what to_data writes: a stored least of 5, of the other kind, refuses
    n = 4 with that kind's message, naming the argument it was given."""
    blob = _with(pad_exe.serialize(), _good(kind="range_length", op="range", least=5,
                                            argument="x"))
    loaded = dynhlo.deserialize(blob)
    message = _refusal(loaded, 4)
    assert message.startswith("TensorFlow's range or shape 'range' ") and \
        "dimension 0 of argument 0 'x', which has 4: it needs at least 5" in message
    np.testing.assert_array_equal(loaded(_rows(5, 3)),
                                  np.pad(_rows(5, 3), REFLECT_PADS, mode="reflect"))


def test_a_jit_cache_entry_of_other_requirements_is_not_used(pad_exe, tmp_path):
    """The disk cache keys and checks the requirements too: an entry whose stored least
    size differs is replaced, never run with the other check."""
    f = dynhlo.jit(pad_exe.module, cache_dir=tmp_path)
    with pytest.raises(dynhlo.ArgumentError, match="it needs at least 3"):
        f(_rows(2, 3))
    f(_rows(4, 3))
    (entry,) = [p for p in tmp_path.rglob("*") if p.is_file()]
    entry.write_bytes(_with(entry.read_bytes(), _good(least=1)))
    again = dynhlo.jit(pad_exe.module, cache_dir=tmp_path)
    with pytest.warns(RuntimeWarning, match="other size requirements"):
        np.testing.assert_array_equal(again(_rows(4, 3)),
                                      np.pad(_rows(4, 3), REFLECT_PADS, mode="reflect"))


def test_fuzzed_stored_requirements_load_and_check_or_are_artifact_errors(pad_exe):
    """Seeded mutations (WEIRD values, deletions, deep nesting) of the stored requirements: a
    load is an ArtifactError or an executable whose calls raise only dynhlo's errors (an
    ArgumentError, or with a weaker stored least the program's own DynamicSizeError)."""
    blob = pad_exe.serialize()
    rng = random.Random(20261202)
    outcomes = {"refused": 0, "loaded": 0}
    for _ in range(200):
        seed = rng.randrange(2**32)
        one = random.Random(seed)
        mutated = mutate_json(one, STORED) if one.random() < 0.8 else one.choice(WEIRD)
        marker = "__REQUIREMENTS__"
        signed = _with(blob, marker)
        try:
            exe = dynhlo.deserialize(_replace_raw(signed, json.dumps(marker),
                                                  nested_dumps(mutated)))
        except dynhlo.ArtifactError:
            outcomes["refused"] += 1
            continue
        outcomes["loaded"] += 1
        for n in (0, 4):
            try:
                exe(_rows(n, 3))
            except (dynhlo.ArgumentError, dynhlo.DynamicSizeError):
                pass
    assert outcomes["refused"] > 50 and outcomes["loaded"] > 0, (outcomes, seed)


def _replace_raw(blob: bytes, old: str, new: str) -> bytes:
    """`blob` with `old` in its header's JSON text replaced by `new`, re-signed."""
    import hashlib
    import struct
    length = struct.unpack_from("<Q", blob, 12)[0]
    body = blob[52:52 + length].decode().replace(old, new, 1).encode()
    prelude = struct.pack("<IQ", struct.unpack_from("<I", blob, 8)[0], len(body))
    return blob[:8] + prelude + hashlib.sha256(prelude + body).digest() + body + \
        blob[52 + length:]
