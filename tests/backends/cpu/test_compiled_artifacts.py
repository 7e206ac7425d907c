"""Compiled CPU artifacts (backends/cpu/compiled/aot.py): the kernels' object code in the file.

On a host of the same compiler identity a load compiles nothing (the compile entry is made to
raise, the process's engine and the disk cache are fresh and empty); object code that does
not match its checksum is refused naming the file; on another host (identity edited in the
file) the stored code is never run (replaced by zeros whose checksums match) and the kernels
are compiled again with a warning. Results are the reference evaluator's bit for bit
(correctly rounded elementwise work).
"""

from __future__ import annotations

import hashlib
import json
import warnings

import numpy as np
import pytest

import dynhlo
from dynhlo.backends.cpu.compiled import machine, native_routines
from dynhlo.runtime import artifact
from tests.runtime.test_artifact import resection

MODULE = """
HloModule scaled
ENTRY main {
  x = f32[<=16,8] parameter(0)
  b = f32[8] parameter(1)
  c = f32[] constant(0.5)
  cb = f32[<=16,8] broadcast(c), dimensions={}
  bb = f32[<=16,8] broadcast(b), dimensions={1}
  m = f32[<=16,8] multiply(x, cb)
  s = f32[<=16,8] add(m, bb)
  e = f32[<=16,8] exponential(s)
  q = f32[<=16,8] sqrt(e)
  ROOT r = f32[<=16,8] subtract(q, x)
}
"""


def _args(n: int) -> list:
    gen = np.random.default_rng(n)
    return [gen.standard_normal((n, 8)).astype(np.float32),
            gen.standard_normal(8).astype(np.float32)]


def _check_runs(exe) -> None:
    reference = dynhlo.compile(MODULE, backend="cpu", reference=True)
    for n in (0, 1, 5, 16):
        np.testing.assert_array_equal(exe(*_args(n)), reference(*_args(n)))


@pytest.fixture
def saved(tmp_path):
    """The path of a compiled CPU artifact of MODULE."""
    path = tmp_path / "scaled.dynhlo"
    dynhlo.compile(MODULE, backend="cpu", reference=False).save(path)
    return path


class _Compiles:
    """The kernels compiled since the fixture began (their keys); `forbidden` makes the
    compile entry raise instead."""

    def __init__(self):
        self.keys: list = []
        self.forbidden = False


@pytest.fixture
def fresh_host(monkeypatch, tmp_path):
    """A process with no kernel loaded and an empty disk cache; its compiles are counted."""
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(machine, "_state", {})   # the old engine stays alive in monkeypatch
    compiles = _Compiles()
    real = machine._compile_new

    def compile_new(ir_text, key):
        if compiles.forbidden:
            raise AssertionError("a kernel was compiled while loading a compiled artifact")
        compiles.keys.append(key)
        return real(ir_text, key)

    monkeypatch.setattr(machine, "_compile_new", compile_new)
    return compiles


def _program(path) -> dict:
    a = artifact.read_artifact(path.read_bytes())
    return json.loads(a.sections[a.header["buckets"][0]["program"]["program"]])


def test_a_compiled_artifact_holds_object_code_keyed_by_the_compiler_identity(saved):
    program = _program(saved)
    assert program["evaluator"] == "compiled"
    assert program["compiler"] == machine.identity()
    assert set(program["compiler"]) == {"llvmlite", "llvm", "triple", "cpu", "features",
                                        "writer"}
    # x*0.5 + b, sqrt(e) - x, and the routines of runs of native calls
    assert len(program["kernels"]) == 3
    assert program["kernels"][-1]["key"] == machine.module_key(native_routines._IR)
    a = artifact.read_artifact(saved.read_bytes())
    objects = a.sections["bucket0.objects"]
    assert len(objects) == sum(k["length"] for k in program["kernels"])
    assert objects[:4] == b"\x7fELF" or objects[:4] in (b"\xcf\xfa\xed\xfe", b"d\x86\0\0")


def test_loading_on_the_same_host_compiles_nothing(saved, fresh_host, tmp_path):
    fresh_host.forbidden = True
    exe = dynhlo.load(saved)
    assert exe.program.evaluator.stored is not None
    _check_runs(exe)
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.o"))
    again = tmp_path / "again.dynhlo"   # a loaded program saves its kernels again
    exe.save(again)
    assert _program(again)["kernels"] == _program(saved)["kernels"]


PRODUCTS = """
HloModule products
ENTRY main {
  x = f32[<=8,16] parameter(0)
  w = f32[16,16] parameter(1)
  d1 = f32[<=8,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[<=8,16] tanh(d1)
  m = f32[<=8,16] multiply(t, x)
  ROOT d2 = f32[<=8,16] dot(m, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
"""


def test_a_fresh_host_takes_the_routines_of_runs_of_native_calls_from_the_artifact(
        tmp_path, fresh_host, monkeypatch):
    """Products and kernels in a row run as one native call through routines compiled once
    per host; a host loading the artifact with an empty cache takes their object code from
    it: nothing compiled, the results the reference's."""
    path = tmp_path / "products.dynhlo"
    dynhlo.compile(PRODUCTS, backend="cpu", reference=False).save(path)
    # (the routines of this process left alive for the specs other tests made)
    monkeypatch.setattr(native_routines, "_state", {})
    monkeypatch.setattr(native_routines, "_offered", {})

    def no_compile(*args, **kwargs):
        raise AssertionError("LLVM compiled code while loading a compiled artifact")
    monkeypatch.setattr(machine, "_compile", no_compile)
    fresh_host.forbidden = True
    exe = dynhlo.load(path)
    reference = dynhlo.compile(PRODUCTS, backend="cpu", reference=True)
    gen = np.random.default_rng(4)
    w = gen.standard_normal((16, 16)).astype(np.float32)
    for n in (3, 3, 3, 8, 1):
        x = gen.standard_normal((n, 16)).astype(np.float32)
        np.testing.assert_array_equal(exe(x, w), reference(x, w))
    assert native_routines._state   # the runs' routines were used, from the artifact


def test_the_compiled_artifact_is_the_reference_for_a_reference_program(tmp_path):
    path = tmp_path / "ref.dynhlo"
    dynhlo.compile(MODULE, backend="cpu", reference=True).save(path)
    a = artifact.read_artifact(path.read_bytes())
    assert a.sections["bucket0.program"] == b'{"evaluator": "numpy"}'
    assert "bucket0.objects" not in a.sections


def test_tampered_object_code_is_refused_by_its_checksum(saved, fresh_host):
    blob = bytearray(saved.read_bytes())
    at = blob.rindex(b"\x7fELF") + 64
    blob[at] ^= 0xFF
    saved.write_bytes(bytes(blob))
    with pytest.raises(dynhlo.ArtifactError, match=f"^{saved}: corrupted artifact: the "
                                                   "payload checksum does not match"):
        dynhlo.load(saved)

    def flip(header, sections):   # every checksum of the file made again, but the kernel's
        obj = bytearray(sections["bucket0.objects"])
        obj[-100] ^= 0xFF
        sections["bucket0.objects"] = bytes(obj)

    saved.write_bytes(resection(bytes(blob), flip))
    with pytest.raises(dynhlo.ArtifactError, match=f"^{saved}: corrupted artifact: the "
                                                   r"object code of cpu kernel \d"):
        dynhlo.load(saved)
    assert fresh_host.keys == []


def _edit_program(path, edit) -> None:
    def change(header, sections):
        program = json.loads(sections["bucket0.program"])
        edit(program, sections)
        sections["bucket0.program"] = json.dumps(program).encode()
    path.write_bytes(resection(path.read_bytes(), change))


def test_another_cpu_compiles_again_and_never_runs_the_stored_code(saved, fresh_host):
    def other_host(program, sections):
        program["compiler"]["cpu"] = "other-cpu"
        program["compiler"]["features"] += ",+imaginary-extension"
        zeros = b"\0" * len(sections["bucket0.objects"])   # would crash if it ran
        sections["bucket0.objects"] = zeros
        for k in program["kernels"]:
            k["sha256"] = hashlib.sha256(b"\0" * k["length"]).hexdigest()

    _edit_program(saved, other_host)
    with pytest.warns(RuntimeWarning, match=r"module 'scaled': the artifact's cpu kernels "
                      r"were compiled with another compiler or CPU \(cpu 'other-cpu' \(here "
                      r".*CPU features \(stored only: \+imaginary-extension; here only: none\)"
                      r"\); compiling them again"):
        exe = dynhlo.load(saved)
    assert len(fresh_host.keys) == 2
    _check_runs(exe)


def test_another_llvm_compiles_again(saved, fresh_host):
    _edit_program(saved, lambda program, _: program["compiler"].update(llvm="1.0.0"))
    with pytest.warns(RuntimeWarning, match=r"llvm '1.0.0' \(here '\d+"):
        exe = dynhlo.load(saved)
    assert len(fresh_host.keys) == 2
    _check_runs(exe)


@pytest.mark.parametrize("edit, message", [
    (lambda p, s: s.update({"bucket0.objects": s["bucket0.objects"][
        p["kernels"].pop(0)["length"]:]}), "lacks the object code of kernel"),
    (lambda p, s: p.pop("compiler"), "has no compiler identity"),
    (lambda p, s: p["kernels"][0].update(length=-1), "malformed kernel list"),
    (lambda p, s: p["kernels"].append(p["kernels"][0]), "lists a kernel twice"),
    (lambda p, s: p["kernels"][0].update(length=p["kernels"][0]["length"] + 1),
     "their lengths add up to"),
])
def test_a_hand_made_program_section_is_refused(saved, fresh_host, edit, message):
    _edit_program(saved, edit)
    with pytest.raises(dynhlo.ArtifactError, match=f"^{saved}: .*{message}"):
        dynhlo.load(saved)


def test_the_environment_does_not_turn_a_compiled_artifact_into_the_reference(
        saved, monkeypatch):
    monkeypatch.setenv("DYNHLO_CPU_COMPILED", "0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exe = dynhlo.load(saved)
    assert not exe.program.reference
    _check_runs(exe)


def test_the_artifact_stores_its_plan_and_a_load_does_not_plan(saved, fresh_host,
                                                                monkeypatch):
    assert _program(saved)["plan"] == {"kernels": ["s", "r"], "fused": ["bb", "c", "cb", "m", "q"],
                                       "calls": []}
    from dynhlo.backends.cpu.compiled import runner

    def refuse(*args, **kwargs):
        raise AssertionError("a load with a stored plan planned again")

    monkeypatch.setattr(runner, "plan_computation", refuse)
    fresh_host.forbidden = True
    _check_runs(dynhlo.load(saved))


def test_an_artifact_without_a_stored_plan_plans_again(saved, fresh_host):
    _edit_program(saved, lambda program, _: program.pop("plan"))   # as written before plans
    fresh_host.forbidden = True
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exe = dynhlo.load(saved)
    _check_runs(exe)


def _deep(depth: int) -> dict:
    """A plan whose calls nest `depth` deep."""
    plan = {"kernels": [], "fused": [], "calls": []}
    for _ in range(depth):
        plan = {"kernels": [], "fused": [], "calls": [["w", [plan]]]}
    return plan


def _set(key, value):
    return lambda p, s: p["plan"].update({key: value})


@pytest.mark.parametrize("edit, message", [
    (_set("kernels", 3), "its stored plan is malformed"),
    (_set("calls", [["s"]]), "its stored plan is malformed"),
    (lambda p, s: p["plan"].pop("fused"), "its stored plan is malformed"),
    (_set("calls", [["w", [_deep(150)]]]), "stored plan"),   # no RecursionError
    (_set("kernels", ["s", "nope"]), "names an instruction 'nope' the computation does not"),
    (_set("kernels", ["s", "r", "s"]), "names a kernel root twice"),
    (_set("kernels", ["s", "r", "q"]), "names a kernel root twice"),
    (_set("kernels", ["s", "e", "r"]), r"computes 'e' \(exponential\) in a kernel, which no"),
    (_set("fused", ["bb", "c", "cb", "m", "q", "r"]), "names a kernel root twice"),
    (_set("fused", ["bb", "c", "cb", "m", "q", "s"]), "names a kernel root twice"),
    # s on the reference lowering reads m and bb, which no step computes then
    (_set("kernels", ["r"]), "keeps 'bb' inside kernels only, but it is read from memory"),
    (_set("calls", [["r", []]]), "plans the calls of 'r', which the module does not have"),
    # a plan that makes another group than the stored objects' needs code the file lacks
    (lambda p, s: p["plan"].update(kernels=["m", "s", "r"], fused=["bb", "c", "cb", "q"]),
     "lacks the object code of kernel"),
    (_set("fused", ["bb", "c", "cb", "m", "q", "x"]), r"computes 'x' \(parameter\)"),
])
def test_a_tampered_stored_plan_is_refused(saved, fresh_host, edit, message):
    _edit_program(saved, edit)
    fresh_host.forbidden = True
    with pytest.raises(dynhlo.ArtifactError, match=f"^{saved}: .*{message}"):
        dynhlo.load(saved)


def test_a_stored_plan_cannot_hand_a_group_another_kernels_code(saved, fresh_host):
    """The stored objects are keyed by form and the forms come from the module: listing the
    kernels in another order or with a group split differently never pairs a group with
    another group's code (the load computes the same values or is refused)."""
    _edit_program(saved, _set("kernels", ["r", "s"]))
    fresh_host.forbidden = True
    _check_runs(dynhlo.load(saved))


WHILE_MODULE = """
HloModule loop
body {
  p = (s32[], f32[<=16,8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[<=16,8] get-tuple-element(p), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  h = f32[] constant(0.5)
  hb = f32[<=16,8] broadcast(h), dimensions={}
  y = f32[<=16,8] multiply(x, hb)
  z = f32[<=16,8] add(y, x)
  ROOT t = (s32[], f32[<=16,8]) tuple(j, z)
}
cond {
  p = (s32[], f32[<=16,8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  three = s32[] constant(3)
  ROOT lt = pred[] compare(i, three), direction=LT
}
ENTRY main {
  x = f32[<=16,8] parameter(0)
  zero = s32[] constant(0)
  t = (s32[], f32[<=16,8]) tuple(zero, x)
  w = (s32[], f32[<=16,8]) while(t), condition=cond, body=body
  ROOT r = f32[<=16,8] get-tuple-element(w), index=1
}
"""


def test_the_plans_of_called_computations_are_stored_and_checked(tmp_path, fresh_host):
    path = tmp_path / "loop.dynhlo"
    dynhlo.compile(WHILE_MODULE, backend="cpu", reference=False).save(path)
    plan = _program(path)["plan"]
    assert [site for site, _ in plan["calls"]] == ["w"]
    assert plan["calls"][0][1][1]["kernels"] == ["j", "z"]   # cond, then body
    fresh_host.forbidden = True
    x = np.random.default_rng(0).standard_normal((5, 8)).astype(np.float32)
    want = dynhlo.compile(WHILE_MODULE, backend="cpu", reference=True)(x)
    np.testing.assert_array_equal(dynhlo.load(path)(x), want)

    def body_reads_z_in_a_kernel(program, _):
        program["plan"]["calls"][0][1][1]["fused"].append("t")

    _edit_program(path, body_reads_z_in_a_kernel)
    with pytest.raises(dynhlo.ArtifactError, match=f"^{path}: .*stored plan of computation "
                                                   "'body' computes 't' \\(tuple\\)"):
        dynhlo.load(path)


def _restored(index: int, make):
    """An edit of the program section replacing kernel `index`'s object with `make(objects,
    entries)`, its length and sha256 made again (the file's own checksums too)."""
    def edit(program, sections):
        entries = program["kernels"]
        data, parts, offset = sections["bucket0.objects"], [], 0
        for entry in entries:
            parts.append(data[offset:offset + entry["length"]])
            offset += entry["length"]
        parts[index] = make(parts)
        entries[index].update(length=len(parts[index]),
                              sha256=hashlib.sha256(parts[index]).hexdigest())
        sections["bucket0.objects"] = b"".join(parts)
    return edit


@pytest.mark.parametrize("make", [
    lambda parts: b"",                                   # LLVM's reader returns none
    lambda parts: bytes(len(parts[0])),                  # zeros
    lambda parts: parts[0][:len(parts[0]) // 2],         # truncated
    lambda parts: parts[0] if len(parts) > 1 else b"",   # another kernel's object
], ids=["empty", "zeros", "truncated", "another-kernels"])
@pytest.mark.parametrize("last", [2, 1], ids=["kernel", "routines"])
def test_stored_objects_that_are_not_their_kernels_object_files_are_refused(
        saved, fresh_host, make, last):
    # each crashed the process (a null object file linked, or a call to address 0); the
    # last object is the routines' of runs of native calls (native_routines.py)
    index = len(_program(saved)["kernels"]) - last
    _edit_program(saved, _restored(index, make))
    with pytest.raises(dynhlo.ArtifactError, match=f"^{saved}: the compiled cpu program's "
                                                   "object code of kernel [0-9a-f]{16} is "
                                                   "not an object file defining that kernel"):
        dynhlo.load(saved)
    assert fresh_host.keys == []
