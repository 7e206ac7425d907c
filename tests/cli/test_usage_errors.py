"""Rough edges a first-time user meets following README.md: the command line's usage errors,
paths that are not files, and options that name something the module does not have.

Each test is one thing a new user tried, and the message or exit status they should get.
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from dynhlo.runtime.buckets import resolve_bounds
from tests.support.common import EXAMPLES, assert_one_line_error, run_cli

SEED = str(EXAMPLES / "seed.hlo")
UNBOUNDED = """HloModule u
ENTRY e {
  a = f32[?,5] parameter(0)
  ROOT b = f32[?,5] negate(a)
}
"""


@pytest.mark.parametrize("command", ["run", "inspect", "compile", "bench"])
def test_an_unknown_option_shows_the_subcommands_usage(command):
    """argparse's top-level parser reported unknown options after the subcommand had parsed,
    so `dynhlo run m.hlo --bogus` printed `usage: dynhlo [-h] [--version] COMMAND ...` and
    `dynhlo: error:`, not the usage of `run` that the option was given to."""
    required = ["-o", "unused.dynhlo"] if command == "compile" else []
    proc = run_cli(command, SEED, *required, "--bogus")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"usage: dynhlo {command} " in proc.stderr, proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last == f"dynhlo {command}: error: unrecognized arguments: --bogus"


@pytest.mark.parametrize("option", ["--max-while-iterations", "--nproc"])
@pytest.mark.parametrize("value", ["0", "-1"])
def test_a_count_below_one_is_a_usage_error_naming_the_option(option, value):
    """`--max-while-iterations -1` said "give a positive number of iterations, or None for no
    limit" (None is the Python API's spelling) and exited 1; a bad option value is a usage
    error (exit 2) that names the option, as argparse's own `invalid int value` is."""
    proc = run_cli("run", SEED, "f32[1,5] {{1,2,3,4,5}}", option, value)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith(f"dynhlo run: error: argument {option}: "), last
    assert f"'{value}'" in last and ">= 1" in last and "None" not in last


def test_loading_a_directory_says_it_is_a_directory(tmp_path):
    """dynhlo.load(a directory) said "it is not a regular file (a pipe or a device)"."""
    with pytest.raises(dynhlo.ArtifactError, match="is a directory") as info:
        dynhlo.load(str(tmp_path))
    assert "pipe" not in str(info.value) and str(tmp_path) in str(info.value)


def test_running_a_directory_artifact_path_names_it(tmp_path):
    proc = run_cli("inspect", str(tmp_path))
    assert_one_line_error(proc, str(tmp_path), "is a directory")


def test_a_bound_for_a_dimension_the_parameter_lacks_names_the_rank():
    """bounds={"a": {3: 8}} on an f32[?,5] said "dimension 3, which is not unbounded": it
    has no dimension 3 at all (rank 2)."""
    module = dynhlo.parse_hlo(UNBOUNDED)
    with pytest.raises(dynhlo.ArgumentError, match=r"has no dimension 3.*rank 2") as info:
        resolve_bounds(module, {"a": {3: 8}})
    assert "not unbounded" not in str(info.value)
    assert (info.value.parameter, info.value.name, info.value.dimension) == (0, "a", 3)
    # the rank-2 parameter's dimension 0 is still bounded as asked, and runs to the bound
    exe = dynhlo.compile(UNBOUNDED, bounds={"a": {0: 8}})
    x = np.arange(35, dtype=np.float32).reshape(7, 5)
    np.testing.assert_array_equal(exe(x), -x)


@pytest.mark.parametrize("text", ["f32[2]{1,2}", "f32[2,2]{{1,2},{3,4}}", "f32[1]{5}"])
def test_values_written_against_the_shape_say_to_put_a_space(text):
    """`f32[2]{1,2}` (no space) reads `{1,2}` as the shape's layout, as XLA's text does; the
    error said only "layout {1,2} is not a permutation of the 1 dimensions"."""
    from dynhlo.hlo.values import parse_literal_text
    with pytest.raises(dynhlo.HloParseError, match="put a space before the values") as info:
        parse_literal_text(text)
    assert info.value.line == 1 and info.value.column == text.index("]") + 2
    spaced = text.replace("]{", "] {")
    np.testing.assert_array_equal(parse_literal_text(spaced),
                                  {"f32[2]{1,2}": [1, 2], "f32[2,2]{{1,2},{3,4}}": [[1, 2], [3, 4]],
                                   "f32[1]{5}": [5]}[text])


def test_a_layout_then_values_still_reads():
    from dynhlo.hlo.values import parse_literal_text
    np.testing.assert_array_equal(parse_literal_text("f32[2,2]{0,1} {{1,2},{3,4}}"),
                                  [[1, 2], [3, 4]])


@pytest.fixture(scope="module")
def unconstrained_mlir(tmp_path_factory):
    """A jax.export module of x - mean(x, 0) with x: f32[n, 4] and no bound on n."""
    jax = pytest.importorskip("jax")
    from jax import export
    exported = export.export(jax.jit(lambda x: x - x.mean(0)))(
        jax.ShapeDtypeStruct(export.symbolic_shape("n, 4"), np.float32))
    path = tmp_path_factory.mktemp("mlir") / "center.mlir"
    path.write_text(exported.mlir_module())
    return str(path)


def test_an_unbounded_stablehlo_file_runs_with_a_bound_on_the_command_line(
        unconstrained_mlir, tmp_path):
    """README: `dynhlo run model.mlir x.npy`. A jax.export module without a constraint on n
    was refused with a message naming only Python calls (parse_stablehlo(m, bounds=...)):
    the command line had no way to give the bound. `--bound n=64` (a JAX dimension
    variable) or `--bound 0:0=64` (argument 0, dimension 0) now reaches the StableHLO import,
    on run and compile."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.save(tmp_path / "x.npy", x)
    refused = run_cli("run", unconstrained_mlir, str(tmp_path / "x.npy"))
    assert_one_line_error(refused, f"{unconstrained_mlir}: ", "no upper bound", "--bound n=1024")
    empty = tmp_path / "empty.mlir"
    empty.write_text("")
    assert_one_line_error(run_cli("inspect", str(empty)), f"{empty}: ", "no @main function")
    for bound in ("n=64", "0:0=64"):
        out = tmp_path / f"{bound[0]}.npz"
        proc = run_cli("run", unconstrained_mlir, str(tmp_path / "x.npy"), "--bound", bound,
                       "-o", str(out), "-q")
        assert proc.returncode == 0, proc.stderr
        np.testing.assert_allclose(np.load(out)["out0"], x - x.mean(0), rtol=1e-6)
    # inspect and bench take it too (the refusal's advice works on every command)
    inspect = run_cli("inspect", unconstrained_mlir, "--bound", "n=16")
    assert inspect.returncode == 0 and "<= 16" in inspect.stdout, inspect.stderr
    bench = run_cli("bench", unconstrained_mlir, "--bound", "n=16", "--sizes", "3")
    assert bench.returncode == 0 and bench.stdout.splitlines()[-1].split()[0] == "3"
    assert_one_line_error(run_cli("inspect", SEED, "--bound", "a:0=3"), "for a StableHLO file")
    artifact = tmp_path / "center.dynhlo"
    proc = run_cli("compile", unconstrained_mlir, "-o", str(artifact), "--bound", "n=8")
    assert proc.returncode == 0, proc.stderr
    exe = dynhlo.load(str(artifact))
    assert str(exe.parameters[0].shape).startswith("f32[<=8,4]")
    assert_one_line_error(run_cli("run", str(artifact), str(tmp_path / "x.npy"), "--bound",
                                  "n=8"), "--bound", "already compiled")


def test_a_dimension_variable_bound_on_hlo_text_says_which_form_it_takes(tmp_path):
    proc = run_cli("compile", str(EXAMPLES / "seed.hlo"), "-o", str(tmp_path / "s.dynhlo"),
                   "--bound", "n=8")
    assert_one_line_error(proc, "--bound n=8", "StableHLO", "NAME:DIM=BOUND")


@pytest.mark.parametrize("saver", ["npy", "npz"])
def test_an_array_file_given_as_the_module_says_the_module_comes_first(tmp_path, saver):
    """`dynhlo run x.npy m.hlo` (the order swapped) said only "not UTF-8 text (byte 0);
    expected an HLO text file"."""
    x = np.ones((3, 5), np.float32)
    path = tmp_path / f"x.{saver}"
    np.save(path, x) if saver == "npy" else np.savez(path, x=x)
    proc = run_cli("run", str(path), SEED)
    assert_one_line_error(proc, str(path), f"a NumPy .{saver} file", "MODULE first",
                          "dynhlo run MODULE.hlo")


def test_compiles_interpret_help_does_not_promise_the_interpreter_at_run_time(tmp_path):
    """`dynhlo compile --help` said --interpret would "run the kernels in Triton's
    interpreter on the CPU (for machines without a GPU)", as run's does; but the artifact it
    writes holds cubins and loading it needs a CUDA device, so on such a machine `dynhlo run
    ARTIFACT` is refused. The help says so, and what runs here instead."""
    # triton is never imported here: imported before the gpu backend picks the interpreter,
    # it broke the in-process gpu tests that ran later in this worker
    import importlib.util
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("triton") is None:
        pytest.skip("the gpu backend needs torch and triton")
    import torch
    if torch.cuda.is_available():
        pytest.skip("a CUDA device loads the artifact")
    help_text = " ".join(run_cli("compile", "--help").stdout.split())
    assert "run the kernels in Triton's interpreter" not in help_text
    assert "not in the interpreter" in help_text and "dynhlo run MODULE.hlo --backend gpu " \
        "--interpret" in help_text
    artifact = tmp_path / "seed.dynhlo"
    proc = run_cli("compile", SEED, "-o", str(artifact), "--backend", "gpu", "--interpret")
    assert proc.returncode == 0, proc.stderr
    assert_one_line_error(run_cli("run", str(artifact), "f32[1,5] {{1,2,3,4,5}}"),
                          "needs a CUDA device", "--interpret")
    assert "run the kernels in Triton's interpreter" in " ".join(
        run_cli("run", "--help").stdout.split())


def test_inspect_interpret_without_the_gpu_backend_is_refused_as_run_refuses_it():
    """`dynhlo inspect m.hlo --interpret` printed the plain report, the option ignored,
    where `dynhlo run m.hlo --interpret` says it is for the gpu backend."""
    for command in ("run", "inspect"):
        assert_one_line_error(run_cli(command, SEED, "--interpret"),
                              "--interpret is for the gpu backend (add --backend gpu)")


@pytest.mark.parametrize("sizes", ["", ",", "-1", "4,x"])
def test_bad_bench_sizes_are_refused_before_compiling(sizes):
    """`dynhlo bench m.hlo --sizes ""` (an empty "$SIZES") ran the default sizes, and a bad
    --sizes was reported only after compiling (minutes on a GPU), under the compile line."""
    proc = run_cli("bench", SEED, "--sizes", sizes)
    assert_one_line_error(proc, f"--sizes {sizes!r}")
    assert proc.stdout == ""


@pytest.mark.parametrize("text, want", [("-3", 3.0), ("-2.5", 2.5), ("-1e5", 1e5),
                                        ("-1.5E-3", 1.5e-3), ("-.5", 0.5), ("-inf", np.inf)])
def test_a_negative_scalar_argument_is_a_number_not_an_option(tmp_path, text, want):
    """README: a bare number is an ARG for a scalar parameter. argparse took only -3 and
    -2.5 as negative numbers: `dynhlo run m.hlo -1e5` and `-inf` were "unrecognized
    arguments"."""
    path = tmp_path / "neg.hlo"
    path.write_text("HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n"
                    "  ROOT b = f32[] negate(a)\n}\n")
    out = tmp_path / "out.npz"
    proc = run_cli("run", str(path), text, "-o", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    assert np.load(out)["out0"] == np.float32(want)


def test_an_unknown_option_that_is_no_number_is_still_refused():
    assert run_cli("run", SEED, "-x").returncode == 2
    assert run_cli("run", SEED, "-e5").returncode == 2


def test_from_jax_with_an_hlo_bounded_dim_says_to_name_it():
    """`from_jax(fn, "f32[<=4]")` (dynhlo's own HLO spelling) said only "dimension '<=4' is
    neither a size nor a name"."""
    pytest.importorskip("jax")
    with pytest.raises(dynhlo.UnsupportedError,
                       match=r"'<=4' is neither a size nor a name \(name it, with its bound in "
                             r"bounds=: \"f32\[n\]\", bounds=\{'n': 4\}\)"):
        dynhlo.from_jax(lambda x: x, "f32[<=4]")
    exe = dynhlo.from_jax(lambda x: -x, "f32[n]", bounds={"n": 4})
    np.testing.assert_array_equal(exe(np.arange(3, dtype=np.float32)), [0, -1, -2])


def test_a_saved_from_jax_executable_loads_with_flat_outputs(tmp_path):
    """README/from_jax's save: what dynhlo.load gives back for a fn returning a dict of a
    tuple and an array (the structure is not in the artifact; the leaves are, in
    jax.tree_util's order), checked against jax.jit's values."""
    jax = pytest.importorskip("jax")
    fn = lambda x: {"s": x.sum(0), "m": (x.max(), x.min())}  # noqa: E731
    exe = dynhlo.from_jax(fn, "f32[n,3]", bounds={"n": 4})
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    exe.save(str(tmp_path / "tree.dynhlo"))
    loaded = dynhlo.load(str(tmp_path / "tree.dynhlo"))(x)
    want = jax.tree_util.tree_leaves(jax.jit(fn)(x))
    assert isinstance(loaded, tuple) and len(loaded) == len(want) == 3
    for got, ref in zip(loaded, want, strict=True):
        np.testing.assert_allclose(got, np.asarray(ref))
    assert isinstance(exe(x), dict)


def test_the_help_that_says_to_mark_jax_hlo_by_hand_says_what_that_bakes_in(tmp_path):
    """`dynhlo --help` told a JAX user to lower with jax.jit and mark `<=N` by hand, and
    nothing more: a mean lowered that way divides by the bound at every size. The help names
    the warning and the symbolic routes; the warning is real on such a module."""
    jax = pytest.importorskip("jax")
    help_text = " ".join(run_cli("--help").stdout.split())
    assert "a warning says so" in help_text and "dynhlo.from_jax" in help_text
    text = jax.jit(lambda x: x - x.mean(0)).lower(
        jax.ShapeDtypeStruct((8, 4), np.float32)).as_text(dialect="hlo")
    path = tmp_path / "baked.hlo"
    path.write_text(text.replace("f32[8,4]", "f32[<=8,4]"))
    proc = run_cli("run", str(path), "f32[2,4] {{0,0,0,0},{8,8,8,8}}")
    assert proc.returncode == 0 and "dynhlo: warning: " in proc.stderr
    assert "equal to 8, a count of a dynamic dimension" in proc.stderr
    # the baked answer: x - sum/8 = x - 1, not x - mean = x - 4 (the warning's reason)
    assert proc.stdout.startswith("f32[2,4] { {-1, -1, -1, -1}, {7, 7, 7, 7} }")


def test_the_suggested_bound_names_the_modules_own_parameter(tmp_path):
    """`dynhlo compile u.hlo` of an `a = f32[5,?]` said "--bound x:0=1024": pasted as is,
    that is "bounds key 'x' names no parameter". The suggestion names 'a' and dimension 1,
    and works when pasted."""
    path = tmp_path / "u.hlo"
    path.write_text("HloModule u\nENTRY e {\n  a = f32[5,?] parameter(0)\n"
                    "  ROOT b = f32[5,?] negate(a)\n}\n")
    out = str(tmp_path / "u.dynhlo")
    line = assert_one_line_error(run_cli("compile", str(path), "-o", out),
                                 "--bound a:1=1024", "bounds={'a': {1: 1024}}")
    assert "'x'" not in line
    assert run_cli("compile", str(path), "-o", out, "--bound", "a:1=1024").returncode == 0
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    np.testing.assert_array_equal(dynhlo.load(out)(x), -x)
    with pytest.raises(dynhlo.UnsupportedError, match=r"--bound a:1=1024"):
        dynhlo.compile(path.read_text()).save(str(tmp_path / "v.dynhlo"))
