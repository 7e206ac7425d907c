"""Gather's and scatter's dimension numbers, checked as XLA checks them before any shape is
computed (shape_inference.cc: ValidateGatherDimensions, ValidateScatterDimensionNumbers).

Without these an index map naming a dimension the operand lacks (`start_index_map={9}`,
`scatter_dims_to_operand_dims={-1}`) ran and read or wrote another dimension, and a scatter's
index_vector_dim past the indices' rank was a NumPy AxisError at run time.
May assume: operand dims as the shape rules give them (ints or Syms).
"""

from __future__ import annotations

from .sizes import Sym, dim_text


def check_dims(ctx, key: str, values, rank: int, what: str, ordered: bool = False) -> None:
    """Each of `values` (attribute `key`) a distinct dimension of the rank-`rank` `what`;
    in increasing order where XLA asks it (`ordered`)."""
    values = list(values)
    if any(not 0 <= v < rank for v in values):
        raise ctx.error(f"{key}={values} names a dimension outside the rank-{rank} {what}")
    if len(set(values)) != len(values):
        raise ctx.error(f"{key}={values} repeats a dimension")
    if ordered and values != sorted(values):
        raise ctx.error(f"{key}={values} must be in increasing order (XLA)")


def check_index_vector(ctx, key: str, mapped, indices, ivd: int) -> None:
    """index_vector_dim within the indices (their rank: an implicit trailing 1), and one entry
    of `key` per element of an index vector."""
    if not 0 <= ivd <= len(indices):
        raise ctx.error(f"index_vector_dim={ivd} is outside the rank-{len(indices)} indices")
    length = indices[ivd] if ivd < len(indices) else 1
    if not isinstance(length, Sym) and length != len(mapped):
        raise ctx.error(f"{key}={list(mapped)} has {len(mapped)} entries for index vectors "
                        f"of length {dim_text(length)} (dimension {ivd} of the indices)")


def check_gather(ctx, g, operand, indices) -> None:
    """XLA's ValidateGatherDimensions: GatherDims `g` against the operand and indices dims."""
    rank = len(operand)
    check_index_vector(ctx, "start_index_map", g.start_index_map, indices, g.index_vector_dim)
    check_dims(ctx, "start_index_map", g.start_index_map, rank, "operand")
    check_dims(ctx, "collapsed_slice_dims", g.collapsed_slice_dims, rank, "operand", True)
    check_dims(ctx, "operand_batching_dims", g.operand_batching_dims, rank, "operand", True)
    for d in g.collapsed_slice_dims:
        if g.slice_sizes[d] > 1:
            raise ctx.error(f"collapsed dimension {d} has slice size {g.slice_sizes[d]}; a "
                            "collapsed dimension is sliced at size 1 or 0")


def check_scatter(ctx, s, operand, indices, updates) -> None:
    """XLA's ValidateScatterDimensionNumbers: ScatterDims `s` against the dims of the
    operand, the indices and the updates."""
    check_index_vector(ctx, "scatter_dims_to_operand_dims", s.scatter_dims_to_operand_dims,
                       indices, s.index_vector_dim)
    check_dims(ctx, "update_window_dims", s.update_window_dims, len(updates), "updates", True)
    check_dims(ctx, "inserted_window_dims", s.inserted_window_dims, len(operand), "operand",
               True)
    check_dims(ctx, "input_batching_dims", s.input_batching_dims, len(operand), "operand", True)
    check_dims(ctx, "scatter_dims_to_operand_dims", s.scatter_dims_to_operand_dims,
               len(operand), "operand")
