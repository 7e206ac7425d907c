"""The graph path: a whole executable captured once as a CUDA graph, replayed at every size.

DESIGN.md section 4's plan. A plain call walks the plan in Python, one launch per kernel
and per cuBLAS product, each with its grid and sizes from the actual shapes: a deep model
is all host overhead (issue 10: ~1,100 steps for a 48-layer transformer). Here:

- plan.py      turns the launch list (plan/schedule.py) into kernel and product launches
               over value slots, each library step as rules.py's `capture` column says;
               sizes become slots of one int32 device buffer; what cannot be captured (host
               fallbacks, other library ops, loops, data-dependent sizes) is a GraphRefusal
               and the module keeps the plain path (or, with graph=True, segments);
- attention.py replaces a q·kᵀ product, the softmax of its rows and the product by v by
               one online-softmax launch (two when the keys are split over programs);
- kernels.py   takes each generated kernel in codegen's BUFFER form (its sizes read from that
               buffer, striding over the blocks of the actual size, so a grid fixed at
               capture does work proportional to the actual size; kernels/codegen.py writes
               it, as it writes a product's epilogue); products are Triton matmuls reading M/N/K
               from it (f32 in IEEE arithmetic unless the precision option allows
               TF32: gpu/precision.py);
- buffers.py   a static buffer plan at the bound with liveness-based reuse;
- runner.py    per call: sizes, dynamic arguments into their static buffers, replay, copy
               the root out;
- segments.py  a launch list that is not one graph split around the items that need the
               host into captured segments (a GraphProgram each) and host steps;
- walk.py      per call: the segments (a GraphRunner each) and host steps (the plain
               Runner's) in order.

`make(program)` returns (GraphRunner or SegmentedRunner or None, the reason when None);
GpuProgram (program.py) decides whether to ask, once per program. A
module that needs segments takes them only with graph=True for now (not yet verified on a
GPU); the default keeps its plain path, and so does an AOT artifact of it (the payload
carries the graph kernel forms of a whole-graph module only; load builds that graph
program from the stored plan, aot.py).
"""

from __future__ import annotations

from ....hlo.opcodes import Opcode
from . import segments
from .plan import GraphRefusal, build
from .runner import GraphRunner
from .walk import SegmentedRunner


# A replay costs the host more than a few direct launches (size fills, argument and result
# copies, the graph launch: ~40-80 us on the H200's host, 2026-12-01, against ~10 us for a
# one-kernel module's plain call), so by default only programs of at least this many
# launches take the graph path; `graph=True` forces it. Segments of fewer launches stay on
# the plain path even with graph=True.
MIN_LAUNCHES = 16


def make(program, launchers: dict | None = None, force: bool = False, prog=None):
    """(GraphRunner, None) for a GpuProgram whose launch list can be captured, else
    (None, why). `launchers` maps cubin key -> launcher (AOT); the others are compiled
    (compile/cubins.py: its cache, else parallel children). `prog`: a GraphProgram
    already made (an artifact's). Unless `force`, a program of fewer than MIN_LAUNCHES
    launches keeps the plain path (`wanted`). With `force` (graph=True), a list that cannot
    be one graph runs as captured segments between host steps (SegmentedRunner) when one
    of its runs has MIN_LAUNCHES launches."""
    if prog is None:
        prog, why = wanted(program.schedule, program.precision, force)
        if prog is None:
            if not force or launchers:
                return None, why
            return _segmented(program, why)
    return GraphRunner(prog, program.device, program.interpret, launchers), None


def wanted(schedule, precision: str, force: bool = False) -> tuple:
    """(GraphProgram, None) of a launch list (or fusion plan) the graph runner takes, its
    products as the `precision` option says; (None, why) when it cannot be captured or,
    unless `force`, has fewer than MIN_LAUNCHES launches (the plain path is faster)."""
    try:
        prog = build(schedule, precision=precision)
    except GraphRefusal as exc:
        return None, str(exc)
    if not force and len(prog.steps) < MIN_LAUNCHES:
        return None, f"{len(prog.steps)} launches: the plain path is faster below {MIN_LAUNCHES}"
    return prog, None


def _segmented(program, why: str):
    """(SegmentedRunner, None), or (None, why) when no run between host steps is long
    enough to capture."""
    split = segments.split(program.schedule, MIN_LAUNCHES, program.precision)
    if not split.segments:
        return None, (f"{why}; no run between the steps that need the host has "
                      f"{MIN_LAUNCHES} launches to capture")
    return SegmentedRunner(split, program.plan, program.runner, program.device,
                           program.interpret), None


def wanted_program(plan, precision: str):
    """The GraphProgram of a plan that the default options would run (None: the plain
    path): the program whose kernel forms an artifact stores (aot.py)."""
    return wanted(plan, precision)[0]


def summary(program) -> str:
    """What `dynhlo inspect --backend gpu` prints: the graph's launches, distinct kernels
    and buffers, or the instruction that keeps the module on the plain path, then the
    segments graph=True would capture and every split point (instruction, opcode, why it
    needs the host), in the order they run."""
    try:
        prog = build(program.schedule, precision=program.precision)
    except GraphRefusal as exc:
        return (f"gpu graph: off; plain path (not capturable: {exc})\n"
                + _segments_summary(segments.split(program.schedule, MIN_LAUNCHES,
                                                   program.precision)))
    from ...plan.buffers import assign, bound_bytes
    _, sizes, _ = assign(prog.steps, bound_bytes(prog), set())
    distinct = len({step.kernel.source for step in prog.steps})
    products = sum(1 for step in prog.steps if step.dot)
    attention = sum(1 for step in prog.steps if "SPLITS" in step.kernel.block)
    state = "on" if len(prog.steps) >= MIN_LAUNCHES else \
        f"off by default (fewer than {MIN_LAUNCHES} launches; graph=True forces it)"
    return (f"gpu graph: {state}; one segment, {len(prog.steps)} launches ({products} "
            f"products, {attention} of attention), {distinct} distinct kernels, {len(sizes)} buffers of "
            f"{sum(sizes) / 2**20:.1f} MiB at the bound, {len(prog.size_index)} size slots\n")


_BOOKKEEPING = (Opcode.TUPLE, Opcode.GET_TUPLE_ELEMENT)


def _reason(inst, why: str) -> str:
    """A refusal without its leading "instruction 'name' (opcode): " when it names `inst`."""
    for head in (f"instruction '{inst.name}' ({inst.opcode.value}): ",
                 f"instruction '{inst.name}': "):
        if why.startswith(head):
            return why[len(head):]
    return why


def _segments_summary(split) -> str:
    """The segments graph=True captures and every split point, in the order they run."""
    found = split.segments
    head = (f"{len(found)} captured ({' + '.join(str(len(s.prog.steps)) for s in found)} "
            "launches)") if found else f"none (no run of {MIN_LAUNCHES} launches)"
    lines = [f"gpu segments with graph=True: {head}"]
    for item in split.items:
        if isinstance(item, segments.Segment):
            first, last = item.steps[0].inst.name, item.steps[-1].inst.name
            lines.append(f"  segment {found.index(item) + 1}: {len(item.prog.steps)} "
                         f"launch(es), '{first}' .. '{last}'")
            continue
        tuples = 0   # tuple bookkeeping around loops and sorts: no reason to list
        for inst, why in item.why.items():
            if inst.opcode in _BOOKKEEPING and why.endswith(": a library step"):
                tuples += 1
            elif why:
                lines.append(f"  split at '{inst.name}' ({inst.opcode.value}): "
                             f"{_reason(inst, why)}")
        if tuples:
            lines.append(f"    and {tuples} tuple/get-tuple-element steps on the host")
        short = len(item.steps) - len(item.why) - sum(s.kind == "param" for s in item.steps)
        if short:
            lines.append(f"  {short} steps of runs under {MIN_LAUNCHES} launches: plain path")
    return "\n".join(lines) + "\n"


__all__ = ["GraphRefusal", "GraphRunner", "SegmentedRunner", "make", "summary",
           "wanted_program"]
