#!/usr/bin/env bash
# The H200 verification run of a session, in one device call (logs under $OUT):
#   here:    python -m dynhlo compile tests/data/large/transformer_48_layers_bounded.hlo \
#                --backend gpu --target sm_90 -o .dev/t.dynhlo
#            PYTHONPATH=. python tools/frontend_gpu_check.py export .dev/frontend
#   device:  bash bench/device_verify.sh      (carry .dev)
# Each step has its own time limit so that one slow step cannot starve the others.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() {  # step NAME SECONDS COMMAND...
    local name=$1 limit=$2; shift 2
    local t0=$SECONDS
    timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
    echo "== $name: exit $? in $((SECONDS - t0)) s; $(tail -n 1 "$OUT/$name.log")"
}
nvidia-smi -L
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
step graph_check 120 python3 bench/graph_check.py .dev/t.dynhlo
# every test file that reaches the GPU backend (the rest are CPU-only, as in CI)
step pytest 270 python3 -m pytest -q -n 12 -p no:cacheprovider \
    $(grep -rl --include="test_*.py" "gpucheck\|CLI_GPU\|\*\*GPU" tests)
step frontend 150 python3 tools/frontend_gpu_check.py check .dev/frontend
step memcheck 60 compute-sanitizer --tool memcheck --error-exitcode 9 \
    python3 bench/gpu_device_checks.py sanitize
grep -E "^(FAILED|ERROR)" "$OUT/pytest.log" | head -40
