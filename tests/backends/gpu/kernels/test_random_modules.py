"""Differential test: random modules of elementwise ops, broadcasts, reshapes and row and
column reductions, GPU backend (generated kernels; Triton's interpreter without a GPU)
against the CPU backend, at several sizes. Random DAGs exercise fusion's corner cases:
reductions read at other indices, reductions of different axes meeting in one group,
values used by several groups. Each module is built from a seed that the test id shows.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import F32_REDUCERS, GPU  # skips without torch/triton; interpreter mode

B, C = 12, 5


def shapes(b: int, c: int) -> dict:
    return {"BC": f"f32[<={b},{c}]", "B": f"f32[<={b}]", "C": f"f32[{c}]", "B1": f"f32[<={b},1]"}


SHAPES = shapes(B, C)


def random_module(seed: int, b: int = B, c: int = C) -> str:
    """HLO text of a random computation over x: f32[<=b,c] and w: f32[c]."""
    SHAPES = shapes(b, c)  # noqa: N806 - the table above, for these sizes
    rng = random.Random(seed)
    lines = [f"  x = {SHAPES['BC']} parameter(0)", f"  w = {SHAPES['C']} parameter(1)",
             "  zero = f32[] constant(0)", "  ninf = f32[] constant(-inf)"]
    values = {"BC": ["x"], "B": [], "C": ["w"], "B1": []}
    for k in range(rng.randint(4, 12)):
        name = f"v{k}"
        kinds = [s for s in values if values[s]]
        kind = rng.choice(kinds)
        src = rng.choice(values[kind])
        op = rng.random()
        if kind == "BC" and op < 0.25:
            axis = rng.choice([0, 1])
            out = "B" if axis == 1 else "C"
            init, fn = rng.choice([("zero", "add_f"), ("ninf", "max_f")])
            lines.append(f"  {name} = {SHAPES[out]} reduce({src}, {init}), dimensions={{{axis}}}, "
                         f"to_apply={fn}")
        elif kind in ("B", "C") and op < 0.5:
            out, dims = "BC", "{0}" if kind == "B" else "{1}"
            lines.append(f"  {name} = {SHAPES[out]} broadcast({src}), dimensions={dims}")
        elif kind == "B" and op < 0.65:
            out = "B1"
            lines.append(f"  {name} = {SHAPES[out]} reshape({src})")
        elif kind == "B1" and op < 0.8:
            out = "B"
            lines.append(f"  {name} = {SHAPES[out]} reshape({src})")
        elif op < 0.8:
            out = kind
            unary = rng.choice(["tanh", "negate", "abs", "exponential", "sine"])
            if unary == "exponential":
                lines.append(f"  t{k} = {SHAPES[out]} tanh({src})")
                src = f"t{k}"
            lines.append(f"  {name} = {SHAPES[out]} {unary}({src})")
        else:
            out = kind
            other = rng.choice(values[kind])
            binary = rng.choice(["add", "multiply", "subtract", "maximum"])
            lines.append(f"  {name} = {SHAPES[out]} {binary}({src}, {other})")
        values[out].append(name)
    root = lines[-1].split("=")[0].strip()
    lines[-1] = lines[-1].replace(f"  {root} =", f"  ROOT {root} =", 1)
    return f"HloModule r{seed}\n{F32_REDUCERS}\nENTRY main {{\n" + "\n".join(lines) + "\n}\n"


@pytest.mark.parametrize("seed", range(40))
def test_random_module_gpu_matches_cpu(seed):
    text = random_module(seed)
    on_gpu = dynhlo.compile(text, **GPU)
    on_cpu = dynhlo.compile(text, backend="cpu")
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(C).astype(np.float32)
    for n in (0, 1, 7, B):
        x = rng.standard_normal((n, C)).astype(np.float32)
        got, want = on_gpu(x, w), np.asarray(on_cpu(x, w))
        assert got.shape == want.shape, text
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=text)


# Seeds whose modules have a row reduction over the 2100 columns (found by search).
LONG_SEEDS = [1002, 1013, 1015, 1039, 1042, 1045, 1046, 1052]


@pytest.mark.parametrize("seed", LONG_SEEDS)
def test_random_module_with_rows_longer_than_one_tile(seed):
    """Rows of 2100 elements: row reductions loop over column tiles (codegen loop mode)."""
    text = random_module(seed, 3, 2100)
    on_gpu = dynhlo.compile(text, **GPU)
    assert any("for cstart in range(" in k.source for k in on_gpu.program.kernels)
    on_cpu = dynhlo.compile(text, backend="cpu")
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(2100).astype(np.float32)
    for n in (0, 1, 3):
        x = rng.standard_normal((n, 2100)).astype(np.float32)
        got, want = on_gpu(x, w), np.asarray(on_cpu(x, w))
        assert got.shape == want.shape, text
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=text)
