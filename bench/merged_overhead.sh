#!/bin/sh
# merged_overhead.sh - every figure of docs/PERFORMANCE.md's "Merged measurement" section in one
# command: instructions per construct (callgrind), EPCC syncbench and taskbench overheads (µs,
# alternating rounds) and the per-event cost in bare clock reads, each with the same configurations.
#
#   bench/merged_overhead.sh EPCC_DIR [BASELINE_PREFIX [CALIPER_PREFIX]]
#
# EPCC_DIR: EPCC's openmpbench_C_v40 (fetched, not part of the project); BASELINE_PREFIX: another
# toolkit installed with `cmake --install build --prefix P` (before/after columns in one run);
# CALIPER_PREFIX: a Caliper installation built with -DWITH_OMPT=ON (never built in CI).
# Environment: BIN, LIB (default build/bin, build/lib), ROUNDS (default 11), TEST_TIME (EPCC's
# --test-time in µs, default its own 1000; 20000 keeps its calibration sane on a loaded machine).
set -eu
EPCC=${1:?usage: $0 EPCC_DIR [BASELINE_PREFIX [CALIPER_PREFIX]]}
BASELINE=${2:-}
CALIPER=${3:-}
BIN=${BIN:-build/bin}
LIB=${LIB:-build/lib}
ROUNDS=${ROUNDS:-11}
TEST_TIME=${TEST_TIME:-}
HERE=$(dirname "$0")
set -- --bin "$BIN" --lib "$LIB"
[ -n "$BASELINE" ] && set -- "$@" --baseline "$BASELINE"
[ -n "$CALIPER" ] && set -- "$@" --caliper "$CALIPER"
uptime
echo "## instructions per construct"
python3 "$HERE/instr_count.py" "$@"
[ -n "$TEST_TIME" ] && set -- "$@" --epcc-test-time "$TEST_TIME"
echo "## EPCC syncbench"
python3 "$HERE/ompt_overhead.py" "$@" --epcc "$EPCC" --rounds "$ROUNDS"
echo "## EPCC taskbench"
python3 "$HERE/ompt_overhead.py" "$@" --epcc "$EPCC" --taskbench --rounds "$ROUNDS"
echo "## per event, in bare clock reads"
"$BIN/pomp_event_bench" --benchmark_min_time=0.02 --benchmark_repetitions=20 \
  --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true |
  sed -n '/^Per sequence/,$p'
uptime
