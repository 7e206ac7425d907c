"""`dynhlo bound A.hlo B.hlo --bound N` and dynhlo.bound_from_dumps: one program's HLO dumped
at two sizes made one module `<=N`, against jax.jit's outputs stored beside the dumps
(tests/data/bound, written by tools/gen_bound_dumps.py), and tf2xla's (tests/data/
tf_lowerings); a size baked in is refused naming its line and column. Also: hand-marking the
same dumps is caught by BakedSizeWarning, which no stored module sets off.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import dynhlo
from dynhlo import cli
from tests.support.common import DATA

BOUND = DATA / "bound"
TAKEN = sorted(p.stem for p in BOUND.glob("*.npz"))
REFUSED = {   # name -> (line, column, the number) in its dump at 64 rows
    "mean_all": (13, 31, "512"),          # x.mean(): 8n
    "logmeanexp": (37, 31, "4.15888309"),  # log(n), computed by Python
}


def _dumps(name: str) -> tuple[str, str]:
    return tuple((BOUND / f"{name}.{n}.hlo").read_text() for n in (64, 48))


def _check_at_stored_sizes(exe, name: str) -> None:
    data = np.load(BOUND / f"{name}.npz")
    for n in data["sizes"]:
        np.testing.assert_allclose(exe(data[f"x_{n}"]), data[f"out_{n}"], rtol=2e-5,
                                   atol=2e-5, err_msg=f"{name} at {n} rows")


@pytest.mark.parametrize("name", TAKEN)
def test_bound_from_dumps_matches_jax_at_1_middle_and_bound(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error", dynhlo.BakedSizeWarning)
        module = dynhlo.bound_from_dumps(*_dumps(name), bound=128)
        exe = dynhlo.compile(module)
    assert "f32[<=128,8]" in str(module.entry.parameters[0].shape)
    _check_at_stored_sizes(exe, name)


def test_bound_from_dumps_takes_the_dumps_in_either_order():
    a, b = _dumps("drop_last_sum")
    _check_at_stored_sizes(dynhlo.compile(dynhlo.bound_from_dumps(b, a, bound=128)),
                           "drop_last_sum")


@pytest.mark.parametrize("name", TAKEN)
def test_cli_bound_writes_a_module_that_matches_jax(name, tmp_path):
    out = tmp_path / f"{name}.hlo"
    assert cli.main(["bound", str(BOUND / f"{name}.64.hlo"), str(BOUND / f"{name}.48.hlo"),
                     "--bound", "128", "-o", str(out)]) == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error", dynhlo.BakedSizeWarning)
        exe = dynhlo.compile(out.read_text())
    _check_at_stored_sizes(exe, name)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_bound_from_dumps_refuses_a_size_baked_in_naming_line_and_column(name):
    line, column, number = REFUSED[name]
    with pytest.raises(dynhlo.UnsupportedError) as caught:
        dynhlo.bound_from_dumps(*_dumps(name), bound=128)
    exc = caught.value
    assert (exc.line, exc.column, exc.dump) == (line, column, 0)
    assert str(exc).startswith(f"{line}:{column}: size n (parameter 0 'x.1' dimension 0) "
                               f"is baked into the program: '{number}' at n = 64 is ")
    text = (BOUND / f"{name}.64.hlo").read_text().split("\n")[line - 1]
    assert text[column - 1:].startswith(number)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_cli_bound_refuses_naming_the_dump_line_and_column(name, tmp_path, capsys):
    line, column, _ = REFUSED[name]
    out = tmp_path / "out.hlo"
    # the smaller size first: the place is in the dump of the larger one
    assert cli.main(["bound", str(BOUND / f"{name}.48.hlo"), str(BOUND / f"{name}.64.hlo"),
                     "--bound", "128", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"dynhlo: error: {BOUND / f'{name}.64.hlo'}:{line}:{column}: "
                          "size n ")
    assert not out.exists()


def test_cli_bound_refuses_a_bound_below_the_sizes_and_dumps_of_one_size(capsys):
    a, b = (str(BOUND / f"mean_rows.{n}.hlo") for n in (64, 48))
    assert cli.main(["bound", a, b, "--bound", "32"]) == 1
    assert "bound 32: at least the larger size dumped, 64" in capsys.readouterr().err
    assert cli.main(["bound", a, a, "--bound", "128"]) == 1
    assert "no entry-parameter dimension differs" in capsys.readouterr().err


def test_bound_from_dumps_refuses_a_structure_that_differs_naming_the_line():
    # one more instruction in the dump at 48 rows (a branch on the size, folded): the place
    # is that line of that dump
    a, b = _dumps("mean_rows")
    lines = b.split("\n")
    k = next(k for k, line in enumerate(lines) if line.strip().startswith("ROOT sub"))
    lines.insert(k, "  extra.1 = f32[] constant(1)")
    with pytest.raises(dynhlo.UnsupportedError, match="structure differs") as caught:
        dynhlo.bound_from_dumps(a, "\n".join(lines), bound=128)
    assert (caught.value.line, caught.value.column, caught.value.dump) == (k + 1, 1, 1)


def test_cli_bound_takes_tf2xla_dumps():
    """tf2xla's text (typed operands, `%` names, metadata): a mean written by hand, x / 8
    at 8 rows, reads n at run time; compared with TensorFlow's outputs stored beside."""
    low = DATA / "tf_lowerings"
    module = dynhlo.bound_from_dumps((low / "mean_by_hand.8.hlo").read_text(),
                                     (low / "mean_by_hand.7.hlo").read_text(), bound=8)
    exe = dynhlo.compile(module)
    want = np.load(low / "mean_by_hand.expected.npz")
    for n in want["sizes"]:
        np.testing.assert_allclose(exe(want[f"in{n}"]), want[f"out{n}"], rtol=1e-6)


# -- hand-marked dumps: BakedSizeWarning ---------------------------------------------------


@pytest.mark.parametrize("name, made", [
    ("mean_all", "constant 'constant.2' equal to 64 x 8"),
    ("logmeanexp", "constant 'constant.5' equal to the log of 64"),
    ("drop_last_sum", "its limit 63 along dimension 0"),
])
def test_a_hand_marked_dump_warns_of_its_baked_size(name, made):
    text = (BOUND / f"{name}.64.hlo").read_text().replace("f32[64,8]", "f32[<=64,8]")
    with pytest.warns(dynhlo.BakedSizeWarning) as records:
        dynhlo.compile(text)
    message = str(records[0].message)
    assert made in message and "dynhlo.from_jax" in message and "dynhlo bound" in message


def test_a_hand_marked_tf_module_is_pointed_to_from_tf_not_from_jax():
    text = (DATA / "tf_lowerings" / "mean_by_hand.8.hlo").read_text()
    text = re.sub(r"f32\[8,3\]", "f32[<=8,3]", text)
    with pytest.warns(dynhlo.BakedSizeWarning) as records:
        dynhlo.compile(text)
    message = str(records[0].message)
    assert "dynhlo.from_tf" in message and "from_jax" not in message


STORED = sorted(p for sub in ("tf", "jax", "cusolver", "models", "windows", "bound")
                for p in (DATA / sub).rglob("*.hlo"))


@pytest.mark.parametrize("path", STORED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_baked_size_warning_on_stored_modules(path):
    """The repository's tf2xla and JAX modules, marked by their producers (tf2xla's
    set-dimension-size, tools' marking at sizes checked against jax.jit): none sets off
    the warning (tf.where's tf2xla modules did, and told TensorFlow users to use from_jax)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", dynhlo.BakedSizeWarning)
        dynhlo.hlo.baked_sizes.warn_baked_sizes(dynhlo.parse_hlo(path.read_text()))


def _jax_dumps(fn, sizes):
    jax = pytest.importorskip("jax")
    return [jax.jit(fn).lower(np.zeros((n, 4), np.float32)).as_text(dialect="hlo")
            for n in sizes]


def _pool(padding, stride=2, window=3):
    from jax import lax
    return lambda x: lax.reduce_window(x, -np.inf, lax.max, (window, 1), (stride, 1), padding)


def _conv(padding, stride):
    from jax import lax
    return lambda x: lax.conv_general_dilated(x[None].transpose(0, 2, 1),
                                              np.ones((2, 4, 3), np.float32), (stride,),
                                              padding)


@pytest.mark.parametrize("fn, sizes, bound", [
    (lambda: _pool("SAME"), (8, 4), 16),     # pads 0_1 at even n, 1_1 at odd n
    (lambda: _pool("SAME"), (7, 5), 15),
    (lambda: _conv("SAME", 2), (8, 4), 16),
])
def test_bound_from_dumps_refuses_a_strided_window_padded_as_same_at_one_residue(
        fn, sizes, bound):
    with pytest.raises(dynhlo.UnsupportedError, match="padded as SAME pads it") as info:
        dynhlo.bound_from_dumps(*_jax_dumps(fn(), sizes), bound=bound)
    assert info.value.line is not None


def test_bound_from_dumps_takes_a_strided_window_whose_padding_is_not_sames():
    # VALID of stride 3 and size 3: SAME would pad 2 at n = 4 and 1 at n = 8, so the dumps'
    # 0 is the program's own padding at every size
    jax = pytest.importorskip("jax")
    fn = _conv("VALID", 3)
    exe = dynhlo.compile(dynhlo.bound_from_dumps(*_jax_dumps(fn, (8, 4)), bound=16))
    rng = np.random.default_rng(0)
    for n in (3, 4, 7, 8, 13):
        x = rng.standard_normal((n, 4)).astype(np.float32)
        np.testing.assert_allclose(exe(x), np.asarray(jax.jit(fn)(x)), rtol=1e-5, atol=1e-5)
