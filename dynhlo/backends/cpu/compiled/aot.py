"""A compiled CPU program in an AOT artifact: its kernels' object code, loaded without compiling.

The payload of a compiled program (CpuProgram.to_payload), two sections:

    program   UTF-8 JSON {"evaluator": "compiled", "compiler": {...}, "kernels": [...]}:
              `compiler` is machine.identity() where the kernels were compiled (llvmlite and
              LLVM versions, target triple, host CPU name and features, sha256 of the IR
              writer); `kernels` one {"key", "length", "sha256"} per distinct kernel form,
              `key` its cache key (machine.key_of: the canonical form with that identity).
    objects   the kernels' relocatable objects (llvmlite's emit_object), back to back in the
              order of `kernels`.

Loading checks every object against its sha256 (besides the artifact's payload checksum:
a file whose checksums were all made again by hand still has to match each kernel's) and
compares the stored identity with this host's: when they are equal, the plan is made again
from the stored module (no IR written) and each kernel is taken from the stored objects,
nothing compiled and the disk cache not read; when any field differs, the stored code is
never loaded: the kernels are compiled again from the stored module (a warning says which
fields differ). Object code is plain relocatable machine code, linked by LLVM's MCJIT
(`add_object_file`): no pickle, no Python code from the file.
"""

from __future__ import annotations

import hashlib
import json
import re

from ....errors import ArtifactError
from . import machine
from .runner import CompiledEvaluator

EVALUATOR = "compiled"
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


class ArtifactEvaluator(CompiledEvaluator):
    """The compiled evaluator, remembering its kernels' keys (for an artifact) and, when
    `stored` is given (key -> object bytes, checked), taking every kernel from it."""

    def __init__(self, inference, lowerings: dict | None = None, comm=None,
                 stored: dict | None = None):
        super().__init__(inference, lowerings, comm)
        self.stored = stored
        self.kernel_keys: dict[str, None] = {}   # in order of first use

    def compile_kernels(self, sources: list) -> list:
        fns = machine.kernels(sources, self.stored)
        for source in sources:
            self.kernel_keys.setdefault(machine.key_of(source))
        return fns


def to_payload(evaluator: ArtifactEvaluator) -> dict[str, bytes]:
    """The program and objects sections of a compiled program's kernels."""
    objects = [machine.object_code(key) for key in evaluator.kernel_keys]
    program = {"evaluator": EVALUATOR, "compiler": machine.identity(),
               "kernels": [{"key": key, "length": len(obj),
                            "sha256": hashlib.sha256(obj).hexdigest()}
                           for key, obj in zip(evaluator.kernel_keys, objects, strict=True)]}
    return {"program": json.dumps(program, sort_keys=True).encode(),
            "objects": b"".join(objects)}


def is_compiled(payload: dict) -> bool:
    """Whether payload sections are a compiled program's (else the reference's marker)."""
    return set(payload) == {"program", "objects"}


def read_payload(payload: dict) -> tuple[dict, dict]:
    """(stored compiler identity, key -> object bytes) of a compiled program's sections.

    Raises:
        ArtifactError: the program section is not the JSON this module writes, the objects'
            lengths do not add up to the section, or an object does not match its sha256
            (the message names the kernel).
    """
    try:
        program = json.loads(bytes(payload["program"]).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ArtifactError("the cpu backend cannot load the program section: not UTF-8 "
                            f"JSON ({exc})") from None
    if not isinstance(program, dict) or program.get("evaluator") != EVALUATOR:
        raise ArtifactError("the cpu backend cannot load the program section: it does not name "
                            "the compiled evaluator")
    compiler, entries = program.get("compiler"), program.get("kernels")
    if not isinstance(compiler, dict) or any(not isinstance(compiler.get(k), str)
                                             for k in machine.IDENTITY):
        raise ArtifactError("the cpu backend cannot load the program section: it has no "
                            f"compiler identity (fields {', '.join(machine.IDENTITY)})")
    if not isinstance(entries, list) or not all(_entry_ok(e) for e in entries):
        raise ArtifactError("the cpu backend cannot load the program section: it has a "
                            "malformed kernel list")
    if len({e["key"] for e in entries}) != len(entries):
        raise ArtifactError("the cpu backend cannot load the program section: it lists a "
                            "kernel twice")
    data = bytes(payload["objects"])
    if sum(e["length"] for e in entries) != len(data):
        raise ArtifactError(f"the cpu backend cannot load the objects section: the kernels' "
                            f"object code is {len(data)} bytes, their lengths "
                            f"add up to {sum(e['length'] for e in entries)}")
    objects, offset = {}, 0
    for k, entry in enumerate(entries):
        obj = data[offset:offset + entry["length"]]
        offset += entry["length"]
        if hashlib.sha256(obj).hexdigest() != entry["sha256"]:
            raise ArtifactError(f"corrupted artifact: the object code of cpu kernel {k} "
                                f"({entry['key'][:16]}) does not match its checksum; "
                                "recompile the module")
        objects[entry["key"]] = obj
    return {k: compiler[k] for k in machine.IDENTITY}, objects


def _entry_ok(entry) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("key"), str) and \
        _HEX64.match(entry["key"]) is not None and isinstance(entry.get("sha256"), str) and \
        isinstance(entry.get("length"), int) and not isinstance(entry["length"], bool) and \
        0 <= entry["length"] <= machine.OBJECT_MAX


def differences(stored: dict) -> str:
    """What differs between a stored compiler identity and this host's ("" when nothing):
    versions and CPU by value, features by the ones only one side has."""
    here = machine.identity()
    out = []
    for field in machine.IDENTITY:
        if stored[field] == here[field]:
            continue
        if field == "features":
            a, b = set(stored[field].split(",")), set(here[field].split(","))
            out.append(f"CPU features (stored only: {_few(a - b)}; here only: {_few(b - a)})")
        elif field == "writer":
            out.append("the kernel writer (another dynhlo wrote them)")
        else:
            out.append(f"{field} {stored[field]!r} (here {here[field]!r})")
    return "; ".join(out)


def _few(items: set) -> str:
    items = sorted(items)
    return (", ".join(items[:6]) + (f" and {len(items) - 6} more" if len(items) > 6 else "")
            ) or "none"


def missing(key: str) -> ArtifactError:
    """The error of a kernel form the stored objects lack (a hand-made file)."""
    return ArtifactError(f"the compiled cpu program lacks the object code of kernel "
                              f"{key[:16]} its plan needs; recompile the module")
