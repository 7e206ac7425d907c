"""Memory a run needs, sized before allocating: an array too big for its device is a
ResourceExhaustedError naming the instruction, the bytes and the device (XLA's status
RESOURCE_EXHAUSTED), never NumPy's MemoryError, torch's allocator error or a machine that
swaps itself to a halt.

Which instructions to size at run time is decided once per computation: those whose result
at its bound (or unbounded `?`) could exceed the device's memory. Any other instruction
fits by its bound, so the usual module pays nothing per call. A broadcast is not sized: both
backends keep it as a view (no memory) until an op reads it at its actual size.
"""

from __future__ import annotations

import math
import os

from ...errors import ResourceExhaustedError
from ...hlo.ir import Computation, Instruction
from ...hlo.opcodes import Opcode
from ...hlo.shape import UNBOUNDED
from ...hlo.types import bit_width

# Results that are views of their operand on both backends: no memory of their own.
_VIEWS = frozenset({Opcode.BROADCAST, Opcode.PARAMETER, Opcode.GET_TUPLE_ELEMENT,
                    Opcode.TUPLE, Opcode.SLICE, Opcode.BITCAST})


def host_memory() -> int:
    """Bytes of host memory available now (Linux's MemAvailable), else the physical total."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 62  # unknown: size nothing, the backstop still names the instruction


def nbytes(element_type: str, sizes) -> int:
    """Bytes of an array of `element_type` at `sizes` (sub-byte types packed, as XLA)."""
    return -(-math.prod(sizes) * bit_width(element_type) // 8)


def to_size(computation: Computation, limit: int, written=frozenset()) -> frozenset:
    """The array instructions of `computation` whose bound could need more than `limit`;
    `written`: those a backend writes to memory even when the opcode is a view elsewhere
    (the GPU's kernel roots)."""
    out = set()
    for inst in computation.instructions:
        shape = inst.shape
        if shape.is_tuple or (inst.opcode in _VIEWS and inst not in written) or \
                shape.element_type in ("token", "opaque"):
            continue
        if UNBOUNDED in shape.dims or nbytes(shape.element_type, shape.dims) > limit:
            out.add(inst)
    return frozenset(out)


def check_fits(inst: Instruction, sizes, limit: int, device: str) -> None:
    """ResourceExhaustedError when `inst`'s result at `sizes` needs more than `limit`."""
    need = nbytes(inst.shape.element_type, sizes)
    if need > limit:
        raise too_big(inst, need, limit, device, sizes)


def too_big(inst: Instruction | None, need: int | None, limit: int | None, device: str,
            sizes=None) -> ResourceExhaustedError:
    """The error for an allocation of `need` bytes on `device` (None: not known here)."""
    what = f"instruction '{inst.name}' ({inst.shape})" if inst is not None else "the module"
    at = f" at sizes {list(sizes)}" if sizes is not None else ""
    need_text = f"needs {_human(need)} ({need} bytes){at}" if need is not None else \
        "needs more memory than is free"
    have = f"; {_human(limit)} available" if limit is not None else ""
    return ResourceExhaustedError(f"{what} {need_text} on the {device}{have}; pass smaller "
                                  "inputs or lower the module's bounds")


def _human(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.3g} {unit}" if unit != "bytes" else f"{n} bytes"
        n /= 1024
    return f"{n} bytes"
