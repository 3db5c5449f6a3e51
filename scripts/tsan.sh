#!/usr/bin/env bash
# ThreadSanitizer run of libpomp and the samples (issue 13; docs/RELIABILITY.md, "ThreadSanitizer").
#
#   scripts/tsan.sh [build-dir] [tsan-build-dir]
#
# Builds libpomp with -fsanitize=thread in tsan-build-dir (default build-tsan), instruments every
# sample with the ompinst of build-dir (default build, built as ./dev.sh does) and builds it with
# -fsanitize=thread against that libpomp. Each sample then runs in four ways:
#
#   pomp+archer  instrumented, POMP events only (POMP_OMPT=off), with LLVM's archer as the OMPT
#                tool, which declares libomp's synchronisation to TSan (tests/tsan-archer.supp)
#   merged       instrumented, with libpomp as the OMPT tool (archer cannot run beside it: libomp
#                loads one tool); libpomp's TSan build declares the same edges itself
#   ompt         not instrumented, libpomp as the OMPT tool
#   trace        merged, with POMP_TRACE=1 (OTF2 and Chrome)
#
# The last three use tests/tsan.supp. Both files explain each entry. Prints one line per run with the
# number of TSan reports, the total time, and exits 1 when any run had a report or failed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${1:-$root/build}
tsan_dir=${2:-$root/build-tsan}
jobs=${POMP_JOBS:-2}
archer=/usr/lib/llvm-19/lib/libarcher.so
supp=$root/tests/tsan.supp
archer_supp=$root/tests/tsan-archer.supp
start=$(date +%s)

[ -x "$build_dir/bin/ompinst" ] || { echo "tsan.sh: no $build_dir/bin/ompinst: build the toolkit first (./dev.sh test)" >&2; exit 2; }
[ -f "$archer" ] || { echo "tsan.sh: $archer is missing (libomp-19-dev)" >&2; exit 2; }

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
echo "== libpomp with -fsanitize=thread in $tsan_dir"
cmake -S "$root" -B "$tsan_dir" -G Ninja -Wno-dev -DCMAKE_C_COMPILER=clang-19 \
  -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DCMAKE_C_FLAGS=-fsanitize=thread -DCMAKE_CXX_FLAGS=-fsanitize=thread \
  -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread >/dev/null
ninja -C "$tsan_dir" -j "$jobs" lib/libpomp.so >/dev/null
lib=$tsan_dir/lib

work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-tsan.XXXXXX")
trap 'rm -rf "$work"' EXIT

# exitcode: a run with a report fails; libomp's own accesses are not instrumented and are ignored
# (what archer asks for); history_size: longer stacks of the earlier access.
base_options="exitcode=66 ignore_noninstrumented_modules=1 history_size=4"
failed=0
reports_total=0

# run <label> <suppressions file> <command...>: one run, its reports counted.
run() {
  local label=$1 options="$base_options suppressions=$2"
  shift 2
  local log=$work/$label.log status=0
  rm -rf "$work/exp"
  env TSAN_OPTIONS="$options" OMP_NUM_THREADS=4 POMP_QUIET=1 POMP_EXPERIMENT_DIR="$work/exp" \
    "$@" >"$work/$label.out" 2>"$log" || status=$?
  local reports
  reports=$(grep -c '^WARNING: ThreadSanitizer' "$log" || true)
  reports_total=$((reports_total + reports))
  printf '%-34s %3d report(s)%s\n' "$label" "$reports" "$([ "$status" -ne 0 ] && echo ", exit status $status")"
  if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
    failed=1
    sed -n "/^WARNING: ThreadSanitizer/,/^SUMMARY/p" "$log"
  fi
}

samples=(demo.c jacobi.c fibonacci.c counters.c sections.c nested.c loops.c tasks_deps.c
         cxx_features.cpp)
extra=("$root/tests/ompt/untied_tasks.c" "$root/tests/ompt/host_teams.c")
echo "== runs (OMP_NUM_THREADS=4)"
for src in "${samples[@]/#/$root/samples/}" "${extra[@]}"; do
  name=$(basename "$src")
  stem=${name%.*}
  case $name in
    *.cpp) cc=clang++-19; inst=$work/$stem.inst.cpp ;;
    *) cc=clang-19; inst=$work/$stem.inst.c ;;
  esac
  "$build_dir/bin/ompinst" "$src" -o "$inst"
  # -O0: an optimiser may load a shared variable speculatively (a race of the compiler's making).
  flags=(-fopenmp -fsanitize=thread -g -O0 -I"$root/pomp-runtime/include")
  # As ompcc links: pomp-link generates POMP_Init_Handles(), which binds every handle before the
  # first parallel region (without it, the instrumented code's plain reads of a handle race with
  # its lazy binding by another thread: docs/RELIABILITY.md, "ThreadSanitizer").
  "$cc" "${flags[@]}" -c "$inst" -o "$work/$stem.o"
  "$build_dir/bin/pomp-link" -o "$work/$stem.init.c" "$work/$stem.o"
  clang-19 "${flags[@]}" -c "$work/$stem.init.c" -o "$work/$stem.init.o"
  "$cc" "${flags[@]}" "$work/$stem.o" "$work/$stem.init.o" -L"$lib" -lpomp -Wl,-rpath,"$lib" \
    -o "$work/$stem.inst"
  "$cc" "${flags[@]}" "$src" -L"$lib" -lpomp -Wl,-rpath,"$lib" -o "$work/$stem.plain"
  # Under archer too, libomp's reuse of a completed task's memory is declared by libpomp's TSan
  # build (its Task_end releases, its __kmpc_omp_task_alloc acquires: adapters/TsanEdges.h), which
  # LLVM 19's archer does not declare.
  run "$stem pomp+archer" "$archer_supp" env POMP_OMPT=off OMP_TOOL_LIBRARIES="$archer" "$work/$stem.inst"
  run "$stem merged" "$supp" "$work/$stem.inst"
  run "$stem ompt" "$supp" "$work/$stem.plain"
  run "$stem trace" "$supp" env POMP_TRACE=1 POMP_TRACE_FORMAT=both "$work/$stem.inst"
done

# Programs that call the POMP API themselves (tests/runtime): tasks, 100 nested levels. Not
# stress.c and nested_parallel.c: their handles are bound lazily by one thread while others read
# them plainly, the race docs/RELIABILITY.md describes (and stress.c's 64 threads take minutes).
for src in tasks.c deep_nesting.c; do
  stem=api_${src%.c}
  clang-19 -fopenmp -fsanitize=thread -g -O0 -I"$root/pomp-runtime/include" \
    "$root/tests/runtime/$src" -L"$lib" -lpomp -Wl,-rpath,"$lib" -o "$work/$stem"
  run "$stem pomp+archer" "$archer_supp" env POMP_OMPT=off OMP_TOOL_LIBRARIES="$archer" "$work/$stem"
  run "$stem merged" "$supp" "$work/$stem"
  run "$stem trace" "$supp" env POMP_TRACE=1 POMP_TRACE_FORMAT=both "$work/$stem"
done

echo "== $reports_total report(s), $(($(date +%s) - start)) s"
exit $failed
