"""Dims trees: the values dynamic dimension inference computes, and where they are kept.

A dims tree is a tuple of Dims (int: static, Sym: dynamic with a bound) for an array, and a
list of trees for a tuple. Shared by the inference engine (dynamic.py), the shape rules
(rules*.py) and the backends, which read the sizes of every instruction from ComputationInfo.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..hlo.ir import Computation, Instruction
from ..hlo.shape import AnyShape
from .sizes import SizeEnv, dim_text, result_dim, size_mismatch

DimsTree = tuple | list


@dataclass
class ComputationInfo:
    """Inference results for one invocation site of one computation."""

    computation: Computation
    dims: dict[Instruction, DimsTree] = field(default_factory=dict)
    calls: dict[tuple[Instruction, int], "ComputationInfo"] = field(default_factory=dict)
    # integer values followed as size expressions (dynhlo.shapes.values), by instruction
    values: dict[Instruction, list | None] = field(default_factory=dict)
    # (parameter number, tuple index) -> the value of that integer scalar element as a size
    # expression, where the caller proves it (a loop's scalar tied to a carried size)
    param_values: dict[tuple[int, int], object] = field(default_factory=dict)

    def callee(self, inst: Instruction, index: int = 0) -> "ComputationInfo":
        return self.calls[(inst, index)]


def declared_tree(shape: AnyShape, make_dynamic) -> DimsTree:
    """A dims tree from a declared shape; `make_dynamic(path, dim, bound)` makes each Sym."""
    return _declared(shape, (), make_dynamic)


def _declared(s: AnyShape, path: tuple, make_dynamic) -> DimsTree:
    # a module-level function, not a closure calling itself: that closure is a reference
    # cycle per call, left to the cyclic collector (thousands per module)
    if s.is_tuple:
        return [_declared(e, path + (i,), make_dynamic) for i, e in enumerate(s.elements)]
    if not any(s.dynamic):
        return tuple(s.dims)
    return tuple(make_dynamic(path, d, s.dims[d]) if s.dynamic[d] else s.dims[d]
                 for d in range(s.rank))


def observed_tree(inst: Instruction, shape: AnyShape | None = None) -> DimsTree:
    """Dims read off the instruction's computed result where the shape says `<=` or `?`."""
    return declared_tree(shape or inst.shape,
                         lambda path, d, bound: result_dim(inst, path, d, bound))


def tree_text(tree: DimsTree) -> str:
    if isinstance(tree, list):
        return "(" + ", ".join(tree_text(t) for t in tree) + ")"
    return "[" + ",".join(dim_text(d) for d in tree) + "]"


def check_sizes(env: SizeEnv, inst: Instruction, value, tree: DimsTree) -> None:
    """Raise size_mismatch unless `value` (an array or tensor; a tuple of them for a tuple
    tree) has the sizes `tree` takes in `env`: where an op's operands disagree at run time,
    whatever backend computed it."""
    if isinstance(tree, list):
        for v, t in zip(value, tree, strict=True):
            check_sizes(env, inst, v, t)
        return
    for d, (actual, dim) in enumerate(zip(np.shape(value), tree, strict=True)):
        if actual == dim:  # a static dimension that fits
            continue
        expected = env.size(dim)
        if actual != expected:
            raise size_mismatch(inst.name, d, actual, dim, expected)
