"""Which attributes each opcode takes: XLA's parser refuses any other, and so does dynhlo.

Source: xla/hlo/parser/hlo_parser.cc, `ParseInstructionRhs` (the attributes every instruction
may carry) and `CreateInstruction` (each opcode's own `attrs["..."]`). Cholesky and
triangular-solve read their options as a proto message (CholeskyOptions,
TriangularSolveOptions); their fields are listed here.
"""

from __future__ import annotations

from .opcodes import Opcode

# Every instruction may carry these (ParseInstructionRhs).
COMMON = frozenset({"sharding", "frontend_attributes", "statistics", "parameter_replication",
                    "control-predecessors", "origin", "metadata", "backend_config"})

_COLLECTIVE = "replica_groups channel_id constrain_layout use_global_device_ids"
_DOT = "lhs_contracting_dims rhs_contracting_dims lhs_batch_dims rhs_batch_dims " \
       "operand_precision algorithm"
_CHANNEL = "channel_id is_host_transfer"
_BATCH_NORM = "epsilon feature_index"
# Unary opcodes XLA gives a `result_accuracy` (the transcendental functions).
_ACCURATE = """acos acosh asin asinh atan atanh exponential-minus-one log log-plus-one logistic
sqrt cbrt rsqrt tanh erf sine sinh cosine cosh tan exponential""".split()

_OWN: dict[str, str] = {
    "iota": "iota_dimension",
    "topk": "k largest",
    "all-gather": _COLLECTIVE + " dimensions",
    "all-gather-start": _COLLECTIVE + " dimensions",
    "all-reduce": _COLLECTIVE + " to_apply mode",
    "all-reduce-start": _COLLECTIVE + " to_apply mode",
    "reduce-scatter": _COLLECTIVE + " to_apply mode dimensions",
    "all-to-all": "replica_groups channel_id dimensions constrain_layout",
    "ragged-all-to-all": "replica_groups channel_id dimensions",
    "collective-broadcast": "replica_groups channel_id",
    "collective-permute": "source_target_pairs channel_id slice_sizes",
    "collective-permute-start": "source_target_pairs channel_id slice_sizes",
    "async-start": "async_execution_thread calls output_to_operand_aliasing",
    "async-update": "async_execution_thread calls",
    "async-done": "async_execution_thread calls",
    "copy-start": "cross_program_prefetch_index",
    "reshape": "inferred_dimension",
    "sort": "dimensions is_stable to_apply",
    "while": "condition body",
    "recv": _CHANNEL, "recv-done": _CHANNEL, "send": _CHANNEL, "send-done": _CHANNEL,
    "get-tuple-element": "index",
    "call": "to_apply is_composite",
    "reduce-window": "window to_apply",
    "convolution": "window dim_labels feature_group_count batch_group_count conv_kind "
                   "operand_precision",
    "fft": "fft_type fft_length",
    "triangular-solve": "left_side lower unit_diagonal transpose_a",
    "compare": "direction type",
    "cholesky": "lower",
    "broadcast": "dimensions",
    "concatenate": "dimensions",
    "map": "to_apply dimensions",
    "scan": "to_apply dimensions num_carries is_reverse is_associative",
    "reduce": "to_apply dimensions",
    "reverse": "dimensions",
    "select-and-scatter": "select scatter window",
    "slice": "slice",
    "dynamic-slice": "dynamic_slice_sizes",
    "transpose": "dimensions",
    "batch-norm-training": _BATCH_NORM,
    "batch-norm-inference": _BATCH_NORM,
    "batch-norm-grad": _BATCH_NORM,
    "pad": "padding",
    "fusion": "calls kind output_to_operand_aliasing",
    "infeed": "infeed_config",
    "outfeed": "outfeed_config outfeed_shape",
    "rng": "distribution",
    "rng-get-and-update-state": "delta",
    "rng-bit-generator": "algorithm",
    "reduce-precision": "exponent_bits mantissa_bits",
    "conditional": "true_computation false_computation branch_computations",
    "custom-call": "custom_call_target window dim_labels feature_group_count "
                   "batch_group_count operand_layout_constraints custom_call_has_side_effect "
                   "to_apply called_computations output_to_operand_aliasing padding_type "
                   "literal operand_precision schedule api_version",
    "dot": _DOT,
    "scaled-dot": _DOT,
    "ragged-dot": _DOT + " lhs_ragged_dims rhs_group_dims",
    "gather": "offset_dims collapsed_slice_dims start_index_map index_vector_dim slice_sizes "
              "indices_are_sorted operand_batching_dims start_indices_batching_dims",
    "scatter": "update_window_dims inserted_window_dims scatter_dims_to_operand_dims "
               "index_vector_dim to_apply indices_are_sorted unique_indices "
               "input_batching_dims scatter_indices_batching_dims",
    "domain": "domain",
    "get-dimension-size": "dimensions",
    "set-dimension-size": "dimensions",
} | {name: "result_accuracy" for name in _ACCURATE}

# Opcodes whose attributes XLA's parser reads in a way not listed above (collective-reduce
# and shuffle are newer than the parser source this table follows): not checked.
_UNCHECKED = frozenset({Opcode.COLLECTIVE_REDUCE, Opcode.SHUFFLE})

ATTRIBUTES: dict[Opcode, frozenset[str] | None] = {
    op: None if op in _UNCHECKED else COMMON | frozenset(_OWN.get(op.value, "").split())
    for op in Opcode}

# Attributes XLA's parser reads as a braced integer list (AttrTy::kBracedInt64List, or the
# list of lists collective-permute's slice_sizes is): ParseInt64List demands the '{' and
# refuses a bare `dimensions=0` ("expects a list to end with }", its message for a missing
# start), so dynhlo refuses it at parse time too.
BRACED_INT_LISTS = frozenset("""dimensions slice_sizes dynamic_slice_sizes lhs_batch_dims
rhs_batch_dims lhs_contracting_dims rhs_contracting_dims offset_dims collapsed_slice_dims
start_index_map operand_batching_dims start_indices_batching_dims update_window_dims
inserted_window_dims scatter_dims_to_operand_dims input_batching_dims
scatter_indices_batching_dims fft_length lhs_ragged_dims rhs_group_dims""".split())
