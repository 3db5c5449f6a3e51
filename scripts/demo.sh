#!/usr/bin/env bash
# The main job on a sample, as far as the toolkit exists: instrument, build with ompcc, run, show
# the profile. Steps whose tools are not built yet are reported and skipped, never faked.
# Usage: scripts/demo.sh <build-dir> [sample]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${1:?usage: scripts/demo.sh <build-dir> [sample]}
sample=${2:-jacobi.c}
src="$root/samples/$sample"
bin="$build_dir/bin"
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT

step() { printf '\n== %s\n' "$*"; }

[ -f "$src" ] || { echo "demo: no sample $src" >&2; exit 2; }

step "reference run: $sample built with gcc -fopenmp and clang-19 -fopenmp"
gcc -fopenmp -O2 "$src" -o "$work/ref.gcc" -lm
clang-19 -fopenmp -O2 "$src" -o "$work/ref.clang" -lm
OMP_NUM_THREADS=2 "$work/ref.gcc" | tee "$work/ref.gcc.out"
OMP_NUM_THREADS=2 "$work/ref.clang" > "$work/ref.clang.out"
if cmp -s "$work/ref.gcc.out" "$work/ref.clang.out"; then
  echo "(clang-19 build prints the same)"
else
  echo "demo: gcc and clang-19 builds of $sample print different results" >&2
  exit 1
fi

step "compile-time context: the CTC string of the paper's Appendix A example, checked by pomp-ctc"
"$bin/pomp-ctc" '51*type=preregion*file=demo.c*slines=7,8*elines=12,12**'

missing=()
for tool in ompinst ompcc pomp-link; do
  [ -x "$bin/$tool" ] || missing+=("$tool")
done
compgen -G "$build_dir/lib/libpomp.*" >/dev/null || missing+=(libpomp)
if [ ${#missing[@]} -gt 0 ]; then
  step "stopping here: not built yet: ${missing[*]}"
  echo "Instrumenting, building with ompcc and showing the profile need them (see Status in README.md)."
  exit 0
fi

step "instrument: ompinst $sample"
"$bin/ompinst" "$src" -o "$work/${sample%.*}.inst.${sample##*.}"
step "build with ompcc and run"
"$bin/ompcc" -O2 "$src" -o "$work/app" -lm
(cd "$work" && OMP_NUM_THREADS=2 POMP_EXPERIMENT_DIR="$work/experiment" ./app)
step "profile"
cat "$work/experiment/profile.txt"
