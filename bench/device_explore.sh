#!/usr/bin/env bash
# Issue 10's open questions, in one device call (logs under $OUT), written for the next
# session with a GPU (2026-12-01: no device was lent, so none of it has run yet):
#   narrow     why the 37-column softmax runs at 4.7x its floor: the generated row kernel
#              at several rows per program and warps, a reciprocal in place of the divide,
#              a copy with the same access pattern, a flat copy, torch.softmax
#   stream_*   where dynhlo_aot's serving stream loses to eager: the artifact's load, its
#              first call, and per request the copies and the call
#   tiles*     the attention kernel's tiles, key shares and pipeline stages at the
#              transformer's n = 1024, 2048 and at 8192 (IEEE), and TF32 for reference
#   chunks     the attention kernel with its q·kᵀ product in head chunks (HEAD_CHUNK)
#   profile    the transformer's graph launches timed alone, by kind, at n = 128 and 2048
# Two parts, each within one call's 600 s (or `focus`, the decisive steps of both):  bash bench/device_explore.sh rows
#                                           bash bench/device_explore.sh attention
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1; echo "== $name: exit $? in $((SECONDS - t0)) s"; }
part=${1:-rows}
if [ "$part" = rows ]; then
step narrow 90 python3 bench/narrow_rows.py
step stream_sm 60 python3 bench/stream_profile.py --workload softmax_rows
step stream_att 45 python3 bench/stream_profile.py --workload attention
step stream_mlp 45 python3 bench/stream_profile.py --workload mlp
step profile 120 python3 bench/graph_profile.py --sizes 128,2048
elif [ "$part" = focus ]; then  # the decisions of one session in one call (<600 s)
step narrow 90 python3 bench/narrow_rows.py
step chunks 170 python3 bench/attention_tiles.py --sizes 2048,8192 --tiles 32x64x4,64x64x4,64x64x8,128x64x8 --splits 1,4,8 --chunks 0,16,32
step tilesD 45 python3 bench/attention_tiles.py --sizes 2048,8192 --tiles 64x64x4,128x64x8 --splits 1,4 --tf32
step profile 120 python3 bench/graph_profile.py --sizes 128,2048
step stream_sm 60 python3 bench/stream_profile.py --workload softmax_rows
else
step tilesA 150 python3 bench/attention_tiles.py --sizes 1024,2048 --tiles 32x64x4,64x64x4,64x64x8,128x64x8,64x32x4,128x32x4 --splits 1,2,4,8
step tilesB 60 python3 bench/attention_tiles.py --sizes 2048 --tiles 32x64x4,64x64x4 --splits 4,8 --stages 1,2
step tilesC 90 python3 bench/attention_tiles.py --sizes 8192 --tiles 64x64x4,64x128x8,128x64x8,128x32x4,64x32x4 --splits 1,2
step tilesD 45 python3 bench/attention_tiles.py --sizes 2048,8192 --tiles 64x64x4,128x64x8 --splits 1,4 --tf32
step chunks 120 python3 bench/attention_tiles.py --sizes 1024,2048,8192 --tiles 32x64x4,64x64x4,64x64x8,128x64x8 --splits 1,4,8 --chunks 0,16,32
fi
