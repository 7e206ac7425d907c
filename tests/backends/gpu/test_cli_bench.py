"""`dynhlo bench --backend gpu` (in Triton's interpreter without a GPU; device tensors with one)."""

from __future__ import annotations

from dynhlo import cli
from tests.support.common import EXAMPLES
from tests.support.gpucheck import CLI_GPU  # noqa: F401  (skips without torch/triton)


def test_bench_on_the_gpu_backend_prints_a_row_per_size(capsys):
    assert cli.main(["bench", *CLI_GPU, str(EXAMPLES / "seed.hlo"), "--sizes", "0,5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("gpu: compiled or loaded in ")
    assert [int(line.split()[0]) for line in lines[2:]] == [0, 5]
