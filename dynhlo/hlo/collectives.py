"""Who takes part in a collective: XLA's collective group modes and replica groups, decoded.

A module that runs on several devices says how many with its attributes `replica_count`
and `num_partitions` (1 each when absent). Each device has a replica id and a partition id;
its flattened id (XLA's "global device id") is `replica_id * num_partitions + partition_id`,
and dynhlo gives that id to the process that runs the device (its torch.distributed rank).

A collective's `replica_groups` name devices in one of four ways, chosen by whether it has a
`channel_id` and by `use_global_device_ids` (XLA: GetCollectiveOpGroupMode,
collective_op_group_mode.h, and GetParticipatingDevices in collective_ops_utils.cc):

- no channel_id                                -> cross-replica: groups of replica ids; each
  partition runs the collective separately (empty groups: all replicas).
- channel_id, the op has no use_global_device_ids (all-to-all, collective-permute,
  collective-broadcast)                        -> cross-partition: groups of partition ids, in
  each replica separately (empty groups: all partitions).
- channel_id, use_global_device_ids=false      -> cross-replica-and-partition: groups of replica
  ids, each taking every partition of those replicas (replica-major order).
- channel_id, use_global_device_ids=true       -> flattened ids: groups of global device ids.

Replica groups are written `{{0,1},{2,3}}`, as an iota list `[2,4]<=[8]` or
`[2,4]<=[4,2]T(1,0)` (XLA's IotaReplicaGroupList), or over a mesh `mesh['x'=2,'y'=2] {'x'}`
(the groups are the devices that differ only along the named axes, devices numbered
row-major over the mesh). collective-permute's `source_target_pairs` use the same ids as its
mode's groups.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import UnsupportedError
from .ir import Computation, HloModule, Instruction
from .opcodes import OP_SPECS, Opcode, Trait

CROSS_REPLICA = "cross-replica"
CROSS_PARTITION = "cross-partition"
CROSS_REPLICA_AND_PARTITION = "cross-replica-and-partition"
FLATTENED_ID = "flattened-id"

def _taking(attribute: str) -> frozenset:
    return frozenset(op for op, spec in OP_SPECS.items()
                     if spec.attrs is not None and attribute in spec.attrs)


_HAS_GLOBAL_IDS = _taking("use_global_device_ids")
"""The collectives that carry use_global_device_ids (the others: XLA's std::nullopt)."""

PERMUTES = _taking("source_target_pairs")
"""The collectives that send along source-target pairs (collective-permute and its start)."""

COLLECTIVES = _taking("replica_groups") | PERMUTES
"""The opcodes that move data between devices (their -done halves only take it out): those
with replica groups or source-target pairs (their OpSpec's attrs)."""


@dataclass(frozen=True)
class Devices:
    """The devices a module runs on: `replica_count` x `num_partitions`, one rank each."""

    replica_count: int = 1
    num_partitions: int = 1

    @property
    def world_size(self) -> int:
        return self.replica_count * self.num_partitions

    def replica_id(self, rank: int) -> int:
        return rank // self.num_partitions

    def partition_id(self, rank: int) -> int:
        return rank % self.num_partitions

    @classmethod
    def of(cls, module: HloModule) -> Devices:
        """The module's device counts (its `replica_count` and `num_partitions` attributes)."""
        def count(key):
            text = module.attrs.get(key, "1").strip()
            if not text.isdigit() or int(text) < 1:
                raise UnsupportedError(f"module '{module.name}': {key}={text} is not a "
                                       "positive number of devices")
            return int(text)
        return cls(count("replica_count"), count("num_partitions"))


def group_mode(inst: Instruction) -> str:
    """XLA's CollectiveOpGroupMode of a collective (see the module docstring)."""
    has_channel = "channel_id" in inst.attrs
    text = inst.attrs.get("use_global_device_ids")
    global_ids = text is not None and text.strip() == "true"
    if not has_channel:
        if global_ids:
            raise UnsupportedError(f"instruction '{inst.name}': use_global_device_ids=true "
                                   "needs a channel_id (XLA refuses this combination)")
        return CROSS_REPLICA
    if inst.opcode not in _HAS_GLOBAL_IDS:
        return CROSS_PARTITION
    return FLATTENED_ID if global_ids else CROSS_REPLICA_AND_PARTITION


def replica_groups(inst: Instruction) -> list[list[int]]:
    """The groups as written (ids in the numbering of the op's mode); [] for `{}`/absent."""
    text = inst.attrs.get("replica_groups", "{}").strip()
    if text.startswith("["):
        return _iota_groups(inst, text)
    if text.startswith("mesh"):
        return _mesh_groups(inst, text)
    body = text[1:-1].strip() if text.startswith("{") and text.endswith("}") else None
    if body is None or re.search(r"[^\d{},\s]", body):
        raise UnsupportedError(f"instruction '{inst.name}': cannot read replica_groups={text}")
    return [[int(x) for x in g.split(",") if x.strip()] for g in re.findall(r"\{([^{}]*)\}",
                                                                          body)]


_IOTA = re.compile(r"\[([\d,\s]+)\]\s*<=\s*\[([\d,\s]+)\]\s*(?:T\(([\d,\s]+)\)\s*)?$")


def _numbers(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def _iota_groups(inst: Instruction, text: str) -> list[list[int]]:
    """`[G,S]<=[dims]T(perm)`: iota over dims, transposed by perm, reshaped to G groups of S."""
    match = _IOTA.match(text)
    if not match:
        raise UnsupportedError(f"instruction '{inst.name}': cannot read replica_groups={text}")
    shape, dims = _numbers(match.group(1)), _numbers(match.group(2))
    perm = _numbers(match.group(3)) if match.group(3) else list(range(len(dims)))
    ids = np.arange(int(np.prod(dims))).reshape(dims).transpose(perm)
    if len(shape) != 2 or ids.size != shape[0] * shape[1] or sorted(perm) != list(
            range(len(dims))):
        raise UnsupportedError(f"instruction '{inst.name}': replica_groups={text} is not "
                               "[groups,size]<=[dims] over the same number of devices")
    return ids.reshape(shape).tolist()


_MESH = re.compile(r"mesh\[([^\]]*)\]\s*\{([^{}]*)\}\s*$")
_AXIS = re.compile(r"'([^']+)'\s*=\s*(\d+)")


def _mesh_groups(inst: Instruction, text: str) -> list[list[int]]:
    """`mesh['a'=2,'b'=2] {'a'}`: devices that differ only along the named axes."""
    match = _MESH.match(text)
    axes = _AXIS.findall(match.group(1)) if match else []
    names = [n.strip().strip("'") for n in match.group(2).split(",")] if match else []
    known = [a for a, _ in axes]
    if not axes or any(n not in known for n in names) or len(set(names)) != len(names):
        raise UnsupportedError(f"instruction '{inst.name}': cannot read replica_groups={text} "
                               "(dynhlo reads mesh['axis'=size,...] {'axis',...} with whole "
                               "axes, devices in mesh order)")
    sizes = [int(s) for _, s in axes]
    inner = [known.index(n) for n in names]
    outer = [i for i in range(len(axes)) if i not in inner]
    ids = np.arange(int(np.prod(sizes))).reshape(sizes).transpose(outer + inner)
    size = int(np.prod([sizes[i] for i in inner]))
    return ids.reshape(-1, size).tolist()


def subgroup_size(inst: Instruction, devices: Devices) -> int:
    """How many devices one group of `inst` has, as XLA's GetSubgroupSize (hlo_verifier.cc)
    counts them: the first group's size, or for `{}` every replica (cross-replica) or every
    partition (cross-partition); cross-replica-and-partition groups name replicas, each
    bringing all its partitions. 1 when the module does not set its device counts."""
    mode = group_mode(inst)
    groups = replica_groups(inst)
    if mode == CROSS_PARTITION:
        return len(groups[0]) if groups else devices.num_partitions
    if mode == FLATTENED_ID:
        return len(groups[0]) if groups else 1  # the verifier refuses `{}` here first
    size = len(groups[0]) if groups else devices.replica_count
    return size * devices.num_partitions if mode == CROSS_REPLICA_AND_PARTITION else size


def participants(inst: Instruction, devices: Devices) -> list[list[int]]:
    """Every group of ranks (flattened ids) that runs `inst` together, in XLA's order: rank
    lists whose position is the participant's index (all-gather's concatenation order,
    reduce-scatter's and all-to-all's chunk numbers). Every rank is in exactly one group.

    Raises UnsupportedError for groups that name a device the module does not have, or that
    leave a device out or name it twice.
    """
    mode = group_mode(inst)
    groups = replica_groups(inst)
    r, p = devices.replica_count, devices.num_partitions
    if mode == FLATTENED_ID:
        if not groups:
            raise UnsupportedError(f"instruction '{inst.name}': use_global_device_ids=true "
                                   "needs explicit replica_groups")
        out = groups
    elif mode == CROSS_PARTITION:
        groups = groups or [list(range(p))]
        out = [[rep * p + q for q in g] for rep in range(r) for g in groups]
    elif mode == CROSS_REPLICA:
        groups = groups or [list(range(r))]
        out = [[rep * p + q for rep in g] for q in range(p) for g in groups]
    else:
        groups = groups or [list(range(r))]
        out = [[rep * p + q for rep in g for q in range(p)] for g in groups]
    seen = sorted(x for g in out for x in g)
    if seen != list(range(devices.world_size)):
        raise UnsupportedError(
            f"instruction '{inst.name}': replica_groups={inst.attrs.get('replica_groups', '{}')} "
            f"({mode}) do not cover the {devices.world_size} devices of replica_count={r}, "
            f"num_partitions={p} once each")
    return out


def group_of(inst: Instruction, devices: Devices, rank: int) -> list[int]:
    """The group of ranks `rank` runs `inst` with (see participants)."""
    return next(g for g in participants(inst, devices) if rank in g)


def largest_group(inst: Instruction) -> int:
    """The devices of the largest group as written (1 for `{}`: one device's view)."""
    try:
        groups = replica_groups(inst)
    except UnsupportedError:
        return 2  # unreadable groups: not a one-device form
    return max([len(g) for g in groups] + [1])


def permute_pairs(inst: Instruction, devices: Devices, rank: int) -> tuple[list[int], int | None]:
    """collective-permute for `rank`: (the ranks it sends to, the rank it receives from).

    The pairs name replica ids (no channel_id: within this partition) or partition ids
    (channel_id: within this replica), as XLA's GetCollectivePermuteMode says.
    """
    pairs = [(int(a), int(b)) for a, b in re.findall(r"\{\s*(\d+)\s*,\s*(\d+)\s*\}",
                                                     inst.attrs.get("source_target_pairs", ""))]
    p = devices.num_partitions
    if "channel_id" in inst.attrs:
        base, mine, to_rank, limit = rank - rank % p, rank % p, (lambda i: base + i), p
    else:
        q = rank % p
        base, mine, to_rank, limit = q, rank // p, (lambda i: i * p + q), devices.replica_count
    for a, b in pairs:
        if not (0 <= a < limit and 0 <= b < limit):
            raise UnsupportedError(f"instruction '{inst.name}': source_target_pairs {{{a},{b}}} "
                                   f"names a device outside 0..{limit - 1}")
    targets = [to_rank(b) for a, b in pairs if a == mine]
    sources = [to_rank(a) for a, b in pairs if b == mine]
    if len(sources) > 1:
        raise UnsupportedError(f"instruction '{inst.name}': device {mine} receives from "
                               f"{len(sources)} sources (XLA allows one)")
    return targets, (sources[0] if sources else None)


def check_one_device(module: HloModule) -> None:
    """UnsupportedError for the first collective that needs more than one device: groups of
    several devices, or a result resized from its operand (gathered or scattered over several
    devices). The one-device forms (dynhlo's default) are checked with this at compile time;
    `dynhlo.compile(..., distributed=True)` runs the others through torch.distributed."""
    for inst in module.instructions():
        if inst.opcode not in COLLECTIVES or inst.opcode in PERMUTES:
            continue
        n = largest_group(inst)
        if n > 1:
            raise UnsupportedError(
                f"instruction '{inst.name}': {inst.opcode.value} over replica groups "
                f"{inst.attrs['replica_groups']} needs {n} devices; dynhlo runs it on one "
                "device (groups of one device each: replica_groups={{0}} or {}) unless "
                "compiled with distributed=True in a torch.distributed process group")
        declared = inst.shape.elements[1] if Trait.CARRIES_OPERANDS in \
            OP_SPECS[inst.opcode].traits and inst.shape.is_tuple else inst.shape
        operand = inst.operands[0].shape if len(inst.operands) == 1 else None
        if operand is not None and not declared.is_tuple and not operand.is_tuple and \
                list(declared.dims) != list(operand.dims):
            raise UnsupportedError(
                f"instruction '{inst.name}': {inst.opcode.value} from {list(operand.dims)} to "
                f"{list(declared.dims)} gathers or scatters over several devices; dynhlo runs "
                "it on one device unless compiled with distributed=True in a "
                "torch.distributed process group")


_REDUCTIONS = {Opcode.ADD: "sum", Opcode.MAXIMUM: "max", Opcode.MINIMUM: "min",
               Opcode.MULTIPLY: "product", Opcode.AND: "and", Opcode.OR: "or"}


def reduction(inst: Instruction) -> str:
    """The reduction of an all-reduce/reduce-scatter's to_apply: sum, max, min, product, and,
    or. UnsupportedError for any other computation (XLA's collectives accept any binary
    computation; torch.distributed reduces with these)."""
    (comp,) = inst.called.get("to_apply") or [None]
    kind = _binary_kind(comp) if comp is not None else None
    if kind is None:
        name = comp.name if comp is not None else "(none)"
        raise UnsupportedError(
            f"instruction '{inst.name}': to_apply={name} is not one of add, maximum, minimum, "
            "multiply, and, or of its two parameters; dynhlo's distributed collectives "
            "reduce only with those")
    return kind


def _binary_kind(comp: Computation) -> str | None:
    root = comp.root
    params = comp.parameters
    if len(params) != 2 or root.opcode not in _REDUCTIONS:
        return None
    if {id(o) for o in root.operands} != {id(p) for p in params} or len(root.operands) != 2:
        return None
    return _REDUCTIONS[root.opcode]


__all__ = ["COLLECTIVES", "CROSS_PARTITION", "CROSS_REPLICA", "CROSS_REPLICA_AND_PARTITION",
           "Devices", "FLATTENED_ID", "check_one_device", "group_mode", "group_of",
           "largest_group", "participants", "permute_pairs", "reduction", "replica_groups",
           "subgroup_size"]
