"""The opcode status table: computed from the opcode and lowering tables, and kept in README.

Checks every Opcode has a status, every opcode with a shape rule has a CPU lowering, the
statuses agree with what compile() does, and README.md's table is the generated one (so the
README cannot drift from the code; regenerate with `python tools/opcode_table.py`).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import dynhlo
from dynhlo import support
from dynhlo.backends.cpu.lowering import CUSTOM_CALLS, LOWERINGS
from dynhlo.backends import cpu
from dynhlo.hlo.ir import Computation, HloModule, Instruction
from dynhlo.hlo.opcodes import OP_SPECS, Group, Opcode
from dynhlo.hlo.shape import Shape
from dynhlo.shapes.rules import RULES

ROOT = Path(__file__).resolve().parents[1]
STATUSES = {support.SUPPORTED, support.SINGLE_DEVICE, support.UNSUPPORTED}


def test_every_opcode_has_one_row_and_a_known_status():
    rows = support.opcode_table()
    assert [r.opcode for r in rows] == sorted(Opcode, key=lambda o: o.value)
    assert all(r.status in STATUSES for r in rows)
    assert all(r.group == OP_SPECS[r.opcode].group.value for r in rows)


def test_every_opcode_with_a_shape_rule_has_a_cpu_lowering():
    missing = sorted(op.value for op in RULES if op not in LOWERINGS)
    assert not missing, f"shape rules without a cpu lowering: {missing}"


# Independent facts (XLA's semantics, not dynhlo's tables): one device computes these, the
# collectives and replica/partition ids have a one-device form, and what talks to a host or
# another device (infeed, outfeed, send, recv) cannot run in a single-process evaluator.
KNOWN_STATUSES = {
    Opcode.ADD: support.SUPPORTED, Opcode.DOT: support.SUPPORTED,
    Opcode.SORT: support.SUPPORTED, Opcode.WHILE: support.SUPPORTED,
    Opcode.FFT: support.SUPPORTED, Opcode.AFTER_ALL: support.SUPPORTED,
    Opcode.ALL_REDUCE: support.SINGLE_DEVICE, Opcode.ALL_GATHER: support.SINGLE_DEVICE,
    Opcode.REPLICA_ID: support.SINGLE_DEVICE, Opcode.PARTITION_ID: support.SINGLE_DEVICE,
    Opcode.INFEED: support.UNSUPPORTED, Opcode.OUTFEED: support.UNSUPPORTED,
    Opcode.SEND: support.UNSUPPORTED, Opcode.RECV: support.UNSUPPORTED,
}


@pytest.mark.parametrize("op", sorted(KNOWN_STATUSES, key=lambda o: o.value))
def test_known_opcodes_have_their_status(op):
    assert support.status_of(op) == KNOWN_STATUSES[op]


def _one_instruction_module(op: Opcode) -> HloModule:
    """A module whose entry holds one `op` instruction on a parameter (shapes do not matter:
    the CPU backend's check refuses by opcode before it looks at them)."""
    param = Instruction("p", Opcode.PARAMETER, Shape("f32", (2,), (False,)),
                        parameter_number=0)
    inst = Instruction("x", op, Shape("f32", (2,), (False,)), [param])
    entry = Computation("main", [param, inst], inst, is_entry=True)
    return HloModule("m", [entry], entry)


@pytest.mark.parametrize("op", sorted(set(Opcode) - {Opcode.PARAMETER, Opcode.CUSTOM_CALL},
                                      key=lambda o: o.value))
def test_status_says_what_the_cpu_backend_refuses(op):
    """`unsupported` exactly where compiling refuses the opcode (the backend's own check,
    which dynhlo.compile runs), naming the opcode and the instruction."""
    try:
        cpu.check_supported(_one_instruction_module(op))
        refused = False
    except dynhlo.UnsupportedError as exc:
        assert f"'{op.value}'" in str(exc) and "'x'" in str(exc)
        refused = True
    assert refused == (support.status_of(op) == support.UNSUPPORTED)


def test_collectives_with_a_lowering_are_single_device_forms():
    for op, spec in OP_SPECS.items():
        if spec.group is Group.COLLECTIVE and op in LOWERINGS:
            assert support.status_of(op) == support.SINGLE_DEVICE, op.value
    for op in (Opcode.REPLICA_ID, Opcode.PARTITION_ID):
        assert support.status_of(op) == support.SINGLE_DEVICE


def test_unsupported_opcodes_are_refused_by_compile():
    unsupported = [r.opcode for r in support.opcode_table()
                   if r.status == support.UNSUPPORTED]
    assert Opcode.INFEED in unsupported
    text = """HloModule t
ENTRY main {
  tok = token[] after-all()
  ROOT r = ((f32[2]), token[]) infeed(tok)
}"""
    with pytest.raises(dynhlo.UnsupportedError, match="'infeed'.*'r'"):
        dynhlo.compile(text)


def test_custom_call_note_lists_every_accepted_target():
    note = next(r.note for r in support.opcode_table() if r.opcode is Opcode.CUSTOM_CALL)
    for target in CUSTOM_CALLS:
        family = target
        if target.endswith("_ffi") and target.startswith(("lapack_", "blas_")):
            prefix, rest = target.split("_", 1)
            family = f"{prefix}_{{"  # the folded form, e.g. lapack_{s,d}getrf_ffi
            assert rest[1:] in note, target
        assert family in note, target


def test_markdown_has_a_line_per_opcode_and_the_counts():
    text = support.render_markdown()
    lines = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(lines) == len(Opcode)
    counts = {s: sum(r.status == s for r in support.opcode_table()) for s in STATUSES}
    assert f"{counts[support.SUPPORTED]} supported" in text
    assert f"{counts[support.UNSUPPORTED]} unsupported" in text


def test_splice_replaces_only_the_marked_section():
    readme = (f"# title\n\nbefore\n{support.START_MARKER}\nold table\n{support.END_MARKER}\n"
              "after\n")
    out = support.splice_readme(readme, "NEW\n")
    assert out == (f"# title\n\nbefore\n{support.START_MARKER}\nNEW\n{support.END_MARKER}\n"
                   "after\n")
    assert support.readme_section(out) == "NEW\n"
    with pytest.raises(ValueError, match="opcode-table"):
        support.splice_readme("# no markers\n", "NEW\n")


def test_tool_rewrites_and_checks(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"x\n{support.START_MARKER}\nstale\n{support.END_MARKER}\ny\n")
    tool = [sys.executable, str(ROOT / "tools" / "opcode_table.py")]
    stale = subprocess.run(tool + [str(readme), "--check"], capture_output=True, text=True)
    assert stale.returncode == 1 and "out of date" in stale.stderr
    assert subprocess.run(tool + [str(readme)], capture_output=True).returncode == 0
    assert support.readme_section(readme.read_text()) == support.render_markdown()
    fresh = subprocess.run(tool + [str(readme), "--check"], capture_output=True, text=True)
    assert fresh.returncode == 0, fresh.stderr


def test_readme_table_is_current():
    readme = ROOT / "README.md"
    if not readme.exists():
        pytest.skip("README.md does not exist yet")
    section = support.readme_section(readme.read_text(encoding="utf-8"))
    assert section is not None, (f"README.md has no {support.START_MARKER} ... "
                                 f"{support.END_MARKER} section for the opcode table")
    if "| gpu |" in section and support.backend_support("gpu") is None:
        pytest.skip("README's table has a gpu column but dynhlo.backends.gpu does not import "
                    "here (torch and triton are missing)")
    assert section == support.render_markdown(), \
        "README.md's opcode table is out of date: run python tools/opcode_table.py"
