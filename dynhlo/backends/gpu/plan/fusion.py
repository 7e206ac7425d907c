"""The GPU's fusion rules over the shared planner (backends/plan/fusion.py).

Triton kernels compute what the rule table's kernel tier holds (rules.can_fuse); a group
becomes a kernel through kernels/codegen.py; call, while and conditional get plans of their
own; views feed cuBLAS without a copy.
"""

from __future__ import annotations

from ....shapes.dynamic import ComputationInfo
from ...plan import fusion as shared
from ...plan.fusion import (Plan, build_group, in_memory, kernels_of,  # noqa: F401 - the GPU's names
                            size_only, steps_of)
from ..kernels.codegen import generate
from ..rules import EMITTERS, can_fuse, rule_of

RULES = shared.FusionRules(
    can_fuse=can_fuse,
    generate=lambda group, info: generate(group, info, EMITTERS),
    has_plan=lambda opcode: rule_of(opcode).plan,
    view=lambda opcode: rule_of(opcode).view,
    reads_views=lambda opcode: rule_of(opcode).reads_views,
    masked_loads=True)


def plan_computation(info: ComputationInfo, padding_reads: str = "zeros") -> Plan:
    """The GPU plan of one computation invocation: Triton kernels and other steps
    (`padding_reads`: the compile option, shared.Plan)."""
    return shared.plan_computation(info, RULES, padding_reads)


def may_fuse(info, inst, padding_reads: str = "zeros") -> bool:
    """Whether a Triton kernel may compute `inst` (shared.may_fuse with the GPU's rules)."""
    return shared.may_fuse(info, inst, RULES, padding_reads)


def call_sites(info, order) -> list:
    """The instructions whose called computations get GPU plans of their own."""
    return shared.call_sites(info, order, RULES)
