#!/usr/bin/env python3
"""ompinst's time against the compiler's -fsyntax-only on the same file, measured in one run.

Runs both commands in alternating rounds whose order rotates (bench/rotation.py; so machine noise
hits both alike) and reports the
median wall time of each and their ratio. The goal (issue 3, ../shared/TARGETS.md) is a ratio
of at most 0.7: ompinst builds no function body outside the main file. A Fortran file (issue 14)
is measured against flang-new-19 -fsyntax-only, with a goal of at most 0.5: ompinst runs Flang's
parser only, no semantics.

Each round's ratio gives a median with its 95 % interval and the verdict on the goal (issue 15:
at most 0.4 for C and C++; issue 14: 0.5 for Fortran; met, missed or open, bench/goals.py).

With --base OTHER_OMPINST (an older build, for a before/after table) that binary is timed in
the same rounds too. The load average is printed before and after.

    bench/ompinst_vs_syntax.py [--ompinst build/bin/ompinst] [--base OLD] [--rounds 15] FILE
        [-- FLAGS...]
    bench/ompinst_vs_syntax.py --generate-fortran 300 big.f90   # writes the large Fortran file

--generate-fortran N writes a module of N subroutines (17 lines each: a `parallel do` with a
reduction and a `parallel` + `single`), the large Fortran file of docs/PERFORMANCE.md, and exits.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from goals import SYNTAX_GOALS, median_interval, verdict
from rotation import rotated


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit("bench: command failed (%d): %s" % (proc.returncode, " ".join(cmd)))
    return elapsed


def generate_fortran(path, count):
    lines = ["module big", "  implicit none", "  integer, parameter :: n = 100", "contains"]
    for k in range(count):
        lines += ["  subroutine s%d(a, s)" % k, "    real(8), intent(inout) :: a(n)",
                  "    real(8), intent(out) :: s", "    integer :: i", "    s = 0",
                  "    !$omp parallel do reduction(+:s)", "    do i = 1, n",
                  "      a(i) = a(i) * %d.0d0 + 1.0d0" % (k + 1), "      s = s + a(i)",
                  "    end do", "    !$omp end parallel do", "    !$omp parallel",
                  "    !$omp single", "    s = s + 1", "    !$omp end single",
                  "    !$omp end parallel", "  end subroutine s%d" % k]
    lines.append("end module big")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ompinst", default=os.path.join(here, "..", "build", "bin", "ompinst"))
    parser.add_argument("--clang", default=None,
                        help="the compiler to compare with (default: clang++-19, flang-new-19 for "
                             "a Fortran file)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--base", default=None, help="another ompinst, timed in the same rounds")
    parser.add_argument("file", nargs="?",
                        default=os.path.join(here, "..", "samples", "cxx_features.cpp"))
    parser.add_argument("flags", nargs=argparse.REMAINDER)
    parser.add_argument("--generate-fortran", type=int, metavar="N",
                        help="write a Fortran module of N subroutines to FILE and exit")
    args = parser.parse_args()
    if args.generate_fortran:
        generate_fortran(args.file, args.generate_fortran)
        return
    flags = [f for f in args.flags if f != "--"]
    fortran = os.path.splitext(args.file)[1].lower() in (".f", ".f90", ".f95", ".f03", ".f08",
                                                          ".for", ".ftn")
    if args.clang is None:
        args.clang = "flang-new-19" if fortran else "clang++-19"
    # The output (and the copies of instrumented headers next to it) goes to a directory that is
    # removed at the end.
    with tempfile.TemporaryDirectory(prefix="pomp-bench-") as work:
        out = os.path.join(work, "out" + os.path.splitext(args.file)[1])
        ompinst = [args.ompinst, args.file, "-o", out, "--quiet", "--"] + flags
        base = [args.base, args.file, "-o", out, "--quiet", "--"] + flags if args.base else None
        print("load before: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
        # flang writes module files even with -fsyntax-only: into the temporary directory.
        syntax = [args.clang, "-fopenmp", "-fsyntax-only"] + (
            ["-module-dir", work] if fortran else ["-w"]) + flags + [args.file]
        # One warm-up of each fills the file cache.
        timed(ompinst)
        timed(syntax)
        if base:
            timed(base)
        ours, theirs, before = [], [], []
        runs = [(ours, ompinst), (theirs, syntax)] + ([(before, base)] if base else [])
        for round_index in range(args.rounds):
            for times, cmd in rotated(runs, round_index):
                times.append(timed(cmd))
    o, t = statistics.median(ours), statistics.median(theirs)
    print("load after: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    print("file: %s (%d rounds, alternating)" % (args.file, args.rounds))
    if base:
        b = statistics.median(before)
        print("ompinst (base)             median %.3f s   ratio to syntax %.2f" % (b, b / t))
    print("ompinst                    median %.3f s" % o)
    print("%-26s median %.3f s" % (os.path.basename(args.clang) + " -fsyntax-only", t))
    print("ratio ompinst / syntax     %.2f" % (o / t))
    # The same from each round's pair, with the goal's verdict (bench/goals.py).
    median, low, high, _ = median_interval([x / y for x, y in zip(ours, theirs) if y > 0])
    limit = SYNTAX_GOALS["fortran" if fortran else "c"]
    interval = "no interval" if low is None else "95 %% interval [%.3f, %.3f]" % (low, high)
    print("paired ratio per round     %.3f, %s: goal (set on %s) <= %.2f %s"
          % (median, interval, "real Fortran code" if fortran else "LULESH", limit,
             verdict(low, high, limit)))


if __name__ == "__main__":
    main()
