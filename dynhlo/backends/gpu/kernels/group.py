"""What one generated kernel is made of: a fused group, the Kernel, and size identity.

A Group is planned (plan/fusion.py); a Kernel is its generated source and launch facts
(codegen.py). `canonical_dim`/`dims_equal` say when two dimensions are the same size
(argument): one expression of the size algebra (shapes.sizes.size_key). No torch, no
triton: this is data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ....hlo.ir import Instruction
from ....shapes.sizes import Sym, same_size


class FusionError(Exception):
    """A group cannot be generated as one kernel; `inst` is the reduction to split off."""

    def __init__(self, message: str, inst: Instruction | None = None):
        super().__init__(message)
        self.inst = inst


@dataclass
class Group:
    """A fused group: `root` is stored; `inputs` are loaded; the rest is computed in-kernel.

    `domain` is the iteration space (dims); `reduced` the domain positions that the group's
    reductions reduce (empty for an elementwise group).
    """

    root: Instruction
    inputs: list[Instruction]
    reduces: list[Instruction]
    domain: tuple
    reduced: tuple[int, ...] = ()


@dataclass
class Kernel:
    """Generated source and what the launcher needs to call it."""

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

    def __post_init__(self):
        group = self.group
        if self.kind == "row":
            self.grid_dims = tuple(d for k, d in enumerate(group.domain)
                                   if k not in group.reduced)
            self.grid_block = self.block["BM"]
        else:
            self.grid_block = self.block["BLOCK"]


def canonical_dim(dim):
    """The int of a static dimension, the root Sym of a dynamic one (evaluate sizes with
    it; key them by shapes.sizes.size_key: two Syms of one size share that)."""
    return dim.root() if isinstance(dim, Sym) else dim


def dims_equal(a, b) -> bool:
    """Whether two dimensions are one size (`reshape f32[<=n,1] -> f32[<=n]` keeps n)."""
    return same_size(a, b)


def compile_options(kernel) -> dict:
    """Triton's compile options of a generated kernel (codegen.Kernel, graph.GraphKernel):
    its warps, and its register cap when it has one."""
    options = {"num_warps": kernel.num_warps}
    if getattr(kernel, "maxnreg", None):
        options["maxnreg"] = kernel.maxnreg
    return options
