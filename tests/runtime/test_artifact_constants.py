"""Large constants stored as bytes in an artifact (format version 4, runtime/stored_constants).

A constant of 1 KiB or more is written as `constant(#N)` in the module text and its array as
raw little-endian bytes beside it; loading reads the bytes back bit for bit, checks them
against the module's declared shape and their sha256, and names the constant when anything
is wrong. The expected values are the arrays put in (their bits), not what dynhlo prints.
"""

from __future__ import annotations

import hashlib
import json
import struct

import numpy as np
import pytest

import dynhlo
from dynhlo.cli import main
from dynhlo.hlo.text.parser import copy_module, parse_hlo
from dynhlo.hlo.types import to_numpy_dtype
from dynhlo.passes.dead_code import dead_code
from dynhlo.runtime import artifact
from dynhlo.runtime.stored_constants import ALIGN

RNG = np.random.default_rng(31)


def _values(element_type: str, shape: tuple) -> np.ndarray:
    """Values of every bit pattern a type may hold (NaN payloads, -0, extremes)."""
    dtype = to_numpy_dtype(element_type)
    count = int(np.prod(shape))
    if element_type == "pred":
        return RNG.integers(0, 2, shape).astype(bool)
    if element_type in ("s4", "u4"):
        low = -8 if element_type == "s4" else 0
        return RNG.integers(low, low + 16, shape).astype(dtype)
    raw = RNG.integers(0, 256, count * dtype.itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


def _module(element_type: str, value: np.ndarray):
    """`ROOT c = constant(value)` beside a dynamic parameter, built from the array itself
    (parse_hlo's buffers), so no text form of the values is involved."""
    dims = ",".join(map(str, value.shape))
    text = (f"HloModule stored\n\nENTRY main {{\n  x = f32[<=4] parameter(0)\n"
            f"  ROOT w = {element_type}[{dims}] constant(#0)\n}}\n")
    return parse_hlo(text, [value])


TYPES = ["f32", "f64", "f16", "bf16", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64",
         "pred", "c64", "c128", "s4", "u4", "f8e4m3fn", "f8e5m2"]


@pytest.mark.parametrize("element_type", TYPES)
def test_a_large_constant_round_trips_bit_for_bit(element_type):
    value = _values(element_type, (3, 5, 200))
    exe = dynhlo.compile(_module(element_type, value))
    blob = exe.serialize()
    header = _parts(blob)[0]
    assert header["constants"][0]["length"] == value.nbytes
    assert header["constants"][0]["sha256"] == hashlib.sha256(value.tobytes()).hexdigest()
    code = sum(s["length"] for s in header["sections"]   # the backend's program (a compiled
               if s["name"].endswith((".program", ".objects")))   # CPU one's: its code)
    assert len(blob) - code < value.nbytes + 4096    # bytes, not decimal text
    loaded = dynhlo.deserialize(blob)
    stored = loaded.module.entry.root.literal
    assert stored.dtype == value.dtype and stored.shape == value.shape
    assert stored.tobytes() == value.tobytes()
    assert np.asarray(loaded(np.zeros(2, np.float32))).tobytes() == value.tobytes()


def test_small_constants_stay_text_and_each_array_is_stored_once():
    w = np.arange(512, dtype=np.float32)   # 2 KiB
    text = ("HloModule twice\n\nENTRY main {\n  x = f32[<=512] parameter(0)\n"
            "  small = f32[4] constant({1, 2, 3, 4})\n"
            "  a = f32[512] constant(#0)\n  b = f32[512] constant(#0)\n"
            "  s = f32[512] add(a, b)\n  ROOT y = f32[<=512] add(x, s)\n}\n")
    module = parse_hlo(text, [w])
    module.computations[0].instructions[2].literal = w   # one array, two constants
    blob = dynhlo.compile(module).serialize()
    header, sections = _parts(blob)
    assert [c["length"] for c in header["constants"]] == [2048]
    assert "constant({1, 2, 3, 4})" in sections["module"].decode()
    x = np.linspace(0, 1, 7, dtype=np.float32)
    np.testing.assert_array_equal(dynhlo.deserialize(blob)(x), x + 2 * w[:7])


def test_buckets_share_the_stored_weights():
    w = RNG.standard_normal((64, 32)).astype(np.float32)
    text = ("HloModule buckets\n\nENTRY main {\n  x = f32[?,64] parameter(0)\n"
            "  w = f32[64,32] constant(#0)\n  ROOT y = f32[?,32] dot(x, w), "
            "lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n")
    exe = dynhlo.compile(parse_hlo(text, [w]), buckets=[4, 8, 16])
    header, _ = _parts(exe.serialize())
    assert len(header["buckets"]) == 3 and len(header["constants"]) == 1
    x = RNG.standard_normal((6, 64)).astype(np.float32)
    loaded = dynhlo.deserialize(exe.serialize())
    np.testing.assert_allclose(loaded(x), x.astype(np.float64) @ w, rtol=1e-5, atol=1e-5)


def test_from_jax_closed_over_weights_are_stored_as_bytes():
    jnp = pytest.importorskip("jax.numpy")
    w = RNG.standard_normal((32, 48)).astype(np.float32)
    b = RNG.standard_normal(48).astype(np.float32)
    exe = dynhlo.from_jax(lambda x: jnp.tanh(x @ w + b), "f32[n,32]", bounds={"n": 8})
    blob = exe.executable.serialize()
    header, _ = _parts(blob)
    assert sorted(c["dims"] for c in header["constants"]) == [[32, 48]]   # b is 192 bytes
    code = sum(s["length"] for s in header["sections"]   # the backend's program (a compiled
               if s["name"].endswith((".program", ".objects")))   # CPU one's: its kernels)
    assert len(blob) - code < w.nbytes + 4096
    x = RNG.standard_normal((5, 32)).astype(np.float32)
    np.testing.assert_allclose(dynhlo.deserialize(blob)(x), np.tanh(x @ w + b), rtol=1e-5,
                               atol=1e-5)


def test_passes_copy_modules_sharing_their_weights():
    """A pass's copy (print, parse back) shares the arrays of large constants: no text form
    of millions of weights in between."""
    w = np.arange(1024, dtype=np.float32)
    text = ("HloModule dead\n\nENTRY main {\n  x = f32[<=1024] parameter(0)\n"
            "  w = f32[1024] constant(#0)\n  unused = f32[1024] negate(w)\n"
            "  ROOT y = f32[<=1024] add(x, w)\n}\n")
    module = parse_hlo(text, [w])
    assert copy_module(module).entry.instructions[1].literal is w
    kept = dead_code(module)
    assert [i.name for i in kept.entry.instructions] == ["x", "w", "y"]
    assert kept.entry.instructions[1].literal is w


def test_the_fingerprint_sees_a_stored_constants_values():
    w = np.arange(1024, dtype=np.float32)
    other = w.copy()
    other[-1] = -1
    a, b = _module("f32", w), _module("f32", other)
    assert a.to_text() != b.to_text()
    assert artifact.fingerprint(a) != artifact.fingerprint(b)
    assert artifact.fingerprint(a) == artifact.fingerprint(_module("f32", w.copy()))


def test_a_text_with_references_needs_its_arrays():
    text = ("HloModule m\n\nENTRY main {\n  x = f32[<=4] parameter(0)\n"
            "  ROOT w = f32[512] constant(#0)\n}\n")
    with pytest.raises(dynhlo.HloParseError, match="constant 'w' refers to stored data #0, "
                       "which only an artifact holds") as info:
        parse_hlo(text)
    assert (info.value.line, info.value.column) == (5, 31)
    with pytest.raises(dynhlo.HloParseError, match=r"stored data #0 is float64\[512\], not "
                       r"a f32\[512\]"):
        parse_hlo(text, [np.zeros(512)])
    with pytest.raises(dynhlo.HloParseError, match="stored data #0 is not among the 0"):
        parse_hlo(text, [])


def test_inspect_reads_the_stored_constants(tmp_path, capsys):
    path = tmp_path / "m.dynhlo"
    dynhlo.compile(_module("f32", np.ones((4, 256), np.float32))).save(path)
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert "artifact: format version 4" in out
    assert "constants stored as bytes: 1, 4096 bytes" in out


# -- damaged artifacts: each an ArtifactError naming the constant

def _parts(blob: bytes) -> tuple[dict, dict]:
    length = struct.unpack_from("<Q", blob, 12)[0]
    header = json.loads(blob[52:52 + length])
    sections, offset = {}, 52 + length
    for s in header["sections"]:
        sections[s["name"]] = bytes(blob[offset:offset + s["length"]])
        offset += s["length"]
    return header, sections


def _remade(blob: bytes, edit) -> bytes:
    """The artifact after `edit(header, sections)`, its checksums made again as a version 4
    writer would (the payload's without the constants): a hand-made file."""
    header, sections = _parts(blob)
    edit(header, sections)
    header["sections"] = [{"name": n, "length": len(b)} for n, b in sections.items()]
    header["payload_sha256"] = hashlib.sha256(b"".join(
        b for n, b in sections.items() if n != "constants")).hexdigest()
    header["fingerprint"] = hashlib.sha256(sections[header["module"]]).hexdigest()
    body = json.dumps(header).encode()
    body += b" " * (-(52 + len(body)) % ALIGN)
    prelude = struct.pack("<IQ", artifact.FORMAT_VERSION, len(body))
    return (blob[:8] + prelude + hashlib.sha256(prelude + body).digest() + body
            + b"".join(sections.values()))


@pytest.fixture(scope="module")
def weight_blob() -> bytes:
    return dynhlo.compile(_module("f32", np.arange(600, dtype=np.float32))).serialize()


def _truncate(header, sections):
    sections["constants"] = sections["constants"][:-8]


def _wrong_checksum(header, sections):
    data = bytearray(sections["constants"])
    data[100] ^= 1
    sections["constants"] = bytes(data)


def _other_shape(header, sections):
    header["constants"][0]["dims"] = [300, 2]


def _other_type(header, sections):
    header["constants"][0]["type"] = "s32"


def _short_length(header, sections):
    header["constants"][0]["length"] -= 4


def _out_of_range(header, sections):
    sections["module"] = sections["module"].replace(b"constant(#0)", b"constant(#7)")


def _huge_shape(header, sections):
    # 2**32 * 2**32 elements: a product in int64 wraps to 0, which 0 bytes would match
    sections["module"] = sections["module"].replace(b"f32[600]", b"f32[4294967296,4294967296]")
    header["constants"][0].update(dims=[2**32, 2**32], length=0,
                                  sha256=hashlib.sha256(b"").hexdigest())
    sections["constants"] = b""


DAMAGE = {
    "huge shape": (_huge_shape, r"0 bytes stored, its 18446744073709551616 elements take "),
    "truncated": (_truncate, r"its bytes end at 2400, past the 2392-byte constants section"),
    "checksum": (_wrong_checksum, r"its bytes do not match their sha256"),
    "shape": (_other_shape, r"the artifact stores it as f32\[300, 2\]"),
    "type": (_other_type, r"the artifact stores it as s32\[600\]"),
    "length": (_short_length, r"2396 bytes stored, its 600 elements take 2400"),
    "index": (_out_of_range, r"refers to stored constant #7; the artifact stores 1"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_stored_constant_is_an_artifact_error_naming_it(weight_blob, damage):
    edit, message = DAMAGE[damage]
    assert dynhlo.deserialize(_remade(weight_blob, lambda h, s: None)).module.name == "stored"
    with pytest.raises(dynhlo.ArtifactError, match=message) as info:
        dynhlo.deserialize(_remade(weight_blob, edit))
    assert "constant 'w'" in str(info.value)


def test_a_flipped_constant_byte_without_new_checksums_is_refused(weight_blob):
    """No checksum recomputed: the file as a disk or a network damages it."""
    data = bytearray(weight_blob)
    data[52 + struct.unpack_from("<Q", weight_blob, 12)[0] + 1000] ^= 0x40   # a constant's
    with pytest.raises(dynhlo.ArtifactError, match="constant 'w' .*do not match their sha256"):
        dynhlo.deserialize(bytes(data))
    with pytest.raises(dynhlo.ArtifactError, match="truncated artifact"):
        dynhlo.deserialize(weight_blob[:-3])


def test_unread_constants_padding_and_spare_bits_are_refused(weight_blob):
    def extra(header, sections):
        header["constants"].append(dict(header["constants"][0]))

    def padding(header, sections):
        sections["constants"] += b"\x01"

    with pytest.raises(dynhlo.ArtifactError, match="stored constant #1 is referred to by no "
                       "constant"):
        dynhlo.deserialize(_remade(weight_blob, extra))
    with pytest.raises(dynhlo.ArtifactError, match="nonzero bytes at 2400..2401"):
        dynhlo.deserialize(_remade(weight_blob, padding))
    flags = dynhlo.compile(_module("pred", np.ones(2048, bool))).serialize()

    def two(header, sections):
        sections["constants"] = sections["constants"].replace(b"\x01", b"\x02", 1)
        header["constants"][0]["sha256"] = hashlib.sha256(sections["constants"]).hexdigest()

    with pytest.raises(dynhlo.ArtifactError, match="constant 'w' .*sets bits no pred value"):
        dynhlo.deserialize(_remade(flags, two))


def test_a_malformed_constants_entry_is_an_artifact_error(weight_blob):
    for bad in ({"offset": -1}, {"dims": [600.0]}, {"sha256": None}, {"length": True}):
        def edit(header, sections, bad=bad):
            header["constants"][0].update(bad)
        with pytest.raises(dynhlo.ArtifactError, match="stored constant #0 is not "
                           r"\{offset, length, type, dims, sha256\}"):
            dynhlo.deserialize(_remade(weight_blob, edit))
