"""Large constants as bytes: an artifact's weights beside its module text, not in it.

Written (format version 4, artifact.py): the module texts refer to each large constant as
`constant(#N)` (hlo/text/printer.py), and the section `constants` holds each array once, as its
raw little-endian bytes in row-major order, at an offset that is a multiple of ALIGN (zero
bytes between). The header's `constants` lists, per N, `{offset, length, type, dims,
sha256}`. A 4.2M-parameter model's file is its weight bytes and a little text, not 100 MB of
decimals that take seconds to read back.

Read: the file is untrusted. Each reference is checked as its module is parsed: N in the
list, the stored type and dimensions those the constant declares, the length its elements
times the type's width, the bytes inside the section, their sha256, and, for types whose
bytes have spare bits (pred, s4, u4, s2, u2), the bits no value uses zero; the array is then
a read-only view of the file's bytes (np.frombuffer: no copy, no pickle, nothing run). Each
failure is an ArtifactError naming the constant. After the modules are parsed, every stored
constant must have been read (so no byte of the section goes unchecked), and the padding
must be zero bytes.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

from ..errors import ArtifactError
from ..hlo.types import to_numpy_dtype

ALIGN = 64   # every constant starts at a multiple of this offset in the file
_FIELDS = {"offset": int, "length": int, "type": str, "dims": list, "sha256": str}
_SPARE_BITS = {"pred": 1, "s4": 4, "u4": 4, "s2": 2, "u2": 2}   # bits a value uses per byte


def to_section(arrays: list, element_types: list[str]) -> tuple[bytes, list[dict]]:
    """(the `constants` section, the header's entries) for arrays of those element types."""
    chunks, entries, offset = [], [], 0
    for array, element_type in zip(arrays, element_types, strict=True):
        data = raw_bytes(array)
        pad = -offset % ALIGN
        chunks += [bytes(pad), data]
        offset += pad
        entries.append({"offset": offset, "length": data.size, "type": element_type,
                        "dims": list(array.shape),
                        "sha256": hashlib.sha256(data).hexdigest()})
        offset += data.size
    return b"".join(chunks), entries


def raw_bytes(array: np.ndarray) -> np.ndarray:
    """The array's elements as little-endian bytes in row-major order (a uint8 view where
    it is already so; ml_dtypes' types have no byte order of their own: the host's)."""
    if array.dtype.kind in "biufc" and array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8)


def check_entries(entries) -> None:
    """ArtifactError unless the header's `constants` has the form to_section writes."""
    if not isinstance(entries, list):
        raise ArtifactError("malformed artifact header: field 'constants' is not a list")
    for n, entry in enumerate(entries):
        if not isinstance(entry, dict) or not all(
                isinstance(entry.get(k), kind) and not isinstance(entry.get(k), bool)
                for k, kind in _FIELDS.items()) or entry["offset"] < 0 or \
                entry["length"] < 0 or not all(
                    isinstance(d, int) and not isinstance(d, bool) and d >= 0
                    for d in entry["dims"]):
            raise ArtifactError(f"malformed artifact header: stored constant #{n} is not "
                                f"{{offset, length, type, dims, sha256}}: {entry!r:.200}")


class StoredConstants:
    """The arrays of an artifact's `constants` section, checked as references are read;
    the callable parse_hlo takes as `buffers`."""

    def __init__(self, section: bytes, entries: list[dict]):
        self.section = memoryview(section)
        self.entries = entries
        self.arrays: dict[int, np.ndarray] = {}

    def __call__(self, index: int, inst) -> np.ndarray:
        """The checked value of constant `inst`, which refers to stored constant #index."""
        if index >= len(self.entries):
            raise ArtifactError(f"constant '{inst.name}' refers to stored constant #{index}; "
                                f"the artifact stores {len(self.entries)}")
        array = self.arrays.get(index)
        if array is None:
            array = self.arrays[index] = self._read(index, inst)
        if array.dtype != to_numpy_dtype(inst.shape.element_type) or \
                array.shape != tuple(inst.shape.dims):
            raise ArtifactError(f"constant '{inst.name}' ({inst.shape}) refers to stored "
                                f"constant #{index}, which another constant read as "
                                f"{self.entries[index]['type']}{self.entries[index]['dims']}")
        return array

    def _read(self, index: int, inst) -> np.ndarray:
        entry, shape = self.entries[index], inst.shape
        what = f"constant '{inst.name}' ({shape}, stored constant #{index})"
        if entry["type"] != shape.element_type or entry["dims"] != list(shape.dims):
            raise ArtifactError(f"{what}: the artifact stores it as {entry['type']}"
                                f"{entry['dims']}")
        dtype = to_numpy_dtype(shape.element_type)
        count = math.prod(shape.dims)   # exact: an int64 product of huge dims wraps
        if entry["length"] != count * dtype.itemsize:
            raise ArtifactError(f"{what}: {entry['length']} bytes stored, its {count} "
                                f"elements take {count * dtype.itemsize}")
        end = entry["offset"] + entry["length"]
        if end > len(self.section):
            raise ArtifactError(f"{what}: its bytes end at {end}, past the "
                                f"{len(self.section)}-byte constants section (truncated)")
        data = self.section[entry["offset"]:end]
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise ArtifactError(f"{what}: its bytes do not match their sha256 (corrupted)")
        bits = _SPARE_BITS.get(shape.element_type)
        if bits is not None and count and (np.frombuffer(data, np.uint8) >> bits).any():
            raise ArtifactError(f"{what}: a byte sets bits no {shape.element_type} value "
                                "uses (corrupted)")
        if dtype.kind in "biufc":
            dtype = dtype.newbyteorder("<")
        return np.frombuffer(data, dtype, count).reshape(shape.dims)

    def check_all_read(self) -> None:
        """ArtifactError for a stored constant no module read, or padding that is not
        zero: each byte of the section is checked."""
        unread = sorted(set(range(len(self.entries))) - set(self.arrays))
        if unread:
            raise ArtifactError(f"corrupted artifact: stored constant #{unread[0]} is "
                                "referred to by no constant of the modules")
        pos = 0
        for entry in sorted(self.entries, key=lambda e: e["offset"]):
            self._check_zero(pos, entry["offset"])
            pos = max(pos, entry["offset"] + entry["length"])
        self._check_zero(pos, len(self.section))

    def _check_zero(self, start: int, end: int) -> None:
        if end > start and np.frombuffer(self.section[start:end], np.uint8).any():
            raise ArtifactError(f"corrupted artifact: the constants section has nonzero "
                                f"bytes at {start}..{end}, between its constants")


__all__ = ["ALIGN", "StoredConstants", "check_entries", "raw_bytes", "to_section"]
