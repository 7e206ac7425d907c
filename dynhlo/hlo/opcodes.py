"""The Opcode enum and the op-spec table: every HLO opcode XLA's text format knows.

Opcodes are data: one enum and one table of specs. A spec holds everything the IR knows about
an opcode: its operand count and group, the computations it calls and needs, its traits
(Trait), the attributes it takes, its operand and result types where a field can say them;
the parser, the verifier and the passes read the spec instead of keeping opcode lists of their
own. The shape rules (dynhlo.shapes) and each backend's lowerings are tables keyed by the same
enum, each an OnceTable (a key registered twice raises at import). Sources:
xla/hlo/ir/hlo_opcode.h, xla/hlo/parser/hlo_parser.cc, xla/service/shape_inference.cc.
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


class Trait(enum.Flag):
    """Facts about an opcode that the verifier, the parser and passes key on (as xDSL's
    `traits_def`). Sources: xla/service/shape_inference.cc, hlo_verifier.cc, and
    xla/hlo/parser/hlo_parser.cc `CanInferShape`."""

    NONE = 0
    TUPLE_OPERANDS = enum.auto()  # XLA lets it take a tuple-shaped operand; others take arrays
    ARRAY_RESULT = enum.auto()  # always one array (ShapeInference gives no tuple for it)
    KEEPS_TYPE = enum.auto()  # the result has operand 0's element type (data movement)
    CHANGES_TYPE = enum.auto()  # elementwise unary whose result type differs from its operand's
    INFERABLE = enum.auto()  # may be written without a shape (XLA's CanInferShape)
    CALL_ARGUMENTS = enum.auto()  # its called computations take the operands as parameters
    SIDE_EFFECT = enum.auto()  # never dead, even unused (XLA's HasSideEffect; collectives too)
    CARRIES_OPERANDS = enum.auto()  # a -start: the result is (operands, results, context...)
    RANDOM = enum.auto()  # draws random numbers: its values at one shape are not a prefix of
    #                       those at a larger one


TUPLES, ARRAY, KEEPS = Trait.TUPLE_OPERANDS, Trait.ARRAY_RESULT, Trait.KEEPS_TYPE
CHANGES, INFER, PASSES = Trait.CHANGES_TYPE, Trait.INFERABLE, Trait.CALL_ARGUMENTS
EFFECT, CARRIES, RANDOM = Trait.SIDE_EFFECT, Trait.CARRIES_OPERANDS, Trait.RANDOM


@dataclass(frozen=True)
class OpSpec:
    """What the IR knows about an opcode: one line of the table below is the whole IR fact.

    Attributes:
        arity: number of operands, or None when variadic.
        group: the coarse kind of op.
        calls: attribute names that name called computations.
        traits: the Trait flags that hold for it.
        attrs: the attributes of its own XLA's parser accepts (besides
            dynhlo.hlo.opcodes_attrs.COMMON); None: not checked (newer than the parser source).
        needs: the called computations it cannot run without; each entry is a tuple of
            alternatives (any one of them).
        least: the fewest operands a variadic opcode takes (fixed arities: the parser checks).
        same_type: the operands (a slice of the operand list) that share operand 0's type.
        indices: the operands (a slice) that are indices or sizes, so integers.
        result: what the result is where the spec alone says it: "operand N" (that
            operand's shape), "operands" (operand 0, or the tuple of all operands), "called"
            (the root of its first called computation), or a scalar type ("u32[]", which the
            verifier checks too). Empty: a rule of dynhlo.hlo.text.infer says it, if any.
        reducer: how its to_apply folds values (the verifier checks its signature):
            "inits" (N arrays, then N init values: a reducer of N accumulators and N inputs),
            "updates" (N arrays, the indices, N updates: likewise), "binary" (one binary
            reducer applied to each operand). Empty: no reducer.
        resizes: how a collective's result sizes differ from its operands' over a group of
            n devices (XLA's shape inference): "gathers" (times n along `dimensions`),
            "scatters" (divided by n along `dimensions`), "exchanges" (all-to-all: split and
            concatenated). Empty: the operands' sizes.
        distinct: the attribute that lists dimensions no two alike (the verifier checks it);
            empty: none.
        operand_type: the type every operand has: an element type (after-all: "token"), or
            "result[]" (a scalar of the result's element type: rng's parameters); empty: any.
        choices: (attribute, the values it may take) pairs; the attribute must be given.
        result_dimension: the attribute that names one dimension of the result (iota's
            iota_dimension); empty: none.
    """

    arity: int | None
    group: Group
    calls: tuple[str, ...] = ()
    traits: Trait = Trait.NONE
    attrs: frozenset[str] | None = frozenset()
    needs: tuple[tuple[str, ...], ...] = ()
    least: int = 0
    same_type: slice | None = None
    indices: slice | None = None
    result: str = ""
    reducer: str = ""
    resizes: str = ""
    distinct: str = ""
    operand_type: str = ""
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()
    result_dimension: str = ""


def _op(arity: int | None, group: Group, calls: str = "", traits: Trait = Trait.NONE,
        attrs: str | None = "", needs: str = "", least: int = 0, same_type: slice | None = None,
        indices: slice | None = None, result: str = "", reducer: str = "",
        resizes: str = "", distinct: str = "", operand_type: str = "",
        choices: dict[str, str] | None = None, result_dimension: str = "") -> OpSpec:
    """An OpSpec from words: calls and attrs are space-separated names; needs names each
    required computation, alternatives joined by '|' ("condition body", "a|b"); choices maps
    an attribute to its values, space-separated."""
    return OpSpec(arity, group, tuple(calls.split()), traits,
                  None if attrs is None else frozenset(attrs.split()),
                  tuple(tuple(n.split("|")) for n in needs.split()), least, same_type, indices,
                  result, reducer, resizes, distinct, operand_type,
                  tuple((k, tuple(v.split())) for k, v in (choices or {}).items()),
                  result_dimension)


_UNARY = """abs cbrt ceil count-leading-zeros convert copy cosine erf exponential
exponential-minus-one floor imag is-finite log log-plus-one logistic negate not popcnt real
reduce-precision round-nearest-afz round-nearest-even rsqrt sign sine sqrt tan tanh
bitcast-convert acos acosh asin asinh atan atanh cosh sinh""".split()
_BINARY = """add and atan2 complex divide maximum minimum multiply or power remainder
shift-left shift-right-arithmetic shift-right-logical subtract xor compare
stochastic-convert mulhi""".split()
# Elementwise opcodes whose result element type is not their operand's.
_CHANGES_TYPE = "convert bitcast-convert is-finite real imag abs reduce-precision".split()
# Elementwise opcodes XLA's parser cannot infer a shape for (the result type is free).
_NOT_INFERABLE = "convert bitcast-convert reduce-precision stochastic-convert".split()
# Unary opcodes XLA gives a `result_accuracy` (the transcendental functions).
_ACCURATE = """acos acosh asin asinh atan atanh exponential-minus-one log log-plus-one logistic
sqrt cbrt rsqrt tanh erf sine sinh cosine cosh tan exponential""".split()
_ELEMENTWISE_ATTRS = {"compare": "direction type",
                      "reduce-precision": "exponent_bits mantissa_bits"}


def _elementwise(name: str, arity: int, group: Group) -> OpSpec:
    traits = (Trait.NONE if name in _NOT_INFERABLE else INFER) | (
        CHANGES if name in _CHANGES_TYPE else Trait.NONE) | (
        TUPLES if name == "copy" else Trait.NONE)
    attrs = "result_accuracy" if name in _ACCURATE else _ELEMENTWISE_ATTRS.get(name, "")
    return _op(arity, group, traits=traits, attrs=attrs)


# Attribute lists several opcodes share (xla/hlo/parser/hlo_parser.cc `CreateInstruction`).
_COLLECTIVE = "replica_groups channel_id constrain_layout use_global_device_ids "
_DOT = "lhs_contracting_dims rhs_contracting_dims lhs_batch_dims rhs_batch_dims " \
       "operand_precision algorithm "
_CHANNEL = "channel_id is_host_transfer"
_BATCH_NORM = "epsilon feature_index"
_WINDOW = "window to_apply"
_PERMUTE = "source_target_pairs channel_id slice_sizes"
_ASYNC = "async_execution_thread calls"
_CUSTOM_CALL = "custom_call_target window dim_labels feature_group_count batch_group_count " \
               "operand_layout_constraints custom_call_has_side_effect to_apply " \
               "called_computations output_to_operand_aliasing padding_type literal " \
               "operand_precision schedule api_version"
_GATHER = "offset_dims collapsed_slice_dims start_index_map index_vector_dim slice_sizes " \
          "indices_are_sorted operand_batching_dims start_indices_batching_dims"
_SCATTER = "update_window_dims inserted_window_dims scatter_dims_to_operand_dims " \
           "index_vector_dim to_apply indices_are_sorted unique_indices input_batching_dims " \
           "scatter_indices_batching_dims"
_ALL = slice(None)
_G = Group

# Every opcode that is not plain elementwise: arity, group, then its calls, traits,
# attributes, required calls, operand counts and operand types.
_SPECIAL: dict[str, OpSpec] = {
    "clamp": _op(3, _G.TERNARY, traits=INFER),
    "select": _op(3, _G.TERNARY, traits=INFER),
    "parameter": _op(0, _G.STRUCTURE),
    "constant": _op(0, _G.STRUCTURE),
    "tuple": _op(None, _G.STRUCTURE, traits=TUPLES | INFER),
    "get-tuple-element": _op(1, _G.STRUCTURE, traits=TUPLES | INFER, attrs="index"),
    "get-dimension-size": _op(1, _G.STRUCTURE, traits=ARRAY | INFER, attrs="dimensions",
                              result="s32[]"),
    "set-dimension-size": _op(2, _G.STRUCTURE, traits=ARRAY | KEEPS | INFER,
                              attrs="dimensions"),
    "replica-id": _op(0, _G.STRUCTURE, traits=ARRAY | INFER, result="u32[]"),
    "partition-id": _op(0, _G.STRUCTURE, traits=ARRAY | INFER, result="u32[]"),
    "after-all": _op(None, _G.STRUCTURE, traits=TUPLES | ARRAY | INFER, result="token[]",
                     operand_type="token"),
    # XLA: add-dependency(value, token), opt-barrier(tuple), domain(operand)
    "add-dependency": _op(2, _G.STRUCTURE, traits=TUPLES | INFER, result="operand 0"),
    "opt-barrier": _op(1, _G.STRUCTURE, traits=TUPLES | INFER, result="operand 0"),
    "domain": _op(1, _G.STRUCTURE, traits=TUPLES | INFER, attrs="domain", result="operand 0"),
    "iota": _op(0, _G.DATA, traits=ARRAY, attrs="iota_dimension",
                result_dimension="iota_dimension"),
    "broadcast": _op(1, _G.DATA, traits=ARRAY | KEEPS | INFER, attrs="dimensions"),
    "reshape": _op(1, _G.DATA, traits=ARRAY | KEEPS, attrs="inferred_dimension"),
    "dynamic-reshape": _op(None, _G.DATA, traits=ARRAY | KEEPS, least=1, indices=slice(1, None)),
    "transpose": _op(1, _G.DATA, traits=ARRAY | KEEPS | INFER, attrs="dimensions"),
    "bitcast": _op(1, _G.DATA, traits=ARRAY),
    "reverse": _op(1, _G.DATA, traits=ARRAY | KEEPS | INFER, attrs="dimensions",
                   result="operand 0", distinct="dimensions"),
    "slice": _op(1, _G.DATA, traits=ARRAY | KEEPS, attrs="slice"),
    "dynamic-slice": _op(None, _G.DATA, traits=ARRAY | KEEPS, attrs="dynamic_slice_sizes",
                         least=1, indices=slice(1, None)),
    "dynamic-update-slice": _op(None, _G.DATA, traits=ARRAY | KEEPS, least=2,
                                same_type=slice(0, 2), indices=slice(2, None)),
    "concatenate": _op(None, _G.DATA, traits=ARRAY | KEEPS | INFER, attrs="dimensions",
                       least=1, same_type=_ALL),
    "pad": _op(2, _G.DATA, traits=ARRAY | KEEPS | INFER, attrs="padding", same_type=_ALL),
    "gather": _op(2, _G.DATA, traits=ARRAY | KEEPS | INFER, attrs=_GATHER,
                  indices=slice(1, 2)),
    "scatter": _op(None, _G.DATA, "to_apply", INFER, _SCATTER, needs="to_apply",
                   reducer="updates"),
    "copy-start": _op(1, _G.DATA, traits=TUPLES | KEEPS | CARRIES,
                      attrs="cross_program_prefetch_index"),
    "copy-done": _op(1, _G.DATA, traits=TUPLES),
    "shuffle": _op(1, _G.DATA, attrs=None),  # newer than the parser source: not checked
    "reduce": _op(None, _G.REDUCTION, "to_apply", INFER, "to_apply dimensions",
                  needs="to_apply", reducer="inits", distinct="dimensions"),
    "reduce-window": _op(None, _G.REDUCTION, "to_apply", INFER, _WINDOW, needs="to_apply",
                         reducer="inits"),
    "select-and-scatter": _op(3, _G.REDUCTION, "select scatter", ARRAY | INFER,
                              "select scatter window", needs="select scatter",
                              result="operand 0"),
    "map": _op(None, _G.REDUCTION, "to_apply", ARRAY | INFER, "to_apply dimensions",
               needs="to_apply", least=1),
    "sort": _op(None, _G.OTHER, "to_apply", INFER, "dimensions is_stable to_apply",
                needs="to_apply", least=1, result="operands"),
    "topk": _op(1, _G.OTHER, traits=INFER, attrs="k largest"),
    "dot": _op(2, _G.CONTRACTION, traits=ARRAY | INFER, attrs=_DOT),
    "scaled-dot": _op(4, _G.CONTRACTION, attrs=_DOT),
    "ragged-dot": _op(3, _G.CONTRACTION, traits=INFER,
                      attrs=_DOT + "lhs_ragged_dims rhs_group_dims"),
    "convolution": _op(2, _G.CONTRACTION, traits=ARRAY | INFER,
                       attrs="window dim_labels feature_group_count batch_group_count "
                             "conv_kind operand_precision"),
    # cholesky and triangular-solve read their options as a proto message
    # (CholeskyOptions, TriangularSolveOptions): its fields are their attributes.
    "cholesky": _op(1, _G.OTHER, traits=ARRAY | KEEPS | INFER, attrs="lower",
                    result="operand 0"),
    "triangular-solve": _op(2, _G.OTHER, traits=ARRAY | KEEPS | INFER,
                            attrs="left_side lower unit_diagonal transpose_a", same_type=_ALL,
                            result="operand 1"),
    "fft": _op(1, _G.OTHER, traits=ARRAY | INFER, attrs="fft_type fft_length"),
    "batch-norm-training": _op(3, _G.OTHER, traits=INFER, attrs=_BATCH_NORM),
    "batch-norm-inference": _op(5, _G.OTHER, traits=ARRAY | INFER, attrs=_BATCH_NORM),
    "batch-norm-grad": _op(5, _G.OTHER, traits=INFER, attrs=_BATCH_NORM),
    "rng": _op(2, _G.OTHER, traits=ARRAY | EFFECT | RANDOM,  # rng(a, b): the parameters
               attrs="distribution", operand_type="result[]",
               choices={"distribution": "rng_uniform rng_normal"}),
    "rng-bit-generator": _op(1, _G.OTHER, traits=RANDOM, attrs="algorithm"),
    "rng-get-and-update-state": _op(0, _G.OTHER, traits=EFFECT, attrs="delta"),
    "scan": _op(None, _G.CONTROL, "to_apply",
                attrs="to_apply dimensions num_carries is_reverse is_associative"),
    "call": _op(None, _G.CONTROL, "to_apply", TUPLES | INFER | PASSES, "to_apply is_composite",
                needs="to_apply", result="called"),
    "fusion": _op(None, _G.CONTROL, "calls", TUPLES | PASSES,
                  "calls kind output_to_operand_aliasing", needs="calls", result="called"),
    "while": _op(1, _G.CONTROL, "condition body", TUPLES | INFER, "condition body",
                 needs="condition body", result="operand 0"),
    "conditional": _op(None, _G.CONTROL,
                       "branch_computations true_computation false_computation", TUPLES | INFER,
                       "true_computation false_computation branch_computations",
                       needs="branch_computations|true_computation", least=1,
                       result="called"),
    "custom-call": _op(None, _G.OTHER, "called_computations to_apply", TUPLES, _CUSTOM_CALL),
    "async-start": _op(None, _G.CONTROL, "calls", TUPLES | PASSES | CARRIES,
                       _ASYNC + " output_to_operand_aliasing", needs="calls"),
    "async-update": _op(1, _G.CONTROL, "calls", TUPLES, _ASYNC),
    "async-done": _op(1, _G.CONTROL, "calls", TUPLES, _ASYNC),
    "all-reduce": _op(None, _G.COLLECTIVE, "to_apply", TUPLES, _COLLECTIVE + "to_apply mode",
                      needs="to_apply", least=1, reducer="binary"),
    "all-reduce-start": _op(None, _G.COLLECTIVE, "to_apply", TUPLES,
                            _COLLECTIVE + "to_apply mode", needs="to_apply", least=1,
                            reducer="binary"),
    "all-reduce-done": _op(1, _G.COLLECTIVE, traits=TUPLES),
    "reduce-scatter": _op(None, _G.COLLECTIVE, "to_apply", TUPLES,
                          _COLLECTIVE + "to_apply mode dimensions", needs="to_apply", least=1,
                          reducer="binary", resizes="scatters"),
    "all-gather": _op(None, _G.COLLECTIVE, traits=TUPLES, attrs=_COLLECTIVE + "dimensions",
                      least=1, resizes="gathers"),
    "all-gather-start": _op(None, _G.COLLECTIVE, traits=TUPLES | CARRIES,
                            attrs=_COLLECTIVE + "dimensions", least=1, resizes="gathers"),
    "all-gather-done": _op(1, _G.COLLECTIVE, traits=TUPLES),
    "all-to-all": _op(None, _G.COLLECTIVE, traits=TUPLES,
                      attrs="replica_groups channel_id dimensions constrain_layout", least=1,
                      resizes="exchanges"),
    "ragged-all-to-all": _op(None, _G.COLLECTIVE, traits=TUPLES,
                             attrs="replica_groups channel_id dimensions", resizes="exchanges"),
    "collective-broadcast": _op(None, _G.COLLECTIVE, traits=TUPLES,
                                attrs="replica_groups channel_id", least=1),
    "collective-permute": _op(None, _G.COLLECTIVE, traits=TUPLES, attrs=_PERMUTE, least=1),
    "collective-permute-start": _op(None, _G.COLLECTIVE, traits=TUPLES | CARRIES,
                                    attrs=_PERMUTE, least=1),
    "collective-permute-done": _op(1, _G.COLLECTIVE, traits=TUPLES),
    "collective-reduce": _op(None, _G.COLLECTIVE, "to_apply", attrs=None),  # not checked
    # An asynchronous op's -done takes the one value its -start (or send/recv) gave.
    "send": _op(None, _G.OTHER, traits=TUPLES | EFFECT, attrs=_CHANNEL),
    "send-done": _op(1, _G.OTHER, traits=TUPLES | EFFECT, attrs=_CHANNEL),
    "recv": _op(None, _G.OTHER, traits=TUPLES | EFFECT, attrs=_CHANNEL),
    "recv-done": _op(1, _G.OTHER, traits=TUPLES | EFFECT, attrs=_CHANNEL),
    "infeed": _op(None, _G.OTHER, traits=TUPLES | EFFECT, attrs="infeed_config"),
    "outfeed": _op(None, _G.OTHER, traits=TUPLES | EFFECT, attrs="outfeed_config outfeed_shape"),
}


def _spec(op: Opcode) -> OpSpec:
    if op.value in _SPECIAL:
        return _SPECIAL[op.value]
    if op.value in _UNARY:
        return _elementwise(op.value, 1, Group.UNARY)
    if op.value in _BINARY:
        return _elementwise(op.value, 2, Group.BINARY)
    raise AssertionError(f"{op.value} has no spec")  # at import: every opcode needs one


OP_SPECS: dict[Opcode, OpSpec] = {op: _spec(op) for op in Opcode}

# Text spellings that are aliases of an opcode (older XLA versions print these).
ALIASES: dict[str, Opcode] = {"optimization-barrier": Opcode.OPTIMIZATION_BARRIER}

BY_NAME: dict[str, Opcode] = {op.value: op for op in Opcode} | ALIASES


class OnceTable(dict):
    """A rule table keyed by opcode (or custom-call target) that takes each key once.

    The shape rules, each backend's lowerings and the custom-call tables are OnceTables, so a
    second registration of one key raises ValueError when the registering module is imported,
    instead of replacing the first silently (import order deciding which rule runs).
    """

    def __init__(self, name: str):
        super().__init__()
        self.name = name

    def __setitem__(self, key, value) -> None:
        if key in self:
            raise ValueError(f"{self.name}: {getattr(key, 'value', key)} is registered twice "
                             f"({getattr(self[key], '__qualname__', self[key])} and "
                             f"{getattr(value, '__qualname__', value)})")
        super().__setitem__(key, value)

    def update(self, *args, **kwargs) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):  # pragma: no cover - same rule as []=
        if key not in self:
            self[key] = default
        return self[key]
