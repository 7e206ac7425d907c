"""Which HLO opcodes dynhlo runs: a status per opcode and per backend, and its Markdown table.

Computed, never hand-listed: every Opcode of dynhlo.hlo.opcodes gets
- "supported": the CPU backend (the reference semantics) has a lowering for it;
- "single-device form": the CPU lowering is the one-device form of a multi-device op
  (collectives, replica-id, ...: lowerings marked `single_device = True`);
- "unsupported": no CPU lowering; compiling a module that uses it raises UnsupportedError.
Per backend, how it runs the opcode, as the backend says through the registry
(dynhlo.backends: Backend.support): the CPU lowering table; for the GPU, when
dynhlo.backends.gpu imports (it needs torch and triton), its fused-kernel table (`kernel`), its
library table (`library`), a device plan of its own (`plan`: parameters, call, while,
conditional), removed before planning by the GPU pass pipeline (`inlined`: fusion, call and
async wrappers; dynhlo/passes/pipelines.py), or the CPU lowering on host copies (`host`).
Notes: what a status does not say, each where the fact lives: the CPU lowering's
(`@lowering(..., note=)`: rng values, slice sizes, ...), the GPU rule's (`note=`: what its
library tier leaves on the host), and the accepted custom-call targets; NOTES below holds the
rest (the GPU pass pipeline's).
README.md holds the rendered table between the marker lines; tools/opcode_table.py rewrites
it and tests/test_support.py checks it is current.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .backends import OpSupport, get
from .errors import UnsupportedError
from .hlo.opcodes import OP_SPECS, Opcode

SUPPORTED = "supported"
SINGLE_DEVICE = "single-device form"
UNSUPPORTED = "unsupported"

START_MARKER = "<!-- opcode-table:start -->"
END_MARKER = "<!-- opcode-table:end -->"

_ASYNC_NOTE = ("gpu: inlined when the start's value only reaches its async-update/-done; "
               "else async-start runs on the host")

# Notes no backend's table holds: the GPU pass pipeline's (what it inlines, and when).
NOTES: dict[Opcode, str] = {
    Opcode.ASYNC_START: _ASYNC_NOTE,
    Opcode.ASYNC_DONE: _ASYNC_NOTE,
}


@dataclass(frozen=True)
class OpStatus:
    """One row of the table: an opcode, its status, and how each backend runs it."""

    opcode: Opcode
    group: str
    status: str
    backends: dict[str, str] = field(default_factory=dict)
    note: str = ""


def backend_support(name: str) -> OpSupport | None:
    """What backend `name` says of the opcodes (the registry's Backend.support), or None
    where it cannot import here (the GPU without torch and triton)."""
    try:
        return get(name).support()
    except UnsupportedError:
        return None


def _cpu() -> OpSupport:
    return get("cpu").support()


def status_of(op: Opcode, cpu: OpSupport | None = None) -> str:
    """The status of one opcode, from the CPU backend's support (`cpu`: it, already asked)."""
    cpu = _cpu() if cpu is None else cpu
    if op not in cpu.how:
        return UNSUPPORTED
    return SINGLE_DEVICE if op in cpu.single_device else SUPPORTED


def custom_call_targets(names=None) -> list[str]:
    """Accepted custom-call targets (or `names`), LAPACK families folded:
    lapack_{s,d}getrf_ffi."""
    targets = _cpu().custom_calls if names is None else names
    families: dict[tuple[str, str], list[str]] = {}
    plain = []
    for name in sorted(targets):
        found = re.fullmatch(r"(lapack|blas)_([sdcz])(\w+)_ffi", name)
        if found:
            families.setdefault((found.group(1), found.group(3)), []).append(found.group(2))
        else:
            plain.append(name)
    folded = [f"{p}_{{{','.join(sorted(ks, key='sdcz'.index))}}}{n}_ffi"
              for (p, n), ks in sorted(families.items())]
    return plain + folded


def opcode_table() -> list[OpStatus]:
    """A row per Opcode, sorted by its HLO spelling: the status from the CPU backend, a
    column per backend that imports here (the GPU's: how it runs the opcode, "-" for not)."""
    cpu = _cpu()
    gpu = backend_support("gpu")
    rows = []
    for op in sorted(Opcode, key=lambda o: o.value):
        status = status_of(op, cpu)
        backends = {"cpu": "yes" if status != UNSUPPORTED else "-"}
        if gpu is not None:
            backends["gpu"] = gpu.how.get(op, "-")
        note = "; ".join(n for n in (cpu.notes.get(op, ""), NOTES.get(op, ""),
                                     f"gpu: {gpu.notes[op]}" if gpu and op in gpu.notes else "")
                         if n)
        if status == UNSUPPORTED:
            note = cpu.why.get(op, note)
        if gpu is not None and op in gpu.why:
            note += f"; gpu: on the host ({gpu.why[op]})"
        if op is Opcode.CUSTOM_CALL:
            note = "targets: " + ", ".join(custom_call_targets()) + "; others: UnsupportedError"
            host = sorted(cpu.custom_calls - gpu.custom_calls) if gpu is not None else []
            if host:
                note += "; gpu: " + ", ".join(custom_call_targets(host)) + " on the host"
        rows.append(OpStatus(op, OP_SPECS[op].group.value, status, backends, note))
    return rows


def render_markdown(rows: list[OpStatus] | None = None) -> str:
    """The table as Markdown: opcode, group, status, one column per backend, notes."""
    rows = opcode_table() if rows is None else rows
    names = list(rows[0].backends) if rows else ["cpu"]
    lines = ["| opcode | group | status | " + " | ".join(names) + " | notes |",
             "| --- | --- | --- | " + " | ".join("---" for _ in names) + " | --- |"]
    for row in rows:
        cells = [f"`{row.opcode.value}`", row.group, row.status]
        cells += [row.backends.get(n, "-") for n in names] + [row.note.replace("|", "\\|")]
        lines.append("| " + " | ".join(cells) + " |")
    counts = {s: sum(r.status == s for r in rows) for s in (SUPPORTED, SINGLE_DEVICE,
                                                             UNSUPPORTED)}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items())
    return f"{len(rows)} opcodes: {summary}.\n\n" + "\n".join(lines) + "\n"


def readme_section(text: str) -> str | None:
    """The text between the opcode-table markers of README text, or None without markers."""
    start, end = text.find(START_MARKER), text.find(END_MARKER)
    if start < 0 or end < start:
        return None
    return text[start + len(START_MARKER):end].strip("\n") + "\n"


def splice_readme(text: str, table: str) -> str:
    """README text with the part between the markers replaced by `table`.

    Raises ValueError when the markers are missing or out of order.
    """
    start, end = text.find(START_MARKER), text.find(END_MARKER)
    if start < 0 or end < start:
        raise ValueError(f"README has no '{START_MARKER}' ... '{END_MARKER}' section")
    return text[:start + len(START_MARKER)] + "\n" + table + text[end:]
