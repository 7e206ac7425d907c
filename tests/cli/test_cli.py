"""The `dynhlo` command: run (literals, .npy, -o), inspect, --help, exit statuses.

Most tests call dynhlo.cli.main in-process (fast); a few go through `python -m dynhlo` in a
subprocess to check the real entry point, stdout/stderr and exit status.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from dynhlo import cli
from dynhlo.hlo.values import parse_literal_text
from tests.support.common import EXAMPLES, MODELS, REPO, assert_one_line_error, run_cli

TWO_OUTPUTS = """HloModule two
ENTRY main {
  x = s32[<=6]{0} parameter(0)
  y = s32[<=6]{0} add(x, x)
  n = s32[] get-dimension-size(x), dimensions={0}
  ROOT t = (s32[<=6]{0}, s32[]) tuple(y, n)
}
"""


@pytest.fixture
def two(tmp_path):
    path = tmp_path / "two.hlo"
    path.write_text(TWO_OUTPUTS)
    return str(path)


def test_run_prints_an_hlo_literal(capsys):
    assert cli.main(["run", str(EXAMPLES / "seed.hlo"), "f32[2,5] {{1,2,3,4,5},{6,7,8,9,10}}"]) == 0
    out = capsys.readouterr().out
    assert out == "f32[2,5] { {1, 2, 3, 4, 5}, {6, 7, 8, 9, 10} }\n"


def test_run_tuple_result_reads_back(two, capsys):
    assert cli.main(["run", two, "s32[4] {1, -2, 3, 40}"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("(s32[4], s32[]) (")
    y, n = parse_literal_text(out)
    np.testing.assert_array_equal(y, [2, -4, 6, 80])
    assert y.dtype == np.int32 and int(n) == 4


def test_run_saves_every_output(two, tmp_path, capsys):
    out_path = tmp_path / "result.npz"
    assert cli.main(["run", two, "s32[3] {7, 8, 9}", "-o", str(out_path), "-q"]) == 0
    assert capsys.readouterr().out == ""
    with np.load(out_path) as saved:
        assert sorted(saved.files) == ["out0", "out1"]
        np.testing.assert_array_equal(saved["out0"], [14, 16, 18])
        assert saved["out1"].shape == () and int(saved["out1"]) == 3


def test_run_options_between_arguments(two, capsys):
    assert cli.main(["run", two, "--backend", "cpu", "s32[1] {5}"]) == 0
    assert "{10}" in capsys.readouterr().out


def test_run_npy_arguments_in_parameter_order(tmp_path, capsys):
    x = np.linspace(-1, 1, 15, dtype=np.float32).reshape(5, 3)
    np.save(tmp_path / "x.npy", x)
    text = ("HloModule m\nENTRY e {\n  x = f32[<=9,3] parameter(0)\n  k = f32[] parameter(1)\n"
            "  kb = f32[<=9,3] broadcast(k), dimensions={}\n"
            "  ROOT y = f32[<=9,3] subtract(x, kb)\n}\n")
    (tmp_path / "m.hlo").write_text(text)
    assert cli.main(["run", str(tmp_path / "m.hlo"), str(tmp_path / "x.npy"), "f32[] 0.5"]) == 0
    got = parse_literal_text(capsys.readouterr().out)
    np.testing.assert_array_equal(got, x - np.float32(0.5))


def test_run_a_corpus_model_through_the_command(tmp_path):
    import json
    case = json.loads((MODELS / "softmax_rows" / "cases.json").read_text())["cases"][1]
    with np.load(MODELS / "softmax_rows" / "cases.npz") as npz:
        x, want = npz[case["args"][0]["npz_key"]], npz[case["outputs"][0]["npz_key"]]
    np.save(tmp_path / "x.npy", x)
    proc = run_cli("run", str(MODELS / "softmax_rows" / "module_params_only.hlo"),
                   str(tmp_path / "x.npy"), "-o", str(tmp_path / "o.npz"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"f32[{x.shape[0]},37] ")
    with np.load(tmp_path / "o.npz") as saved:
        np.testing.assert_allclose(saved["out0"], want, rtol=case["rtol"], atol=case["atol"])


def test_inspect_shows_sizes_and_sources(capsys):
    assert cli.main(["inspect", str(EXAMPLES / "seed_set_dimension_size.hlo")]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert lines["a"].rstrip().endswith("[a.0,5]")
    assert lines["n"].rstrip().endswith("[]")
    assert lines["a_sized"].rstrip().endswith("[value(n),5]")
    assert "[value(n),5]" in lines["ROOT"]
    assert "value of 'n'" in out and "dimension 0 of argument 0 ('a')" in out


def test_inspect_marks_static_declared_dims_made_dynamic(capsys):
    assert cli.main(["inspect", str(MODELS / "softmax_rows" / "module_params_only.hlo")]) == 0
    out = capsys.readouterr().out
    (line,) = [x for x in out.splitlines() if x.split()[:1] == ["exp.1"]]
    assert "f32[100,37]" in line and "[x.1.0,37]" in line and "dynamic from its operands" in line


@pytest.mark.parametrize("argv", [["--help"], ["run", "--help"], ["inspect", "--help"]])
def test_help_everywhere(argv):
    proc = run_cli(*argv)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("usage: dynhlo")


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("dynhlo ")


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["run"], ["run", "m.hlo", "--backend",
                                                                 "tpu"]])
def test_usage_errors_exit_2(argv):
    proc = run_cli(*argv)
    assert proc.returncode == 2
    assert "usage: dynhlo" in proc.stderr and "Traceback" not in proc.stderr


def test_run_usage_says_its_args_may_be_left_out(tmp_path, capsys):
    """`run`'s ARGs are one per entry parameter: none for a module without parameters.
    argparse reported a missing module as "required: MODULE.hlo|ARTIFACT, ARG" (a '*'
    positional without a default counts as required in its message)."""
    proc = run_cli("run")
    assert proc.returncode == 2
    last = proc.stderr.strip().splitlines()[-1]
    assert last == "dynhlo run: error: the following arguments are required: MODULE.hlo|ARTIFACT"
    assert "MODULE.hlo|ARTIFACT [ARG ...]" in proc.stderr  # the usage line: ARG optional
    help_text = " ".join(run_cli("run", "--help").stdout.split())  # argparse wraps lines
    assert "none for a module without parameters" in help_text
    path = tmp_path / "const.hlo"
    path.write_text("HloModule c\nENTRY e {\n  ROOT k = s32[2] constant({4, 5})\n}\n")
    assert cli.main(["run", str(path)]) == 0
    assert capsys.readouterr().out == "s32[2] {4, 5}\n"


def test_errors_print_one_line_and_exit_1(two):
    proc = run_cli("run", two, "s32[7] {1,2,3,4,5,6,7}")
    assert_one_line_error(proc, "parameter 0 'x'", "size 7", "bound 6")


def test_parse_error_names_file_line_column(tmp_path):
    path = tmp_path / "bad.hlo"
    path.write_text("HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT b = f32[2] "
                    "add(a, c)\n}\n")
    proc = run_cli("inspect", str(path))
    assert_one_line_error(proc, f"{path}:4:", "'c'")


def test_internal_errors_are_one_line(monkeypatch, capsys):
    def broken(ns):
        raise ZeroDivisionError("boom")
    monkeypatch.setitem(cli.SUBCOMMANDS, "inspect", cli.SUBCOMMANDS["inspect"]._replace(
        run=broken))
    monkeypatch.delenv("DYNHLO_TRACEBACK", raising=False)
    assert cli.main(["inspect", "x.hlo"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("dynhlo: error: internal error: ZeroDivisionError: boom")
    assert len(err.strip().splitlines()) == 1


def test_keyboard_interrupt_is_one_line(monkeypatch, capsys):
    def interrupted(ns):
        raise KeyboardInterrupt
    monkeypatch.setitem(cli.SUBCOMMANDS, "run", cli.SUBCOMMANDS["run"]._replace(
        run=interrupted))
    assert cli.main(["run", "x.hlo"]) == 130
    assert capsys.readouterr().err == "dynhlo: error: interrupted\n"


def _literal_cases():
    import ml_dtypes
    return [
        np.zeros((0, 5), np.float32), np.zeros((2, 0, 3), np.float32),
        np.array([True, False]), np.array([1 + 2j, 3 - 4j], np.complex64),
        np.array([1.5, -2.25], ml_dtypes.bfloat16), np.array([0.1], np.float16),
        np.array([0.1, 1e-8, np.nan, np.inf, -np.inf], np.float32),
        np.array([0.1, 1 / 3], np.float64), np.array(-7, np.int64), np.array([255], np.uint8),
        np.array([[1, -2]], np.int8), np.array([1, -2], ml_dtypes.int4),
        (np.array(1, np.int32), (np.array([1.0], np.float32),)),
    ]


@pytest.mark.parametrize("value", _literal_cases(), ids=lambda v: cli.format_result(v)[:12])
def test_printed_results_read_back_exactly(value):
    text = cli.format_result(value)
    back = parse_literal_text(text)
    for got, want in zip(cli.flatten(back), cli.flatten(value), strict=True):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.astype(np.complex128), want.astype(np.complex128))


@pytest.mark.parametrize("text,want", [("s32[] -3", np.int32(-3)), ("pred[] true", np.True_),
                                       ("f32[2] {1, 2.5}", np.array([1, 2.5], np.float32)),
                                       ("  u8[0] {}", np.zeros(0, np.uint8))])
def test_literal_arguments(text, want):
    got = cli.read_argument(0, text)
    assert got.dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


WHILE_LOOP = """HloModule loop
cond {
  p = (s32[], f32[<=8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  k = s32[] constant(3)
  ROOT lt = pred[] compare(i, k), direction=LT
}
body {
  p = (s32[], f32[<=8]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[<=8] get-tuple-element(p), index=1
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  x2 = f32[<=8] add(x, x)
  ROOT t = (s32[], f32[<=8]) tuple(i2, x2)
}
ENTRY e {
  x = f32[<=8] parameter(0)
  z = s32[] constant(0)
  t = (s32[], f32[<=8]) tuple(z, x)
  w = (s32[], f32[<=8]) while(t), condition=cond, body=body
  ROOT r = f32[<=8] get-tuple-element(w), index=1
}
"""


def test_inspect_and_run_a_while_loop(tmp_path, capsys):
    path = tmp_path / "loop.hlo"
    path.write_text(WHILE_LOOP)
    assert cli.main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert "body  [called by 'w' as body;" in out
    assert "cond  [called by 'w' as condition;" in out
    (root,) = [x for x in out.splitlines() if x.startswith("  ROOT r ")]
    assert root.endswith("[x.0]")
    assert cli.main(["run", str(path), "f32[3] {1, 2, 3}"]) == 0
    assert capsys.readouterr().out == "f32[3] {8, 16, 24}\n"  # doubled three times


@pytest.mark.parametrize("word,stored", [("HIGHEST", "highest"), ("Default", "default"),
                                         ("float32", "highest"), ("tensorfloat32", "default")])
def test_precision_takes_the_spellings_compile_takes(word, stored, two, tmp_path):
    """`--precision` reads as compile(precision=...) does (any case, JAX's matmul precision
    names) and the artifact keeps the canonical name."""
    out = tmp_path / "two.dynhlo"
    assert cli.main(["compile", two, "-o", str(out), "--precision", word]) == 0
    assert cli.load_executable(str(out), None).options["precision"] == stored
    assert cli.main(["run", str(out), "s32[2] {1, 2}", "--precision", word.upper()]) == 0


@pytest.mark.parametrize("args", [["inspect", "--backend", "gpu", "SEED"],
                                  ["run", "--backend", "gpu", "SEED", "f32[1,5] {{1,2,3,4,5}}"]])
def test_the_gpu_backend_without_torch_says_what_to_install(args):
    """Before: `inspect --backend gpu` without torch was "internal error: ModuleNotFoundError"
    (it imported the GPU backend's graph module before compiling)."""
    args = [str(EXAMPLES / "seed.hlo") if a == "SEED" else a for a in args]
    script = ("import sys; sys.modules['torch'] = sys.modules['triton'] = None\n"
              f"from dynhlo import cli\nsys.exit(cli.main({args!r}))")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("DYNHLO_TRACEBACK", None)
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, text=True,
                          capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    assert_one_line_error(proc, 'the gpu backend needs torch and triton (pip install '
                          '"dynhlo[gpu]")')


def test_an_npz_argument_says_to_pass_each_array(two, tmp_path, capsys):
    """A user feeding `-o`'s output back in. Before: 'not a .npy file (no NumPy header)'."""
    saved = tmp_path / "out.npz"
    assert cli.main(["run", two, "s32[3] {7, 8, 9}", "-o", str(saved), "-q"]) == 0
    assert cli.main(["run", two, str(saved)]) == 1
    err = capsys.readouterr().err
    assert err == (f"dynhlo: error: argument 0 ({saved}): a .npz archive, not one array; pass "
                   "each array as its own .npy file (np.save), e.g. np.load(npz)['out0']\n")


@pytest.mark.parametrize("command", ["run", "inspect", "compile"])
def test_a_verify_error_names_the_file_as_a_parse_error_does(command, tmp_path, capsys):
    """Before: 'dynhlo: error: 5:3: instruction ...' (parse errors had 'PATH:5:3: ...');
    the tuple-shaped parameter's error had no line:column at all."""
    mixed = tmp_path / "mixed.hlo"
    mixed.write_text("HloModule m\nENTRY e {\n  a = f32[<=4] parameter(0)\n  b = s32[<=4] "
                     "parameter(1)\n  ROOT c = f32[<=4] add(a, b)\n}\n")
    tupled = tmp_path / "tupled.hlo"
    tupled.write_text("HloModule t\nENTRY e {\n  p = (f32[<=4], s32[]) parameter(0)\n"
                      "  ROOT a = f32[<=4] get-tuple-element(p), index=0\n}\n")
    for path, where in [(mixed, ":5:3: instruction 'c': operands f32 and s32"),
                        (tupled, ":3:3: instruction 'p': tuple-shaped entry parameters")]:
        args = {"run": ["f32[1] {1}"], "inspect": [],
                "compile": ["-o", str(tmp_path / "out.dynhlo")]}[command]
        assert cli.main([command, str(path), *args]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"dynhlo: error: {path}{where}"), err


def test_reference_runs_the_numpy_evaluator(two, tmp_path, capsys, monkeypatch):
    """--reference picks the cpu backend's reference evaluator for run and inspect, whatever
    the environment's default; both ways print the same exact result."""
    monkeypatch.setenv("DYNHLO_CPU_COMPILED", "1")
    printed = []
    for extra in ([], ["--reference"]):
        assert cli.main(["run", two, "s32[3] {7, -1, 2}", *extra]) == 0
        printed.append(capsys.readouterr().out)
    assert printed[0] == printed[1]
    y, n = parse_literal_text(printed[0])
    assert y.tolist() == [14, -2, 4] and int(n) == 3
    assert cli.main(["inspect", two, "--backend", "cpu", "--reference"]) == 0
    assert "the reference evaluator (NumPy)" in capsys.readouterr().out
    assert cli.main(["inspect", two, "--backend", "cpu"]) == 0
    assert "compiled to machine code" in capsys.readouterr().out


def test_a_reference_artifact_loads_as_the_reference(two, tmp_path, capsys, monkeypatch):
    """`dynhlo compile --reference` writes the evaluator's marker; it loads as the reference
    even where the environment asks for the compiled path (and a compiled artifact stays
    compiled: tests/backends/cpu/test_compiled_artifacts.py)."""
    art = str(tmp_path / "two.dynhlo")
    assert cli.main(["compile", two, "--reference", "-o", art]) == 0
    monkeypatch.setenv("DYNHLO_CPU_COMPILED", "1")
    import dynhlo
    exe = dynhlo.load(art)
    assert exe.program.reference
    y, n = exe(np.array([1, 2], np.int32))
    np.testing.assert_array_equal(y, [2, 4])
    assert int(n) == 2


@pytest.mark.parametrize("argv, message", [
    (["run", "{two}", "--reference", "--backend", "gpu"], "--reference is the cpu backend's"),
    (["compile", "{two}", "--reference", "--backend", "gpu", "-o", "{out}"],
     "--reference is the cpu backend's"),
    (["inspect", "{two}", "--reference"], "--reference shows the cpu backend's"),
    (["run", "{art}", "--reference"], "is already compiled and runs as it was"),
])
def test_reference_elsewhere_is_refused(two, tmp_path, capsys, argv, message):
    art = str(tmp_path / "two.dynhlo")
    assert cli.main(["compile", two, "-o", art]) == 0
    capsys.readouterr()
    argv = [a.format(two=two, art=art, out=str(tmp_path / "g.dynhlo")) for a in argv]
    assert cli.main(argv) == 1
    assert message in capsys.readouterr().err
