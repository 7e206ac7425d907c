"""The stored real programs (from_torch's bert, gpt2 and llama, from_jax's llama decoder) as
one graph program, against the CPU backend.

Their sizes are arithmetic over the arguments' dimensions (batch * tokens, batch * heads)
and they concatenate, gather rows at dynamic starts, multiply batched products and set
sizes over values that hold fewer rows: each is one GraphRunner now, in Triton's
interpreter here (bench/real_programs.py times them on the device).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU, torch  # noqa: F401  (skips without torch or triton)
from dynhlo.backends.gpu import graph
from dynhlo.backends.gpu.graph.runner import GraphRunner
from dynhlo.backends.gpu.graph.sizes import SizeExpr
from tests.support import torch_data

JAX = Path(__file__).resolve().parents[3] / "data" / "jax"
PROGRAMS = ["bert", "gpt2", "llama", "llama_decoder"]
SIZES = {"bert": ("1x1", "2x23"), "gpt2": ("1x1", "2x23"), "llama": ("1x1", "2x23"),
         "llama_decoder": ("1", "5")}


def _module(name: str):
    if name == "llama_decoder":
        return (JAX / "llama_decoder.hlo").read_text()
    return dynhlo.parse_stablehlo(torch_data.module_bytes(name))


def _arguments(name: str, size: str) -> list:
    if name == "llama_decoder":
        return [np.load(JAX / "llama_decoder.npz")[f"in{size}_0"]]
    return torch_data.case(name, size)[0]


def _leaves(out) -> list:
    return [np.asarray(x) for x in (out if isinstance(out, (list, tuple)) else [out])]


def _assert_close(got, want) -> None:
    got, want = _leaves(got), _leaves(want)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and g.dtype == w.dtype
        scale = float(np.max(np.abs(w))) if w.size else 1.0
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5 * scale)


@pytest.mark.parametrize("name", PROGRAMS)
def test_real_program_runs_as_one_graph(name):
    module = _module(name)
    cpu = dynhlo.compile(module)
    exe = dynhlo.compile(module, **GPU, graph=True)
    assert isinstance(exe.program.graph, GraphRunner), exe.program.graph_refusal
    default = dynhlo.compile(module, **GPU)
    prog, why = graph.wanted(default.program.schedule, default.program.precision)
    assert prog is not None, why
    runner, why = graph.make(default.program)   # the default rule, as on a GPU
    assert isinstance(runner, GraphRunner), why
    if name != "llama_decoder":   # batch * tokens, computed per call on the host
        assert any(isinstance(g, SizeExpr) for g in prog.size_index)
    for size in SIZES[name]:
        args = _arguments(name, size)
        _assert_close(exe(*args), cpu(*args))


@pytest.mark.parametrize("name", PROGRAMS)
def test_real_program_on_the_plain_path(name):
    """The kernels the graph needed (concatenate, gather at dynamic starts, set-dimension-
    size over fewer rows) on the per-launch path too."""
    module = _module(name)
    plain = dynhlo.compile(module, **GPU, graph=False)
    assert plain.program.graph is None
    args = _arguments(name, SIZES[name][-1])
    _assert_close(plain(*args), dynhlo.compile(module)(*args))
