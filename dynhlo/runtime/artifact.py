"""AOT artifacts: compiled executables in one file, loaded later without compiling anything.

Layout (integers little-endian):

    offset  size  field
    0       8     magic b"\\x89DYNHLO\\n"
    8       4     format version (u32)
    12      8     header length H (u64)
    20      32    sha256 of bytes 8..20 followed by the header
    52      H     header: UTF-8 JSON, sorted keys (from version 4 padded with spaces to end
                  at a multiple of 64, where the sections start)
    52+H    ...   the sections, back to back, in the order the header lists them

Header keys: `dynhlo_version`, `backend`, `target`, `options` (compile options: bounds,
buckets, backend options), `fingerprint` (sha256 of the module section), `module` (the section
holding the module as given, for inspection), `bucket_dims` ([parameter, dimension] pairs the
buckets bound; empty for a single program), `buckets` ([{bound, module, program}], `program`
mapping the backend's payload keys to section names), `sections` ([{name, length}]) and
`payload_sha256` (sha256 of all sections, concatenated; from version 4 all but `constants`,
whose constants carry their own), and from version 2
`shape_assertions` (the module's checks on its parameters' sizes, jax.export's `n >= 1`,
made on every call: dynhlo.runtime.stored_assertions says their form), and from version 3
`size_requirements` (dynhlo.from_tf's least sizes, a MirrorPad's rows or a range's start:
dynhlo.runtime.stored_requirements says their form), and from version 4 `constants` (the
module texts' large constants, `constant(#N)`, stored as bytes in the section `constants`,
first of the sections: dynhlo.runtime.stored_constants says their form and checks).

Every byte is checked: the magic compared, the version range-checked, the header by its
checksum, the sections by the payload checksum, and the file length must match exactly.
Loading (dynhlo.runtime.loader) reads JSON and HLO text and hands the backend its sections: no
pickle, no eval, no Python code from the file; the only machine code is a backend's compiled
kernels (GPU cubins, a compiled CPU program's relocatable objects: backends/cpu/compiled/
aot.py), each checksummed and run only on the target they were built for.

Format versions (the version says how to read the bytes above; bump it on any change):
    1 (2026-11-30): first version.
    2 (2026-12-02): header key `shape_assertions`. A loaded version 1 artifact has none
       (those files never stored them: a jax.export module's `n >= 1` went unchecked).
    3 (2026-12-02): header key `size_requirements`. A loaded version 1 or 2 artifact has
       none (from_tf's least sizes were not stored: a short argument met only the run-time
       check of the program's slices, a DynamicSizeError naming its instructions).
    4 (2026-12-05): large constants (1 KiB or more) as raw little-endian bytes in the section
       `constants`, each checksummed, referred to as `constant(#N)` by the module texts,
       header key `constants`. Older files hold every constant as decimal text and load as
       before (a 4.2M-parameter model's file was 100 MB and took 7 s to load).
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path

from .. import files
from ..errors import ArtifactError, UnsupportedError
from ..hlo.ir import HloModule
from ..hlo.shape import UNBOUNDED
from ..hlo.text.printer import print_module
from ..passes.bound_unbounded import how_to_bound
from ..version import __version__
from . import stored_assertions, stored_constants, stored_requirements
from .module_text import without_checks

MAGIC = b"\x89DYNHLO\n"
FORMAT_VERSION = 4
_PRELUDE = struct.Struct("<IQ")
_HEADER_START = len(MAGIC) + _PRELUDE.size + 32


@dataclass
class Artifact:
    """A checked artifact: its format version, header fields and sections (name -> bytes;
    `constants` a memoryview of the file's bytes, its constants checked as they are read)."""

    format_version: int
    header: dict
    sections: dict
    size: int

    @property
    def backend(self) -> str:
        return self.header["backend"]

    @property
    def target(self) -> str:
        return self.header["target"]


def fingerprint(module: HloModule) -> str:
    """sha256 (hex) of the printed module, its large constants as their bytes: the identity
    of a module for caches (its size checks are compared on their own)."""
    buffers: list = []
    digest = hashlib.sha256(without_checks(print_module(module, buffers)).encode())
    for array in buffers:
        digest.update(stored_constants.raw_bytes(array))
    return digest.hexdigest()


def serialize(exe) -> bytes:
    """The artifact bytes of an Executable or a BucketedExecutable.

    Raises:
        UnsupportedError: a program module with unbounded (`?`) dimensions (says how to bound
            them), or options that are not JSON data.
    """
    buffers: list = []
    # the module's size checks are the header's (below), not its text's too
    sections = {"constants": b"", "module": without_checks(print_module(exe.module,
                                                                        buffers)).encode()}
    entries = [_bucket_entry(i, bound, one, sections, buffers) for i, (bound, one)
               in enumerate(_programs_of(exe))]
    sections["constants"], constants = stored_constants.to_section(
        buffers, _element_types(exe, buffers))
    if not constants:
        del sections["constants"]
    header = {
        "dynhlo_version": dynhlo_version(), "backend": exe.backend, "target": exe.target,
        "options": _json_options(exe.options), "module": "module",
        "fingerprint": hashlib.sha256(sections["module"]).hexdigest(),
        "bucket_dims": [list(d) for d in getattr(exe, "bucket_dims", [])],
        "buckets": entries,
        "sections": [{"name": n, "length": len(b)} for n, b in sections.items()],
        "payload_sha256": _payload_sha256(sections, FORMAT_VERSION),
        "shape_assertions": stored_assertions.to_data(exe.module.shape_assertions),
        "size_requirements": stored_requirements.to_data(exe.module.shape_assertions),
        "constants": constants,
    }
    body = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    body += b" " * (-(_HEADER_START + len(body)) % stored_constants.ALIGN)
    prelude = _PRELUDE.pack(FORMAT_VERSION, len(body))
    return b"".join([MAGIC, prelude, hashlib.sha256(prelude + body).digest(), body,
                     *sections.values()])


def _element_types(exe, buffers: list) -> list[str]:
    """The element type of each buffer, from the constants that print as it."""
    types = {id(inst.literal): inst.shape.element_type
             for _, one in _programs_of(exe) for module in (exe.module, one.module)
             for comp in module.computations for inst in comp.instructions
             if inst.literal is not None}
    return [types[id(array)] for array in buffers]


def _payload_sha256(sections: dict, version: int) -> str:
    """sha256 of the sections in order; from version 4 without `constants` (each of its
    constants has its own, checked as it is read)."""
    digest = hashlib.sha256()
    for name, data in sections.items():
        if name != "constants" or version < 4:
            digest.update(data)
    return digest.hexdigest()


def _programs_of(exe) -> list[tuple[int | None, object]]:
    executables = getattr(exe, "executables", None)
    return list(executables.items()) if executables is not None else [(None, exe)]


def _bucket_entry(index: int, bound: int | None, exe, sections: dict, buffers: list) -> dict:
    _check_bounded(exe.module)
    text = without_checks(print_module(exe.module, buffers)).encode()
    module = "module"
    if text != sections["module"]:
        module = f"bucket{index}.module"
        sections[module] = text
    program = {}
    for key, blob in exe.program.to_payload().items():
        program[key] = f"bucket{index}.{key}"
        sections[program[key]] = bytes(blob)
    return {"bound": bound, "module": module, "program": program}


def _check_bounded(module: HloModule) -> None:
    for p in module.entry.parameters:
        if p.shape.is_unbounded:
            dim = next((d for d, size in enumerate(getattr(p.shape, "dims", ()))
                        if size == UNBOUNDED), 0)
            raise UnsupportedError(
                f"cannot compile module '{module.name}' ahead of time: parameter "
                f"{p.parameter_number} '{p.name}' ({p.shape}) is unbounded; "
                f"{how_to_bound(p.name, dim)}")


def _json_options(options: dict) -> dict:
    try:
        return json.loads(json.dumps(options, sort_keys=True))
    except (TypeError, ValueError) as exc:
        raise UnsupportedError(f"compile options {options!r} cannot be stored in an artifact: "
                               f"{exc}") from None


def dynhlo_version() -> str:
    return __version__


def save(exe, path) -> None:
    """Serialize `exe` and write it to `path` atomically.

    Replaces an existing file only when it is a dynhlo artifact (starts with the magic
    bytes) or empty: any other file (the HLO module the artifact was compiled from, with or
    without a BOM, comment or blank lines first; a .npy; anything) is the user's data and is
    refused, as are a directory and a missing directory. Raises ArtifactError for those and
    for I/O errors.
    """
    path = _as_path(path, "save")
    check_replaceable(path)
    write_atomic(path, serialize(exe))


def _as_path(path, caller: str) -> Path:
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise ArtifactError(f"{caller}() takes a file path (str or os.PathLike), got "
                            f"{type(path).__name__}")
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not str(path):
        raise ArtifactError(f"{caller}() takes a file path, got an empty one")
    return Path(path)


def check_replaceable(path: Path) -> None:
    """ArtifactError unless an artifact may be written at `path`: its directory exists, and
    it is missing, empty or already a dynhlo artifact (by its magic bytes; never guessed
    from text, which a BOM, a comment or whitespace can hide)."""
    if path.is_dir():
        raise ArtifactError(f"cannot write artifact '{path}': it is a directory; give a file "
                            f"name, e.g. {path / 'module.dynhlo'}")
    if not path.parent.is_dir():
        raise ArtifactError(f"cannot write artifact '{path}': directory '{path.parent}' does "
                            "not exist")
    try:
        if not path.is_file():  # a FIFO or device: opening it could block or destroy data
            if not path.exists():
                return
            raise ArtifactError(f"refusing to overwrite '{path}': it is not a regular file")
        with open(path, "rb") as f:
            head = f.read(len(MAGIC))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ArtifactError(f"cannot write artifact '{path}': {exc.strerror or exc}") from None
    if head and head != MAGIC:
        other = path.with_suffix(".dynhlo")
        raise ArtifactError(f"refusing to overwrite '{path}': it is not a dynhlo artifact "
                            "(an artifact replaces only an older artifact); choose another "
                            "path" + (f", e.g. {other}" if other != path else ""))


def write_atomic(path: Path, data: bytes) -> None:
    """Write via a temporary file in the same directory and os.replace (files.write_atomic):
    readers (other processes included) see the old file or the whole new one, never a
    partial write. ArtifactError for an I/O error."""
    try:
        files.write_atomic(path, data)
    except OSError as exc:
        raise ArtifactError(f"cannot write artifact '{path}': {exc.strerror or exc}"
                            ) from None


def read_regular(path: Path) -> bytes:
    """The bytes of the regular file at `path` (files.read_regular: a FIFO or a device is
    refused, never read).

    Raises:
        ArtifactError: `path` is missing, not a regular file (a FIFO, a device, a
            directory) or cannot be read.
    """
    try:
        return files.read_regular(path)
    except IsADirectoryError:
        raise ArtifactError(f"cannot read artifact '{path}': it is a directory; give the "
                            "artifact file's path (e.g. the -o of `dynhlo compile`)") from None
    except files.NotRegularFileError as exc:
        raise ArtifactError(f"cannot read artifact '{path}': {exc.strerror}; read its bytes "
                            "and pass them to dynhlo.deserialize") from None
    except OSError as exc:
        raise ArtifactError(f"cannot read artifact '{path}': {exc.strerror or exc}") from None


def read_artifact(data: bytes) -> Artifact:
    """Check every field of artifact bytes; nothing is parsed as HLO or loaded yet.

    Raises:
        ArtifactError: wrong magic, a newer or unknown format version, a truncated file,
            trailing bytes, a header or payload checksum mismatch, or a malformed header;
            the message says which.
    """
    data = bytes(data)
    if data[:len(MAGIC)] != MAGIC[:len(data)] or len(data) == 0:
        raise ArtifactError("not a dynhlo artifact: wrong magic bytes "
                            f"{data[:len(MAGIC)]!r} (expected {MAGIC!r})")
    if len(data) < _HEADER_START:
        raise ArtifactError(f"truncated artifact: {len(data)} bytes, shorter than the "
                            f"{_HEADER_START}-byte prelude")
    version, header_len = _PRELUDE.unpack_from(data, len(MAGIC))
    _check_version(version)
    end = _HEADER_START + header_len
    if end > len(data):
        raise ArtifactError(f"truncated artifact (or corrupted header length): the header "
                            f"ends at byte {end}, the file has {len(data)} bytes")
    prelude = data[len(MAGIC):len(MAGIC) + _PRELUDE.size]
    stored = data[len(MAGIC) + _PRELUDE.size:_HEADER_START]
    if hashlib.sha256(prelude + data[_HEADER_START:end]).digest() != stored:
        raise ArtifactError("corrupted artifact: the header checksum does not match")
    header = _decode_header(data[_HEADER_START:end], version)
    sections = _split_sections(data, end, header, version)
    return Artifact(version, header, sections, len(data))


def _check_version(version: int) -> None:
    if version > FORMAT_VERSION:
        raise ArtifactError(f"artifact format version {version} is newer than this dynhlo "
                            f"({dynhlo_version()}) reads (up to {FORMAT_VERSION}); upgrade "
                            "dynhlo or recompile the module")
    if version < 1:
        raise ArtifactError(f"unknown artifact format version {version}")


def _decode_header(body: bytes, version: int) -> dict:
    try:
        header = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ArtifactError(f"malformed artifact header: not UTF-8 JSON ({exc})") from None
    _check_header(header, version)
    return header


def _split_sections(data: bytes, start: int, header: dict, version: int) -> dict:
    total = start + sum(s["length"] for s in header["sections"])
    if total > len(data):
        raise ArtifactError(f"truncated artifact: the sections end at byte {total}, the file "
                            f"has {len(data)} bytes")
    if total < len(data):
        raise ArtifactError(f"corrupted artifact: {len(data) - total} unexpected bytes after "
                            "the last section")
    sections, offset = {}, start
    view = memoryview(data)
    for s in header["sections"]:   # the constants are read in place, the rest are small
        part = view[offset:offset + s["length"]]
        sections[s["name"]] = part if s["name"] == "constants" else bytes(part)
        offset += s["length"]
    if _payload_sha256(sections, version) != header["payload_sha256"]:
        raise ArtifactError("corrupted artifact: the payload checksum does not match")
    if hashlib.sha256(sections[header["module"]]).hexdigest() != header["fingerprint"]:
        raise ArtifactError("corrupted artifact: the module does not match its fingerprint")
    return sections


# -- header schema: a header that passed its checksum can still be hand-made; check its form

_HEADER_FIELDS = {"dynhlo_version": str, "backend": str, "target": str, "options": dict,
                  "module": str, "fingerprint": str, "bucket_dims": list, "buckets": list,
                  "sections": list, "payload_sha256": str}


# Fields a version added: (first version, type). Older files lack them (`.get` them).
_ADDED_FIELDS = {"shape_assertions": (2, list), "size_requirements": (3, list),
                 "constants": (4, list)}


def _check_header(header, version: int) -> None:
    if not isinstance(header, dict):
        raise ArtifactError("malformed artifact header: not a JSON object")
    fields = {**_HEADER_FIELDS, **{k: kind for k, (since, kind) in _ADDED_FIELDS.items()
                                   if version >= since}}
    for key, kind in fields.items():
        if not isinstance(header.get(key), kind):
            raise ArtifactError(f"malformed artifact header: field '{key}' is missing or not "
                                f"a {kind.__name__}")
    if version >= 4:
        stored_constants.check_entries(header["constants"])
    names = [_check_section(s) for s in header["sections"]]
    if len(set(names)) != len(names):
        raise ArtifactError("malformed artifact header: duplicate section names")
    _check_buckets(header, set(names))


def _check_section(section) -> str:
    if (not isinstance(section, dict) or not isinstance(section.get("name"), str)
            or not _is_int(section.get("length")) or section["length"] < 0):
        raise ArtifactError(f"malformed artifact header: bad section entry {section!r}")
    return section["name"]


def _check_buckets(header: dict, names: set) -> None:
    dims = header["bucket_dims"]
    if not all(isinstance(d, list) and len(d) == 2 and all(_is_int(x) and x >= 0 for x in d)
               for d in dims):
        raise ArtifactError(f"malformed artifact header: bad bucket_dims {dims!r}")
    for entry in header["buckets"]:  # "bound" may be null, never missing (the loader reads it)
        if not isinstance(entry, dict) or "bound" not in entry:
            raise ArtifactError(f"malformed artifact header: bucket entry {entry!r} is not an "
                                "object with a bound")
    bounds = [b["bound"] for b in header["buckets"]]
    if not header["buckets"] or (not dims and bounds != [None]) or (dims and not all(
            _is_int(b) and b >= 1 for b in bounds)) or len(set(bounds)) != len(bounds):
        raise ArtifactError(f"malformed artifact header: bucket bounds {bounds!r} do not fit "
                            f"bucket_dims {dims!r}")
    for entry in header["buckets"]:
        program = entry.get("program")
        refs = [entry.get("module")] + (list(program.values()) if isinstance(program, dict)
                                        else [None])
        if not all(isinstance(r, str) and r in names for r in refs + [header["module"]]):
            raise ArtifactError(f"malformed artifact header: bucket {entry.get('bound')} "
                                "names sections that are not in the file")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def describe(artifact: Artifact) -> str:
    """What an artifact holds, for `dynhlo inspect`: versions, backend, target, options,
    buckets and sections (the module itself is reported by dynhlo.inspect)."""
    h = artifact.header
    bounds = [b["bound"] for b in h["buckets"]]
    lines = [f"artifact: format version {artifact.format_version}, written by dynhlo "
             f"{h['dynhlo_version']}, {artifact.size} bytes",
             f"backend: {h['backend']}  target: {h['target']}",
             f"options: {json.dumps(h['options'], sort_keys=True)}",
             f"module fingerprint: sha256 {h['fingerprint']}"]
    checks = len(h.get("shape_assertions", []))
    if checks:
        lines.append(f"shape assertions: {checks} (jax.export's checks on the parameters' "
                     "sizes, made on every call)")
    least = len(h.get("size_requirements", []))
    if least:
        lines.append(f"size requirements: {least} (TensorFlow's least sizes of the "
                     "arguments, checked on every call)")
    if h["bucket_dims"]:
        dims = ", ".join(f"parameter {n} dimension {d}" for n, d in h["bucket_dims"])
        lines.append(f"buckets: {', '.join(map(str, bounds))} (bound {dims}; a call runs the "
                     "smallest bucket that fits)")
    else:
        lines.append("buckets: one program (no unbounded dimensions)")
    stored = h.get("constants", [])
    if stored:
        lines.append(f"constants stored as bytes: {len(stored)}, "
                     f"{sum(c['length'] for c in stored)} bytes")
    lines.append("sections: " + ", ".join(f"{s['name']} ({s['length']} bytes)"
                                          for s in h["sections"]))
    return "\n".join(lines) + "\n"


__all__ = ["Artifact", "FORMAT_VERSION", "MAGIC", "describe", "fingerprint", "read_artifact",
           "save", "serialize", "write_atomic"]
