"""dynhlo.config: each DYNHLO_* variable read when its function is called, with its default."""

from __future__ import annotations

from pathlib import Path

import dynhlo
from dynhlo import config


def test_cache_root_follows_the_variable_then_xdg_then_home(monkeypatch, tmp_path):
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path / "mine"))
    assert config.cache_root() == tmp_path / "mine"
    monkeypatch.setenv("DYNHLO_CACHE_DIR", "")  # empty counts as unset
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert config.cache_root() == tmp_path / "xdg" / "dynhlo"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert config.cache_root() == Path.home() / ".cache" / "dynhlo"


def test_the_cache_directory_rule_is_the_same_for_files_and_the_jit(monkeypatch, tmp_path):
    from dynhlo.files import cache_directory
    from dynhlo.runtime.jit import default_cache_dir
    monkeypatch.setenv("DYNHLO_CACHE_DIR", str(tmp_path))
    assert default_cache_dir() == tmp_path
    assert cache_directory("cubins") == tmp_path / "cubins"


def test_flags_are_read_at_call_time(monkeypatch):
    for name in ("DYNHLO_CPU_COMPILED", "DYNHLO_GPU_GRAPH", "DYNHLO_TRACEBACK"):
        monkeypatch.delenv(name, raising=False)
    assert (config.cpu_compiled(), config.gpu_graph(), config.traceback()) == (True, None, False)
    for value, compiled in (("0", False), ("", True), ("1", True), ("yes", True)):
        monkeypatch.setenv("DYNHLO_CPU_COMPILED", value)
        assert config.cpu_compiled() is compiled, value
    for value, graph in (("1", True), ("0", False), ("", None), ("true", None)):
        monkeypatch.setenv("DYNHLO_GPU_GRAPH", value)
        assert config.gpu_graph() is graph, value
    monkeypatch.setenv("DYNHLO_TRACEBACK", "1")
    assert config.traceback() is True
    monkeypatch.setenv("DYNHLO_TRACEBACK", "")
    assert config.traceback() is False


def test_the_docstring_lists_every_variable_the_package_reads():
    import re
    package = Path(dynhlo.__file__).parent
    read = set()
    for path in package.rglob("*.py"):
        text = path.read_text()
        read |= set(re.findall(r"environ(?:\.get)?\(?\[?\s*[\"'](DYNHLO_[A-Z_]+)", text))
    listed = set(re.findall(r"^    (DYNHLO_[A-Z_]+)", config.__doc__, re.M))
    assert read and read <= listed, read - listed
