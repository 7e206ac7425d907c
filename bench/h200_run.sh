#!/usr/bin/env bash
# Issue 29's H200 run in two device calls, each well inside 9 minutes on one H200 (16 cores).
# Every step has its own time limit, cut further to what is left before the part's deadline,
# so one slow step cannot starve the others and partial output still comes back. Logs and
# JSON go under $OUT (at most 8 flat files a part); one summary line per step on stdout.
#
#   here (CPU, ~20 s):  bash bench/h200_run.sh prep [BEFORE_COMMIT]
#       .dev/t.dynhlo: the 48-layer transformer cross-compiled for sm_90 (the artifact of
#       `device_checks.py graph`); with a commit, .dev/before/dynhlo (git archive) for host_overhead's
#       before/after.
#   device call 1:      bash bench/h200_run.sh 1      (carry .dev)
#       GPU tests, memcheck, the graph check with the CPU-built artifact, the real-library
#       programs, host and launch overhead.
#   device call 2:      bash bench/h200_run.sh 2
#       the bf16 transformer against XLA and torch.compile (table, launches by kind,
#       profiler, SASS), then bench/compare.py in full (kernel rows of the five workloads,
#       streams, AOT streams, first calls).
#   device call 3:      bash bench/h200_run.sh 3      (carry .dev: .dev/compare.json, the
#                                                      part-2 results the new rows join)
#       the graph path's tests, the real programs (bert, gpt2, llama, the JAX llama decoder:
#       one CUDA graph each), the real-library programs on the GPU against XLA's GPU
#       compile (gpu_reallibs.py), then the compare rows part 2's limit cut (mlp,
#       softmax_rows: kernels, streams).
set -u -o pipefail
part=${1:?usage: h200_run.sh prep|1|2}
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD

if [ "$part" = prep ]; then   # on the CPU machine, before the device calls
    PY=${PY:-python}
    mkdir -p .dev
    git rev-parse --short HEAD > .dev/commit
    t0=$SECONDS
    DYNHLO_CACHE_DIR=$(mktemp -d) $PY -m dynhlo compile \
        tests/data/large/transformer_48_layers_bounded.hlo --backend gpu --target sm_90 \
        -o .dev/t.dynhlo || exit
    echo "built .dev/t.dynhlo ($(stat -c %s .dev/t.dynhlo) bytes) in $((SECONDS - t0)) s"
    if [ -n "${2:-}" ]; then
        rm -rf .dev/before && mkdir -p .dev/before
        git archive "$2" dynhlo | tar -x -C .dev/before && echo "dynhlo of $2 in .dev/before"
    fi
    exit 0
fi

OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
PY=${PY:-python3}
DEADLINE=${DEADLINE:-480}   # seconds of this script, inside the call's 540
exec > >(tee -a "$OUT/run.log") 2>&1
step() {  # step NAME SECONDS COMMAND... : output appended to $OUT/NAME.log
    local name=$1 limit=$2; shift 2
    local left=$((DEADLINE - SECONDS))
    if [ "$left" -lt 20 ]; then echo "== $name: skipped, ${left} s left"; return; fi
    [ "$limit" -gt "$left" ] && limit=$left
    local t0=$SECONDS
    echo "== $name (limit $limit s): $*" >> "$OUT/$name.log"
    timeout -k 5 "$limit" "$@" >> "$OUT/$name.log" 2>&1
    local rc=$?
    echo "== $name: exit $rc in $((SECONDS - t0)) s; $(grep -v '^\s*$' "$OUT/$name.log" | tail -n 1 | cut -c1-160)"
}

echo "part $part at $(date -u +%FT%TZ); commit $(git rev-parse --short HEAD 2>/dev/null || cat .dev/commit 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader
$PY -c "import torch, triton, jax; print('torch', torch.__version__, 'triton', triton.__version__, 'jax', jax.__version__, jax.devices())" 2>&1 | tail -n 1
nproc

if [ "$part" = 1 ]; then
    # every test file that reaches the GPU backend or checks for CUDA (the rest are CPU-only)
    files=$(grep -rl --include="test_*.py" "gpucheck\|CLI_GPU\|\*\*GPU\|cuda.is_available" tests)
    echo "pytest on $(echo $files | wc -w) files"
    step pytest 220 $PY -m pytest -q -n 14 -p no:cacheprovider --maxfail=25 --timeout=150 $files
    grep -E "^(FAILED|ERROR)" "$OUT/pytest.log" | head -30
    step memcheck 90 compute-sanitizer --tool memcheck --error-exitcode 9 \
        $PY bench/device_checks.py sanitize
    grep -E "ERROR SUMMARY|matched" "$OUT/memcheck.log" | tail -n 2
    art=.dev/t.dynhlo
    if [ ! -f "$art" ]; then   # not carried: built here for sm_90 (say so in the results)
        echo "no carried .dev/t.dynhlo: building it on the device"
        art=/tmp/t.dynhlo
        step graph_check 60 $PY -m dynhlo compile tests/data/large/transformer_48_layers_bounded.hlo \
            --backend gpu --target sm_90 -o "$art"
    fi
    step graph_check 120 $PY bench/device_checks.py graph "$art"
    grep -E "FAIL|ok=False|WRONG" "$OUT/graph_check.log" | head -20
    step real 60 $PY bench/real_programs.py --out "$OUT/real_programs.json"
    step overhead 40 $PY bench/host_overhead.py --models tests/data/models --label after
    [ -d .dev/before/dynhlo ] && step overhead 35 $PY bench/host_overhead.py \
        --models tests/data/models --impl .dev/before --label before
    step overhead 30 $PY bench/launch_overhead.py --rounds 9
elif [ "$part" = 2 ]; then
    step bf16 170 $PY bench/bf16_compare.py --out "$OUT/bf16.json"
    # the five workloads in compare.py's order (transformer first); compare.json is written
    # after each workload, so a cut run keeps the finished ones (`--markdown-only` prints them)
    step compare 420 $PY bench/compare.py --out "$OUT/compare.json"
    [ -f "$OUT/compare.json" ] && $PY bench/compare.py --markdown-only --out "$OUT/compare.json" \
        > "$OUT/compare_table.md" 2>&1
    tail -n 40 "$OUT/compare_table.md" 2>/dev/null
elif [ "$part" = 3 ]; then
    # the graph path's new forms first (computed sizes, concatenate, gather, batched products)
    step pytest 170 $PY -m pytest -q -n 14 -p no:cacheprovider --maxfail=25 --timeout=100 \
        tests/backends/gpu/graph tests/backends/gpu/kernels tests/backends/gpu/aot \
        tests/backends/gpu/test_models.py tests/backends/gpu/test_padding_reads.py \
        tests/backends/gpu/test_real_libraries.py
    grep -E "^(FAILED|ERROR)" "$OUT/pytest.log" | head -30
    step real 70 $PY bench/real_programs.py --out "$OUT/real_programs.json"
    step reallibs 150 $PY bench/gpu_reallibs.py --budget 0.3 --out "$OUT/gpu_reallibs.json"
    [ -f .dev/compare.json ] && cp .dev/compare.json "$OUT/compare.json"
    step compare 300 $PY bench/compare.py --workloads mlp,softmax_rows --merge \
        --out "$OUT/compare.json"
    [ -f "$OUT/compare.json" ] && $PY bench/compare.py --markdown-only --out "$OUT/compare.json" \
        > "$OUT/compare_table.md" 2>&1
    tail -n 40 "$OUT/compare_table.md" 2>/dev/null
else
    echo "unknown part $part"; exit 2
fi
echo "part $part done in $SECONDS s; files: $(ls "$OUT" | tr '\n' ' ')"
