"""The one run-time size check of the GPU backend's steps: two sizes that meet must agree.

Its message is the CPU backend's (dynhlo/backends/cpu/evaluator.py), naming the
instruction, the dimension, both sizes and the instruction where the sizes meet.
"""

from __future__ import annotations

from ....errors import DynamicSizeError
from ....shapes.sizes import Sym, dim_text


def size_mismatch(inst, d: int, actual: int, dim, expected: int) -> DynamicSizeError:
    """The error for dimension `d` of `inst` being `actual` where `dim` is `expected`."""
    met = dim.root().met if isinstance(dim, Sym) else None
    where = f" (they meet in '{met}')" if met else ""
    return DynamicSizeError(
        f"instruction '{inst.name}': dimension {d} has run-time size {actual}, but "
        f"{dim_text(dim)} is {expected} here; sizes that meet in one op must agree{where}")
