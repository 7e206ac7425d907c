"""Which attributes each opcode takes: XLA's parser refuses any other, and so does dynhlo.

Source: xla/hlo/parser/hlo_parser.cc, `ParseInstructionRhs` (the attributes every instruction
may carry) and `CreateInstruction` (each opcode's own `attrs["..."]`, held in its OpSpec's
`attrs`: dynhlo.hlo.opcodes).
"""

from __future__ import annotations

from .opcodes import OP_SPECS, Opcode

# Every instruction may carry these (ParseInstructionRhs).
COMMON = frozenset({"sharding", "frontend_attributes", "statistics", "parameter_replication",
                    "control-predecessors", "origin", "metadata", "backend_config"})

# Each opcode's own attributes are its OpSpec's `attrs` (None: not checked).
ATTRIBUTES: dict[Opcode, frozenset[str] | None] = {
    op: None if spec.attrs is None else COMMON | spec.attrs for op, spec in OP_SPECS.items()}

# Attributes XLA's parser reads as a braced integer list (AttrTy::kBracedInt64List, or the
# list of lists collective-permute's slice_sizes is): ParseInt64List demands the '{' and
# refuses a bare `dimensions=0` ("expects a list to end with }", its message for a missing
# start), so dynhlo refuses it at parse time too.
BRACED_INT_LISTS = frozenset("""dimensions slice_sizes dynamic_slice_sizes lhs_batch_dims
rhs_batch_dims lhs_contracting_dims rhs_contracting_dims offset_dims collapsed_slice_dims
start_index_map operand_batching_dims start_indices_batching_dims update_window_dims
inserted_window_dims scatter_dims_to_operand_dims input_batching_dims
scatter_indices_batching_dims fft_length lhs_ragged_dims rhs_group_dims""".split())
