"""The graph path: a whole executable captured once as a CUDA graph, replayed at every size.

DESIGN.md section 4's plan. A plain call walks the plan in Python, one launch per kernel
and per cuBLAS product, each with its grid and sizes from the actual shapes: a deep model
is all host overhead (issue 10: ~1,100 steps for a 48-layer transformer). Here:

- plan.py      flattens the plan into kernel and product launches over value slots; sizes
               become slots of one int32 device buffer; what cannot be captured (host
               fallbacks, other library ops, loops, data-dependent sizes) is a GraphRefusal
               and the module keeps the plain path;
- attention.py replaces a q·kᵀ product, the softmax of its rows and the product by v by
               one online-softmax launch (two when the keys are split over programs);
- kernels.py   rewrites each generated kernel to read its sizes from that buffer and stride
               over the blocks of the actual size, so a grid fixed at capture does work
               proportional to the actual size; products are Triton matmuls reading M/N/K
               from it (f32 in IEEE arithmetic unless the precision option allows
               TF32: gpu/precision.py);
- buffers.py   a static buffer plan at the bound with liveness-based reuse;
- runner.py    per call: sizes, dynamic arguments into their static buffers, replay, copy
               the root out.

`make(program)` returns (GraphRunner or None, the reason when None).
"""

from __future__ import annotations

from .plan import GraphRefusal, build
from .runner import GraphRunner


# A replay costs the host more than a few direct launches (size fills, argument and result
# copies, the graph launch: ~40-80 us on the H200's host, 2026-12-01, against ~10 us for a
# one-kernel module's plain call), so by default only programs of at least this many
# launches take the graph path; `graph=True` forces it.
MIN_LAUNCHES = 16


def make(program, launchers: dict | None = None, force: bool = False, prog=None,
         compiler=None):
    """(GraphRunner, None) for a GpuProgram whose entry plan can be captured, else
    (None, why). `launchers` maps cubin key -> launcher (AOT); the others are compiled by
    `compiler` (aot.compile_parallel, through cubins.py's cache). `prog`: a GraphProgram
    already made (an artifact's). Unless `force`, a program of fewer than MIN_LAUNCHES
    launches keeps the plain path."""
    if prog is None:
        try:
            prog = build(program.plan, program.info, program.precision)
        except GraphRefusal as exc:
            return None, str(exc)
    if not force and len(prog.steps) < MIN_LAUNCHES:
        return None, f"{len(prog.steps)} launches: the plain path is faster below {MIN_LAUNCHES}"
    return GraphRunner(prog, program.device, program.interpret, launchers, compiler), None


def wanted_program(plan, precision: str):
    """The GraphProgram of a plan that the default options would run (None: the plain
    path), its products as the `precision` option says."""
    try:
        prog = build(plan, plan.info, precision)
    except GraphRefusal:
        return None
    return prog if len(prog.steps) >= MIN_LAUNCHES else None


def attach(program, launchers: dict, data: dict) -> None:
    """Give an AOT-loaded program its graph path: the payload's graph program (`data`,
    graph/data.py) launching the payload's cubins (`launchers`: cubin key -> launcher),
    unless DYNHLO_GPU_GRAPH=0."""
    import os
    from .data import from_data
    if os.environ.get("DYNHLO_GPU_GRAPH") == "0":
        program.graph_refusal = "off"
        return
    program.graph, program.graph_refusal = make(program, launchers, force=True,
                                                prog=from_data(data, program.module))


def summary(program) -> str:
    """What `dynhlo inspect --backend gpu` prints: the graph's launches, distinct kernels
    and buffers, or the instruction that keeps the module on the plain path (the point
    where a capture would have to split)."""
    try:
        prog = build(program.plan, program.info, program.precision)
    except GraphRefusal as exc:
        return f"gpu graph: off; plain path (not capturable: {exc})\n"
    from .buffers import assign, bound_bytes
    _, sizes, _ = assign(prog.steps, bound_bytes(prog), set())
    distinct = len({step.kernel.source for step in prog.steps})
    products = sum(1 for step in prog.steps if step.dot)
    attention = sum(1 for step in prog.steps if "SPLITS" in step.kernel.block)
    state = "on" if len(prog.steps) >= MIN_LAUNCHES else \
        f"off by default (fewer than {MIN_LAUNCHES} launches; graph=True forces it)"
    return (f"gpu graph: {state}; one segment, {len(prog.steps)} launches ({products} "
            f"products, {attention} of attention), {distinct} distinct kernels, {len(sizes)} buffers of "
            f"{sum(sizes) / 2**20:.1f} MiB at the bound, {len(prog.size_index)} size slots\n")


__all__ = ["GraphRefusal", "GraphRunner", "attach", "make", "summary",
           "wanted_program"]
