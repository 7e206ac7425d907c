"""A GPU artifact stores its large constants as bytes as the CPU's does (format version 4),
and the loaded program computes with them what the compiled one does."""

from __future__ import annotations

import numpy as np

import dynhlo
from dynhlo.hlo.text.parser import parse_hlo
from tests.support.gpucheck import torch  # noqa: F401  (skips without torch or triton)
from tests.runtime.test_artifact_constants import _parts
from tests.backends.gpu.aot.test_aot import _stand_in_cubins

W = np.random.default_rng(7).standard_normal((64, 48)).astype(np.float32)
B = np.linspace(-1, 1, 48 * 8, dtype=np.float32).reshape(8, 48)
TEXT = ("HloModule dense\n\nENTRY main {\n  x = f32[<=8,64] parameter(0)\n"
        "  w = f32[64,48] constant(#0)\n  b = f32[8,48] constant(#1)\n"
        "  y = f32[<=8,48] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
        "  ROOT z = f32[<=8,48] add(y, b)\n}\n")


def test_a_gpu_artifact_stores_its_weights_as_bytes(monkeypatch):
    exe = dynhlo.compile(parse_hlo(TEXT, [W, B]), backend="gpu", target="sm_90")
    blob = exe.serialize()
    header, sections = _parts(blob)
    assert [c["dims"] for c in header["constants"]] == [[64, 48], [8, 48]]
    assert sections["constants"][:W.nbytes] == W.tobytes()
    _stand_in_cubins([exe], monkeypatch)
    loaded = dynhlo.deserialize(blob, backend="gpu")
    assert loaded.module.entry.instructions[1].literal.tobytes() == W.tobytes()
    x = np.random.default_rng(8).standard_normal((5, 64)).astype(np.float32)
    want = x.astype(np.float64) @ W + B[:5]
    np.testing.assert_allclose(loaded(x), want, rtol=1e-4, atol=1e-4)
