"""THE GPU rule table: per opcode, where an instruction runs, tiers tried in order.

1. kernel: fused into a generated Triton kernel (`kernel(writer, inst, idx) -> var`,
   kernels/); only where `kernel_if(inst)` holds and every type is one kernels compute on
   (kernels/types.py).
2. library: a torch call on the device (`library(ctx, inst, args) -> value`, library/);
   only where `library_if(inst)` holds; it may still return NotImplemented for a case it
   does not cover (an attribute form, an element type torch lacks).
3. host: the CPU backend's lowering on host copies (exact, slow; counted as
   `gpu_host_fallback`): every opcode the CPU backend runs, for what the tiers above refuse.

Besides the tiers: `plan` (call, while, conditional: their computations run as device plans
of their own, plan/fusion.py), `view` (the library result is a zero-copy view, used when
every user `reads_views`: a transpose feeding cuBLAS is not copied by a kernel first),
`fast` (the per-call fast path, launch/fastpath.py, may run the library step) and `capture`
(how a CUDA graph holds the step when it is not a kernel, graph/plan.py: "matmul" a Triton
matmul reading its sizes from the size buffer, "view" a reshape of dense data (the data
itself), "transpose" a 2-D transpose (a product's operand layout), "root_tuple" the entry
root's tuple (the results), "size_value" a dimension size (the size buffer's value),
"constant" a static array constant (a buffer filled once); None: the step needs the host,
and a graph is cut there).

One line per opcode; an opcode absent here runs on the host. A custom call's library tier is
one more table, one line per target (CUSTOM_CALLS; a target absent there runs on the host).
Nothing registers itself from an import, so no import order decides which rule wins;
`missing()` names every opcode and tier without a rule (tests/backends/gpu/test_rules.py), as JAX
names a primitive with no lowering for a platform.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable

from ...hlo import attrs
from ...hlo.opcodes import OnceTable, Opcode
from ...shapes.dynamic_windows import TARGETS as DYNAMIC_WINDOW_TARGETS
from ...shapes.rules_gpu_solver import PIVOT_TARGETS, SOLVER_TARGETS
from ...shapes.rules_collective import IDENTITY_TARGETS
from ...shapes.rules_lapack_svd import SVD_TARGETS
from ..common.gpu_solver import call_as_lapack
from .kernels import data as KD
from .kernels import elementwise as KE
from .kernels.types import types_ok
from .library import collective as LC
from .library import control_flow as LF
from .library import data as LD
from .library import dynamic_window as LDW
from .library import elementwise as LE
from .library import gpu_solver as LGS
from .library import indexing as LI
from .library import lapack as LLA
from .library import linalg as LL
from .library import numeric as LN
from .library import reduce as LR
from .library import sort as LS
from .library import lapack_svd as LSVD
from .library import window as LW

TIERS = ("kernel", "library", "host")


@dataclass(frozen=True)
class Rule:
    """Where one opcode runs on the GPU (see the module doc)."""

    kernel: Callable | None = None
    kernel_if: Callable | None = None
    library: Callable | None = None
    library_if: Callable | None = None
    plan: bool = False
    view: bool = False
    reads_views: bool = False
    fast: bool = False
    capture: str | None = None
    note: str = ""  # what the tiers above leave on the host (dynhlo.support's notes column)


RULES: dict[Opcode, Rule] = OnceTable("GPU rules")


def _rule(op: Opcode, **tiers) -> None:
    RULES[op] = Rule(**tiers)  # a second rule for op raises ValueError (OnceTable)


# What the library tier's computations (map's to_apply, a comparator, ...) may hold
# (library/apply.py); others run on the host. The modules' docstrings say why.
_BEYOND = "ops beyond arithmetic/compare/select"


def _kernel_and_complex(ops, kernel_if=None) -> None:
    for op in ops:
        _rule(op, kernel=KE.unary_math, kernel_if=kernel_if or KE.float_only,
              library=LE.complex_arith if op in LE.COMPLEX_UNARY else None)


# --- elementwise (kernels/elementwise.py, library/elementwise.py) -------------------------
_kernel_and_complex(KE.UNARY)
_rule(Opcode.NEGATE, kernel=KE.negate, library=LE.complex_arith)
_rule(Opcode.ABS, kernel=KE.abs_, library=LE.complex_arith)
_rule(Opcode.SIGN, kernel=KE.sign, library=LE.complex_arith)
_rule(Opcode.IS_FINITE, kernel=KE.is_finite, kernel_if=KE.float_operand)
_rule(Opcode.NOT, kernel=KE.not_)
_rule(Opcode.ADD, kernel=KE.add, library=LE.complex_arith)
_rule(Opcode.SUBTRACT, kernel=KE.subtract, library=LE.complex_arith)
_rule(Opcode.MULTIPLY, kernel=KE.multiply, library=LE.complex_arith)
_rule(Opcode.AND, kernel=KE.and_)
_rule(Opcode.OR, kernel=KE.or_)
_rule(Opcode.XOR, kernel=KE.xor)
_rule(Opcode.DIVIDE, kernel=KE.divide, kernel_if=KE.float_result, library=LE.divide)
_rule(Opcode.REMAINDER, kernel=KE.remainder, kernel_if=KE.float_result, library=LE.remainder)
_rule(Opcode.POWER, kernel=KE.power, kernel_if=KE.float_result, library=LE.power)
_rule(Opcode.ATAN2, kernel=KE.atan2, kernel_if=KE.float_result)
_rule(Opcode.MAXIMUM, kernel=KE.maximum)
_rule(Opcode.MINIMUM, kernel=KE.minimum)
_rule(Opcode.COMPARE, kernel=KE.compare, kernel_if=KE.plain_compare, library=LE.compare)
_rule(Opcode.SELECT, kernel=KE.select, library=LE.select)
_rule(Opcode.CLAMP, kernel=KE.clamp)
_rule(Opcode.CONVERT, kernel=KE.convert, kernel_if=KE.convert_ok, library=LE.convert)
_rule(Opcode.COPY, kernel=KE.copy, library=LE.copy)
_rule(Opcode.SHIFT_LEFT, kernel=KE.shift_left, kernel_if=KE.int_only)
_rule(Opcode.SHIFT_RIGHT_LOGICAL, kernel=KE.shift_right_logical, kernel_if=KE.int_only)
_rule(Opcode.SHIFT_RIGHT_ARITHMETIC, kernel=KE.shift_right_arithmetic, kernel_if=KE.int_only)
_rule(Opcode.MULHI, kernel=KE.mulhi, kernel_if=KE.int_only)
_rule(Opcode.POPCNT, library=LE.popcnt)
_rule(Opcode.CLZ, library=LE.count_leading_zeros)
_rule(Opcode.REAL, library=LE.real)
_rule(Opcode.IMAG, library=LE.imag)
_rule(Opcode.COMPLEX, library=LE.complex_)

# --- data movement (kernels/data.py, library/data.py) -----------------------------------
# A broadcast only set-dimension-size cuts stays an expand view: a constant broadcast at a
# 1e12 bound cut to 3 (tf2xla's form) would otherwise be written at its bound (4 TB).
_rule(Opcode.BROADCAST, kernel=KD.broadcast, library=LD.broadcast, view=True)
_rule(Opcode.TRANSPOSE, kernel=KD.transpose, library=LD.transpose, view=True, fast=True,
      capture="transpose")
_rule(Opcode.RESHAPE, kernel=KD.reshape, kernel_if=KD.reshape_ok, library=LD.reshape,
      view=True, fast=True, capture="view")
_rule(Opcode.SLICE, kernel=KD.slice_, library=LD.slice_)
_rule(Opcode.IOTA, kernel=KD.iota)
_rule(Opcode.CONSTANT, kernel=KD.constant, kernel_if=KD.scalar_constant, library=LD.constant,
      capture="constant")
_rule(Opcode.TUPLE, library=LD.tuple_, capture="root_tuple")
_rule(Opcode.GET_TUPLE_ELEMENT, library=LD.get_tuple_element)
_rule(Opcode.GET_DIMENSION_SIZE, library=LD.get_dimension_size, capture="size_value")
_rule(Opcode.CONCATENATE, kernel=KD.concatenate, library=LD.concatenate)
_rule(Opcode.PAD, library=LD.pad)
# set-dimension-size: a kernel where the host knows the size and the operand holds that many
# elements (the planner asks shapes/host_sizes.py data_free), else the library step, which
# reads a size from data back and checks it against the bound
_rule(Opcode.SET_DIMENSION_SIZE, kernel=KD.set_dimension_size, library=LD.set_dimension_size,
      reads_views=True)

# --- reductions and dot (kernels/data.py, library/reduce.py) ----------------------------
_rule(Opcode.REDUCE, kernel=KD.reduce, kernel_if=KD.reduce_fuses)
# dot: which matrix product runs is decided by the runner, here: the per-launch runners
# (interpreted, specialized) call cuBLAS through torch.matmul (library tier), sizes from the
# host; a CUDA graph (capture "matmul") runs a Triton matmul reading M, N, K from the size
# buffer, since a captured cuBLAS call keeps the sizes, and the kernel choice, of its capture.
# Not (yet) chosen per shape class by measurement.
_rule(Opcode.DOT, library=LR.dot, library_if=LR.dot_on_device, reads_views=True, fast=True,
      capture="matmul")

# --- indexing (kernels/data.py: gather, reverse and bitcast; library/indexing.py) --------
_rule(Opcode.REVERSE, kernel=KD.reverse, library=LI.reverse)
_rule(Opcode.GATHER, kernel=KD.gather, kernel_if=KD.plain_gather, library=LI.gather)
_rule(Opcode.SCATTER, library=LI.scatter,
      note=f"update computations with {_BEYOND} on the host")
_rule(Opcode.DYNAMIC_SLICE, library=LI.dynamic_slice)
_rule(Opcode.DYNAMIC_UPDATE_SLICE, library=LI.dynamic_update_slice)
# a reshape kernel where the host knows the sizes and they keep the element count (the
# planner asks shapes/host_sizes.py data_free), else the library step, which checks both
_rule(Opcode.DYNAMIC_RESHAPE, kernel=KD.reshape, library=LI.dynamic_reshape)
_rule(Opcode.BITCAST, kernel=KD.reshape, kernel_if=KD.reshape_ok, library=LI.bitcast)
_rule(Opcode.BITCAST_CONVERT, library=LI.bitcast_convert)

# --- control flow (plan/fusion.py, library/control_flow.py) ----------------------------
_rule(Opcode.PARAMETER, plan=True)  # the plan's arguments
_rule(Opcode.CALL, plan=True)
_rule(Opcode.WHILE, plan=True)
_rule(Opcode.CONDITIONAL, plan=True)
_rule(Opcode.MAP, library=LF.map_, note=f"to_apply with {_BEYOND} on the host")
_rule(Opcode.COPY_START, library=LF.copy_start)
_rule(Opcode.COPY_DONE, library=LF.copy_done)

# --- sort, linalg, numeric, window, collective (library/<family>.py) --------------------
_rule(Opcode.SORT, library=LS.sort,
      note=f"comparators with {_BEYOND}, or of u16/u32/u64 values, on the host")
_rule(Opcode.TOPK, library=LS.topk)
_rule(Opcode.CONVOLUTION, library=LL.convolution,
      note="complex, > 3 spatial dims, and integer sums past 2**40 on the host")
_rule(Opcode.FFT, library=LL.fft)
_rule(Opcode.CHOLESKY, library=LL.cholesky)
_rule(Opcode.TRIANGULAR_SOLVE, library=LL.triangular_solve)
_rule(Opcode.REDUCE_PRECISION, library=LN.reduce_precision)
_rule(Opcode.BATCH_NORM_TRAINING, library=LN.batch_norm_training)
_rule(Opcode.BATCH_NORM_INFERENCE, library=LN.batch_norm_inference)
_rule(Opcode.BATCH_NORM_GRAD, library=LN.batch_norm_grad)
_rule(Opcode.STOCHASTIC_CONVERT, library=LN.stochastic_convert)
_rule(Opcode.REDUCE_WINDOW, library=LW.reduce_window,
      note=f"to_apply with {_BEYOND} on the host")
_rule(Opcode.SELECT_AND_SCATTER, library=LW.select_and_scatter,
      note=f"select/scatter with {_BEYOND} on the host")
_rule(Opcode.ALL_REDUCE, library=LC.all_reduce)
_rule(Opcode.ALL_REDUCE_START, library=LC.all_reduce)
_rule(Opcode.ALL_REDUCE_DONE, library=LC.first_operand)  # its -start computed the value
_rule(Opcode.ALL_GATHER, library=LC.all_gather)
_rule(Opcode.ALL_TO_ALL, library=LC.all_to_all)
_rule(Opcode.REDUCE_SCATTER, library=LC.reduce_scatter)
_rule(Opcode.COLLECTIVE_BROADCAST, library=LC.collective_broadcast)
_rule(Opcode.ALL_GATHER_START, library=LC.all_gather_start)
_rule(Opcode.ALL_GATHER_DONE, library=LC.collective_done)
_rule(Opcode.COLLECTIVE_PERMUTE_DONE, library=LC.collective_done)
_rule(Opcode.COLLECTIVE_PERMUTE, library=LC.collective_permute)
_rule(Opcode.COLLECTIVE_PERMUTE_START, library=LC.collective_permute_start)
_rule(Opcode.REPLICA_ID, library=LC.replica_id)
_rule(Opcode.PARTITION_ID, library=LC.partition_id)
_rule(Opcode.AFTER_ALL, library=LC.after_all)
_rule(Opcode.ADD_DEPENDENCY, library=LC.first_operand)
_rule(Opcode.DOMAIN, library=LC.first_operand)
_rule(Opcode.ASYNC_UPDATE, library=LC.first_operand)
_rule(Opcode.OPTIMIZATION_BARRIER, library=LC.opt_barrier)

# --- custom calls: per target, its library call (library/<family>.py); a target absent
# here runs on the host -------------------------------------------------------------------
CUSTOM_CALLS: dict[str, Callable] = OnceTable("GPU custom calls")
CUSTOM_CALLS.update({"PadToStatic": LD.pad_to_static, "SliceToDynamic": LD.slice_to_dynamic,
                     "TopK": LS.topk_custom_call})
CUSTOM_CALLS.update({target: LC.identity_call for target in IDENTITY_TARGETS})
CUSTOM_CALLS.update({target: LDW.dynamic_window for target in DYNAMIC_WINDOW_TARGETS})
CUSTOM_CALLS.update({target: LSVD.svd for target in SVD_TARGETS})
CUSTOM_CALLS.update(LLA.TARGETS)  # potrf, getrf, geqrf, orgqr, syevd/heevd, trsm
# JAX's cuSOLVER/hipSOLVER calls: the lowering of the LAPACK call each stands for, above
CUSTOM_CALLS.update({target: partial(call_as_lapack, CUSTOM_CALLS) for target in SOLVER_TARGETS})
CUSTOM_CALLS.update({target: LGS.lu_pivots_to_permutation for target in PIVOT_TARGETS})


def custom_call(ctx, inst, args):
    """The library tier of a custom call: its target's entry in CUSTOM_CALLS, else
    NotImplemented (the host tier)."""
    fn = CUSTOM_CALLS.get(attrs.string(inst, "custom_call_target"))
    return NotImplemented if fn is None else fn(ctx, inst, args)


_rule(Opcode.CUSTOM_CALL, library=custom_call)

_NONE = Rule()

# The opcodes the CPU lowers that have no rule above and no GPU pass removes
# (dynhlo/passes/inline_calls.py): the host tier runs them, for the reason given (dynhlo.support
# prints it; tests/hlo/test_opcode_tables.py checks that every opcode is covered).
HOST: dict[Opcode, str] = {
    Opcode.RNG: "the same stream",
    Opcode.RNG_BIT_GENERATOR: "the same bits",
    Opcode.RNG_GET_AND_UPDATE_STATE: "the same counter",
}

# The kernel tier as code generation takes it (kernels/codegen.py: generate's emitters).
EMITTERS = {op: r.kernel for op, r in RULES.items() if r.kernel is not None}


def rule_of(op: Opcode) -> Rule:
    """The opcode's rule (an empty one, host only, for an opcode not in the table)."""
    return RULES.get(op, _NONE)


def can_fuse(inst) -> bool:
    """Tier 1: whether `inst` can be computed inside a generated kernel."""
    rule = RULES.get(inst.opcode)
    if rule is None or rule.kernel is None or not types_ok(inst):
        return False
    return rule.kernel_if is None or rule.kernel_if(inst)


def library_for(inst) -> Callable | None:
    """Tier 2: the torch call for `inst`, or None (then the host tier runs it)."""
    rule = RULES.get(inst.opcode)
    if rule is None or rule.library is None:
        return None
    if rule.library_if is not None and not rule.library_if(inst):
        return None
    return rule.library


def how(op: Opcode) -> str:
    """The first tier the opcode has: 'kernel', 'library', 'plan' or 'host' (support table)."""
    rule = rule_of(op)
    if rule.kernel is not None:
        return "kernel"
    if rule.library is not None:
        return "library"
    return "plan" if rule.plan else "host"


def missing(host, ops=None) -> dict[Opcode, list[str]]:
    """Per opcode, the tiers it has no rule for; `host` is what the host tier runs (the CPU
    backend's lowering table: launch/runner.py). An opcode lacking all three cannot run."""
    out = {}
    for op in ops or Opcode:
        rule = rule_of(op)
        lacks = [t for t, have in (("kernel", rule.kernel), ("library", rule.library or
                                                             rule.plan), ("host", op in host))
                 if not have]
        if lacks:
            out[op] = lacks
    return out
