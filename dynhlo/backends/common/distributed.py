"""Collectives across processes through torch.distributed, for both backends (torch tensors).

One process per device: the process's torch.distributed rank is its device's flattened id
(dynhlo.hlo.collectives). A `Communicator` is made when a module is compiled with
distributed=True: it checks the process group against the module's device counts and makes
every subgroup the module's collectives use, in module order, so that all ranks create them
in the same order (torch.distributed.new_group is itself collective). Each method takes and
returns torch tensors (CPU tensors with gloo, CUDA tensors with NCCL) and follows XLA's
semantics (AllReduce, AllGather, ReduceScatter, AllToAll, CollectivePermute,
CollectiveBroadcast in XLA's operation semantics). torch.distributed moves every byte.

Dynamic dimensions: XLA defines no collective on a dynamic operand (its dynamic dimension
inference refuses them all: DefaultAction, Unimplemented). dynhlo refuses, at compile time,
a collective that resizes a dynamic dim (shapes/rules_collective.py: an all-gather of f32[<=B,64]
pieces along dim 0), and runs one that keeps its dynamic dims when every participant has
the same actual sizes there, the one case with a single meaning: checked before the data
moves, a disagreement is a DynamicSizeError naming the instruction and each rank's sizes.
"""

from __future__ import annotations

from ...errors import DynamicSizeError, UnsupportedError
from ...hlo.collectives import (COLLECTIVES, PERMUTES, Devices, participants, permute_pairs,
                               reduction)
from ...hlo.ir import HloModule, Instruction
from ...hlo.opcodes import OP_SPECS


def _torch():
    try:
        import torch
        import torch.distributed as dist
    except ImportError as exc:  # torch is optional for the CPU backend
        raise UnsupportedError(f"distributed=True needs torch (torch.distributed): {exc}"
                               ) from None
    return torch, dist


class Communicator:
    """This process's place among the module's devices, and the subgroups of its collectives.

    Raises UnsupportedError (at construction) when no process group is initialised or its
    size is not the module's replica_count x num_partitions, and for collectives whose groups
    or reductions dynhlo cannot run (see dynhlo.hlo.collectives).
    """

    def __init__(self, module: HloModule):
        torch, dist = _torch()
        if not dist.is_available() or not dist.is_initialized():
            raise UnsupportedError(
                "distributed=True runs inside an initialised torch.distributed process group "
                "(torch.distributed.init_process_group, one process per device), or use "
                "`dynhlo run --nproc N`")
        self.torch, self.dist = torch, dist
        self.devices = Devices.of(module)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        if self.world != self.devices.world_size:
            raise UnsupportedError(
                f"module '{module.name}' runs on replica_count={self.devices.replica_count} x "
                f"num_partitions={self.devices.num_partitions} = {self.devices.world_size} "
                f"devices, but the process group has {self.world} processes")
        self.backend_name = str(dist.get_backend())
        self._groups: dict[tuple, tuple] = {}  # all groups -> (this rank's group, its ranks)
        for inst in module.instructions():  # the same order on every rank
            if inst.opcode in COLLECTIVES and inst.opcode not in PERMUTES:
                self.group(inst)
                if OP_SPECS[inst.opcode].reducer:  # all-reduce, its start, reduce-scatter
                    reduction(inst)  # refuse an unknown to_apply at compile time

    # -- groups -----------------------------------------------------------------------------

    def group(self, inst: Instruction) -> tuple[object, list[int]]:
        """(the process group, its ranks in participant order) of `inst` for this rank."""
        groups = participants(inst, self.devices)
        key = tuple(tuple(g) for g in groups)
        if key not in self._groups:
            mine = next(g for g in groups if self.rank in g)
            if len(groups) == 1:
                pg = self.dist.group.WORLD if mine == sorted(mine) else self._new(groups)
            else:
                pg = self._new(groups)
            self._groups[key] = (pg, mine)
        return self._groups[key]

    def _new(self, groups):
        # Every rank creates every group, in one order (torch.distributed's rule).
        pg, _ = self.dist.new_subgroups_by_enumeration([sorted(g) for g in groups])
        return pg

    @property
    def replica_id(self) -> int:
        return self.devices.replica_id(self.rank)

    @property
    def partition_id(self) -> int:
        return self.devices.partition_id(self.rank)

    # -- dynamic sizes ----------------------------------------------------------------------

    def check_sizes(self, inst: Instruction, x, pg, ranks: list[int], dynamic: list[int]):
        """DynamicSizeError unless every participant has x's sizes in the `dynamic` dims."""
        if not dynamic or len(ranks) == 1:
            return
        mine = self.torch.tensor([x.shape[d] for d in dynamic], dtype=self.torch.int64,
                                 device=x.device)
        every = [self.torch.empty_like(mine) for _ in ranks]
        self.dist.all_gather(every, mine, group=pg)
        sizes = [tuple(int(v) for v in s.tolist()) for s in every]
        if len(set(sizes)) > 1:
            seen = ", ".join(f"rank {r}: {s}" for r, s in zip(ranks, sizes, strict=True))
            raise DynamicSizeError(
                f"instruction '{inst.name}': the participants of {inst.opcode.value} have "
                f"different actual sizes in dynamic dimensions {dynamic} ({seen}); XLA's "
                "collectives need one size for all")

    # -- the collectives --------------------------------------------------------------------

    def all_reduce(self, inst: Instruction, x, dynamic=()):
        """XLA AllReduce: the element-wise reduction (to_apply) of x over the group."""
        pg, ranks = self.group(inst)
        self.check_sizes(inst, x, pg, ranks, list(dynamic))
        if len(ranks) == 1:
            return x.clone()
        return self._reduced(inst, x, pg, ranks)

    def _reduced(self, inst, x, pg, ranks):
        torch, dist = self.torch, self.dist
        kind = reduction(inst)
        if x.dtype == torch.bool:  # and/or of predicates: min/max of 0/1
            ops = {"and": dist.ReduceOp.MIN, "or": dist.ReduceOp.MAX, "max": dist.ReduceOp.MAX,
                   "min": dist.ReduceOp.MIN, "product": dist.ReduceOp.MIN,
                   "sum": dist.ReduceOp.MAX}
            y = x.to(torch.uint8)
            dist.all_reduce(y, op=ops[kind], group=pg)
            return y.to(torch.bool)
        if kind in ("and", "or"):  # bitwise on integers: NCCL has no BAND/BOR, so gather
            pieces = self._gather_list(x, pg, ranks)
            out = pieces[0].clone()
            for piece in pieces[1:]:
                out = out & piece if kind == "and" else out | piece
            return out
        ops = {"sum": dist.ReduceOp.SUM, "max": dist.ReduceOp.MAX, "min": dist.ReduceOp.MIN,
               "product": dist.ReduceOp.PRODUCT}
        y = x.clone()
        dist.all_reduce(y, op=ops[kind], group=pg)
        return y

    def _gather_list(self, x, pg, ranks):
        """Every participant's x, in participant order (torch's groups list ranks sorted)."""
        pieces = [self.torch.empty_like(x) for _ in ranks]
        self.dist.all_gather(pieces, x.contiguous(), group=pg)
        return _reordered(pieces, ranks)

    def all_gather(self, inst: Instruction, x, dim: int, dynamic=()):
        """XLA AllGather: the participants' operands concatenated along `dim`, in group order."""
        pg, ranks = self.group(inst)
        self.check_sizes(inst, x, pg, ranks, list(dynamic))
        if len(ranks) == 1:
            return x.clone()
        return self.torch.cat(self._gather_list(x, pg, ranks), dim=dim)

    def reduce_scatter(self, inst: Instruction, x, dim: int, dynamic=()):
        """XLA ReduceScatter: the reduction over the group, split along `dim` into one piece
        per participant; this participant's piece (its index in the group)."""
        pg, ranks = self.group(inst)
        self.check_sizes(inst, x, pg, ranks, list(dynamic))
        if len(ranks) == 1:
            return x.clone()
        reduced = self._reduced(inst, x, pg, ranks)  # all_reduce: gloo and NCCL, every op
        return reduced.chunk(len(ranks), dim=dim)[ranks.index(self.rank)].contiguous()

    def all_to_all(self, inst: Instruction, pieces: list, dynamic=()):
        """XLA AllToAll: piece i goes to participant i; returns the pieces received, in group
        order (the array form splits and concatenates around this)."""
        pg, ranks = self.group(inst)
        for piece in pieces:
            self.check_sizes(inst, piece, pg, ranks, list(dynamic))
        if len(ranks) == 1:
            return [p.clone() for p in pieces]
        by_rank = dict(zip(ranks, pieces, strict=True))
        sent = [by_rank[r].contiguous() for r in sorted(ranks)]  # torch's order: sorted ranks
        received = [self.torch.empty_like(p) for p in sent]
        self.dist.all_to_all(received, sent, group=pg)
        return _reordered(received, ranks)

    def all_to_all_array(self, inst: Instruction, x, dim: int, dynamic=()):
        """XLA AllToAll's array form (dimensions={dim}): x split along dim into one piece
        per participant, piece i to participant i, the pieces received concatenated along
        dim in group order. DynamicSizeError when dim does not split evenly."""
        _, ranks = self.group(inst)
        if x.shape[dim] % len(ranks):
            raise DynamicSizeError(f"instruction '{inst.name}': all-to-all splits dimension "
                                   f"{dim} of size {x.shape[dim]} into {len(ranks)} equal "
                                   "pieces")
        received = self.all_to_all(inst, list(x.chunk(len(ranks), dim=dim)), dynamic)
        return self.torch.cat(received, dim=dim)

    def collective_broadcast(self, inst: Instruction, x):
        """XLA CollectiveBroadcast: the first participant's operand, to every participant."""
        pg, ranks = self.group(inst)
        if len(ranks) == 1:
            return x.clone()
        y = x.clone().contiguous()
        self.dist.broadcast(y, src=ranks[0], group=pg)
        return y

    def collective_permute(self, inst: Instruction, x):
        """XLA CollectivePermute: this device's operand to its targets; the operand of its
        source, or zeros when no pair targets it."""
        targets, source = permute_pairs(inst, self.devices, self.rank)
        out = self.torch.zeros_like(x)
        x = x.contiguous()
        ops = [self.dist.P2POp(self.dist.isend, x, t) for t in targets if t != self.rank]
        if source is not None and source != self.rank:
            ops.append(self.dist.P2POp(self.dist.irecv, out, source))
        if ops:
            for request in self.dist.batch_isend_irecv(ops):
                request.wait()
        if source == self.rank:
            out.copy_(x)
        return out


def _reordered(pieces: list, ranks: list[int]) -> list:
    """Pieces listed by sorted rank (a torch group's order), listed in `ranks`' order."""
    by_rank = dict(zip(sorted(ranks), pieces, strict=True))
    return [by_rank[r] for r in ranks]


__all__ = ["Communicator"]
