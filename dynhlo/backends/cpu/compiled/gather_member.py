"""A gather of whole rows of a table the spec holds at indices read per call (an
embedding's lookup of token ids) as a member of a run of native calls (native_chain.py).

The HuggingFace decoders look their tokens up by such a gather right before the first
kernel of their run: a specialized step (special._held_table) of a few microseconds that
split the run. Where the table is a 2-d array of static sizes in C order, the indices dense
i32 or i64 and the result C-ordered (batch dimensions, then a row), the step is one call
of the `rows` routine (native_routines.py): each index clamped into [0, rows - 1] as XLA
clamps a gather's start indices (XLA operation semantics, Gather: the slice must fit), its
row copied. Semantics from the instruction's dimension numbers, checked on the call the
spec was made from.
"""

from __future__ import annotations

from array import array

import numpy as np

from ....hlo import attrs
from .native_routines import _routines
from .steps import data_address


def rows_member(op, values: dict):
    """native_chain._member's tuple of a _SPECIAL_ONE gather of rows (see the module
    docstring), else None."""
    inst = op[1]
    table_inst, index_inst = inst.operands
    if op[3] is not index_inst or len(op) != 5:
        return None
    table, ids, value = values.get(table_inst), values.get(index_inst), values.get(inst)
    if table.__class__ is not np.ndarray or ids.__class__ is not np.ndarray or \
            value.__class__ is not np.ndarray or table.ndim != 2 or \
            not table.flags.c_contiguous or any(table_inst.shape.dynamic) or \
            ids.dtype not in (np.dtype(np.int32), np.dtype(np.int64)) or \
            not ids.flags.c_contiguous or not value.flags.c_contiguous or \
            value.dtype != table.dtype or not table.shape[0] or not value.size:
        return None
    dims = attrs.gather_dims(inst, ids.ndim)
    offset, collapsed, start_map, op_batch, idx_batch, ivd, sizes = dims
    lead = ids.shape[:ivd] if ivd == ids.ndim or ids.shape[ivd] == 1 else None
    if lead is None or ivd not in (ids.ndim - 1, ids.ndim) or op_batch or idx_batch or \
            tuple(collapsed) != (0,) or tuple(start_map) != (0,) or \
            tuple(sizes) != (1, table.shape[1]) or tuple(offset) != (len(lead),) or \
            value.shape != (*lead, table.shape[1]):
        return None
    last = table.shape[0] - 1
    if not np.array_equal(value, table[np.clip(ids.reshape(-1), 0, last)].reshape(
            value.shape)):   # (the recorded call's values: the same rows)
        return None
    packed = array("q", [0, data_address(table), data_address(ids), ids.size,
                         table.shape[0], table.shape[1] * table.itemsize])
    return [(_routines()[f"rows{ids.itemsize}"], packed, table)], \
        ([packed, 2, index_inst, ids.strides, 0, ids.shape, None],), None, None, \
        (value.shape, value.dtype, ((packed, 0, 0),), None, np.empty)
