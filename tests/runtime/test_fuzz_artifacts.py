"""Seeded fuzzing of the loaders of untrusted artifact bytes: dynhlo.deserialize of CPU and
cross-compiled GPU artifacts, and the JIT disk cache.

tests/runtime/test_artifact.py covers truncations and flipped bytes, which the checksums refuse;
here the mutations are re-checksummed (a hand-made file), so they reach the header schema, the
module section, the backend's payload (the GPU plan, kernel table and graph program) and the JIT's
entry checks. Every case must load or raise ArtifactError, within a SIGALRM deadline (a hang
fails instead of hanging the run); what loads must compute what the untouched artifact does
(NumPy by hand). Each focused regression test below failed before its fix.
"""

from __future__ import annotations

import json
import os
import random
import re
import warnings

import numpy as np
import pytest

import dynhlo
from tests.support.deadline import deadline
from tests.runtime.test_artifact import SMALL, SOFTMAX_UNBOUNDED, resection, softmax

# Values of the wrong type or size that a hand-made header or payload could hold; the two
# strings are a pickle and Python code, which must be read as plain (wrong) data.
WEIRD = [None, True, -1, 0, 2**31, 2**62, -2**62, 2**64, 1.5, "x", "", [], {}, [[0, 0]],
         {"a": 1}, "cos\nsystem\n(S'echo pwned'\ntR.", "__import__('os').system('echo pwned')",
         [2**62, 0], "module"]


def _paths(obj, prefix=()):
    """Every path (keys and indices) into a JSON value, the root excluded."""
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) \
        if isinstance(obj, list) else ()
    for key, value in items:
        yield prefix + (key,)
        yield from _paths(value, prefix + (key,))


def mutate_json(rng: random.Random, value):
    """A copy of JSON data with 1-3 values replaced by WEIRD ones, deleted or nested deeply
    ("__NEST<n>__", which `nested_dumps` writes as n brackets)."""
    value = json.loads(json.dumps(value))
    paths = list(_paths(value))
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths)
        parent = value
        try:
            for key in path[:-1]:
                parent = parent[key]
            r = rng.random()
            if r < 0.75:
                parent[path[-1]] = rng.choice(WEIRD)
            elif r < 0.9:
                del parent[path[-1]]
            else:
                parent[path[-1]] = f"__NEST{rng.choice([50, 5000])}__"
        except (KeyError, IndexError, TypeError):
            pass  # an earlier mutation removed or replaced the parent
    return value


def nested_dumps(value) -> str:
    text = json.dumps(value)
    return re.sub(r'"__NEST(\d+)__"', lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)),
                  text)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """1-4 edits: a flipped bit, an inserted token (huge or negative numbers, brackets),
    a deletion or a duplicated run."""
    data = bytearray(data)
    tokens = [b"9", b"99999999999", b"4611686018427387904", b"-1", b"{", b"(", b",", b" ",
              b"\n", b"<=", b"?", b"f32[", b"]", b"\xff"]
    for _ in range(rng.randint(1, 4)):
        i, r = rng.randrange(len(data) + 1), rng.random()
        if r < 0.3 and data:
            data[min(i, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif r < 0.55:
            data[i:i] = rng.choice(tokens)
        elif r < 0.75:
            del data[i:i + rng.randint(1, 8)]
        else:
            j = rng.randrange(len(data) + 1)
            data[i:i] = data[j:j + rng.randint(1, 20)]
    return bytes(data)


def load_or_refuse(blob: bytes, seed: int):
    """The executable in `blob`, or None when it is refused with an ArtifactError."""
    with deadline(10, f"deserialize (seed {seed})"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return dynhlo.deserialize(blob)
        except dynhlo.ArtifactError:
            return None


def _set_header(blob: bytes, header: dict) -> bytes:
    def edit(h, sections):
        h.clear()
        h.update(header)
    return resection(blob, edit)


@pytest.fixture(scope="module")
def cpu_blobs() -> dict:
    return {"small": dynhlo.compile(SMALL).serialize(),
            "buckets": dynhlo.compile(SOFTMAX_UNBOUNDED, buckets=[2, 4]).serialize()}


def _check_runs_right(exe, name: str, seed: int) -> None:
    """A loaded artifact computes its module: -x for `small`, softmax for `buckets`."""
    x = np.random.default_rng(seed).standard_normal((3, 3 if name == "small" else 8))
    x = x.astype(np.float32)
    want = -x if name == "small" else softmax(x)
    np.testing.assert_allclose(exe(x), want, rtol=1e-5, atol=1e-6, err_msg=f"seed {seed}")


def test_fuzzed_cpu_headers_load_right_or_are_artifact_errors(cpu_blobs):
    """Header fields of the wrong type, huge or negative, deleted or nested 5000 deep, with
    every checksum made again: refused, or loaded and computing the module."""
    loaded = 0
    for seed in range(250):
        rng = random.Random(seed)
        name = rng.choice(sorted(cpu_blobs))
        blob = cpu_blobs[name]

        def edit(header, sections, rng=rng):
            mutated = mutate_json(rng, header)
            header.clear()
            header.update(mutated if isinstance(mutated, dict) else {})
        try:
            crafted = resection(blob, edit)
        except (TypeError, KeyError, AttributeError):
            continue  # the mutation broke the section list this helper re-seals by
        exe = load_or_refuse(crafted, seed)
        if exe is not None:
            loaded += 1
            _check_runs_right(exe, name, seed)
    assert loaded > 0   # some mutations (unused option values) must still load


def test_fuzzed_raw_headers_load_right_or_are_artifact_errors(cpu_blobs):
    """The header's JSON text itself mutated and re-checksummed: bad UTF-8, broken JSON,
    huge numbers written as text."""
    for seed in range(150):
        rng = random.Random(1000 + seed)
        name = rng.choice(sorted(cpu_blobs))
        blob = cpu_blobs[name]
        length = int.from_bytes(blob[12:20], "little")
        exe = load_or_refuse(_raw_header(blob, mutate_bytes(rng, blob[52:52 + length])), seed)
        if exe is not None:
            _check_runs_right(exe, name, seed)


def _raw_header(blob: bytes, body: bytes) -> bytes:
    """`blob` with its header bytes replaced by `body` (re-checksummed, not re-encoded)."""
    import hashlib
    import struct
    length = int.from_bytes(blob[12:20], "little")
    prelude = struct.pack("<IQ", 1, len(body))
    return (blob[:8] + prelude + hashlib.sha256(prelude + body).digest() + body
            + blob[52 + length:])


def test_fuzzed_module_sections_load_their_module_or_are_artifact_errors(cpu_blobs):
    """The stored HLO text mutated (fingerprint and checksums made again): the parser and
    verifier refuse it, or it is a module whose artifact loads."""
    for seed in range(200):
        rng = random.Random(2000 + seed)
        blob = cpu_blobs[rng.choice(sorted(cpu_blobs))]

        def edit(header, sections, rng=rng):
            import hashlib
            name = rng.choice(sorted(sections))
            sections[name] = mutate_bytes(rng, sections[name])
            header["fingerprint"] = hashlib.sha256(sections[header["module"]]).hexdigest()
        load_or_refuse(resection(blob, edit), seed)


def test_swapped_and_duplicated_sections_are_artifact_errors_or_the_same_program(cpu_blobs):
    blob = cpu_blobs["buckets"]
    for seed in range(40):
        rng = random.Random(3000 + seed)

        def edit(header, sections, rng=rng):
            names = sorted(sections)
            a, b = rng.choice(names), rng.choice(names)
            sections[a], sections[b] = sections[b], sections[a]
            if rng.random() < 0.5:
                header["buckets"].append(dict(rng.choice(header["buckets"])))
        exe = load_or_refuse(resection(blob, edit), seed)
        if exe is not None:
            _check_runs_right(exe, "buckets", seed)


@pytest.mark.parametrize("value", [[], "x", -4611686018427387904, 0, True, "__import__('os')"])
def test_a_bad_max_while_iterations_in_a_header_is_an_artifact_error(cpu_blobs, value):
    # It was an UnsupportedError (compile()'s error for the keyword), not the artifact's.
    def edit(header, sections):
        header["options"]["max_while_iterations"] = value
    with pytest.raises(dynhlo.ArtifactError, match="malformed artifact header: option "
                                                   "max_while_iterations="):
        dynhlo.deserialize(resection(cpu_blobs["small"], edit))


# -- the JIT disk cache: an entry is a file anyone of the user may replace

def test_fuzzed_jit_cache_entries_recompile_or_load_right(tmp_path):
    """Each entry truncated, mutated (raw or re-checksummed) or swapped for another bucket's:
    the next call returns the right values, from the entry or recompiled with a warning."""
    f = dynhlo.jit(SOFTMAX_UNBOUNDED, cache_dir=tmp_path)
    rows = {2: 2, 4: 3}   # bucket -> rows of a call that picks it
    for n in rows.values():
        f(np.ones((n, 8), np.float32))
    entries = {bucket: tmp_path / f"{f.cache_key(bucket)}.dynhlo" for bucket in rows}
    good = {bucket: path.read_bytes() for bucket, path in entries.items()}
    for seed in range(60):
        rng = random.Random(4000 + seed)
        bucket = rng.choice(sorted(entries))
        data, r = good[bucket], rng.random()
        if r < 0.3:
            data = data[:rng.randrange(len(data))]
        elif r < 0.6:
            data = mutate_bytes(rng, data)
        elif r < 0.8:
            length = int.from_bytes(data[12:20], "little")
            data = _set_header(data, mutate_json(rng, json.loads(data[52:52 + length])))
        else:
            data = good[4 if bucket == 2 else 2]
        entries[bucket].write_bytes(data)
        g = dynhlo.jit(SOFTMAX_UNBOUNDED, cache_dir=tmp_path)
        x = np.random.default_rng(seed).standard_normal((rows[bucket], 8)).astype(np.float32)
        with deadline(20, f"jit call (seed {seed})"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_allclose(g(x), softmax(x), rtol=1e-5, atol=1e-6,
                                       err_msg=f"seed {seed}")


def test_a_bucket_entry_without_a_bound_is_an_artifact_error(cpu_blobs):
    # The schema read bounds with .get(), so a missing one passed as the single program's
    # null and the loader then raised KeyError: 'bound' (found by the raw-header fuzz, 1123).
    def edit(header, sections):
        del header["buckets"][0]["bound"]
    with pytest.raises(dynhlo.ArtifactError, match="is not an object with a bound"):
        dynhlo.deserialize(resection(cpu_blobs["small"], edit))


def test_loading_a_fifo_or_a_device_is_an_artifact_error_not_a_hang(tmp_path):
    # load() read the path with Path.read_bytes: a FIFO blocked forever, /dev/zero filled
    # memory until MemoryError
    fifo = tmp_path / "m.dynhlo"
    os.mkfifo(fifo)
    # a directory says so (it was "not a regular file (a pipe or a device)")
    for path, message in ((fifo, "it is not a regular file"),
                          ("/dev/zero", "it is not a regular file"),
                          (tmp_path, "it is a directory")):
        with deadline(10, f"load({path})"), pytest.raises(dynhlo.ArtifactError, match=message):
            dynhlo.load(path)
