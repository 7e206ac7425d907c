"""Evaluates a computation with NumPy on arrays of their actual (unpadded) sizes.

This is dynhlo's reference semantics: every value is held at its actual shape, so padding
cannot leak. Sizes that no operand carries (a broadcast to a `<=` dimension, an iota) come
from dynamic dimension inference, evaluated in a SizeEnv. The schedule puts every
instruction after the instructions its sizes are read from.
"""

from __future__ import annotations

from ...errors import DynamicSizeError
from ...hlo.ir import Computation, Instruction
from ...hlo.opcodes import Opcode
from ...shapes.dynamic import ComputationInfo, DimsTree
from ...shapes.schedule import schedule
from ...shapes.sizes import SizeEnv, Sym
from ...shapes.trees import check_sizes
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
        return self.evaluator.run(callee, args, parent=self.env,
                                  vectorized=vectorized or self.vectorized)

    def error(self, message: str) -> DynamicSizeError:
        return DynamicSizeError(f"instruction '{self.inst.name}': {message}")


class Evaluator:
    """Runs ComputationInfo trees; `scalar_info` analyzes callees used elementwise."""

    def __init__(self, inference):
        self.inference = inference
        self._scalar: dict[Computation, ComputationInfo] = {}
        self._schedules: dict[int, list[Instruction]] = {}

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
        for inst in order:
            ctx.inst = inst
            if inst.opcode is Opcode.PARAMETER:
                value = args[inst.parameter_number]
            else:
                value = LOWERINGS[inst.opcode](ctx, inst, [values[o] for o in inst.operands])
            values[inst] = value
            if not vectorized:
                check_sizes(env, inst, value, info.dims[inst])
        return values[info.computation.root]
