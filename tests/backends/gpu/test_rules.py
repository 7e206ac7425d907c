"""The GPU rule table (dynhlo/backends/gpu/rules.py): every opcode, every tier, named.

As JAX names a primitive with no lowering for a platform, `rules.missing()` names each
opcode and the tiers it has no rule for; here that list is checked against what the
support table (README) promises for the GPU.
"""

from __future__ import annotations

from tests.support import gpucheck  # noqa: F401  (skips without torch/triton; interpreter mode)
from dynhlo import support
from dynhlo.backends.cpu.lowering import LOWERINGS as CPU
from dynhlo.backends.gpu import rules
from dynhlo.hlo.opcodes import Opcode


def test_every_opcode_the_cpu_runs_has_a_way_to_run_on_the_gpu():
    """No opcode lacks all three tiers unless the CPU (the reference) lacks it too."""
    missing = rules.missing(CPU)
    nowhere = sorted(op.value for op, lacks in missing.items()
                     if set(lacks) == {"kernel", "library", "host"})
    unsupported = sorted(op.value for op in Opcode
                         if support.status_of(op) == support.UNSUPPORTED)
    assert nowhere == unsupported


def test_the_missing_list_names_each_opcode_and_tier():
    missing = rules.missing(CPU, [Opcode.ADD, Opcode.SORT, Opcode.IOTA, Opcode.RNG])
    assert Opcode.ADD not in missing  # kernel, library (complex) and host
    assert missing[Opcode.SORT] == ["kernel"]
    assert missing[Opcode.IOTA] == ["library"]
    assert missing[Opcode.RNG] == ["kernel", "library"]


def test_support_table_gpu_column_is_the_rule_tables_first_tier():
    rows = {row.opcode: row for row in support.opcode_table()}
    for op, rule in rules.RULES.items():
        how = rows[op].backends["gpu"]
        if rule.kernel is not None:
            assert how == "kernel", op
        elif rule.library is not None:
            assert how == "library", op
    for op in Opcode:
        if op not in rules.RULES and op in CPU and op is not Opcode.PARAMETER:
            assert rows[op].backends["gpu"] in ("host", "inlined"), op


def test_kernel_tier_rules_are_exactly_the_code_generators_emitters():
    assert set(rules.EMITTERS) == {op for op, r in rules.RULES.items() if r.kernel}
    assert all(r.kernel_if is None or r.kernel for r in rules.RULES.values())
    assert all(r.library_if is None or r.library for r in rules.RULES.values())


def test_custom_call_targets_on_the_device_have_a_cpu_reference():
    """A target the GPU runs in its library tier is one the CPU backend (the reference the
    GPU tests compare with, and the host tier's fallback) runs too."""
    from dynhlo.backends.cpu.lowering import CUSTOM_CALLS as CPU_TARGETS
    assert set(rules.CUSTOM_CALLS) <= set(CPU_TARGETS)
