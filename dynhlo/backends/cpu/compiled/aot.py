"""A compiled CPU program in an AOT artifact: its kernels' object code, loaded without compiling.

The payload of a compiled program (CpuProgram.to_payload), two sections:

    program   UTF-8 JSON {"evaluator": "compiled", "compiler": {...}, "kernels": [...],
              "plan": {...}}: `compiler` is machine.identity() where the kernels were
              compiled (llvmlite and LLVM versions, target triple, host CPU name and
              features, sha256 of the IR writer); `kernels` one {"key", "length", "sha256"}
              per distinct kernel form, `key` its cache key (machine.key_of: the canonical
              form with that identity); `plan` the entry computation's plan (plan_data:
              kernel roots, instructions computed inside kernels only, the called
              computations' plans), absent in artifacts written before plans were stored.
    objects   the kernels' relocatable objects (llvmlite's emit_object), back to back in the
              order of `kernels`; last, under its key, the object of the routines the runs
              of native calls are made of (native_routines.py: a fresh machine loading the
              artifact compiles nothing for them either).

Loading checks every object against its sha256 (besides the artifact's payload checksum:
a file whose checksums were all made again by hand still has to match each kernel's) and
compares the stored identity with this host's: when they are equal, the stored plan is
checked against the stored module and taken (rebuild_plan; without one, the plan is made
again), each kernel's group analysed and keyed again from the module (no IR written) and
its code taken from the stored objects by that key, nothing compiled and the disk cache not
read; when any field differs, the stored code is never loaded: the kernels are compiled
again from the stored module (a warning says which fields differ). Object code is plain
relocatable machine code, linked by LLVM's MCJIT (`add_object_file`): no pickle, no Python
code from the file; the plan is JSON data naming instructions.
"""

from __future__ import annotations

import hashlib
import json
import re

from ....errors import ArtifactError
from ....shapes.schedule import schedule
from ...plan.fusion import (FusionError, Plan, build_group, call_sites, in_memory, may_fuse,
                            size_only, steps_of)
from . import machine, native_routines
from .kernel_forms import Forms, generate_in
from .runner import CompiledEvaluator

EVALUATOR = "compiled"
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


class ArtifactEvaluator(CompiledEvaluator):
    """The compiled evaluator, remembering its plan and its kernels' keys (for an artifact)
    and, when `stored` is given (key -> object bytes, checked), taking every kernel from it;
    when `stored_plan` is given (plan_data's JSON data), taking the module's plan from it,
    checked against the module (rebuild_plan) instead of planning."""

    def __init__(self, inference, lowerings: dict | None = None, comm=None,
                 stored: dict | None = None):
        super().__init__(inference, lowerings, comm)
        self.stored = stored
        self.stored_plan = None
        self.plan = None                          # the entry computation's, once prepared
        self.kernel_keys: dict[str, None] = {}   # in order of first use

    def compile_kernels(self, sources: list) -> list:
        fns = machine.kernels(sources, self.stored)
        for source in sources:
            self.kernel_keys.setdefault(machine.key_of(source))
        return fns

    def plan_of(self, info):
        if self.plan is None and self.stored_plan is not None:
            plan = self.plan = rebuild_plan(self.stored_plan, info, self)
        else:
            plan = super().plan_of(info)
            if self.plan is None:
                self.plan = plan
        return plan


def to_payload(evaluator: ArtifactEvaluator) -> dict[str, bytes]:
    """The program and objects sections of a compiled program's kernels, the routines its
    runs of native calls are made of (native_routines.py) and its plan."""
    keys = list(evaluator.kernel_keys)
    objects = [machine.object_code(key) for key in keys]
    key, obj = native_routines.routines_object()
    if key not in evaluator.kernel_keys:
        keys.append(key)
        objects.append(obj)
    program = {"evaluator": EVALUATOR, "compiler": machine.identity(),
               "kernels": [{"key": key, "length": len(obj),
                            "sha256": hashlib.sha256(obj).hexdigest()}
                           for key, obj in zip(keys, objects, strict=True)]}
    if evaluator.plan is not None:
        program["plan"] = plan_data(evaluator.plan)
    return {"program": json.dumps(program, sort_keys=True).encode(),
            "objects": b"".join(objects)}


def is_compiled(payload: dict) -> bool:
    """Whether payload sections are a compiled program's (else the reference's marker)."""
    return set(payload) == {"program", "objects"}


def read_payload(payload: dict) -> tuple[dict, dict, dict | None]:
    """(stored compiler identity, key -> object bytes, the stored plan's JSON data or None
    in an artifact written before plans were stored) of a compiled program's sections.

    Raises:
        ArtifactError: the program section is not the JSON this module writes, the objects'
            lengths do not add up to the section, or an object does not match its sha256
            (the message names the kernel); the stored plan has not plan_data's form.
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
    plan = program.get("plan")
    try:
        malformed = plan is not None and not _plan_ok(plan)
    except RecursionError:   # calls nested deeper than any module's
        malformed = True
    if malformed:
        raise ArtifactError("the cpu backend cannot load the program section: its stored "
                            "plan is malformed; recompile the module")
    return {k: compiler[k] for k in machine.IDENTITY}, objects, plan


def plan_data(plan: Plan) -> dict:
    """A computation's plan as JSON data, by instruction name: its kernels' roots (in run
    order), the instructions computed inside kernels only, and the plans of its calls
    ([call site, [one plan per called computation]])."""
    return {"kernels": [inst.name for inst in plan.kernels],
            "fused": sorted(inst.name for inst in plan.fused),
            "calls": [[inst.name, [plan_data(sub) for sub in subs]]
                      for inst, subs in plan.calls.items()]}


def _names_ok(names) -> bool:
    return isinstance(names, list) and all(isinstance(n, str) for n in names)


def _plan_ok(data) -> bool:
    """Whether `data` has plan_data's form (names are checked against the module later)."""
    if not isinstance(data, dict) or set(data) != {"kernels", "fused", "calls"} or \
            not _names_ok(data["kernels"]) or not _names_ok(data["fused"]) or \
            not isinstance(data["calls"], list):
        return False
    return all(isinstance(c, list) and len(c) == 2 and isinstance(c[0], str) and
               isinstance(c[1], list) and all(_plan_ok(sub) for sub in c[1])
               for c in data["calls"])


def rebuild_plan(data: dict, info, evaluator: ArtifactEvaluator) -> Plan:
    """The plan that stored `data` (plan_data's) names for `info`, checked against what the
    module determines, as the GPU's plan/check.py checks its stored plans: the run order is
    the module's schedule; every instruction a kernel computes is one a CPU kernel may
    (fusion.may_fuse); nothing computed inside kernels only is read from memory; the call
    sites are the module's. Each kernel's group is then made from the module (fusion.
    build_group) and analysed and keyed again (kernels.generate), so a kernel's object code
    is the one of the form its group has, whatever the file says: what the stored plan
    spares is the fusion search (its rounds of retries), not the checks. A group of the
    same structure as one analysed before (kernel_forms.signature: everything the analysis
    reads, by position) takes that analysis, remapped to its own instructions.

    Raises:
        ArtifactError: a name the computation lacks, or a plan the module does not allow
            (the message names the instruction and the computation).
    """
    comp = info.computation
    order = schedule(info)
    by_name = {inst.name: inst for inst in order}
    roots = _instructions(data["kernels"], by_name, comp)
    fused = set(_instructions(data["fused"], by_name, comp))
    inside = fused | set(roots)
    if len(inside) != len(fused) + len(roots):
        raise _differs(comp, "names a kernel root twice, or as computed inside a kernel")
    rules = evaluator._rules
    for inst in order:
        if inst in inside and not may_fuse(info, inst, rules):
            raise _differs(comp, f"computes '{inst.name}' ({inst.opcode.value}) in a "
                                 "kernel, which no cpu kernel may")
    skipped = size_only(info, order, inside)
    memory = in_memory(info, order, inside, skipped)
    for inst in order:
        if inst in fused and (inst in memory or inst in skipped):
            raise _differs(comp, f"keeps '{inst.name}' inside kernels only, but it is read "
                                 "from memory")
    position = {inst: k for k, inst in enumerate(order)}
    evaluator._position[id(info)] = position
    kernels = {}
    forms = Forms()   # this computation's groups, analysed once per structure
    for root in roots:
        group = build_group(info, position, root, fused, set())
        try:
            kernels[root] = generate_in(forms, group, info, position)
        except FusionError as exc:
            raise _differs(comp, f"makes kernel '{root.name}' of a group that is not one "
                                 f"kernel ({exc})") from None
    plan = Plan(info, order, kernels, fused=fused, skipped=skipped)
    sites = {inst.name: inst for inst in call_sites(info, order, rules)}
    calls = {}
    for name, subs in data["calls"]:
        inst = sites.get(name)
        if inst is None or inst in calls or len(subs) != len(inst.called_computations()):
            raise _differs(comp, f"plans the calls of '{name}', which the module does not "
                                 "have (or not so many)")
        calls[inst] = [rebuild_plan(sub, info.calls[(inst, k)], evaluator)
                       for k, sub in enumerate(subs)]
    if len(calls) != len(sites):
        raise _differs(comp, "leaves out the plans of a call the module has")
    plan.calls = {inst: calls[inst] for inst in sites.values()}
    plan.steps = steps_of(plan)
    return plan


def _instructions(names: list, by_name: dict, comp) -> list:
    out = []
    for name in names:
        inst = by_name.get(name)
        if inst is None:
            raise _differs(comp, f"names an instruction '{name}' the computation does not "
                                 "run")
        out.append(inst)
    return out


def _differs(comp, what: str) -> ArtifactError:
    return ArtifactError(f"the compiled cpu program's stored plan of computation "
                         f"'{comp.name}' {what}; recompile the module")


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


def unusable(key: str) -> ArtifactError:
    """The error of a stored object LLVM cannot read or that lacks its kernel's function (a
    hand-made file whose checksums were made again)."""
    return ArtifactError(f"the compiled cpu program's object code of kernel {key[:16]} is not "
                         "an object file defining that kernel; recompile the module")
