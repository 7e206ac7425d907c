"""`import dynhlo`, `dynhlo --help` and f32 modules on the CPU do not import ml_dtypes.

Importing ml_dtypes 0.7.0 costs 0.7-0.9 s (its C extension's set-up; measured 2026-12-02 on
the 2-core CI machine): `import dynhlo` took about 1.0 s, now 0.35 s. It is imported on first
use of a type that needs it (bf16, f8, s4, ...). Checked in fresh processes, by module, never
by timing.
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.common import REPO

PROBE = r"""
import json, sys
import numpy as np
import dynhlo
from dynhlo import cli
seen = {"import": "ml_dtypes" in sys.modules}
f32 = dynhlo.compile("HloModule m\nENTRY e {\n  a = f32[<=5,3] parameter(0)\n"
                     "  ROOT b = f32[<=5,3] negate(a)\n}\n")
seen["f32 run"] = [f32(np.ones((2, 3), np.float32)).tolist(), "ml_dtypes" in sys.modules]
bf16 = dynhlo.compile("HloModule m\nENTRY e {\n  a = bf16[<=4] parameter(0)\n"
                      "  c = bf16[] constant(1.5)\n  b = bf16[<=4] broadcast(c), dimensions={}\n"
                      "  ROOT s = bf16[<=4] add(a, b)\n}\n")
import ml_dtypes
out = bf16(np.array([1, 2.5], ml_dtypes.bfloat16))
seen["bf16 run"] = [str(out.dtype), out.astype(np.float32).tolist()]
print(json.dumps(seen))
"""


def test_ml_dtypes_is_imported_only_for_its_types():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env={"PYTHONPATH": str(REPO),
                                                       "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["import"] is False
    assert seen["f32 run"] == [[[-1.0] * 3] * 2, False]
    assert seen["bf16 run"] == ["bfloat16", [2.5, 4.0]]


def test_help_does_not_import_ml_dtypes():
    code = ("import sys\nfrom dynhlo import cli\ntry:\n    cli.main(['--help'])\n"
            "except SystemExit:\n    pass\nprint('ml_dtypes' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env={"PYTHONPATH": str(REPO),
                                                       "PATH": "/usr/bin:/bin"})
    assert "usage: dynhlo" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "False", done.stderr
