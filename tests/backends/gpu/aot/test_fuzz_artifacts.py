"""Seeded fuzzing of GPU artifacts cross-compiled for sm_90, loaded without a GPU.

Loading cannot launch a cubin here, so the device check and the cubin launcher's constructor
are stood in for (as in tests/backends/gpu/aot/test_aot.py); everything before the launch is the
real loader: the container, gpu_program.json, the plan, the kernel table, the graph's kernel
forms (format 4) and the stored graph program (format 3, written by
tests/support/gpu_payload3.py). Each
mutated payload (re-checksummed: a hand-made file) must load or raise ArtifactError within a
SIGALRM deadline. The focused tests below each failed before their fix.
"""

from __future__ import annotations

import json
import random

import pytest

import dynhlo
from tests.support.gpucheck import gpu, torch  # skips without torch/triton; interpreter mode first
from dynhlo.backends.gpu import aot
from tests.runtime.test_artifact import resection
from tests.runtime.test_fuzz_artifacts import load_or_refuse, mutate_json, nested_dumps
from tests.backends.gpu.aot.test_aot import LOOP, SOFTMAX
from tests.backends.gpu.graph.test_graph import _chain
from tests.support.gpu_payload3 import as_format_3

PROGRAM = "bucket0.gpu_program.json"


@pytest.fixture(scope="module")
def blobs() -> dict:
    """Artifacts of a softmax, a while loop and a chain of 16 products (a graph program),
    the chain also as format 3 wrote it ("chain3")."""
    texts = {"softmax": SOFTMAX, "while": LOOP, "chain": _chain(16)}
    exes = {name: dynhlo.compile(text, backend="gpu", target="sm_90")
            for name, text in texts.items()}
    return {**{name: exe.serialize() for name, exe in exes.items()},
            "chain3": as_format_3(exes["chain"])}


@pytest.fixture(autouse=True)
def no_launch(monkeypatch):
    """Load as on an sm_90 device, up to the launch: cubins become inert stand-ins."""
    monkeypatch.setattr(aot, "check_device", lambda target: None)
    monkeypatch.setattr(aot, "cubin_launcher", lambda cubin, meta: object())
    monkeypatch.setattr(gpu, "_device", lambda interpret: torch.device("cpu"))


def with_program(blob: bytes, edit) -> bytes:
    """The artifact with its gpu_program.json edited (`edit(meta)` returns the new meta,
    written by nested_dumps) and every checksum made again."""
    def sections_edit(header, sections):
        meta = edit(json.loads(sections[PROGRAM]))
        sections[PROGRAM] = (meta if isinstance(meta, str) else nested_dumps(meta)).encode()
    return resection(blob, sections_edit)


def test_the_untouched_payloads_load(blobs):
    for name, blob in blobs.items():
        exe = dynhlo.deserialize(blob)
        assert (exe.program.graph is not None) == name.startswith("chain"), name


def test_fuzzed_gpu_programs_load_or_are_artifact_errors(blobs):
    """Any field of gpu_program.json of the wrong type, huge, negative, deleted or nested
    5000 deep: an ArtifactError (before: AttributeError, IndexError, RecursionError)."""
    for seed in range(600):
        rng = random.Random(seed)
        blob = blobs[rng.choice(sorted(blobs))]
        load_or_refuse(with_program(blob, lambda meta, rng=rng: mutate_json(rng, meta)), seed)


@pytest.mark.parametrize("field,blob,first,count", [("graph_program", "chain3", 10_000, 400),
                                                     ("graph_forms", "chain", 20_000, 300)],
                         ids=["format-3-graph-program", "format-4-graph-forms"])
def test_fuzzed_graph_data_loads_or_is_an_artifact_error(blobs, field, blob, first, count):
    """Format 3's stored graph program; format 4's graph kernel forms."""
    for seed in range(first, first + count):
        rng = random.Random(seed)

        def edit(meta, rng=rng):
            meta[field] = mutate_json(rng, meta[field])
            return meta
        load_or_refuse(with_program(blobs[blob], edit), seed)


def test_deeply_nested_graph_kernel_forms_are_an_artifact_error(blobs):
    def edit(meta):
        meta["graph_forms"][0]["form"] = "__NEST900__"   # nested_dumps: 900 lists deep
        return meta
    _refused(blobs["chain"], edit, "graph forms is malformed|launch 0 .* has no cubin")


def _refused(blob: bytes, edit, message: str) -> None:
    with pytest.raises(dynhlo.ArtifactError, match=message):
        dynhlo.deserialize(with_program(blob, edit))


def test_a_deeply_nested_gpu_program_is_an_artifact_error(blobs):
    # json.loads raised RecursionError, which the payload reader did not catch
    _refused(blobs["softmax"], lambda meta: "[" * 100_000 + "]" * 100_000,
             "no readable gpu_program.json")


@pytest.mark.parametrize("where", ["calls", "kernels", "order"])
def test_plan_fields_of_another_json_type_are_artifact_errors(blobs, where):
    # a list for "calls" or "kernels" raised AttributeError (no .items()), which the loader
    # did not turn into an ArtifactError
    def edit(meta):
        meta["plan"][where] = [[1]] if where != "order" else 7
        return meta
    _refused(blobs["while"], edit, "gpu payload plan is malformed")


def test_a_negative_dimension_reference_is_an_artifact_error(blobs):
    # [instruction, -1] read the instruction's last dimension instead: a kernel given
    # another size than its plan's, loaded silently
    def edit(meta):
        for kernel in meta["plan"]["kernels"].values():
            for ref in kernel["size_syms"] + kernel["domain"]:
                if isinstance(ref, list):
                    ref[1] = -1
                    return meta
        raise AssertionError("no dynamic size reference in the plan")
    _refused(blobs["softmax"], edit, "reads dimension -1 of")


@pytest.mark.parametrize("numel", [2**33, 2**62, 1])
def test_a_graph_slot_of_another_size_than_its_dimensions_is_an_artifact_error(blobs, numel):
    # 2**33 allocated 32 GiB at load; 1 loaded, with buffers smaller than the kernels write
    def edit(meta):
        for slot in meta["graph_program"]["slots"]:
            slot[2] = numel
        return meta
    _refused(blobs["chain3"], edit, "graph slot 0 holds")


@pytest.mark.parametrize("size", [2**40, -3])
def test_a_constant_size_outside_int32_is_an_artifact_error(blobs, size):
    # 2**40 raised RuntimeError from torch (int32 overflow) while building the size table
    def edit(meta):
        meta["graph_program"]["size_index"][1] = size
        return meta
    _refused(blobs["chain3"], edit, "graph program is malformed .*size")


def test_a_graph_reading_a_dimension_the_module_lacks_is_an_artifact_error(blobs):
    def edit(meta):
        meta["graph_program"]["size_index"][0] = [5, 0]
        return meta
    _refused(blobs["chain3"], edit, "dimension 0 of parameter 5")
