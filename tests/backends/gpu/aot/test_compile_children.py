"""The cross-compiler children (compile/cubins.py compile_parallel) never hang their parent.

Each child here is a stand-in process started in place of compile/worker.py's (the real one
needs Triton's compiler): it reads the specs as the real one does and answers with
"cubins" that are the kernel sources' bytes, so each result can be checked against its
spec. The parent reads a child's stdout and stderr together, names the kernel a child was
compiling when it failed or stopped making progress, and ends the child it gave up on.
"""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

import dynhlo
from tests.support.gpucheck import gpu  # noqa: F401  (skips without torch or triton)
from dynhlo.backends.gpu.compile import cubins, worker

INFO = {"name": "kernel", "shared": 0, "num_warps": 4}

# What a stand-in child does after reading its specs, before and between kernels.
CHILD = """import base64, json, sys, time
PROGRESS = {progress!r}
specs = json.loads(sys.stdin.read())
{before}
out = []
for n, spec in enumerate(specs):
    sys.stderr.write(PROGRESS + "\\n")
    sys.stderr.flush()
    {each}
    out.append([base64.b64encode(spec["source"].encode()).decode(), {info!r}])
sys.stdout.write(json.dumps(out))
"""


@pytest.fixture
def children(monkeypatch) -> list:
    """The processes compile_parallel starts (stand-ins: _child says what they do)."""
    started: list = []
    popen = subprocess.Popen

    def recording(*args, **kwargs):
        started.append(popen(*args, **kwargs))
        return started[-1]
    monkeypatch.setattr(subprocess, "Popen", recording)
    return started


def _child(monkeypatch, before: str = "", each: str = "pass") -> None:
    script = CHILD.format(progress=worker.PROGRESS, before=before, each=each,
                          info=INFO)
    monkeypatch.setattr(worker, "command", lambda cc: [sys.executable, "-c", script])


def _compile_in_thread(specs: list, keys: list) -> dict:
    """compile_parallel's results, or its error; a call that does not return within a
    minute failed (it would have hung the caller)."""
    outcome: dict = {}

    def run():
        try:
            outcome["results"] = dict(cubins.compile_parallel(specs, keys, 90))
        except dynhlo.DynHloError as exc:
            outcome["error"] = exc
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "compiling blocked"
    return outcome


def test_a_child_writing_more_than_a_pipe_to_stderr_does_not_block_the_parent(
        children, monkeypatch):
    """A child's warnings fill its stderr pipe (64 KiB) before it writes its cubins: a
    parent that reads stdout to the end first waits for a child that waits for it."""
    _child(monkeypatch, before="sys.stderr.write('warning: ' * 30000); sys.stderr.flush()")
    specs = [{"source": "def kernel(a): pass\n"}, {"source": "def kernel(b): pass\n"}]
    outcome = _compile_in_thread(specs, ["ka", "kb"])
    assert outcome["results"] == {"ka": (specs[0]["source"].encode(), INFO),
                                  "kb": (specs[1]["source"].encode(), INFO)}


def test_a_stuck_child_is_an_error_naming_its_kernel_and_is_ended(children, monkeypatch):
    monkeypatch.setattr(cubins, "MAX_WORKERS", 1)
    # long enough for a child's Python to start on a loaded machine (its first kernel is
    # not reported before then), short for a test
    monkeypatch.setattr(cubins, "KERNEL_TIMEOUT_S", 2.0)
    monkeypatch.setattr(cubins, "_POLL_S", 0.05)
    _child(monkeypatch, each="time.sleep(3600) if n == 1 else None")
    specs = [{"source": "def kernel(a): pass\n"}, {"source": "def kernel(b): pass\n"}]
    outcome = _compile_in_thread(specs, ["ka", "kb"])
    assert "results" not in outcome
    assert str(outcome["error"]).startswith("cross-compiling gpu kernel kb for sm_90 took "
                                            "more than")
    assert [proc.poll() is not None for proc in children] == [True]


def test_a_failing_child_names_the_kernel_it_was_compiling(children, monkeypatch):
    monkeypatch.setattr(cubins, "MAX_WORKERS", 1)
    _child(monkeypatch, each="sys.exit('ptxas fatal: bad option') if n == 1 else None")
    specs = [{"source": "def kernel(a): pass\n"}, {"source": "def kernel(b): pass\n"}]
    outcome = _compile_in_thread(specs, ["ka", "kb"])
    assert str(outcome["error"]).startswith("cross-compiling gpu kernel kb for sm_90 failed: "
                                            "ptxas fatal: bad option\n")
