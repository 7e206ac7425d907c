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
