#!/usr/bin/env python3
"""A/B of libpomp builds on the per-event benchmark: each build's libpomp.so (a directory holding
it) runs pomp_event_bench in alternating rounds, so that the machine's noise hits every build
alike, and the table shows each sequence's median cost in bare rdtsc reads.

Single routines of the fast path move by 0.1-0.3 reads with code layout alone, and this VM's
noise is of the same size: compare builds only like this, with many rounds (docs/PERFORMANCE.md).

    bench/ab_event_cost.py --bench build/bin/pomp_event_bench --rounds 12 DIR_A DIR_B ...

Each DIR holds a libpomp.so (copy build/lib/libpomp.so there after each variant's build); the
benchmark binary finds it through LD_LIBRARY_PATH, which comes before its RUNPATH.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

# The benchmark's summary lines: "  <sequence>  <mode>  <ns> ns = <reads> reads (<n> events)".
SUMMARY_LINE = re.compile(r"^\s+(\S+)\s+(active|off|group_none|reference)\s+[\d.]+ ns =\s+([\d.]+) reads",
                          re.M)


def run_once(bench, lib_dir, filter_regex, repetitions):
    env = dict(os.environ, LD_LIBRARY_PATH=lib_dir)
    proc = subprocess.run(
        [bench, "--benchmark_min_time=0.02", "--benchmark_repetitions=%d" % repetitions,
         "--benchmark_enable_random_interleaving=true", "--benchmark_report_aggregates_only=true",
         "--benchmark_filter=" + filter_regex],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit("ab_event_cost: %s failed with %s (%d):\n%s" % (bench, lib_dir, proc.returncode,
                                                                 proc.stderr))
    found = {(m.group(1), m.group(2)): float(m.group(3)) for m in SUMMARY_LINE.finditer(proc.stdout)}
    if not found:
        sys.exit("ab_event_cost: no summary in the output of %s with %s" % (bench, lib_dir))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", default="build/bin/pomp_event_bench")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--repetitions", type=int, default=5,
                        help="repetitions per benchmark and round; the fastest counts")
    parser.add_argument("--filter", default="active|clock/rdtsc|reference",
                        help="benchmarks to run (the bare clock read must be among them)")
    parser.add_argument("builds", nargs="+", metavar="DIR", help="directory holding a libpomp.so")
    args = parser.parse_args()
    if args.rounds < 1 or args.repetitions < 1:
        sys.exit("ab_event_cost: --rounds and --repetitions must be at least 1")
    for build in args.builds:
        if not os.path.isfile(os.path.join(build, "libpomp.so")):
            sys.exit("ab_event_cost: no libpomp.so in %s" % build)

    reads = {build: {} for build in args.builds}
    for round_index in range(args.rounds):
        order = args.builds if round_index % 2 == 0 else list(reversed(args.builds))
        for build in order:
            for key, value in run_once(args.bench, build, args.filter, args.repetitions).items():
                reads[build].setdefault(key, []).append(value)

    keys = sorted({key for per_build in reads.values() for key in per_build})
    width = max(len("%s %s" % key) for key in keys)
    print("median reads over %d rounds" % args.rounds)
    print("%-*s %s" % (width, "sequence", " ".join("%10s" % ("build %d" % (i + 1))
                                                   for i in range(len(args.builds)))))
    for key in keys:
        cells = []
        for build in args.builds:
            values = reads[build].get(key)
            cells.append("%10.2f" % statistics.median(values) if values else "%10s" % "-")
        print("%-*s %s" % (width, "%s %s" % key, " ".join(cells)))
    for i, build in enumerate(args.builds):
        print("build %d: %s" % (i + 1, build))


if __name__ == "__main__":
    main()
