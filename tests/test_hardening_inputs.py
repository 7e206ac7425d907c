"""Hostile inputs that were raw exceptions (issue 8): hand-made artifact headers, an artifact
whose module section is not UTF-8 under `dynhlo inspect`, lone surrogates in module text, a
torch tensor the CPU backend could not read, and while loops that never end.

Every one is now a DynHloError that names the place. Expected values are NumPy by hand.
"""

from __future__ import annotations

import hashlib
import json
import struct

import numpy as np
import pytest

import dynhlo
from dynhlo.cli import main
from test_artifact import resign

NEG = """HloModule neg
ENTRY e {
  a = f32[<=4] parameter(0)
  ROOT r = f32[<=4] negate(a)
}
"""


@pytest.mark.parametrize("buckets", [[None], [1], ["x"], [[]]])
def test_hand_made_bucket_entries_are_artifact_errors(buckets):
    blob = resign(dynhlo.compile(NEG).serialize(), edit=lambda h: h.update(buckets=buckets))
    with pytest.raises(dynhlo.ArtifactError, match="malformed artifact header"):
        dynhlo.deserialize(blob)


def _with_module_section(blob: bytes, module: bytes) -> bytes:
    """The artifact with its module section replaced and every checksum made to match."""
    length = struct.unpack_from("<Q", blob, 12)[0]
    header = json.loads(blob[52:52 + length])
    sections, offset = {}, 52 + length
    for s in header["sections"]:
        sections[s["name"]] = blob[offset:offset + s["length"]]
        offset += s["length"]
    sections["module"] = module
    header["sections"] = [{"name": n, "length": len(b)} for n, b in sections.items()]
    payload = b"".join(sections.values())
    header["payload_sha256"] = hashlib.sha256(payload).hexdigest()
    header["fingerprint"] = hashlib.sha256(module).hexdigest()
    return resign(blob[:52 + length], edit=lambda h: h.update(header)) + payload


def test_inspect_of_a_module_section_that_is_not_utf8(tmp_path, capsys):
    path = tmp_path / "m.dynhlo"
    path.write_bytes(_with_module_section(dynhlo.compile(NEG).serialize(), b"HloModule \xff"))
    assert main(["inspect", str(path)]) == 1
    err = capsys.readouterr().err
    assert "not UTF-8" in err and "m.dynhlo" in err and "internal error" not in err


SURROGATE = NEG.replace("parameter(0)", 'parameter(0), metadata={op_name="x\ud800"}')


@pytest.mark.parametrize("entry", ["parse_hlo", "compile", "jit"])
def test_lone_surrogates_are_a_parse_error_at_their_place(entry):
    with pytest.raises(dynhlo.HloParseError, match="U\\+D800 is a lone surrogate") as info:
        getattr(dynhlo, entry)(SURROGATE)
    column = SURROGATE.splitlines()[2].index("\ud800") + 1
    assert (info.value.line, info.value.column) == (3, column)
    str(info.value).encode("utf-8")  # the message itself can be printed


def test_cpu_backend_reads_tensors_that_require_grad_or_lack_a_numpy_dtype():
    torch = pytest.importorskip("torch")
    x = torch.tensor([1.5, -2.0, 3.0], requires_grad=True)
    np.testing.assert_array_equal(dynhlo.compile(NEG)(x), np.float32([-1.5, 2.0, -3.0]))
    bf16 = dynhlo.compile(NEG.replace("f32", "bf16"))
    out = bf16(torch.tensor([1.5, -2.0], dtype=torch.bfloat16))
    np.testing.assert_array_equal(np.asarray(out, np.float32), np.float32([-1.5, 2.0]))


COUNT_UP = """HloModule loop
cond {
  p = s32[] parameter(0)
  n = s32[] constant(10)
  ROOT lt = pred[] compare(p, n), direction=LT
}
body {
  p = s32[] parameter(0)
  one = s32[] constant(1)
  ROOT next = s32[] add(p, one)
}
ENTRY e {
  a = s32[] parameter(0)
  ROOT w = s32[] while(a), condition=cond, body=body
}
"""
FOREVER = COUNT_UP.replace("direction=LT", "direction=GE")  # from 10 up: never false


def test_a_constant_true_condition_is_refused_at_compile_time():
    text = COUNT_UP.replace("ROOT lt = pred[] compare(p, n), direction=LT",
                            "ROOT t = pred[] constant(true)")
    with pytest.raises(dynhlo.HloVerifyError, match="constant true: the loop never ends") as e:
        dynhlo.compile(text)
    assert e.value.instruction == "w"


def test_max_while_iterations_ends_a_runaway_loop(tmp_path):
    exe = dynhlo.compile(FOREVER, max_while_iterations=50)
    with pytest.raises(dynhlo.IterationLimitError, match="'w'.*max_while_iterations=50"):
        exe(np.int32(10))
    assert dynhlo.compile(COUNT_UP, max_while_iterations=10)(np.int32(0)) == 10
    exe.save(tmp_path / "m.dynhlo")  # the limit is part of the artifact
    with pytest.raises(dynhlo.IterationLimitError):
        dynhlo.load(tmp_path / "m.dynhlo")(np.int32(10))
    with pytest.raises(dynhlo.IterationLimitError):
        dynhlo.jit(FOREVER, cache_dir=False, max_while_iterations=5)(np.int32(10))


@pytest.mark.parametrize("limit", [0, -1, 2.5, True, "10"])
def test_max_while_iterations_must_be_a_positive_int(limit):
    with pytest.raises(dynhlo.UnsupportedError, match="max_while_iterations"):
        dynhlo.compile(COUNT_UP, max_while_iterations=limit)
