#!/usr/bin/env bash
# The project's two entry points (see README.md):
#   ./dev.sh demo   install what is missing, build, and run the main job on a sample
#   ./dev.sh test   install what is missing, build (plain and ASan+UBSan), run every test, then
#                   libpomp and the samples with ThreadSanitizer (scripts/tsan.sh)
#   ./dev.sh tsan   build, then only the ThreadSanitizer runs
# Both are idempotent: packages already present are not reinstalled and builds are incremental.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_dir=${POMP_BUILD_DIR:-$root/build}
asan_build_dir=${POMP_ASAN_BUILD_DIR:-$root/build-asan}
tsan_build_dir=${POMP_TSAN_BUILD_DIR:-$root/build-tsan}
jobs=$(nproc 2>/dev/null || echo 2)

# Debian bookworm packages the toolkit builds and tests with.
packages=(
  clang-19 libclang-19-dev llvm-19-dev llvm-19-tools libomp-19-dev libclang-rt-19-dev
  libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev
  libopen-trace-format2-dev otf2-tools
  cmake ninja-build gcc g++ python3 binutils
  make pkgconf  # tests/ompcc: projects built with make, the installed pomp.pc
  libdw-dev  # libpomp's symbolizer: the header only; libdw.so.1 is dlopen()ed at run time
  nlohmann-json3-dev  # report/: pomp-report reads profile.json with it (precise parse errors)
  ccache  # tests/ompcc/ccache.test: a second build through ccache hits
  chromium  # tests/report: renders pomp-report's HTML page headless (--dump-dom); large
  nodejs npm  # tests/report/browser.test: puppeteer-core (from npm, into the build tree) drives chromium
  flang-19 libflang-19-dev gfortran  # Fortran: Flang's parser for ompinst, both real compilers
  libopenmpi-dev openmpi-bin  # libpomp-mpi and the hybrid MPI+OpenMP tests (docs/MPI.md)
  mpich libmpich-dev  # tests/mpi/mpich.test: the second MPI; Open MPI stays the default (alternatives)
  libpapi-dev  # POMP_METRICS: PAPI's header; libpapi.so.7.0 is dlopen()ed at run time (optional)
)

say() { printf '\n== %s\n' "$*"; }

install_missing() {
  local missing=()
  local p
  for p in "${packages[@]}"; do
    # A Node.js that brings its own npm (NodeSource's nodejs, which conflicts with Debian's npm
    # package) already gives the command the browser test needs.
    if [ "$p" = npm ] && command -v npm >/dev/null; then
      continue
    fi
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  say "installing: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "dev.sh: these packages are missing and installing them needs root: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# configure_and_build <dir> [cmake args...]
configure_and_build() {
  local dir=$1
  shift
  # Re-running the configure step is cheap and applies changed options; the build stays incremental.
  cmake -S "$root" -B "$dir" -G Ninja -Wno-dev \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

cmd_demo() {
  install_missing
  say "building (RelWithDebInfo) in $build_dir"
  configure_and_build "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo
  "$root/scripts/demo.sh" "$build_dir"
}

cmd_test() {
  install_missing
  local werror=OFF
  [ "${CI:-}" = true ] && werror=ON
  say "building and testing (RelWithDebInfo, -Werror=$werror) in $build_dir"
  configure_and_build "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOMP_WERROR=$werror
  (cd "$build_dir" && ctest --output-on-failure -j "$jobs")
  say "building and testing with AddressSanitizer + UndefinedBehaviorSanitizer in $asan_build_dir"
  configure_and_build "$asan_build_dir" -DCMAKE_BUILD_TYPE=Debug -DPOMP_SANITIZE=ON -DPOMP_WERROR=$werror
  (cd "$asan_build_dir" && ctest --output-on-failure -j "$jobs" -L sanitized)
  run_tsan
}

# libpomp's hot paths share state between threads through atomics and the runtime's callbacks:
# the ThreadSanitizer runs are part of the tests (some 90 s with libpomp's TSan build from scratch).
run_tsan() {
  say "libpomp and the samples with ThreadSanitizer in $tsan_build_dir"
  POMP_JOBS=$jobs "$root/scripts/tsan.sh" "$build_dir" "$tsan_build_dir"
}

cmd_tsan() {
  install_missing
  say "building (RelWithDebInfo) in $build_dir"
  configure_and_build "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo
  run_tsan
}

case "${1:-}" in
  demo) cmd_demo ;;
  test) cmd_test ;;
  tsan) cmd_tsan ;;
  *)
    echo "usage: ./dev.sh demo|test|tsan" >&2
    exit 2
    ;;
esac
