"""AOT artifacts for the GPU: build a payload of cubins and read one back.

build_payload(program) has each generated kernel cross-compiled for the program's target
by the kernel -> cubin service (compile/cubins.py: fixed signatures, so one cubin serves
every size; parallel child processes, which need no GPU; the one disk cache) and stores
the cubins with the plan as data: the one description of the program an artifact holds.

The payload: "gpu_program.json" (format version, target, precision, the plan as data
(plan/data.py), per plan kernel its source hash, cubin key and signature, per distinct cubin
its entry name, warps and shared memory, and, when the module takes the graph path, the
graph's kernel forms: per form (graph/kernels.py form_of) its buffer types, launch facts and
cubin key) and "cubin_<key>.cubin". load_payload rebuilds the plan from that data (no
planning, no code generation), lowers it to the launch list and, for a graph module, builds
the graph program from that list (graph/plan.py with kernels.StoredForms: no kernel source
generated), each launch given the cubin of its form; the cubins launch through the CUDA
driver API (launch/launcher.py). The payload is untrusted: before any cubin loads, the plan
is checked against what its module determines (plan/check.py: each kernel's inputs,
reductions and domain, the steps), each kernel's launch facts against its plan and its cubin
(signature, warps, constexprs, the target's shared-memory limit), and each graph launch's
facts (derived from the checked plan, as are its buffers and sizes) against its form's
stored ones and its cubin's warps. A cubin is code from the file: these checks catch
inconsistent or edited launch data, not a cubin built to misbehave.

Format 3 payloads stored the graph program itself beside the plan ("graph_program"); they
still load, that program read by graph/data.py, which checks each launch's buffers, size
offsets and grid.
"""

from __future__ import annotations

import hashlib
import json

from ...errors import ArtifactError, UnsupportedError, malformed_as_artifact_error
from ...shapes.dynamic import ComputationInfo
from ...options import strict_precision
from . import mode
from .compile import cubins
from .compile.cubins import parse_target, signature
from .graph import wanted_program
from .graph.data import MAX_CONSTEXPR, WARPS, from_data
from .graph.kernels import StoredForms, form_id, form_of
from .graph.plan import GraphRefusal, build
from .launch.launcher import cubin_launcher
from .plan.check import check_plan
from .plan.data import plan_from_data, plan_to_data
from .plan.fusion import kernels_of
from .plan.schedule import lower
from .precision import HIGHEST

# The payload format; a payload of another version is refused (recompile it).
#   1 (2026-11-30): first version; load re-planned the module and regenerated the kernels
#     to match their source hashes.
#   2 (2026-12-01): the plan is stored as data ("plan"); load neither plans nor generates.
#   3 (2026-12-01): each distinct cubin stored once ("cubin_<key>.cubin"; kernels name
#     theirs by key) and the graph path's program as data ("graph_program") with its
#     cubins: a loaded artifact replays its CUDA graph with zero compilations.
#   (2026-12-01, still 3) "precision": the compile option (gpu/precision.py); a payload
#     without it was compiled before the option, so as "highest".
#   4 (2026-12-06): one program description, the plan: the graph program is no longer
#     stored but built from the plan on load; "graph_forms" lists the graph's kernel forms
#     (graph/kernels.py form_of) with their cubins. Format 3 payloads still load (their
#     stored graph program read by graph/data.py; tests/golden/test_gpu_payload_formats.py).
#     Since the graph program is rebuilt, a change to how graph/plan.py builds it from a
#     plan, or to a form's launch convention, is a new format.
FORMAT = 4
READS = (3, 4)   # the formats load_payload reads


def build_payload(plan, kernels: list, target: str, precision: str) -> dict[str, bytes]:
    """Compile the plan's kernels (`kernels_of(plan)`) for `target`; the AOT payload.

    Each distinct kernel is compiled once (in parallel, through the cubin cache:
    compile/cubins.py) and stored once as `cubin_<key>.cubin`; `kernels` name theirs by key.
    When the module takes the graph path, the cubins of its graph's kernel forms are stored
    too, each form with its launch facts ("graph_forms"); the graph program is not (load
    builds it from the plan). `precision` (the compile option) is stored: the graph's
    kernels are built with it, and the loaded program's cuBLAS dots follow it."""
    cc = parse_target(target)
    specs = [cubins.kernel_spec(k) for k in kernels]
    graph = wanted_program(plan, precision)
    graph_specs = cubins.step_specs(graph) if graph is not None else []
    compiled = cubins.compile_distinct(specs + graph_specs, cc, cubins.cache_dir())
    keys = [cubins.spec_key(s, cc) for s in specs]
    step_keys = [cubins.spec_key(s, cc) for s in graph_specs]
    index = {id(k): i for i, k in enumerate(kernels)}
    meta = {"format": FORMAT, "target": target, "precision": precision,
            "plan": plan_to_data(plan, index),
            "kernels": [{"sha256": _sha(spec["source"]), "cubin": key,
                         "signature": spec["signature"]} for spec, key in zip(specs, keys,
                                                                              strict=True)],
            "graph_forms": _forms(graph, step_keys) if graph is not None else None,
            "cubins": {k: compiled[k][1] for k in sorted(set(keys) | set(step_keys))}}
    payload = {f"cubin_{k}.cubin": compiled[k][0] for k in meta["cubins"]}
    payload["gpu_program.json"] = json.dumps(meta, sort_keys=True).encode()
    return payload


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _forms(prog, keys: list) -> list:
    """Per distinct kernel form of a graph program (with its buffer types), the form, the
    types, the launch facts and the cubin key: [{form, types, block, num_warps, nsizes,
    per_program, cubin}], in order of first launch."""
    out: dict = {}
    for step, key in zip(prog.steps, keys, strict=True):
        kernel = step.kernel
        types = [prog.dtypes[s] for s in step.inputs + [step.out]]
        entry = {"form": form_of(kernel), "types": types, "cubin": key, **_facts(kernel)}
        first = out.setdefault(form_id(kernel, types), entry)
        if first != entry:   # a form names one kernel: two cubins for one would be a bug
            raise AssertionError(f"graph kernel form {first['form']} has two cubins")
    return list(out.values())


def _facts(kernel) -> dict:
    """A graph kernel's launch facts that its cubin was compiled for or its launch uses."""
    return {"block": dict(kernel.block), "num_warps": kernel.num_warps,
            "nsizes": kernel.nsizes, "per_program": kernel.per_program}


def load_payload(payload: dict[str, bytes], info: ComputationInfo, target: str, module):
    """(schedule, launchers, graph, precision) of an AOT payload for `module`, whose entry's
    inference is `info`: the launch list of the stored plan (plan/schedule.py);
    launchers[id(kernel)] per plan kernel; graph: (cubin key -> launcher, the graph program:
    graph/plan.py GraphProgram) or None; precision: the `precision` compile option it was
    built with ("highest" when the payload predates the option: what it was compiled with).

    The plan is read from the payload's data, the graph program built from it (format 4;
    format 3 stored it) and each kernel launches its cubin: nothing is planned, no kernel
    source is generated, nothing is compiled.

    Raises:
        ArtifactError: an unreadable payload, another format version (recompile), another
            target, or a plan that is not what the module determines (plan/check.py).
        UnsupportedError: no CUDA device to launch on.
    """
    try:
        meta = json.loads(payload["gpu_program.json"])
    except (KeyError, ValueError, RecursionError) as exc:   # RecursionError: nested [[[...]]]
        raise ArtifactError(f"gpu payload has no readable gpu_program.json ({exc})") from None
    if not isinstance(meta, dict):
        raise ArtifactError("gpu payload's gpu_program.json is not a program (an object with "
                            "a plan and a list of kernels); recompile the artifact")
    version = meta.get("format")
    if version not in READS:
        raise ArtifactError(f"gpu payload format {version} is not one this dynhlo reads "
                            f"({', '.join(map(str, READS))}); recompile the artifact")
    if meta.get("target") != target:
        raise ArtifactError(f"the artifact's kernels are for {meta.get('target')}, not "
                            f"{target}; compile again with --target {target}")
    check_device(target)
    if not isinstance(meta.get("kernels"), list) or not isinstance(meta.get("plan"), dict):
        raise ArtifactError("gpu payload's gpu_program.json has no plan or no list of kernels; "
                            "recompile the artifact")
    plan = plan_from_data(meta["plan"], info)
    check_plan(plan)
    kernels = kernels_of(plan)
    if len(kernels) != len(meta["kernels"]):
        raise ArtifactError(f"gpu payload has {len(meta['kernels'])} kernels, its plan "
                            f"{len(kernels)}; recompile the artifact")
    _check_kernel_data(kernels, meta["kernels"])
    _check_launches(kernels, meta)
    precision = _precision(meta)
    schedule = lower(plan)
    prog = _graph_program(schedule, meta, precision, module)
    cubin = _cubins(meta, payload, parse_target(target))
    launchers = {id(k): cubin(meta["kernels"][k.index]["cubin"]) for k in kernels}
    graph = None
    if prog is not None:
        graph = ({key: cubin(key) for key in {step.key for step in prog.steps}}, prog)
    return schedule, launchers, graph, precision


def _graph_program(schedule, meta: dict, precision: str, module):
    """The payload's graph program, or None when it has none: format 4 builds it from the
    launch list (graph/plan.py, kernels.StoredForms) and gives each launch the cubin of its
    form; format 3 stored it (graph/data.py). Each launch's warps are its cubin's."""
    if meta["format"] == 3:
        if not meta.get("graph_program"):
            return None
        prog = from_data(meta["graph_program"], module)
    else:
        if meta.get("graph_forms") is None:
            return None
        with malformed_as_artifact_error("gpu payload graph forms"):
            try:
                forms = {json.dumps([f["form"], f["types"]]): f for f in meta["graph_forms"]}
            except RecursionError:   # a form nested deeper than json.dumps goes
                raise ValueError("nested too deep") from None
        try:
            prog = build(schedule, precision=precision, stored=StoredForms(forms))
        except GraphRefusal as exc:
            raise ArtifactError(f"gpu payload stores a graph, but its plan has none ({exc})"
                                "; recompile the artifact") from None
        for n, step in enumerate(prog.steps):
            step.key = _form_cubin(n, step, prog, forms)
    for n, step in enumerate(prog.steps):
        _check_warps(f"gpu payload graph launch {n}", step.kernel.num_warps, step.key, meta)
    return prog


def _form_cubin(n: int, step, prog, forms: dict) -> str:
    """The cubin key of graph launch `n`'s form; ArtifactError when the payload has no
    cubin for it or stores other launch facts for it than the plan gives."""
    types = [prog.dtypes[s] for s in step.inputs + [step.out]]
    entry = forms.get(form_id(step.kernel, types))
    what = f"gpu payload graph launch {n} ({form_of(step.kernel)[0]} kernel"
    if not isinstance(entry, dict):
        raise ArtifactError(f"{what}) has no cubin; recompile the artifact")
    facts = _facts(step.kernel)
    stored = {k: entry.get(k) for k in facts}
    if stored != facts:
        raise ArtifactError(f"{what}) is stored with launch facts {stored}, its plan gives "
                            f"{facts}; recompile the artifact")
    if not isinstance(entry.get("cubin"), str):
        raise ArtifactError(f"{what}) names no cubin; recompile the artifact")
    return entry["cubin"]


def _precision(meta: dict) -> str:
    """The payload's precision option; ArtifactError for a value dynhlo does not write."""
    return strict_precision(meta.get("precision", HIGHEST), "gpu payload")


def _cubins(meta: dict, payload: dict, cc: int):
    """cubin(key) -> its Launcher (launch/launcher.py), one per distinct cubin of the
    payload."""
    made: dict = {}

    def cubin(key: str):
        launcher = made.get(key)
        if launcher is None:
            name = f"cubin_{key}.cubin"
            if name not in payload or key not in meta.get("cubins", {}):
                raise ArtifactError(f"gpu payload has no {name}; recompile the artifact")
            _check_cubin_meta(key, meta["cubins"][key], cc)
            try:
                launcher = made[key] = cubin_launcher(payload[name], meta["cubins"][key])
            except ArtifactError:
                raise
            except Exception as exc:  # noqa: BLE001 - the driver refusing a crafted cubin
                raise ArtifactError(f"gpu payload cubin {key} does not load: "
                                    f"{type(exc).__name__}: {exc}") from None
        return launcher
    return cubin


def _check_kernel_data(kernels: list, metas) -> None:
    """ArtifactError unless each plan kernel names its own entry (indices 0..n-1, once each:
    a crafted index would launch another kernel's code on its buffers), each entry names a
    cubin, and block sizes are positive."""
    indices = [k.index for k in kernels]
    if sorted(i if isinstance(i, int) and not isinstance(i, bool) else -1
              for i in indices) != list(range(len(kernels))):
        raise ArtifactError(f"gpu payload plan kernel indices {indices} are not 0..."
                            f"{len(kernels) - 1} once each; recompile the artifact")
    for i, m in enumerate(metas):
        if not (isinstance(m, dict) and isinstance(m.get("cubin"), str)):
            raise ArtifactError(f"gpu payload kernel {i} names no cubin; recompile the "
                                "artifact")
    for k in kernels:
        if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                   for v in k.block.values()):
            raise ArtifactError(f"gpu payload kernel {k.index} has block sizes {k.block}; "
                                "recompile the artifact")


def _check_cubin_meta(key: str, m, cc: int) -> None:
    """ArtifactError unless a cubin's metadata has the fields a launch reads, of sane values:
    its shared memory at most what one block of the target may have."""
    ok = isinstance(m, dict) and isinstance(m.get("name"), str) \
        and all(isinstance(m.get(k), int) and not isinstance(m.get(k), bool)
                for k in ("shared", "num_warps")) \
        and m["num_warps"] in WARPS
    if not ok:
        raise ArtifactError(f"gpu payload cubin {key} has malformed metadata; recompile the "
                            "artifact")
    most = max_shared(cc)
    if not 0 <= m["shared"] <= most:
        raise ArtifactError(f"gpu payload cubin {key} asks for {m['shared']} bytes of shared "
                            f"memory; a block of sm_{cc} has at most {most}; recompile the "
                            "artifact")


# Shared memory one block may have (opt-in maximum), per compute capability: CUDA C
# Programming Guide, "Technical Specifications per Compute Capability". Others: Hopper's.
_MAX_SHARED = {70: 96 * 1024, 72: 48 * 1024, 75: 64 * 1024, 80: 163 * 1024, 86: 99 * 1024,
               87: 163 * 1024, 89: 99 * 1024, 90: 227 * 1024, 100: 227 * 1024,
               120: 99 * 1024}


def max_shared(cc: int) -> int:
    """The most shared memory (bytes) one block of sm_<cc> may use."""
    return _MAX_SHARED.get(cc, 227 * 1024)


def _check_launches(kernels: list, meta: dict) -> None:
    """ArtifactError unless each plan kernel's launch facts agree with its entry and cubin:
    the entry's signature is the one the plan's buffers and sizes make (the kernel gets
    pointers of those types and that many sizes), the cubin's warps are the kernel's (a
    launch has 32 threads per warp the cubin was compiled for), constexprs are in range,
    and kernels of one cubin agree on all of it (its key is a hash of them)."""
    by_key: dict = {}
    for k in kernels:
        entry = meta["kernels"][k.index]
        try:
            expected = signature(k)[0]
        except KeyError as exc:   # an element type no kernel pointer has
            raise _kernel_error(k, f"reads or writes {exc}, which no kernel takes") from None
        if entry.get("signature") != expected:
            raise _kernel_error(k, f"has signature {entry.get('signature')}, its plan "
                                   f"makes {expected}")
        if k.kind not in ("elementwise", "row") or not all(
                v <= MAX_CONSTEXPR for v in k.block.values()):
            raise _kernel_error(k, f"is a {k.kind!r} kernel of blocks {k.block}")
        _check_warps(f"gpu payload kernel {k.index}", k.num_warps, entry["cubin"], meta)
        facts = (expected, k.block, k.num_warps, k.kind)
        first = by_key.setdefault(entry["cubin"], (k.index, facts))
        if first[1] != facts:
            raise _kernel_error(k, f"runs cubin {entry['cubin']} as kernel {first[0]} does, "
                                   "with another signature, blocks, warps or kind")


def _check_warps(what: str, warps, key, meta: dict) -> None:
    cubins = meta.get("cubins")
    cubin = cubins.get(key) if isinstance(cubins, dict) and isinstance(key, str) else None
    if not isinstance(cubin, dict) or cubin.get("num_warps") != warps:
        raise ArtifactError(f"{what} launches {warps} warps, its cubin {key} was compiled "
                            f"for {cubin.get('num_warps') if isinstance(cubin, dict) else None}"
                            "; recompile the artifact")


def _kernel_error(kernel, why: str) -> ArtifactError:
    return ArtifactError(f"gpu payload kernel {kernel.index} ('{kernel.group.root.name}') "
                         f"{why}; recompile the artifact")


def check_device(target: str) -> None:
    """UnsupportedError without a CUDA device, ArtifactError when it is not `target`."""
    if not mode.cuda_present():
        raise UnsupportedError(
            f"loading a gpu artifact needs a CUDA device (its kernels are {target} cubins), "
            "and this machine has none; to run its module here, compile the HLO text for "
            "Triton's interpreter: `dynhlo run MODULE.hlo --backend gpu --interpret` or "
            "dynhlo.compile(text, backend='gpu', interpret=True)")
    import torch
    major, minor = torch.cuda.get_device_capability()
    if f"sm_{major}{minor}" != target:
        raise ArtifactError(f"the artifact's kernels are for {target} but this GPU is "
                            f"sm_{major}{minor}; recompile for it")

