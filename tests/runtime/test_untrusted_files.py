"""Hardening of the runtime's stored things (issue 8): JIT cache entries are untrusted input,
and an artifact never replaces a file that is not an artifact.

Each test is a class of problem found by attacking these paths; it fails without its fix.
Expected values come from NumPy by hand.
"""

from __future__ import annotations

import os
import shutil
import threading

import numpy as np
import pytest

import dynhlo
from dynhlo.cli import main

ADD = """HloModule add
ENTRY e {
  a = f32[<=4,3] parameter(0)
  ROOT r = f32[<=4,3] add(a, a)
}
"""
MUL = ADD.replace("HloModule add", "HloModule mul").replace("add(a, a)", "multiply(a, a)")
UNBOUNDED = """HloModule neg
ENTRY e {
  a = f32[?,3] parameter(0)
  ROOT r = f32[?,3] negate(a)
}
"""
X = np.arange(12, dtype=np.float32).reshape(4, 3) - 5


def _entry(f, bucket=None):
    return f.cache_dir / f"{f.cache_key(bucket)}.dynhlo"


def test_jit_cache_entry_of_another_module_is_a_miss(tmp_path):
    mul = dynhlo.jit(MUL, cache_dir=tmp_path)
    np.testing.assert_array_equal(mul(X), X * X)
    add = dynhlo.jit(ADD, cache_dir=tmp_path)
    shutil.copy(_entry(mul), _entry(add))  # a valid artifact, but of the other module
    with pytest.warns(RuntimeWarning, match="not this one"):
        np.testing.assert_array_equal(add(X), X + X)
    assert add.compilations == 1 and add.disk_loads == 0
    again = dynhlo.jit(ADD, cache_dir=tmp_path)  # the entry was rewritten with this module
    np.testing.assert_array_equal(again(X), X + X)
    assert again.compilations == 0 and again.disk_loads == 1


def test_jit_cache_entry_of_another_bucket_is_a_miss(tmp_path):
    f = dynhlo.jit(UNBOUNDED, cache_dir=tmp_path)
    x2 = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(f(x2), -x2)  # bucket 2
    shutil.copy(_entry(f, 2), _entry(f, 8))  # a bucket-2 program where bucket 8's belongs
    g = dynhlo.jit(UNBOUNDED, cache_dir=tmp_path)
    x7 = np.arange(21, dtype=np.float32).reshape(7, 3)
    with pytest.warns(RuntimeWarning, match="not this one"):
        np.testing.assert_array_equal(g(x7), -x7)
    assert g.compilations == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_jit_cache_entry_that_is_a_fifo_never_blocks(tmp_path):
    f = dynhlo.jit(ADD, cache_dir=tmp_path)
    os.mkfifo(_entry(f))
    result = {}
    worker = threading.Thread(target=lambda: result.setdefault("out", f(X)), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "a FIFO cache entry blocked the call"
    np.testing.assert_array_equal(result["out"], X + X)


def test_jit_cache_directory_is_made_private(tmp_path):
    f = dynhlo.jit(ADD, cache_dir=tmp_path / "made" / "cache")
    np.testing.assert_array_equal(f(X), X + X)
    for folder in (tmp_path / "made", tmp_path / "made" / "cache"):
        assert folder.stat().st_mode & 0o077 == 0, oct(folder.stat().st_mode)
    assert len(list((tmp_path / "made" / "cache").iterdir())) == 1


@pytest.mark.parametrize("owner", ["others-can-write", "another-user"])
def test_jit_cache_directory_of_other_users_is_not_used(tmp_path, monkeypatch, owner):
    """An entry planted in a directory another user can write would be loaded as this
    user's program: such a directory is not read or written, with a warning."""
    dynhlo.jit(MUL, cache_dir=tmp_path / "mine")(X)
    planted = next((tmp_path / "mine").iterdir())   # a valid entry, of another module
    folder = tmp_path / "shared"
    folder.mkdir()
    if owner == "others-can-write":
        folder.chmod(0o777)
        why = "other users can write it"
    else:
        monkeypatch.setattr(os, "getuid", lambda: folder.stat().st_uid + 1)
        why = "it belongs to user .*, not this one"
    add = dynhlo.jit(ADD, cache_dir=folder)
    entry = _entry(add)
    shutil.copy(planted, entry)
    with pytest.warns(RuntimeWarning, match=f"cannot use cache directory .*shared \\({why}"):
        np.testing.assert_array_equal(add(X), X + X)
    assert add.cache_dir is None and (add.compilations, add.disk_loads) == (1, 0)
    assert list(folder.iterdir()) == [entry] and entry.read_bytes() == planted.read_bytes()


# Files that are the user's data; the old guard looked for `HloModule` at the start only.
NOT_ARTIFACTS = {
    "bom.hlo": "\ufeff" + ADD,
    "line_comment.hlo": "// exported by jax\n" + ADD,
    "block_comment.hlo": "/* exported */ " + ADD,
    "whitespace.hlo": " " * 4096 + ADD,
    "notes.txt": "not a module at all\n",
}


@pytest.mark.parametrize("name", sorted(NOT_ARTIFACTS))
def test_save_refuses_every_file_that_is_not_an_artifact(tmp_path, name):
    path = tmp_path / name
    path.write_text(NOT_ARTIFACTS[name], encoding="utf-8")
    exe = dynhlo.compile(ADD)
    with pytest.raises(dynhlo.ArtifactError, match=f"refusing to overwrite .*{name}"):
        exe.save(path)
    assert path.read_text(encoding="utf-8") == NOT_ARTIFACTS[name]


@pytest.mark.parametrize("name", sorted(NOT_ARTIFACTS))
def test_cli_compile_refuses_every_file_that_is_not_an_artifact(tmp_path, name, capsys):
    module = tmp_path / "m.hlo"
    module.write_text(ADD)
    out = tmp_path / name
    out.write_text(NOT_ARTIFACTS[name], encoding="utf-8")
    assert main(["compile", str(module), "-o", str(out)]) == 1
    assert "refusing to overwrite" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == NOT_ARTIFACTS[name]
    artifact = tmp_path / "m.dynhlo"
    assert main(["compile", str(module), "-o", str(artifact)]) == 0
    assert main(["compile", str(module), "-o", str(artifact)]) == 0  # an artifact is replaced
    np.testing.assert_array_equal(dynhlo.load(artifact)(X), X + X)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_save_over_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.dynhlo"
    os.mkfifo(fifo)
    errors = []

    def save():
        try:
            dynhlo.compile(ADD).save(fifo)
        except dynhlo.ArtifactError as exc:
            errors.append(str(exc))
    worker = threading.Thread(target=save, daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "checking a FIFO before saving blocked"
    assert errors and "not a regular file" in errors[0]
