"""GPU code generation: long elementwise chains, and the generated Triton text itself.

Text tests: HLO in, CHECK lines over the kernel source out (as Inductor's tests read the
generated code): tests/filecheck/*.hlo hold the module and `// CHECK:` lines, which must
appear in the generated kernel source in order. A `// FORM:` line says which text:

    args     (the default) each generated kernel in the ARGS launch form: sizes as
             arguments, a grid from the actual sizes (kernels/codegen.py)
    buffer   each generated kernel in the BUFFER launch form: sizes from the size buffer
             `sz`, a fixed grid striding over the work (codegen.render, graph/kernels.strided)
    graph    the graph runner's launches (graph/plan.build): kernels in the BUFFER form,
             Triton matmuls with their fused epilogues (codegen.epilogue), attention
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import dynhlo
from tests.support.gpucheck import GPU  # skips without torch or triton; picks interpreter mode

FILECHECK = Path(__file__).parent


def _chain(n: int) -> str:
    lines = ["HloModule chain", "", "ENTRY e {", "  x0 = f32[<=16] parameter(0)"]
    ops = ["add(x{p}, x{p})", "multiply(x{p}, x{p})", "tanh(x{p})"]
    for i in range(1, n + 1):
        lines.append(f"  x{i} = f32[<=16] " + ops[i % 3].format(p=i - 1))
    lines += [f"  ROOT r = f32[<=16] negate(x{n})", "}"]
    return "\n".join(lines)


def test_a_chain_of_2000_elementwise_ops_is_one_kernel_matching_the_cpu():
    """Code generation walks same-index operands with a stack: no RecursionError."""
    text = _chain(2000)
    on_gpu, on_cpu = dynhlo.compile(text, **GPU), dynhlo.compile(text, backend="cpu")
    assert len(on_gpu.program.kernels) == 1
    for n in (0, 5, 16):
        x = np.linspace(-1, 1, n, dtype=np.float32)
        np.testing.assert_allclose(on_gpu(x), on_cpu(x), rtol=1e-5, atol=1e-6)


def _check(source: str, checks: list[str], where: str) -> None:
    at = 0
    for check in checks:
        found = source.find(check, at)
        assert found >= 0, f"{where}: CHECK '{check}' not found after offset {at} in\n{source}"
        at = found + len(check)


@pytest.mark.parametrize("path", sorted(FILECHECK.glob("*.hlo")), ids=lambda p: p.stem)
def test_generated_triton_text(path):
    text = path.read_text()
    checks = [line.split("CHECK:", 1)[1].strip() for line in text.splitlines()
              if line.strip().startswith("// CHECK:")]
    assert checks, f"{path.name} has no CHECK lines"
    forms = [line.split("FORM:", 1)[1].strip() for line in text.splitlines()
             if line.strip().startswith("// FORM:")]
    module = "\n".join(line for line in text.splitlines() if not line.strip().startswith("//"))
    program = dynhlo.compile(module, **GPU).program
    _check("\n".join(_sources(program, forms[0] if forms else "args")), checks, path.name)


def _sources(program, form: str) -> list[str]:
    from dynhlo.backends.gpu.graph.kernels import strided
    from dynhlo.backends.gpu.graph.plan import build
    if form == "args":
        return [k.source for k in program.kernels]
    if form == "buffer":
        return [strided(k).source for k in program.kernels]
    assert form == "graph", f"unknown FORM {form!r}"
    return [step.kernel.source for step in build(program.schedule).steps]
