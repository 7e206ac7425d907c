"""Evaluates a computation with NumPy on arrays of their actual (unpadded) sizes.

This is dynhlo's reference semantics: every value is held at its actual shape, so padding
cannot leak. Sizes that no operand carries (a broadcast to a `<=` dimension, an iota) come
from dynamic dimension inference, evaluated in a SizeEnv. The schedule puts every
instruction after the instructions its sizes are read from.
"""

from __future__ import annotations

import numpy as np

from ...errors import DynamicSizeError
from ...hlo.ir import Computation, Instruction
from ...hlo.opcodes import OP_SPECS, Group, Opcode
from ...shapes.dynamic import ComputationInfo, DimsTree
from ...shapes.schedule import schedule
from ...shapes.sizes import SizeEnv, Sym
from ...shapes.trees import check_sizes
from ..common import memory
from .lowering import LOWERINGS


class EvalContext:
    """What a lowering may ask while it runs one instruction."""

    __slots__ = ("evaluator", "info", "env", "inst", "vectorized")

    def __init__(self, evaluator, info: ComputationInfo, env: SizeEnv, vectorized: bool):
        self.evaluator = evaluator
        self.info = info
        self.env = env
        self.inst: Instruction | None = None
        self.vectorized = vectorized

    def out_shape(self, inst: Instruction | None = None) -> tuple[int, ...]:
        """Actual sizes of an array-shaped instruction's result (default: the current one)."""
        return self.env.sizes(self.info.dims[inst or self.inst])

    def dims(self, inst: Instruction) -> DimsTree:
        return self.info.dims[inst]

    def size(self, dim) -> int:
        return self.env.size(dim)

    def call(self, index: int, comp: Computation, args: list, vectorized: bool = False):
        """Evaluate a called computation (this instruction's `index`-th call site)."""
        callee = self.info.calls.get((self.inst, index))
        if callee is None:  # scalar computations (to_apply of reduce): analyzed lazily
            callee = self.evaluator.scalar_info(comp)
        vectorized = vectorized or self.vectorized
        if vectorized and not self.evaluator.vectorizable(comp):
            return self._per_element(callee, args)
        return self.evaluator.run(callee, args, parent=self.env, vectorized=vectorized)

    def _per_element(self, callee: ComputationInfo, args: list):
        """Run a scalar computation once per element of its (broadcast) array arguments:
        the fold for reducers that are valid HLO but not elementwise inside (a broadcast
        then reduce, a dot, a conditional or data-dependent while), which running once on
        whole arrays would get wrong."""
        arrays = [np.asarray(a) for a in args]
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
        wide = [np.broadcast_to(a, shape) for a in arrays]
        results = [self.evaluator.run(callee, [a[index] for a in wide], parent=self.env)
                   for index in np.ndindex(shape)]
        if not shape:
            return results[0]
        first = results[0] if results else self.evaluator.run(
            callee, [np.zeros((), a.dtype) for a in arrays], parent=self.env)
        if isinstance(first, tuple):
            return tuple(_stacked([r[k] for r in results], shape, first[k])
                         for k in range(len(first)))
        return _stacked(results, shape, first)

    def error(self, message: str) -> DynamicSizeError:
        return DynamicSizeError(f"instruction '{self.inst.name}': {message}")


def _stacked(values: list, shape: tuple, like) -> np.ndarray:
    out = np.empty(shape, dtype=np.asarray(like).dtype)
    out.reshape(-1)[:] = [np.asarray(v).reshape(()) for v in values] if values else []
    return out


# Opcodes a scalar computation may hold and still run once on whole arrays (each element
# independent): elementwise math and the plumbing around it.
_VECTOR_SAFE_GROUPS = frozenset({Group.UNARY, Group.BINARY, Group.TERNARY})
_VECTOR_SAFE = frozenset({Opcode.PARAMETER, Opcode.CONSTANT, Opcode.TUPLE,
                          Opcode.GET_TUPLE_ELEMENT, Opcode.CALL, Opcode.FUSION,
                          Opcode.OPTIMIZATION_BARRIER})


def _vectorizable(comp: Computation, seen: set | None = None) -> bool:
    """True when every instruction (through calls) is elementwise on scalars."""
    seen = set() if seen is None else seen
    if id(comp) in seen:
        return True
    seen.add(id(comp))
    for inst in comp.instructions:
        shapes = inst.shape.elements if inst.shape.is_tuple else (inst.shape,)
        if any(s.is_tuple or s.rank for s in shapes):
            return False
        if inst.opcode not in _VECTOR_SAFE and OP_SPECS[inst.opcode].group not in \
                _VECTOR_SAFE_GROUPS:
            return False
        if not all(_vectorizable(c, seen) for c in inst.called_computations()):
            return False
    return True


class Evaluator:
    """Runs ComputationInfo trees; `scalar_info` analyzes callees used elementwise."""

    def __init__(self, inference, lowerings: dict | None = None, comm=None):
        self.inference = inference
        self.lowerings = LOWERINGS if lowerings is None else lowerings
        self.comm = comm  # backends.common.distributed.Communicator when distributed=True
        self._vectorizable: dict[int, bool] = {}
        self.memory_limit = memory.host_memory()
        self._sized: dict[int, frozenset] = {}  # per computation: results sized before running
        self.while_limit: int | None = None  # max_while_iterations (ops_control_flow.while_)
        # the padding_reads option: "error" refuses a read past an actual size (ops_data.slice_,
        # ops_indexing), "zeros" reads the padding as zeros
        self.padding_reads = "zeros"
        self._scalar: dict[Computation, ComputationInfo] = {}
        self._schedules: dict[int, list[Instruction]] = {}

    def vectorizable(self, comp: Computation) -> bool:
        """Whether `comp` may run once on whole arrays for an elementwise use (memoized)."""
        known = self._vectorizable.get(id(comp))
        if known is None:
            known = self._vectorizable[id(comp)] = _vectorizable(comp)
        return known

    def scalar_info(self, comp: Computation) -> ComputationInfo:
        info = self._scalar.get(comp)
        if info is None:
            trees = [tuple(p.shape.dims) if not p.shape.is_tuple else [] for p in comp.parameters]
            info = self._scalar[comp] = self.inference.analyze(comp, trees)
        return info

    def run(self, info: ComputationInfo, args: list, parent: SizeEnv | None = None,
            args_shapes: list | None = None, vectorized: bool = False):
        values: dict[Instruction, object] = {}
        env = SizeEnv(args_shapes, values.__getitem__, parent, xla_rules=True)
        ctx = EvalContext(self, info, env, vectorized)
        order = self._schedules.get(id(info))
        if order is None:
            order = self._schedules[id(info)] = schedule(info)
            self._sized[id(info)] = memory.to_size(info.computation, self.memory_limit)
        sized = self._sized[id(info)]
        for inst in order:
            ctx.inst = inst
            if inst.opcode is Opcode.PARAMETER:
                value = args[inst.parameter_number]
            else:
                if inst in sized and not vectorized:
                    memory.check_fits(inst, ctx.out_shape(inst), self.memory_limit, "cpu")
                try:
                    value = self.lowerings[inst.opcode](ctx, inst,
                                                         [values[o] for o in inst.operands])
                except MemoryError:  # the sum of live arrays: what no single size foretold
                    raise memory.too_big(inst, None, None, "cpu") from None
            values[inst] = value
            if not vectorized:
                check_sizes(env, inst, value, info.dims[inst])
        return values[info.computation.root]
