"""Who a collective names, checked against the module's devices as XLA's verifier checks it.

Source: xla/service/hlo_verifier.cc, `CheckReplicaGroups` and `CheckDuplicatedSourceOrTarget`
(which XLA runs on every module it compiles, before any pass). Without these checks a module
that runs on one device accepted `replica_groups={{0},{5}}` (no device 5 exists),
`replica_groups={{0,0}}` and `source_target_pairs={{0,0},{0,0}}`, each a module XLA refuses.

The rules, per collective (the ids in the numbering of its group mode, collectives.py):
- all-reduce(-start), all-gather(-start), reduce-scatter, all-to-all, ragged-all-to-all: the
  groups are not empty, no id is named twice, the ids are exactly 0..n-1, and n is the number
  of replicas (cross-replica, cross-replica-and-partition modes), of partitions
  (cross-partition) or of both (flattened ids) unless that number is 1 (XLA skips the count
  for a module whose count was never set); every group has one size, except all-reduce's;
  flattened-id mode (use_global_device_ids=true) needs explicit groups.
- collective-permute(-start): every source and target id is >= 0 and below the number of
  replicas (no channel_id) or partitions (channel_id) unless that number is 1, and no id is a
  source twice or a target twice.
- all-gather(-start), reduce-scatter: the result is the operand resized along `dimensions=`
  by the group size (verify_collective_shapes.py).
Raises HloVerifyError naming the instruction.
"""

from __future__ import annotations

import re

from ...errors import HloVerifyError, UnsupportedError
from ..collectives import (CROSS_PARTITION, CROSS_REPLICA, FLATTENED_ID, PERMUTES, Devices,
                           group_mode, replica_groups)
from ..ir import HloModule, Instruction
from ..opcodes import OP_SPECS
from .collective_shapes import RESIZING, check_resizing_shapes

_GROUPED = {op: bool(spec.resizes) for op, spec in OP_SPECS.items()
            if spec.reducer == "binary" or spec.resizes}
"""The collectives XLA checks the replica groups of (all-reduce and its start,
reduce-scatter, all-gather and its start, all-to-all, ragged-all-to-all): whether their
groups must be of one size, which is whether the group size resizes their result (their
OpSpec's `resizes`)."""

_BRACED_GROUPS = re.compile(r"\{\s*(?:\{[\d\s,]*\}\s*(?:,\s*\{[\d\s,]*\}\s*)*)?\}")
_PAIR_LIST = re.compile(r"\{\s*(?:\{[^{}]*\}\s*(?:,\s*\{[^{}]*\}\s*)*)?\}")
_INTEGER = re.compile(r"-?\d+")


def check_collectives(module: HloModule) -> None:
    """HloVerifyError for the first collective whose replica groups or source-target pairs
    XLA's verifier refuses for this module's replica_count and num_partitions."""
    devices = None
    for inst in module.instructions():
        if inst.opcode not in _GROUPED and inst.opcode not in PERMUTES:
            continue
        devices = devices or Devices.of(module)
        try:
            if inst.opcode in PERMUTES:
                if len(inst.operands) != 4:  # XLA's in-place form repeats ids by design
                    _check_pairs(inst, devices)
            else:
                _check_groups(inst, devices, uniform=_GROUPED[inst.opcode])
                if inst.opcode in RESIZING:
                    check_resizing_shapes(inst, devices)
        except HloVerifyError as exc:
            raise exc.locate(module.position_of(inst))


def _mode(inst: Instruction) -> str:
    try:
        return group_mode(inst)
    except UnsupportedError as exc:  # XLA: "Invalid combination of ..." (InvalidArgument)
        raise HloVerifyError(str(exc).split(": ", 1)[-1], inst.name) from None


def _groups(inst: Instruction) -> list[list[int]]:
    """The groups as written; a brace list must be a list of lists, as XLA parses it."""
    text = inst.attrs.get("replica_groups", "{}").strip()
    if text.startswith("{") and not _BRACED_GROUPS.fullmatch(text):
        raise HloVerifyError(f"replica_groups={text} is not a list of groups of device ids "
                             "like {{0,1},{2,3}} (or {} for one group of all)", inst.name)
    try:
        return replica_groups(inst)
    except UnsupportedError as exc:
        raise HloVerifyError(str(exc).split(": ", 1)[-1], inst.name) from None


def _check_groups(inst: Instruction, devices: Devices, uniform: bool) -> None:
    mode = _mode(inst)
    groups = _groups(inst)
    written = inst.attrs.get("replica_groups", "{}").strip()
    if not groups:
        if mode == FLATTENED_ID:
            raise HloVerifyError("use_global_device_ids=true (flattened ids) needs explicit "
                                 "replica_groups, e.g. {{0,1}}", inst.name)
        return
    seen: set[int] = set()
    for group in groups:
        if not group:
            raise HloVerifyError(f"replica_groups={written} has an empty group", inst.name)
        for i in group:
            if i in seen:
                raise HloVerifyError(f"replica_groups={written} names device {i} twice",
                                     inst.name)
            seen.add(i)
    missing = next((i for i in range(len(seen)) if i not in seen), None)
    if missing is not None:
        raise HloVerifyError(f"replica_groups={written} names {len(seen)} device(s) but not "
                             f"device {missing}: the ids must be 0..{len(seen) - 1}, each "
                             "once", inst.name)
    _check_count(inst, devices, mode, len(seen), written)
    if uniform and len({len(g) for g in groups}) > 1:
        raise HloVerifyError(f"replica_groups={written} has groups of different sizes; "
                             f"{inst.opcode.value} needs groups of one size", inst.name)


def _check_count(inst: Instruction, devices: Devices, mode: str, n: int, written: str):
    r, p = devices.replica_count, devices.num_partitions
    if mode == FLATTENED_ID:
        count, what = r * p, "devices (replicas x partitions)"
    elif mode == CROSS_PARTITION:
        count, what = p, "partitions (num_partitions)"
    else:
        count, what = r, "replicas (replica_count)"
    if count != 1 and n != count:
        raise HloVerifyError(f"replica_groups={written} names {n} device(s) in {mode} mode; "
                             f"the module has {count} {what}, and the groups must name each "
                             "once", inst.name)


def _pairs(inst: Instruction) -> list[tuple[int, int]]:
    text = inst.attrs.get("source_target_pairs", "{}").strip()
    inner = re.findall(r"\{([^{}]*)\}", text)
    pairs = [[p.strip() for p in item.split(",")] for item in inner]
    if not _PAIR_LIST.fullmatch(text) or any(
            len(p) != 2 or not all(_INTEGER.fullmatch(x) for x in p) for p in pairs):
        raise HloVerifyError(f"source_target_pairs={text} is not a list of pairs like "
                             "{{0,1},{1,0}}", inst.name)
    return [(int(a), int(b)) for a, b in pairs]


def _check_pairs(inst: Instruction, devices: Devices) -> None:
    mode = _mode(inst)
    limit = devices.replica_count if mode == CROSS_REPLICA else devices.num_partitions
    what = "replica_count" if mode == CROSS_REPLICA else "num_partitions"
    sources: set[int] = set()
    targets: set[int] = set()
    for a, b in _pairs(inst):
        for role, i, used in (("source", a, sources), ("target", b, targets)):
            if i < 0 or (limit != 1 and i >= limit):
                raise HloVerifyError(f"source_target_pairs {{{a},{b}}}: {role} {i} is not a "
                                     f"device of the module ({what}={limit}: ids "
                                     f"0..{limit - 1})", inst.name)
            if i in used:
                raise HloVerifyError(f"source_target_pairs name {i} as a {role} twice; each "
                                     f"device sends to at most one and receives from at most "
                                     "one", inst.name)
            used.add(i)
