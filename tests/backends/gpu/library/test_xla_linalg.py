"""XLA's own linear-algebra custom calls (`Qr`, `ProductOfElementaryHouseholderReflectors`,
`Eigh`: TensorFlow's tf.linalg.qr, solve, inv and eigh) on the GPU backend: it has no library
call of its own for them (backends/gpu/rules.py CUSTOM_CALLS), so its host tier runs the
CPU's lowerings on host copies: results equal the CPU backend's bit for bit, with the host
fallback counted.

    python -m pytest -q tests/backends/gpu/library/test_xla_linalg.py
"""

from __future__ import annotations

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch/triton; the interpreter without a GPU
from tests.backends.gpu.library.test_lapack import _on_device
from tests.backends.gpu.library.test_lapack_eig import _equal
from tests.ops.test_xla_linalg import _random

QR_Q = """HloModule qr
ENTRY main {{
  a = {t}[<=3,<=5,<=4] parameter(0)
  qr = ({t}[<=3,<=5,<=4], {t}[<=3,<=4]) custom-call(a), custom_call_target="Qr"
  h = {t}[<=3,<=5,<=4] get-tuple-element(qr), index=0
  taus = {t}[<=3,<=4] get-tuple-element(qr), index=1
  q = {t}[<=3,<=5,<=4] custom-call(h, taus), custom_call_target="ProductOfElementaryHouseholderReflectors"
  ROOT r = ({t}[<=3,<=5,<=4], {t}[<=3,<=4], {t}[<=3,<=5,<=4]) tuple(h, taus, q)
}}"""

EIGH = """HloModule eigh
ENTRY main {{
  a = {t}[<=3,<=4,<=4] parameter(0)
  ROOT eigh = ({t}[<=3,<=4,<=4], {r}[<=3,<=4]) custom-call(a), custom_call_target="Eigh", backend_config="1,1,100,0.000001"
}}"""


@pytest.mark.parametrize("t", ["f32", "c128"])
def test_qr_and_householder_product_on_the_host_tier(t):
    """Qr feeding the Householder product, tall, square and wide, at a dynamic batch and
    matrix size: the CPU's results, from the host tier."""
    text = QR_Q.format(t=t)
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    a = _random(np.random.default_rng(8), (3, 5, 4), t)
    for b, m, n in [(0, 5, 4), (3, 0, 0), (1, 1, 1), (2, 4, 4), (3, 5, 4), (3, 5, 2)]:
        args = [a[:b, :m, :n]]
        _equal(_on_device(gpu, *args, host=True), cpu(*args), f"qr {t} at {b}x{m}x{n}")


@pytest.mark.parametrize("t,r", [("f32", "f32"), ("c64", "f32")])
def test_eigh_on_the_host_tier(t, r):
    text = EIGH.format(t=t, r=r)
    gpu, cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text)
    a = _random(np.random.default_rng(9), (3, 4, 4), t)
    for b, n in [(0, 4), (3, 0), (1, 1), (2, 3), (3, 4)]:
        args = [a[:b, :n, :n]]
        _equal(_on_device(gpu, *args, host=True), cpu(*args), f"eigh {t} at {b}x{n}")
