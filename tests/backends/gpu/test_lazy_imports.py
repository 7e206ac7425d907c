"""The GPU backend does not import ml_dtypes for f32 work either (tests/test_lazy_imports.py
says why: most of a second), and still moves bf16 and float8 arrays to and from the device.
Checked in a fresh process, by module, never by timing."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.common import REPO
from tests.support.gpucheck import INTERPRET  # skips without torch or triton

PROBE = r"""
import json, sys
import numpy as np
import dynhlo
from dynhlo.backends.gpu import tensors
seen = {"import": "ml_dtypes" in sys.modules}
f32 = dynhlo.compile("HloModule m\nENTRY e {\n  a = f32[<=5,3] parameter(0)\n"
                     "  ROOT b = f32[<=5,3] negate(a)\n}\n", backend="gpu",
                     interpret=INTERPRET)
out = f32(np.ones((2, 3), np.float32))
out = out.cpu().numpy() if hasattr(out, "cpu") else out
seen["f32 run"] = [out.tolist(), "ml_dtypes" in sys.modules]
import ml_dtypes
import torch
for name, dtype in (("bf16", ml_dtypes.bfloat16), ("f8e4m3fn", ml_dtypes.float8_e4m3fn),
                    ("f8e5m2", ml_dtypes.float8_e5m2)):
    x = np.array([1.5, -2.0, 0.25], dtype)
    t = tensors.to_device(x, torch.device("cpu"), name)
    back = tensors.to_host(t, name)
    seen[name] = [str(t.dtype), str(back.dtype), back.astype(np.float32).tolist()]
print(json.dumps(seen))
"""


def test_gpu_tensors_import_ml_dtypes_only_for_its_types():
    code = f"INTERPRET = {INTERPRET!r}\n" + PROBE
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(REPO),
                                                       "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["import"] is False
    assert seen["f32 run"] == [[[-1.0] * 3] * 2, False]
    assert seen["bf16"] == ["torch.bfloat16", "bfloat16", [1.5, -2.0, 0.25]]
    assert seen["f8e4m3fn"] == ["torch.float8_e4m3fn", "float8_e4m3fn", [1.5, -2.0, 0.25]]
    assert seen["f8e5m2"] == ["torch.float8_e5m2", "float8_e5m2", [1.5, -2.0, 0.25]]
