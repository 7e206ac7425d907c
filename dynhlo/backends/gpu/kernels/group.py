"""What one generated kernel is made of: a fused group, the Kernel, and size identity.

A Group is planned (backends/plan/fusion.py, where it and `canonical_dim`/`dims_equal`
live); a Kernel is its generated source and launch facts (codegen.py). No torch, no
triton: this is data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ....shapes.sizes import Sym
from ...plan.fusion import FusionError, Group, canonical_dim, dims_equal  # noqa: F401 - shared


@dataclass
class KernelBody:
    """A generated kernel apart from its launch form (codegen.render writes either form).

    `pointers`: the pointer arguments in order (inputs in0, in1, ..., then `out`); `sizes`:
    the size values s0, s1, ... (i32); `constexprs`: the block constants; `lines`: one
    program's work at its program index `pid`, indented from depth 0; `work`: the elements
    (a row kernel: rows) the grid covers, an expression over the sizes, in blocks of the
    constexpr `unit`; `wide`: offsets are 64-bit (sizes widened, `pid` int64).
    """

    pointers: list[str]
    sizes: list[str]
    constexprs: list[str]
    lines: list[str]
    work: str
    unit: str = "BLOCK"
    wide: bool = False


@dataclass
class Epilogue:
    """An elementwise group written to run on a matrix product's tile (codegen.epilogue).

    `lines`: its work, indented from depth 0, its store last: it reads the product's
    accumulator tile as `acc`, the tile's flat index as `x` and mask as `xmask`, its other
    inputs as e0, e1, ... and its sizes as s0, s1, ...; `inputs`: how many e-inputs;
    `size_syms`: the symbols of s0, s1, ... (the kernel's own, in its order).
    """

    lines: list[str]
    inputs: int
    size_syms: list[Sym]


@dataclass
class Kernel:
    """Generated source and what the launcher needs to call it.

    `source` is the ARGS launch form (codegen.py); `body` what codegen.render writes any
    form from (None for a kernel loaded from an artifact, which has its cubin instead)."""

    name: str
    source: str
    group: Group
    size_syms: list[Sym] = field(default_factory=list)
    kind: str = "elementwise"      # or "row"
    block: dict = field(default_factory=dict)
    num_warps: int = 4
    maxnreg: int | None = None     # a cap on registers per thread (Triton's compile option)
    grid_dims: tuple = ()          # row kernels: the kept dims, one program per BM of them
    grid_block: int = 1            # elements (or rows) one program covers
    index: int = -1                # position among an AOT payload's cubins (plan/data.py)
    body: KernelBody | None = None

    def __post_init__(self):
        group = self.group
        if self.kind == "row":
            self.grid_dims = tuple(d for k, d in enumerate(group.domain)
                                   if k not in group.reduced)
            self.grid_block = self.block["BM"]
        else:
            self.grid_block = self.block["BLOCK"]


def compile_options(kernel) -> dict:
    """Triton's compile options of a generated kernel (codegen.Kernel, graph.GraphKernel):
    its warps, its register cap when it has one, and libdevice without flush-to-zero.

    Triton links libdevice in its flush-to-zero form by default (`enable_reflect_ftz`), so
    tanh, floor, fmod, rsqrt... of a subnormal f32 read it as 0 (floor(-1e-45) = -0, fmod(0,
    1e-45) = NaN); XLA's GPU backend keeps subnormals (xla_gpu_ftz is off), and so do we."""
    options = {"num_warps": kernel.num_warps, "enable_reflect_ftz": False}
    if getattr(kernel, "maxnreg", None):
        options["maxnreg"] = kernel.maxnreg
    return options
