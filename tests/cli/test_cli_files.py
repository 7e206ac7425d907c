"""What a hostile (or just unlucky) user does to dynhlo: the command line.

`-o` never overwrites the inputs; text is read as editors and XLA write it (CRLF, tabs, a
BOM, pipes); `inspect` and `--help` show what a user needs.

Each test here was a crash, a hang, a silent wrong answer or lost data before its fix.
Expected values are numpy on the static computation.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import dynhlo
from tests.support.common import EXAMPLES, MODELS, REPO, hlo_module


# -- the command line never overwrites its own inputs ---------------------------------------

SEED = EXAMPLES / "seed.hlo"
ROW = "f32[1,5] {{1,2,3,4,5}}"


def _main(*argv: str) -> int:
    from dynhlo.cli import main
    return main([str(a) for a in argv])


def test_run_refuses_to_write_over_its_module(tmp_path, capsys):
    """Before: `dynhlo run m.hlo ... -o m.hlo` replaced the module with the npz."""
    path = tmp_path / "m.hlo"
    path.write_text(SEED.read_text())
    assert _main("run", path, ROW, "-o", tmp_path / "." / "m.hlo") == 1
    assert "is the input file" in capsys.readouterr().err
    assert path.read_text() == SEED.read_text()


def test_run_refuses_to_write_over_an_argument(tmp_path, capsys):
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    np.save(tmp_path / "x.npy", x)
    assert _main("run", SEED, tmp_path / "x.npy", "-o", tmp_path / "x.npy") == 1
    assert "is the input file" in capsys.readouterr().err
    np.testing.assert_array_equal(np.load(tmp_path / "x.npy"), x)


def test_compile_refuses_to_write_over_its_module(tmp_path, capsys):
    path = tmp_path / "m.hlo"
    path.write_text(SEED.read_text())
    assert _main("compile", path, "-o", path) == 1
    assert "is the input file" in capsys.readouterr().err
    assert path.read_text() == SEED.read_text()


def test_run_output_that_is_a_directory(tmp_path, capsys):
    (tmp_path / "d").mkdir()
    assert _main("run", SEED, ROW, "-o", tmp_path / "d") == 1
    assert "is a directory" in capsys.readouterr().err


def test_run_output_replaces_an_earlier_result_or_an_empty_file(tmp_path, capsys):
    out, empty = tmp_path / "old.npz", tmp_path / "empty.npz"
    np.savez(out, out0=np.zeros(3), out1=np.ones(2))  # what an earlier `run -o` wrote
    empty.write_bytes(b"")
    for path in (out, empty):
        assert _main("run", SEED, ROW, "-o", path, "-q") == 0
        with np.load(path) as saved:
            assert list(saved) == ["out0"]
            np.testing.assert_array_equal(saved["out0"], [[1, 2, 3, 4, 5]])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.npz", "old.npz"]  # no temp


def _artifact(path: Path) -> None:
    assert _main("compile", SEED, "-o", path) == 0


@pytest.mark.parametrize("name, make", [
    ("other.hlo", lambda p: p.write_text(SEED.read_text())),
    ("m.dynhlo", _artifact),
    ("x.npy", lambda p: np.save(p, np.arange(3))),
    ("mine.npz", lambda p: np.savez(p, weights=np.arange(3))),
    ("junk.npz", lambda p: p.write_bytes(b"old contents")),
    ("notes.txt", lambda p: p.write_text("notes\n"))])
def test_run_output_never_replaces_a_file_it_did_not_write(name, make, tmp_path, capsys):
    """Before: `dynhlo run m.hlo ... -o other.hlo` replaced another module (or an artifact,
    an array, any file) with the npz; only an earlier run's results are replaced."""
    path = tmp_path / name
    make(path)
    before, _ = path.read_bytes(), capsys.readouterr()
    assert _main("run", SEED, ROW, "-o", path) == 1
    out, err = capsys.readouterr()
    assert err.startswith(f"dynhlo: error: -o {path}: exists and is not the results of an "
                          "earlier `dynhlo run -o`"), err
    assert "refusing to replace it" in err and out == ""  # refused before running
    assert path.read_bytes() == before


def test_run_output_never_opens_a_fifo(tmp_path, capsys):
    fifo = tmp_path / "pipe.npz"
    os.mkfifo(fifo)
    assert _main("run", SEED, ROW, "-o", fifo) == 1
    assert f"-o {fifo}: is not a regular file" in capsys.readouterr().err


# -- text as editors and XLA write it ------------------------------------------------------

DUMP = """HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[<=8,4]{1,0:T(8,128)}, f32[4]{0})->(f32[<=8,4]{1,0}, f32[]{:T(256)})}

%region_0.2 (Arg_0.3: f32[], Arg_1.4: f32[]) -> f32[] {
  %Arg_0.3 = f32[] parameter(0), metadata={op_name="jit(f)/reduce_sum"}
  %Arg_1.4 = f32[] parameter(1)
  ROOT %add.5 = f32[] add(f32[] %Arg_0.3, f32[] %Arg_1.4), metadata={op_name="jit(f)/jit(main)/reduce_sum[axes=(0, 1)]" source_file="/tmp/x.py" source_line=5}
}

ENTRY %main.10 (Arg_1.2: f32[4], Arg_0.1: f32[<=8,4]) -> (f32[<=8,4], f32[]) {
  %Arg_1.2 = f32[4]{0} parameter(1), sharding={replicated}
  %Arg_0.1 = f32[<=8,4]{1,0:T(8,128)} parameter(0), metadata={op_name="x"}
  %broadcast.6 = f32[<=8,4]{1,0} broadcast(f32[4]{0} %Arg_1.2), dimensions={1}
  %multiply.7 = f32[<=8,4]{1,0} multiply(f32[<=8,4]{1,0:T(8,128)} %Arg_0.1, f32[<=8,4]{1,0} %broadcast.6), backend_config={"operation_queue_id":"0","wait_on_operation_queues":[]}
  %constant.8 = f32[] constant(0)
  %reduce.9 = f32[] reduce(f32[<=8,4]{1,0} %multiply.7, f32[] %constant.8), dimensions={0,1}, to_apply=%region_0.2
  ROOT %tuple.10 = (f32[<=8,4]{1,0}, f32[]) tuple(f32[<=8,4]{1,0} %multiply.7, /*index=1*/f32[] %reduce.9)
}
"""


@pytest.mark.parametrize("edit", ["as-is", "crlf", "tabs", "bom", "bom-bytes"])
def test_dump_form_as_editors_save_it(edit):
    """XLA's dump form (parameters out of order, tiled layouts, typed operands, metadata,
    /*index=N*/) with Windows line ends, tabs, or a byte order mark. Before: a BOM was a
    parse error at 1:1."""
    text = {"as-is": DUMP, "crlf": DUMP.replace("\n", "\r\n"), "tabs": DUMP.replace("  ", "\t"),
            "bom": "\ufeff" + DUMP, "bom-bytes": ("\ufeff" + DUMP).encode("utf-8")}[edit]
    exe = dynhlo.compile(dynhlo.parse_hlo(text))
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    w = np.float32([1, 2, 3, 4])
    y, total = exe(x, w)
    np.testing.assert_array_equal(y, x * w)
    assert total == (x * w).sum()


def test_cli_reads_a_module_saved_with_a_bom(tmp_path, capsys):
    path = tmp_path / "seed.hlo"
    path.write_text("\ufeff" + SEED.read_text(), encoding="utf-8")
    assert _main("run", path, ROW) == 0
    assert capsys.readouterr().out.strip() == "f32[1,5] { {1, 2, 3, 4, 5} }"


# -- inspect, scalar arguments, pipes, help, parse_hlo --------------------------------------


def test_inspect_names_a_cycle(tmp_path, capsys):
    """Before: `dynhlo inspect` on operands that form a cycle was an internal KeyError."""
    path = tmp_path / "cycle.hlo"
    path.write_text(hlo_module("""ENTRY m {
  a = f32[4] parameter(0)
  b = f32[4] add(a, c)
  c = f32[4] add(a, b)
  ROOT d = f32[4] add(b, c)
}"""))
    assert _main("inspect", path) == 1
    err = capsys.readouterr().err
    assert "instruction 'b'" in err and "cycle" in err and "internal" not in err


def test_cli_bare_number_for_a_scalar_parameter(tmp_path, capsys):
    """Before: `dynhlo run m.hlo X 3` was 'argument 1 (3): no such file'."""
    sized = EXAMPLES / "seed_set_dimension_size.hlo"
    rows = "f32[2,5] {{1,2,3,4,5},{6,7,8,9,10}}"
    assert _main("run", sized, rows, "1") == 0
    assert capsys.readouterr().out.strip() == "f32[1,5] { {1, 2, 3, 4, 5} }"
    assert _main("run", sized, rows, "2.5") == 1
    assert "expects s32" in capsys.readouterr().err


def test_inspect_shows_operands_like_hlo_text(capsys):
    """An XLA user follows data flow by operands. Before: only the opcode was shown."""
    models = MODELS
    assert _main("inspect", models / "softmax_rows" / "module.hlo") == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()
             if line.startswith("  ") and not line.startswith("  columns")}
    assert "reduce(x.1, constant.5)" in lines["reduce_max.7"]
    assert "constant(-inf)" in lines["constant.5"]
    assert "divide(exp.1, div.6)" in lines["ROOT"]
    assert lines["ROOT"].rstrip().endswith("[x.1.0,37]")


def test_cli_reads_a_module_from_a_pipe(tmp_path):
    """`dynhlo run <(...)`, `... | dynhlo run -` and /dev/stdin. Before: the artifact check
    consumed the pipe's first bytes, so the module read back empty ('got end of text')."""
    import subprocess
    import sys
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
    for name in ("-", "/dev/stdin"):
        proc = subprocess.run([sys.executable, "-m", "dynhlo", "run", name, ROW],
                              input=SEED.read_text(), capture_output=True, text=True,
                              env=env, timeout=120)
        assert (proc.returncode, proc.stdout.strip()) == (0, "f32[1,5] { {1, 2, 3, 4, 5} }"), \
            proc.stderr


@pytest.mark.parametrize("value", [None, 123, Path("examples/seed.hlo")], ids=["none", "int", "path"])
def test_parse_hlo_of_something_that_is_not_text(value):
    """Before: AttributeError from inside the parser."""
    with pytest.raises(dynhlo.DynHloError, match="takes HLO text"):
        dynhlo.parse_hlo(value)


def test_top_level_help_shows_examples(capsys):
    """A new user's first command; before: a list of subcommands with no example."""
    with pytest.raises(SystemExit):
        _main("--help")
    out = capsys.readouterr().out
    assert "examples:" in out and "dynhlo run m.hlo" in out and "as_text(dialect=" in out
