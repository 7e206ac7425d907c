"""Tampered launch facts in GPU artifacts (sm_90, cross-compiled here) are ArtifactErrors.

An artifact is untrusted input: a launch's buffers, sizes, warps, constexprs, grid and shared
memory are checked on load against the plan and against the cubin they launch, before any
cubin is loaded (the cubin launcher is a stand-in that records what it was asked to load,
as in tests/backends/gpu/aot/test_aot.py). Each edit below loaded before its check, and would have
launched a kernel reading past its size buffer (a graph launch's size offset), reading other sizes,
or running a cubin with another block of threads than it was compiled for.

A payload of format 4 stores no graph program: load builds it from the checked plan, so its
buffers and sizes cannot be edited; what can is each graph kernel form's launch facts and
cubin (FORM_EDITS). Format 3 stored the program; its reader keeps checking every launch
(GRAPH_EDITS, on the chain's artifact written as format 3: tests/support/gpu_payload3.py).
"""

from __future__ import annotations

import json

import pytest

import dynhlo
from tests.support.gpucheck import gpu, torch  # skips without torch/triton; interpreter mode first
from dynhlo.backends.gpu import aot
from tests.runtime.test_artifact import resection
from tests.backends.gpu.aot.test_aot import SOFTMAX
from tests.backends.gpu.graph.test_graph import _chain
from tests.support.gpu_payload3 import as_format_3

PROGRAM = "bucket0.gpu_program.json"


@pytest.fixture(scope="module")
def blobs() -> dict:
    """A softmax (one row kernel, the plain path) and a chain of 16 products (a graph), the
    chain also as format 3 wrote it."""
    chain = dynhlo.compile(_chain(16), backend="gpu", target="sm_90")
    return {"plain": dynhlo.compile(SOFTMAX, backend="gpu", target="sm_90").serialize(),
            "graph": chain.serialize(), "graph3": as_format_3(chain)}


@pytest.fixture
def loaded_cubins(monkeypatch) -> list:
    """Load as on an sm_90 device; the cubins the loader asked for, in order."""
    asked: list = []
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(aot, "cubin_launcher", lambda cubin, meta: asked.append(cubin))
    monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))
    return asked


def edited(blob: bytes, edit) -> bytes:
    """`blob` with `edit(meta)` applied to its gpu_program.json, every checksum redone."""
    def sections_edit(header, sections):
        meta = json.loads(sections[PROGRAM])
        edit(meta)
        sections[PROGRAM] = json.dumps(meta).encode()
    return resection(blob, sections_edit)


def test_the_untouched_artifacts_load(blobs, loaded_cubins):
    assert dynhlo.deserialize(blobs["plain"]).program.graph is None
    assert dynhlo.deserialize(blobs["graph"]).program.graph is not None
    assert len(loaded_cubins) == 2   # one kernel each (the chain's 16 launches share one)
    assert dynhlo.deserialize(blobs["graph3"]).program.graph is not None
    assert loaded_cubins[2:] == loaded_cubins[:2][1:]   # the same cubin, from format 3

def _step(k: int, **changes):
    return lambda meta: meta["graph_program"]["steps"][k].update(changes)


def _all_steps(**changes):
    return lambda meta: [s.update(changes) for s in meta["graph_program"]["steps"]]


def _cubin(**changes):
    return lambda meta: [c.update(changes) for c in meta["cubins"].values()]


GRAPH_EDITS = {
    "size-offset-past-the-buffer": (_step(0, size_offset=10**6),
                                    "reads 3 sizes at offset 1000000 of a size buffer of 64"),
    "size-offset-last-int": (_step(15, size_offset=63), "reads 3 sizes at offset 63"),
    "size-offset-unaligned": (_step(1, size_offset=5), "at a multiple of 4"),
    "other-sizes": (_step(2, sizes=[[0, 0], 4, 8]),
                    r"launch 2 reads sizes \[\(0, 0\), 4, 4\] at offset 8, not its own"),
    "more-sizes": (_step(0, nsizes=4), "reads 4 sizes at offset 0"),
    "missing-buffer": (_step(3, inputs=[0, 999]), "names buffer 999"),
    "writes-a-parameter": (_step(0, out=0), "writes buffer 0, a parameter"),
    "zero-grid": (_step(0, bound_work=0), "over 0 blocks"),
    "grid-past-cuda": (_step(0, bound_work=2**31), "over 2147483648 blocks"),
    "per-program": (_step(0, per_program=7), "covers 7 elements per program"),
    "huge-constexpr": (_step(0, block={"BK": 32, "BM": 2**30, "BN": 32}), "out of range"),
    "one-launch-other-blocks": (_step(4, block={"BK": 16, "BM": 32, "BN": 32}),
                                "launch 4 runs cubin .* as launch 0 does"),
    "one-launch-other-warps": (_step(5, num_warps=8), "launch 5 runs cubin .* as launch 0 "
                                                      "does, with other blocks, warps"),
    "all-launches-other-warps": (_all_steps(num_warps=2),
                                 "launch 0 launches 2 warps, its cubin .* compiled for 4"),
    "cubin-warps": (_cubin(num_warps=8), "launches 4 warps, its cubin .* compiled for 8"),
    "cubin-shared": (_cubin(shared=228 * 1024), "233472 bytes of shared memory; a block of "
                                                "sm_90 has at most 232448"),
}


@pytest.mark.parametrize("edit,message", GRAPH_EDITS.values(), ids=GRAPH_EDITS.keys())
def test_a_tampered_format_3_graph_launch_is_an_artifact_error(blobs, loaded_cubins, edit,
                                                              message):
    with pytest.raises(dynhlo.ArtifactError, match=message):
        dynhlo.deserialize(edited(blobs["graph3"], edit))


def _form(**changes):
    return lambda meta: meta["graph_forms"][0].update(changes)


def _set(**changes):
    return lambda meta: meta.update(changes)


FORM_EDITS = {
    "form-warps": (_form(num_warps=8), r"launch 0 \(source kernel\) is stored with launch "
                                       r"facts .*'num_warps': 8.*, its plan gives"),
    "form-block": (_form(block={"BK": 16, "BM": 32, "BN": 32}), "is stored with launch facts"),
    "form-sizes": (_form(nsizes=4), "is stored with launch facts"),
    "form-per-program": (_form(per_program=32), "is stored with launch facts"),
    "form-types": (_form(types=["f16", "f16", "f16"]), r"launch 0 \(source kernel\) has no "
                                                       "cubin"),
    "form-of-another-kernel": (_form(form=["source", "0" * 64]), "has no cubin"),
    "form-cubin-missing": (_form(cubin="0" * 32), "its cubin 0+ was compiled for None"),
    "form-no-cubin": (_form(cubin=7), "names no cubin"),
    "no-forms": (_set(graph_forms=[]), "has no cubin"),
    "forms-not-a-list": (_set(graph_forms=[7]), "graph forms is malformed"),
    "cubin-warps": (_cubin(num_warps=8), "launches 4 warps, its cubin .* compiled for 8"),
    "cubin-shared": (_cubin(shared=228 * 1024), "233472 bytes of shared memory"),
}


@pytest.mark.parametrize("edit,message", FORM_EDITS.values(), ids=FORM_EDITS.keys())
def test_a_tampered_graph_kernel_form_is_an_artifact_error(blobs, loaded_cubins, edit,
                                                           message):
    with pytest.raises(dynhlo.ArtifactError, match=message):
        dynhlo.deserialize(edited(blobs["graph"], edit))


def test_a_graph_stored_for_a_plan_that_cannot_be_one_is_an_artifact_error(blobs,
                                                                           loaded_cubins):
    """Forms added to a payload whose plan has no graph program (a while loop needs the
    host): refused, nothing loaded."""
    from tests.backends.gpu.aot.test_aot import LOOP
    blob = dynhlo.compile(LOOP, backend="gpu", target="sm_90").serialize()
    forms = json.loads(_program(blobs["graph"]))["graph_forms"]
    with pytest.raises(dynhlo.ArtifactError, match="stores a graph, but its plan has none"):
        dynhlo.deserialize(edited(blob, _set(graph_forms=forms)))
    assert loaded_cubins == []


def _program(blob: bytes) -> bytes:
    from dynhlo.runtime import artifact
    return artifact.read_artifact(blob).sections[PROGRAM]


def _kernel(**changes):
    return lambda meta: next(iter(meta["plan"]["kernels"].values())).update(changes)


def _entry(**changes):
    return lambda meta: meta["kernels"][0].update(changes)


def _both(first, second):
    return lambda meta: (first(meta), second(meta))


PLAIN_EDITS = {
    "kernel-warps": (_kernel(num_warps=8), "kernel 0 launches 8 warps, its cubin .* for 2"),
    "cubin-warps": (_cubin(num_warps=4), "kernel 0 launches 2 warps, its cubin .* for 4"),
    "cubin-shared": (_cubin(shared=2**30), "1073741824 bytes of shared memory"),
    "cubin-shared-negative": (_cubin(shared=-1), "-1 bytes of shared memory"),
    "pointer-type": (_entry(signature={"BM": "constexpr", "BN": "constexpr", "in0": "*fp16",
                                       "out": "*fp32", "s0": "i32"}),
                     r"kernel 0 \('y'\) has signature .*'\*fp16'.*, its plan makes"),
    "another-input": (_kernel(inputs=["x", "x"]),
                      r"gives kernel 'y' the inputs \['x', 'x'\]; the module makes \['x'\]"),
    "more-sizes": (_kernel(size_syms=[["x", 0], ["x", 0]]), "its plan makes .*'s1': 'i32'"),
    "another-kind": (_kernel(kind="elementwise", block={"BLOCK": 16}),
                     "makes kernel 'y' a 'elementwise' kernel; the module makes a 'row'"),
    "unknown-kind": (_both(_kernel(kind="matmul", block={"BLOCK": 16}),
                           _entry(signature={"BLOCK": "constexpr", "in0": "*fp32",
                                             "out": "*fp32", "s0": "i32"})),
                     "a 'matmul' kernel"),
    "huge-block": (_kernel(block={"BM": 2**30, "BN": 64}), "'BM': 1073741824"),
}


@pytest.mark.parametrize("edit,message", PLAIN_EDITS.values(), ids=PLAIN_EDITS.keys())
def test_a_tampered_kernel_launch_is_an_artifact_error(blobs, loaded_cubins, edit, message):
    with pytest.raises(dynhlo.ArtifactError, match=message):
        dynhlo.deserialize(edited(blobs["plain"], edit))
    assert loaded_cubins == []   # refused before any cubin reached the driver


def test_the_shared_memory_limit_is_the_targets():
    """CUDA's opt-in maximum per block: 227 KiB on Hopper, 163 KiB on A100, 99 KiB on Ada."""
    assert (aot.max_shared(90), aot.max_shared(80), aot.max_shared(89)) == \
        (232448, 166912, 101376)
