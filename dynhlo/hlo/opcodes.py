"""The Opcode enum and the op-spec table: every HLO opcode XLA's text format knows.

Opcodes are data: one enum and one table of specs. A spec says how many operands an opcode
takes and which group it belongs to; the shape rules (dynhlo.shapes) and each backend's
lowerings are tables keyed by the same enum. Source: xla/hlo/ir/hlo_opcode.h.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Opcode(str, enum.Enum):
    """An HLO opcode; the value is its spelling in HLO text."""

    ABS = "abs"
    ACOS = "acos"
    ACOSH = "acosh"
    ADD = "add"
    ADD_DEPENDENCY = "add-dependency"
    AFTER_ALL = "after-all"
    ALL_GATHER = "all-gather"
    ALL_GATHER_DONE = "all-gather-done"
    ALL_GATHER_START = "all-gather-start"
    ALL_REDUCE = "all-reduce"
    ALL_REDUCE_DONE = "all-reduce-done"
    ALL_REDUCE_START = "all-reduce-start"
    ALL_TO_ALL = "all-to-all"
    AND = "and"
    ASIN = "asin"
    ASINH = "asinh"
    ASYNC_DONE = "async-done"
    ASYNC_START = "async-start"
    ASYNC_UPDATE = "async-update"
    ATAN = "atan"
    ATAN2 = "atan2"
    ATANH = "atanh"
    BATCH_NORM_GRAD = "batch-norm-grad"
    BATCH_NORM_INFERENCE = "batch-norm-inference"
    BATCH_NORM_TRAINING = "batch-norm-training"
    BITCAST = "bitcast"
    BITCAST_CONVERT = "bitcast-convert"
    BROADCAST = "broadcast"
    CALL = "call"
    CBRT = "cbrt"
    CEIL = "ceil"
    CHOLESKY = "cholesky"
    CLAMP = "clamp"
    CLZ = "count-leading-zeros"
    COLLECTIVE_BROADCAST = "collective-broadcast"
    COLLECTIVE_PERMUTE = "collective-permute"
    COLLECTIVE_PERMUTE_DONE = "collective-permute-done"
    COLLECTIVE_PERMUTE_START = "collective-permute-start"
    COLLECTIVE_REDUCE = "collective-reduce"
    COMPARE = "compare"
    COMPLEX = "complex"
    CONCATENATE = "concatenate"
    CONDITIONAL = "conditional"
    CONSTANT = "constant"
    CONVERT = "convert"
    CONVOLUTION = "convolution"
    COPY = "copy"
    COPY_DONE = "copy-done"
    COPY_START = "copy-start"
    COSH = "cosh"
    COSINE = "cosine"
    CUSTOM_CALL = "custom-call"
    DIVIDE = "divide"
    DOMAIN = "domain"
    DOT = "dot"
    DYNAMIC_RESHAPE = "dynamic-reshape"
    DYNAMIC_SLICE = "dynamic-slice"
    DYNAMIC_UPDATE_SLICE = "dynamic-update-slice"
    ERF = "erf"
    EXP = "exponential"
    EXPM1 = "exponential-minus-one"
    FFT = "fft"
    FLOOR = "floor"
    FUSION = "fusion"
    GATHER = "gather"
    GET_DIMENSION_SIZE = "get-dimension-size"
    GET_TUPLE_ELEMENT = "get-tuple-element"
    IMAG = "imag"
    INFEED = "infeed"
    IOTA = "iota"
    IS_FINITE = "is-finite"
    LOG = "log"
    LOG1P = "log-plus-one"
    LOGISTIC = "logistic"
    MAP = "map"
    MAXIMUM = "maximum"
    MINIMUM = "minimum"
    MULHI = "mulhi"
    MULTIPLY = "multiply"
    NEGATE = "negate"
    NOT = "not"
    OPTIMIZATION_BARRIER = "opt-barrier"
    OR = "or"
    OUTFEED = "outfeed"
    PAD = "pad"
    PARAMETER = "parameter"
    PARTITION_ID = "partition-id"
    POPCNT = "popcnt"
    POWER = "power"
    RAGGED_ALL_TO_ALL = "ragged-all-to-all"
    RAGGED_DOT = "ragged-dot"
    REAL = "real"
    RECV = "recv"
    RECV_DONE = "recv-done"
    REDUCE = "reduce"
    REDUCE_PRECISION = "reduce-precision"
    REDUCE_SCATTER = "reduce-scatter"
    REDUCE_WINDOW = "reduce-window"
    REMAINDER = "remainder"
    REPLICA_ID = "replica-id"
    RESHAPE = "reshape"
    REVERSE = "reverse"
    RNG = "rng"
    RNG_BIT_GENERATOR = "rng-bit-generator"
    RNG_GET_AND_UPDATE_STATE = "rng-get-and-update-state"
    ROUND_NEAREST_AFZ = "round-nearest-afz"
    ROUND_NEAREST_EVEN = "round-nearest-even"
    RSQRT = "rsqrt"
    SCALED_DOT = "scaled-dot"
    SCAN = "scan"
    SCATTER = "scatter"
    SELECT = "select"
    SELECT_AND_SCATTER = "select-and-scatter"
    SEND = "send"
    SEND_DONE = "send-done"
    SET_DIMENSION_SIZE = "set-dimension-size"
    SHIFT_LEFT = "shift-left"
    SHIFT_RIGHT_ARITHMETIC = "shift-right-arithmetic"
    SHIFT_RIGHT_LOGICAL = "shift-right-logical"
    SHUFFLE = "shuffle"
    SIGN = "sign"
    SINE = "sine"
    SINH = "sinh"
    SLICE = "slice"
    SORT = "sort"
    SQRT = "sqrt"
    STOCHASTIC_CONVERT = "stochastic-convert"
    SUBTRACT = "subtract"
    TAN = "tan"
    TANH = "tanh"
    TOPK = "topk"
    TRANSPOSE = "transpose"
    TRIANGULAR_SOLVE = "triangular-solve"
    TUPLE = "tuple"
    WHILE = "while"
    XOR = "xor"

    def __str__(self) -> str:
        return self.value


class Group(enum.Enum):
    """What an opcode does, coarsely; backends and passes key on it (e.g. fusion)."""

    UNARY = "elementwise unary"
    BINARY = "elementwise binary"
    TERNARY = "elementwise ternary"
    DATA = "data movement"
    REDUCTION = "reduction"
    CONTRACTION = "contraction"
    CONTROL = "control flow"
    STRUCTURE = "structure"
    COLLECTIVE = "collective"
    OTHER = "other"


@dataclass(frozen=True)
class OpSpec:
    """What the IR knows about an opcode.

    Attributes:
        arity: number of operands, or None when variadic.
        group: the coarse kind of op.
        calls: attribute names that name called computations.
    """

    arity: int | None
    group: Group
    calls: tuple[str, ...] = ()


_UNARY = """abs cbrt ceil count-leading-zeros convert copy cosine erf exponential
exponential-minus-one floor imag is-finite log log-plus-one logistic negate not popcnt real
reduce-precision round-nearest-afz round-nearest-even rsqrt sign sine sqrt tan tanh
bitcast-convert acos acosh asin asinh atan atanh cosh sinh""".split()
_BINARY = """add and atan2 complex divide maximum minimum multiply or power remainder
shift-left shift-right-arithmetic shift-right-logical subtract xor compare
stochastic-convert mulhi""".split()

_SPECIAL: dict[str, OpSpec] = {
    "clamp": OpSpec(3, Group.TERNARY),
    "select": OpSpec(3, Group.TERNARY),
    "parameter": OpSpec(0, Group.STRUCTURE),
    "constant": OpSpec(0, Group.STRUCTURE),
    "iota": OpSpec(0, Group.DATA),
    "tuple": OpSpec(None, Group.STRUCTURE),
    "get-tuple-element": OpSpec(1, Group.STRUCTURE),
    "broadcast": OpSpec(1, Group.DATA),
    "reshape": OpSpec(1, Group.DATA),
    "dynamic-reshape": OpSpec(None, Group.DATA),
    "transpose": OpSpec(1, Group.DATA),
    "bitcast": OpSpec(1, Group.DATA),
    "reverse": OpSpec(1, Group.DATA),
    "slice": OpSpec(1, Group.DATA),
    "dynamic-slice": OpSpec(None, Group.DATA),
    "dynamic-update-slice": OpSpec(None, Group.DATA),
    "concatenate": OpSpec(None, Group.DATA),
    "pad": OpSpec(2, Group.DATA),
    "gather": OpSpec(2, Group.DATA),
    "scatter": OpSpec(None, Group.DATA, ("to_apply",)),
    "copy-start": OpSpec(1, Group.DATA),
    "copy-done": OpSpec(1, Group.DATA),
    "reduce": OpSpec(None, Group.REDUCTION, ("to_apply",)),
    "reduce-window": OpSpec(None, Group.REDUCTION, ("to_apply",)),
    "select-and-scatter": OpSpec(3, Group.REDUCTION, ("select", "scatter")),
    "map": OpSpec(None, Group.REDUCTION, ("to_apply",)),
    "sort": OpSpec(None, Group.OTHER, ("to_apply",)),
    "topk": OpSpec(1, Group.OTHER),
    "dot": OpSpec(2, Group.CONTRACTION),
    "scaled-dot": OpSpec(4, Group.CONTRACTION),
    "scan": OpSpec(None, Group.CONTROL, ("to_apply",)),
    "shuffle": OpSpec(1, Group.DATA),
    "collective-reduce": OpSpec(None, Group.COLLECTIVE, ("to_apply",)),
    "ragged-dot": OpSpec(3, Group.CONTRACTION),
    "convolution": OpSpec(2, Group.CONTRACTION),
    "cholesky": OpSpec(1, Group.OTHER),
    "triangular-solve": OpSpec(2, Group.OTHER),
    "fft": OpSpec(1, Group.OTHER),
    "batch-norm-training": OpSpec(3, Group.OTHER),
    "batch-norm-inference": OpSpec(5, Group.OTHER),
    "batch-norm-grad": OpSpec(5, Group.OTHER),
    "call": OpSpec(None, Group.CONTROL, ("to_apply",)),
    "fusion": OpSpec(None, Group.CONTROL, ("calls",)),
    "while": OpSpec(1, Group.CONTROL, ("condition", "body")),
    "conditional": OpSpec(None, Group.CONTROL,
                          ("branch_computations", "true_computation", "false_computation")),
    "custom-call": OpSpec(None, Group.OTHER, ("called_computations", "to_apply")),
    "get-dimension-size": OpSpec(1, Group.STRUCTURE),
    "set-dimension-size": OpSpec(2, Group.STRUCTURE),
    "rng": OpSpec(2, Group.OTHER),  # rng(a, b): the distribution's two parameters
    "rng-bit-generator": OpSpec(1, Group.OTHER),
    "rng-get-and-update-state": OpSpec(0, Group.OTHER),
    "async-start": OpSpec(None, Group.CONTROL, ("calls",)),
    "async-update": OpSpec(1, Group.CONTROL, ("calls",)),
    "async-done": OpSpec(1, Group.CONTROL, ("calls",)),
    "all-reduce": OpSpec(None, Group.COLLECTIVE, ("to_apply",)),
    "all-reduce-start": OpSpec(None, Group.COLLECTIVE, ("to_apply",)),
    "reduce-scatter": OpSpec(None, Group.COLLECTIVE, ("to_apply",)),
}


def _spec(op: Opcode) -> OpSpec:
    if op.value in _SPECIAL:
        return _SPECIAL[op.value]
    if op.value in _UNARY:
        return OpSpec(1, Group.UNARY)
    if op.value in _BINARY:
        return OpSpec(2, Group.BINARY)
    if op.value in ("replica-id", "partition-id", "after-all"):
        return OpSpec(None if op.value == "after-all" else 0, Group.STRUCTURE)
    if op.value in ("add-dependency", "opt-barrier", "domain"):
        # XLA: add-dependency(value, token), opt-barrier(tuple), domain(operand)
        return OpSpec(2 if op.value == "add-dependency" else 1, Group.STRUCTURE)
    group = Group.COLLECTIVE if "all-" in op.value or "collective" in op.value else Group.OTHER
    # An asynchronous op's -done takes the one value its -start (or send/recv) gave.
    return OpSpec(1 if op.value.endswith("-done") else None, group)


OP_SPECS: dict[Opcode, OpSpec] = {op: _spec(op) for op in Opcode}

# Text spellings that are aliases of an opcode (older XLA versions print these).
ALIASES: dict[str, Opcode] = {"optimization-barrier": Opcode.OPTIMIZATION_BARRIER}

BY_NAME: dict[str, Opcode] = {op.value: op for op in Opcode} | ALIASES
