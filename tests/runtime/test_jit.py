"""dynhlo.jit: memory and disk caches, processes sharing one cache directory, corrupted entries.

Values are checked against the corpus (JAX at the actual sizes) and NumPy; "compiles nothing"
is read off the JIT's own count and dynhlo.stats, in fresh processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import dynhlo
from dynhlo import stats
from dynhlo.runtime import artifact
from dynhlo.runtime.jit import default_cache_dir
from tests.support.common import MODELS, REPO
from tests.shapes.test_unbounded import SOFTMAX, rows, softmax

SHARED_MODEL = "softmax_rows"
OTHER_MODELS = ["attention", "embedding_sum", "layernorm_residual", "mlp"]
UNBOUNDED_SIZES = [1, 5, 17, 100]  # buckets 1, 8, 32, 128

# One worker: waits for the go file (so that all start together), then runs the shared model,
# its own model and the unbounded softmax through dynhlo.jit on one cache directory.
WORKER = r"""
import json, os, sys, time
from pathlib import Path
import numpy as np
import dynhlo
from dynhlo import stats
cache, go, models_dir, softmax_text = sys.argv[1:5]
models = sys.argv[5:]
deadline = time.time() + 60
while not os.path.exists(go) and time.time() < deadline:
    time.sleep(0.005)
ok, compilations = [], 0
for name in models:
    model = Path(models_dir) / name
    f = dynhlo.jit((model / "module.hlo").read_text(), cache_dir=cache)
    meta = json.loads((model / "cases.json").read_text())
    arrays = np.load(model / "cases.npz")
    for case in meta["cases"]:
        out = f(*[arrays[a["npz_key"]] for a in case["args"]])
        outs = out if isinstance(out, tuple) else (out,)
        ok += [bool(np.allclose(o, arrays[e["npz_key"]], rtol=case["rtol"], atol=case["atol"]))
               for o, e in zip(outs, case["outputs"], strict=True)]
    compilations += f.compilations
f = dynhlo.jit(Path(softmax_text).read_text(), cache_dir=cache)
for n in [1, 5, 17, 100]:
    x = np.random.default_rng(n).normal(size=(n, 64)).astype(np.float32)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    ok.append(bool(np.allclose(f(x), e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)))
compilations += f.compilations
print(json.dumps({"ok": ok, "compilations": compilations, "stats": stats.snapshot()}))
"""


def python_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    return env


def start_worker(cache: Path, go: Path, softmax_file: Path, models: list[str]):
    argv = [sys.executable, "-c", WORKER, str(cache), str(go), str(MODELS), str(softmax_file),
            *models]
    return subprocess.Popen(argv, env=python_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(proc) -> dict:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return json.loads(out)


def assert_cache_intact(cache: Path, entries: int) -> None:
    """Every entry a whole, loadable artifact; no temporary file left behind."""
    names = sorted(p.name for p in cache.iterdir())
    assert not [n for n in names if n.endswith(".tmp")], names
    assert len(names) == entries, names
    for path in cache.iterdir():
        assert path.suffix == ".dynhlo"
        dynhlo.load(path)


def test_four_processes_share_one_cache_directory(tmp_path):
    cache, go = tmp_path / "cache", tmp_path / "go"
    softmax_file = tmp_path / "softmax.hlo"
    softmax_file.write_text(SOFTMAX)
    procs = [start_worker(cache, go, softmax_file, [SHARED_MODEL, other])
             for other in OTHER_MODELS]
    time.sleep(0.5)
    go.touch()
    reports = [finish(p) for p in procs]
    for report in reports:
        assert report["ok"] and all(report["ok"]), report
    # The same module may be compiled by several processes at once (all miss); never more.
    total = sum(r["compilations"] for r in reports)
    assert 4 + 1 + len(UNBOUNDED_SIZES) <= total <= 4 * (2 + len(UNBOUNDED_SIZES))
    assert_cache_intact(cache, entries=1 + len(OTHER_MODELS) + len(UNBOUNDED_SIZES))
    again = finish(start_worker(cache, go, softmax_file, [SHARED_MODEL, *OTHER_MODELS]))
    assert all(again["ok"]) and again["compilations"] == 0
    assert again["stats"].get("compile", 0) == 0


@pytest.mark.parametrize("first,second", [(None, "highest"), ("HIGHEST", None)])
def test_the_default_precision_given_or_not_is_one_disk_entry(tmp_path, first, second):
    """precision="highest" is what no precision means: the second jit loads the first's
    entry instead of compiling the same program again; "default" is another entry."""
    f = dynhlo.jit(SOFTMAX, cache_dir=tmp_path, precision=first)
    np.testing.assert_allclose(f(rows(3)), softmax(rows(3)), rtol=1e-6)
    g = dynhlo.jit(SOFTMAX, cache_dir=tmp_path, precision=second)
    np.testing.assert_allclose(g(rows(3)), softmax(rows(3)), rtol=1e-6)
    assert (f.compilations, g.compilations, g.disk_loads) == (1, 0, 1)
    h = dynhlo.jit(SOFTMAX, cache_dir=tmp_path, precision="default")
    h(rows(3))
    assert (h.compilations, h.disk_loads) == (1, 0)


def test_memory_then_disk_then_nothing(tmp_path):
    f = dynhlo.jit(SOFTMAX, cache_dir=tmp_path)
    np.testing.assert_allclose(f(rows(3)), softmax(rows(3)), rtol=1e-6)
    np.testing.assert_allclose(f(rows(4)), softmax(rows(4)), rtol=1e-6)
    assert (f.compilations, f.disk_loads, f.buckets) == (1, 0, [4])
    before = stats.snapshot()
    g = dynhlo.jit(SOFTMAX, cache_dir=tmp_path)
    np.testing.assert_allclose(g(rows(3)), softmax(rows(3)), rtol=1e-6)
    assert (g.compilations, g.disk_loads) == (0, 1)
    assert stats.snapshot() == before


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "empty"])
def test_a_corrupted_entry_is_recompiled_and_replaced(tmp_path, damage):
    f = dynhlo.jit(SOFTMAX, cache_dir=tmp_path)
    f(rows(2))
    entry = next(tmp_path.iterdir())
    data = bytearray(entry.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0x10
    damaged = {"flip": bytes(data), "truncate": bytes(data[:100]), "garbage": b"\0" * 64,
               "empty": b""}[damage]
    entry.write_bytes(damaged)
    g = dynhlo.jit(SOFTMAX, cache_dir=tmp_path)
    with pytest.warns(RuntimeWarning, match="cache entry .* is unusable .*recompiling"):
        np.testing.assert_allclose(g(rows(2)), softmax(rows(2)), rtol=1e-6)
    assert (g.compilations, g.disk_loads) == (1, 0)
    assert entry.read_bytes() != damaged
    assert_cache_intact(tmp_path, entries=1)


def test_an_unwritable_cache_warns_and_keeps_working(tmp_path):
    blocker = tmp_path / "not_a_directory"
    blocker.write_text("")
    f = dynhlo.jit(SOFTMAX, cache_dir=blocker)
    with pytest.warns(RuntimeWarning, match="cannot use cache directory .*not a directory"):
        np.testing.assert_allclose(f(rows(6)), softmax(rows(6)), rtol=1e-6)
    np.testing.assert_allclose(f(rows(7)), softmax(rows(7)), rtol=1e-6)
    assert f.compilations == 1


def test_memory_only_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    f = dynhlo.jit(SOFTMAX, cache_dir=False)
    f(rows(9))
    assert f.cache_dir is None and list(tmp_path.iterdir()) == []


def test_cache_key_covers_module_backend_options_and_bucket(tmp_path):
    f = dynhlo.jit(SOFTMAX, cache_dir=tmp_path)
    same = dynhlo.jit(dynhlo.parse_hlo(SOFTMAX).to_text(), cache_dir=tmp_path / "other")
    assert f.cache_key(8) == same.cache_key(8)
    keys = {f.cache_key(8), f.cache_key(16),
            dynhlo.jit(SOFTMAX, backend="gpu", cache_dir=tmp_path).cache_key(8),
            dynhlo.jit(SOFTMAX, cache_dir=tmp_path, target="x").cache_key(8),
            dynhlo.jit(SOFTMAX.replace("constant(0)", "constant(1)"),
                       cache_dir=tmp_path).cache_key(8)}
    assert len(keys) == 5


def test_default_cache_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path / "d"))
    assert default_cache_dir() == tmp_path / "d"
    assert dynhlo.jit(SOFTMAX).cache_dir == tmp_path / "d"
    monkeypatch.delenv("DYNHLO_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "dynhlo"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "dynhlo"


def test_bounded_module_compiles_once_for_every_size(tmp_path):
    model = MODELS / SHARED_MODEL
    f = dynhlo.jit((model / "module.hlo").read_text(), cache_dir=tmp_path)
    for n in (1, 50, 100):
        x = rows(n)[:, :37].copy()
        np.testing.assert_allclose(f(x), softmax(x), rtol=1e-5, atol=1e-7)
    assert (f.compilations, f.buckets) == (1, [None])
    with pytest.raises(dynhlo.ArgumentError, match="size 101 > bound 100"):
        f(np.zeros((101, 37), np.float32))
    assert artifact.read_artifact(next(Path(tmp_path).iterdir()).read_bytes()).backend == "cpu"


@pytest.mark.parametrize("kwargs, fragment", [
    ({"backend": "tpu"}, "unknown backend 'tpu'; choose one of cpu, gpu"),
    ({"interpet": True}, "unknown compile option(s) interpet; the options are"),
])
def test_an_unknown_backend_or_option_is_refused_by_jit_itself(kwargs, fragment):
    """Before: jit() took them, and only the first call (a compile) refused them."""
    with pytest.raises(dynhlo.UnsupportedError) as info:
        dynhlo.jit(SOFTMAX, cache_dir=False, **kwargs)
    assert fragment in str(info.value)
    f = dynhlo.jit(SOFTMAX, cache_dir=False, max_while_iterations=5)  # a runtime option: taken
    x = rows(3)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(f(x), e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)
