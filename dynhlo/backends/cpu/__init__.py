"""The CPU backend. By default fused groups are compiled to machine code (compiled/) and
every other instruction runs its reference lowering; with `reference=True` (or
DYNHLO_CPU_COMPILED=0 in the environment) the NumPy evaluator runs every instruction: dynhlo's
reference semantics, which the compiled path is tested against. A compiled program's
artifact holds its kernels' object code (compiled/aot.py)."""

from __future__ import annotations

import operator
import warnings

import numpy as np

from ...errors import ArgumentError, ArtifactError, UnsupportedError, user_stacklevel
from ...hlo import attrs
from ...hlo.collectives import check_one_device
from ...hlo.ir import HloModule
from ...hlo.opcodes import Opcode
from ...hlo.shape import leaf_shapes
from ...hlo.types import to_numpy_dtype
from ...shapes.dynamic import ComputationInfo, Inference
from ...shapes.rules_gpu_solver import SOLVER_TARGETS
from . import (ops_collective, ops_control_flow, ops_data, ops_elementwise,  # noqa: F401
               ops_indexing, ops_linalg, ops_numeric, ops_reduce,
               ops_dynamic_shape, ops_dynamic_window, ops_gpu_solver, ops_lapack_svd, ops_sort,
               ops_window)  # importing them fills the lowering tables
from . import ops_lapack, ops_lapack_eig, ops_lapack_schur, ops_xla_linalg  # noqa: F401
from ... import config
from ...options import CompileOptions, check_padding_reads
from .. import OpSupport, no_sync
from ..common import memory
from ..common.distributed import Communicator
from ..common.gpu_solver import check_solver_call
from . import fp_errors
from .evaluator import Evaluator
from .lowering import CUSTOM_CALLS, LOWERINGS, NOT_LOWERED, NOTES

NAME = "cpu"
_PAYLOAD = {"program": b'{"evaluator": "numpy"}'}  # the CPU program is its module
_MAX_RANK = 64  # NumPy's limit on array dimensions (numpy 2: NPY_MAXDIMS)


def check_supported(module: HloModule, distributed: bool = False) -> None:
    """Raise UnsupportedError for the first instruction the CPU backend cannot run; without
    `distributed`, that includes every collective that needs more than one device."""
    if not distributed:
        check_one_device(module)
    for inst in module.instructions():
        shape = inst.shape
        rank = max((s.rank for s in leaf_shapes(shape)), default=0) if shape.is_tuple else \
            len(shape.dims)
        if rank > _MAX_RANK:
            raise UnsupportedError(f"instruction '{inst.name}' has rank {rank} ({inst.shape}); "
                                   f"the cpu backend (NumPy) holds at most {_MAX_RANK} dims")
        if inst.opcode is Opcode.PARAMETER:
            continue
        if inst.opcode in (Opcode.ATAN2, Opcode.REMAINDER) and \
                inst.operands[0].shape.element_type in ("c64", "c128"):
            raise UnsupportedError(f"{inst.opcode.value} of complex values (instruction "
                                   f"'{inst.name}') is not supported by the cpu backend")
        if inst.opcode not in LOWERINGS:
            why = NOT_LOWERED.get(inst.opcode)
            raise UnsupportedError(f"opcode '{inst.opcode.value}' of instruction '{inst.name}' "
                                   "is not supported by the cpu backend yet"
                                   + (f" ({why})" if why else ""))
        if inst.opcode is Opcode.CUSTOM_CALL:
            target = attrs.string(inst, "custom_call_target")
            if target not in CUSTOM_CALLS:
                raise UnsupportedError(
                    f"custom-call target '{target}' of instruction '{inst.name}' is not "
                    f"supported by the cpu backend (supported: {', '.join(sorted(CUSTOM_CALLS))})")
            if target in SOLVER_TARGETS:  # one LAPACK call per element type stands for it
                check_solver_call(CUSTOM_CALLS, inst)


def reference_by_default() -> bool:
    """The compiled path unless DYNHLO_CPU_COMPILED=0 asks for the reference evaluator."""
    return not config.cpu_compiled()


class CpuProgram:
    """A module ready to run on the CPU: its inference results and an evaluator, the
    compiled one when `reference` is False (None: compiled unless DYNHLO_CPU_COMPILED=0). `stored`
    (compiled only): an artifact's kernel objects by cache key, checked (compiled/aot.py),
    from which every kernel is linked instead of compiled; machine.MissingKernel for a form
    they lack. `plan` (with `stored`): the artifact's plan data, checked against the module
    and taken instead of planning (compiled/aot.py rebuild_plan)."""

    backend = NAME
    target = "numpy"

    def __init__(self, module: HloModule, info: ComputationInfo, distributed: bool = False,
                 padding_reads: str = "zeros", reference: bool | None = None,
                 stored: dict | None = None, plan: dict | None = None):
        check_supported(module, distributed)
        self.module = module
        self.info = info
        self.reference = reference_by_default() if reference is None else bool(reference)
        if self.reference:
            kind = Evaluator
        else:  # llvmlite is imported only for the compiled path
            from .compiled.aot import ArtifactEvaluator
            kind = ArtifactEvaluator
        if distributed:  # collectives across this process group's ranks
            lowerings = {**LOWERINGS, **ops_collective.DISTRIBUTED}
            self.evaluator = kind(Inference(module), lowerings, Communicator(module))
        else:
            self.evaluator = kind(Inference(module))
        self.padding_reads = padding_reads
        if not self.reference:
            self.evaluator.stored = stored   # an artifact's objects: nothing compiled
            self.evaluator.stored_plan = plan   # and its plan, checked: no fusion search
            self.evaluator.prepare(info)
        self._constants = frozenset(id(_root(a)) for inst in module.instructions()
                                    if inst.opcode is Opcode.CONSTANT
                                    for a in _leaves(inst.literal))
        # the parameters passed as read-only views: all for the reference evaluator; for the
        # compiled one, those a reference lowering may read or the root may return
        self._guarded = None if self.reference or distributed else \
            self.evaluator.guarded(info)

    def run(self, args: list):
        """Run on NumPy arrays of actual shapes (already checked); returns the root value.

        The arguments are passed to the lowerings as read-only views, so nothing can write
        into the caller's arrays (on the compiled path, only those a lowering may read or
        the root may return: kernels, matrix products and ufuncs read the others as they
        are, and write only into their own buffers). Every returned array owns its memory,
        as with XLA (and JAX): a result that would be an argument, a view of one, the module's constant, or
        the same buffer as another result is copied, so writing into a result never changes
        the caller's arrays, another result, or what later calls return.
        """
        params = self.module.entry.parameters
        if self._guarded is None:
            inputs = [_read_only(_host_array(p, a))
                      for p, a in zip(params, args, strict=True)]
        else:   # kernels, matrix products, ufuncs and reshapes only read the others
            inputs = list(args) if _ONLY_NDARRAY >= set(map(type, args)) else \
                [_host_array(p, a) for p, a in zip(params, args, strict=True)]
            for k in self._guarded:
                inputs[k] = _read_only(inputs[k])
        shapes = list(map(_SHAPE, inputs))
        # IEEE arithmetic is XLA's semantics: inf - inf is a NaN, not a NumPy warning.
        quiet = fp_errors.ignore()
        try:
            result = self.evaluator.run(self.info, inputs, args_shapes=shapes)
        except RecursionError:  # inference followed the calls, evaluation needs more frames
            raise UnsupportedError(f"module '{self.module.name}': computations call each "
                                   "other more deeply than the cpu backend can evaluate "
                                   "(Python's recursion limit)") from None
        finally:
            fp_errors.restore(quiet)
        try:
            return _owned(result, self._constants, set(), self.evaluator.memory_limit)
        except MemoryError as exc:
            need = exc.args[0] if exc.args and isinstance(exc.args[0], int) else None
            raise memory.too_big(self.module.entry.root, need, self.evaluator.memory_limit,
                                 "cpu") from None

    @property
    def while_limit(self) -> int | None:
        """Iterations a while loop may run (the max_while_iterations option); None: no limit."""
        return self.evaluator.while_limit

    @while_limit.setter
    def while_limit(self, limit: int | None) -> None:
        self.evaluator.while_limit = limit

    @property
    def padding_reads(self) -> str:
        """What a read past an actual size within the bound gives (the padding_reads
        option): "zeros" (the buffer's padding reads as zeros) or "error"."""
        return self.evaluator.padding_reads

    @padding_reads.setter
    def padding_reads(self, mode: str) -> None:
        self.evaluator.padding_reads = check_padding_reads(mode)

    def to_payload(self) -> dict[str, bytes]:
        """Artifact sections: the reference's program is its module, so only a marker of the
        evaluator; the compiled one's, its kernels' object code (compiled/aot.py)."""
        if self.reference:
            return dict(_PAYLOAD)
        from .compiled import aot
        return aot.to_payload(self.evaluator)


def _leaves(value):
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value] if isinstance(value, np.ndarray) else []


_SAME_WIDTH_INTS = {1: "uint8", 2: "int16", 4: "int32", 8: "int64"}
_ONLY_NDARRAY = frozenset((np.ndarray,))
_SHAPE = operator.attrgetter("shape")


def _host_array(param, arg):
    """A NumPy array of a device-array argument (torch tensor, other DLPack array), which the
    argument checks passed on as it is: a tensor that requires grad, lives on a GPU or has a
    dtype NumPy lacks (bf16, f8) is read as plain host data. ArgumentError when it cannot be."""
    if isinstance(arg, (np.ndarray, np.generic)) or not hasattr(arg, "__dlpack__"):
        return arg
    try:
        if hasattr(arg, "detach") and hasattr(arg, "resolve_conj"):  # torch
            return _torch_to_numpy(param, arg)
        try:
            return np.from_dlpack(arg)
        except (BufferError, TypeError, ValueError, RuntimeError):
            return np.asarray(arg)
    except Exception as exc:  # noqa: BLE001 - whatever the library raises, name the place
        where = f"parameter {param.parameter_number} '{param.name}'"
        raise ArgumentError(f"{where}: cannot be read as a host array for the cpu backend "
                            f"({type(exc).__name__}: {exc})", param.parameter_number,
                            param.name) from None


def _torch_to_numpy(param, tensor) -> np.ndarray:
    import torch  # only reached with a torch tensor in hand
    tensor = tensor.detach().cpu().resolve_conj().resolve_neg()
    try:
        return tensor.numpy()
    except TypeError:  # bf16 and f8 have no NumPy dtype in torch: move the bits
        ints = getattr(torch, _SAME_WIDTH_INTS[tensor.element_size()])
        bits = tensor.contiguous().view(ints).numpy()
        return bits.view(to_numpy_dtype(param.shape.element_type))


def _read_only(arg):
    if not isinstance(arg, np.ndarray):
        return arg
    view = arg.view()
    view.flags.writeable = False
    return view


def _owned(value, constants: frozenset[int], taken: set[int], limit: int):
    """`value` with every array owning memory no other result, argument or constant holds.

    `constants`: ids of the module's constants' buffers; `taken`: ids of the buffers
    earlier results hold (added to).
    Arrays derived from the read-only argument views are read-only, so they are copied too.
    """
    if isinstance(value, tuple):
        return tuple(_owned(v, constants, taken, limit) for v in value)
    if isinstance(value, np.generic):  # a NumPy scalar (x[()] of a rank-0 array): NumPy out
        return np.array(value)
    if not isinstance(value, np.ndarray):
        return value
    root = _root(value)
    if not value.flags.writeable or id(root) in taken or id(root) in constants:
        if value.nbytes > limit:  # a broadcast view at a big size, about to be copied
            raise MemoryError(value.nbytes)
        value = root = value.copy()
    taken.add(id(root))
    return value


def _root(array: np.ndarray) -> np.ndarray:
    """The array that owns the memory `array` views."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def compile_module(module: HloModule, info: ComputationInfo,
                   options: CompileOptions) -> CpuProgram:
    """The program of a module: its inference and an evaluator, by `options` (checked by the
    compile driver: dynhlo/options.py). With distributed=True, inside
    an initialised torch.distributed process group (one process per device), collectives run
    across the group (backends/common/distributed.py); the options other backends take are
    accepted and change nothing. That includes `precision`:
    there is no TF32 here, f32 dots multiply in IEEE f32 (NumPy) and float convolutions sum
    in f64 on the reference (in the result's type on the compiled path, one matrix product
    as XLA's CPU backend computes them: compiled/conv.py) whatever the option or the
    module's operand_precision say, as XLA's CPU backend has no reduced-precision form of
    them; a JAX user's `jax.default_matmul_precision` changes
    nothing on a CPU either, so the option is taken rather than refused (a script runs on
    either backend unchanged). `padding_reads` ("zeros" or "error") is kept on the program
    (CpuProgram.padding_reads); an artifact keeps it in its header. By default
    (reference None or False) fused groups are compiled (compiled/); reference=True, or
    DYNHLO_CPU_COMPILED=0 with None, is the NumPy evaluator."""
    return CpuProgram(module, info, bool(options.distributed), options.padding_reads,
                      options.reference)


def load_program(module: HloModule, info: ComputationInfo, payload: dict[str, bytes],
                 target: str) -> CpuProgram:
    """The program an artifact holds (sections from to_payload); compiles nothing.

    The reference's marker (an artifact written with reference=True, and every artifact
    written before the compiled path) loads as the reference evaluator, whatever
    DYNHLO_CPU_COMPILED says, as a compiled artifact loads compiled;
    a compiled program's kernels come from its stored object code when this host's compiler
    identity is the one they were compiled with (compiled/aot.py), and are compiled again
    from the stored module, with a RuntimeWarning saying what differs, when it is not.

    Raises ArtifactError for sections or a target this backend did not write, and for stored
    object code that does not match its checksum.
    """
    if target == CpuProgram.target and payload == _PAYLOAD:   # what it says: the evaluator
        return CpuProgram(module, info, reference=True)
    if target != CpuProgram.target or set(payload) != {"program", "objects"}:
        raise ArtifactError(f"the cpu backend cannot load target '{target}' with sections "
                            f"{sorted(payload)}; it writes target 'numpy' with ['program'] "
                            "or ['objects', 'program']")
    from .compiled import aot, machine, native_routines
    stored, objects, plan = aot.read_payload(payload)
    differ = aot.differences(stored)
    if differ:
        warnings.warn(f"module '{module.name}': the artifact's cpu kernels were compiled "
                      f"with another compiler or CPU ({differ}); compiling them again for this "
                      "host from the stored module (the stored code is not run)",
                      RuntimeWarning, stacklevel=user_stacklevel())
        return CpuProgram(module, info, reference=False)
    try:
        program = CpuProgram(module, info, reference=False, stored=objects, plan=plan)
        # (after the program is made: a refused artifact's routines are never linked)
        native_routines.offer(objects)
        return program
    except machine.MissingKernel as exc:
        raise aot.missing(exc.args[0]) from None
    except machine.UnusableObject as exc:
        raise aot.unusable(exc.args[0]) from None


def support() -> OpSupport:
    """The CPU's opcodes (its lowering table, and the parameters the evaluator reads itself),
    those only in their one-device form (lowerings marked `single_device`), its custom-call
    targets, why the rest are not lowered (lowering.NOT_LOWERED), and the lowerings' notes
    (lowering.NOTES)."""
    how = {op: "yes" for op in LOWERINGS}
    how[Opcode.PARAMETER] = "yes"
    return OpSupport(how, frozenset(CUSTOM_CALLS),
                     frozenset(op for op, fn in LOWERINGS.items()
                               if getattr(fn, "single_device", False)),
                     dict(NOT_LOWERED), dict(NOTES))


def describe(program: CpuProgram) -> str:
    """How the CPU runs `program`: the reference evaluator, or fused groups compiled to
    machine code with the reference lowering for the rest."""
    count = sum(1 for _ in program.module.instructions())
    how = ("the reference evaluator (NumPy), one lowering per instruction" if program.reference
           else "fused groups compiled to machine code, the other instructions on the "
                "reference lowering")
    return f"cpu: {count} instructions; {how}\n"


def to_device(program: CpuProgram, arrays: list) -> tuple[list, object]:
    """The arrays as they are (the CPU reads NumPy arrays) and nothing to wait for."""
    return list(arrays), no_sync
