"""GPU payloads of format 3, made from a program compiled today, for the format-3 reader's tests.

Format 3 stored the graph program as data beside the fusion plan ("graph_program"); dynhlo
writes format 4 now (the plan only) but still reads format 3 (backends/gpu/graph/data.py).
`as_format_3(exe)` is the artifact of a one-program GPU executable with its payload rewritten
as format 3 wrote it: the same plan and cubins, the graph program as data instead of the
graph's kernel forms. tests/golden/test_gpu_payload_formats.py holds a file that format 3's
own writer saved; this writer is checked against it there.
"""

from __future__ import annotations

import json

from dynhlo.backends.gpu import graph
from dynhlo.backends.gpu.compile import cubins

PROGRAM = "bucket0.gpu_program.json"


def graph_program_data(prog, keys: list) -> dict:
    """A GraphProgram as format 3 stored it; `keys[k]` is the cubin key of launch k."""
    return {
        "nparams": prog.nparams,
        "steps": [{"key": key, "inputs": s.inputs, "out": s.out, "sizes": s.sizes,
                   "bound_work": s.bound_work, "size_offset": s.size_offset,
                   "block": s.kernel.block, "num_warps": s.kernel.num_warps,
                   "nsizes": s.kernel.nsizes, "per_program": s.kernel.per_program}
                  for s, key in zip(prog.steps, keys, strict=True)],
        "slots": [[slot, prog.dtypes[slot], prog.bound_numel[slot], prog.dims[slot]]
                  for slot in sorted(prog.dtypes)],
        "constants": {str(slot): inst.name for slot, inst in prog.constants.items()},
        "root": list(prog.root) if isinstance(prog.root, tuple) else prog.root,
        "equal": [[a, b, what] for a, b, what in prog.equal],
        "size_index": prog.size_index,
    }


def format_3_meta(program, meta: dict) -> dict:
    """A format-4 gpu_program.json of `program` (a GpuProgram compiled for sm_90) as format 3
    wrote it."""
    meta = dict(meta, format=3)
    del meta["graph_forms"]
    prog = graph.wanted_program(program.plan, program.precision)
    keys = [cubins.spec_key(s, 90) for s in cubins.step_specs(prog)] if prog else []
    meta["graph_program"] = graph_program_data(prog, keys) if prog else None
    return meta


def as_format_3(exe) -> bytes:
    """The serialized artifact of `exe` (one program, compiled for sm_90) in format 3."""
    from tests.runtime.test_artifact import resection

    def edit(header, sections):
        meta = format_3_meta(exe.program, json.loads(sections[PROGRAM]))
        sections[PROGRAM] = json.dumps(meta, sort_keys=True).encode()
    return resection(exe.serialize(), edit)
