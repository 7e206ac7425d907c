"""The CPU backend: NumPy evaluation at actual sizes, dynhlo's reference semantics."""

from __future__ import annotations

from ...errors import ArtifactError, UnsupportedError
from ...hlo import attrs
from ...hlo.ir import HloModule
from ...hlo.opcodes import Opcode
from ...shapes.dynamic import ComputationInfo, Inference
from . import (ops_collective, ops_control, ops_control_flow, ops_data,  # noqa: F401
               ops_elementwise, ops_indexing, ops_linalg, ops_numeric, ops_reduce,
               ops_sort, ops_window)  # importing them fills the lowering tables
from .evaluator import Evaluator
from .lowering import CUSTOM_CALLS, LOWERINGS

NAME = "cpu"


def check_supported(module: HloModule) -> None:
    """Raise UnsupportedError for the first instruction the CPU backend cannot run."""
    for inst in module.instructions():
        if inst.opcode is Opcode.PARAMETER:
            continue
        if inst.opcode not in LOWERINGS:
            raise UnsupportedError(f"opcode '{inst.opcode.value}' of instruction '{inst.name}' "
                                   "is not supported by the cpu backend yet")
        if inst.opcode is Opcode.CUSTOM_CALL:
            target = attrs.string(inst, "custom_call_target")
            if target not in CUSTOM_CALLS:
                raise UnsupportedError(
                    f"custom-call target '{target}' of instruction '{inst.name}' is not "
                    f"supported by the cpu backend (supported: {', '.join(sorted(CUSTOM_CALLS))})")


class CpuProgram:
    """A module ready to run on the CPU: its inference results and an evaluator."""

    backend = NAME
    target = "numpy"

    def __init__(self, module: HloModule, info: ComputationInfo):
        check_supported(module)
        self.module = module
        self.info = info
        self.evaluator = Evaluator(Inference(module))

    def run(self, args: list):
        """Run on NumPy arrays of actual shapes (already checked); returns the root value."""
        shapes = [a.shape for a in args]
        return self.evaluator.run(self.info, args, args_shapes=shapes)

    def to_payload(self) -> dict[str, bytes]:
        """Artifact sections: the CPU program is its module, so only a marker of the evaluator."""
        return {"program": b'{"evaluator": "numpy"}'}


def compile_module(module: HloModule, info: ComputationInfo) -> CpuProgram:
    return CpuProgram(module, info)


def load_program(module: HloModule, info: ComputationInfo, payload: dict[str, bytes],
                 target: str) -> CpuProgram:
    """The program an artifact holds (sections from to_payload); compiles nothing.

    Raises ArtifactError for sections or a target this backend did not write.
    """
    if target != CpuProgram.target or payload != {"program": b'{"evaluator": "numpy"}'}:
        raise ArtifactError(f"the cpu backend cannot load target '{target}' with sections "
                            f"{sorted(payload)}; it writes target 'numpy' with ['program']")
    return CpuProgram(module, info)
