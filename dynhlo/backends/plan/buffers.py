"""A static buffer plan at the bound: every step output gets memory once per executable
(the GPU's graph program and the compiled CPU path).

As XLA's buffer assignment does, a value's buffer is free again after its last reader, and
a later value of no more bytes takes it (the smallest free buffer that fits): a 48-layer
model needs a few layers' worth of buffers, not 48. The root's buffers are never reused
(they are read after the whole graph ran). A step's output never shares memory with its
own inputs (those are freed only after the step). Sizes are the bound's, so one plan serves
every actual size; kernels write their values densely at the actual sizes from the front.
"""

from __future__ import annotations

from ...hlo.types import to_numpy_dtype

ALIGN = 256  # bytes; keeps every view 16-byte aligned (Triton's pointer hints, SIMD loads)


def bound_bytes(prog) -> dict:
    """Bytes of each slot of a GraphProgram at the bound."""
    return {s: prog.bound_numel[s] * to_numpy_dtype(prog.dtypes[s]).itemsize
            for s in prog.dtypes}


def assign(steps: list, nbytes: dict, keep: set) -> tuple[dict, list, dict]:
    """(slot -> buffer index, buffer sizes in bytes, slot -> the slot that held its buffer
    before it, for the ordering of concurrent launches) for the outputs of `steps`.

    `steps`: objects with `.inputs` (slots read) and `.out` (slot written), in order; a
    slot written by several steps (attention's two tile kernels) has one buffer;
    `nbytes`: bytes of each output slot at the bound; `keep`: slots never freed (the root).
    """
    last: dict = {}
    for k, step in enumerate(steps):
        for slot in step.inputs:
            last[slot] = k
    # a value written by several steps keeps its buffer until its last writer too
    written = {step.out: k for k, step in enumerate(steps)}
    where: dict = {}
    sizes: list = []
    free: list = []
    holder: dict = {}    # buffer -> the slot that last held it
    before: dict = {}
    for k, step in enumerate(steps):
        if step.out not in where:   # else a second writer of the value: its buffer stays
            need = max(ALIGN, -(-nbytes[step.out] // ALIGN) * ALIGN)
            fits = [b for b in free if sizes[b] >= need]
            if fits:
                buf = min(fits, key=sizes.__getitem__)
                free.remove(buf)
            else:
                buf = len(sizes)
                sizes.append(need)
            where[step.out] = buf
            if buf in holder:
                before[step.out] = holder[buf]
            holder[buf] = step.out
        # free after a value's last use, read or write (never read: dead, or the root)
        done = {s for s in {*step.inputs, step.out}
                if max(last.get(s, -1), written.get(s, -1)) == k}
        for slot in done:
            if slot in where and slot not in keep:
                free.append(where[slot])
    return where, sizes, before
