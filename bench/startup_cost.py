#!/usr/bin/env python3
"""What measuring adds to a program's start and end: the whole run of a program with one small
parallel region (bench/startup.c), plain and built with ompcc, in alternating rounds.

libpomp's fixed cost per process (loading, the clock's choice and calibration, the region table,
the OMPT tool's start, the experiment directory and its two files) is what a short run, a test
suite of many small programs or an MPI job of many ranks pays whatever its constructs cost. The
table shows, per configuration, the median and quartiles of the wall time and the medians of the
CPU time and minor page faults the process used (its rusage), and the medians added over the plain
build.

  plain        clang-19 -fopenmp (libomp), no tool
  both         ompcc's build, POMP and OMPT merged (the default with libomp)
  POMP only    ompcc's build, POMP_OMPT=off
  OMPT only    the plain build with libpomp.so as its OMPT tool (OMP_TOOL_LIBRARIES): code nobody
               instrumented, whose regions' return addresses libpomp names at the end (symbolizer)
  baseline     with --baseline LIBDIR: ompcc's build run with LIBDIR/libpomp.so (another build of
               libpomp, e.g. the previous commit's), through LD_LIBRARY_PATH

    bench/startup_cost.py [--bin build/bin] [--cc clang-19] [--rounds 40] [--baseline LIBDIR]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from ompt_overhead import check

HERE = os.path.dirname(os.path.abspath(__file__))


def run_once(exe, env):
    """Wall seconds, CPU seconds and minor page faults of one run of exe."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen([exe], env=env, stdout=null, stderr=null)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit("bench: %s failed (%d)" % (exe, proc.returncode))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_minflt


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--cc", default="clang-19")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--baseline", help="directory of another libpomp.so")
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)

    with tempfile.TemporaryDirectory(prefix="pomp-startup-") as work:
        source = os.path.join(HERE, "startup.c")
        plain = os.path.join(work, "plain")
        inst = os.path.join(work, "instrumented")
        check([args.cc, "-O2", "-fopenmp", source, "-o", plain])
        check([os.path.join(args.bin, "ompcc"), "--cc=" + args.cc, "-O2", "-fopenmp", source,
               "-o", inst], cwd=work)
        libpomp = os.path.normpath(os.path.join(args.bin, "..", "lib", "libpomp.so"))
        configs = [("plain", plain, {}), ("both", inst, {}),
                   ("POMP only", inst, {"POMP_OMPT": "off"}),
                   ("OMPT only", plain, {"OMP_TOOL_LIBRARIES": libpomp})]
        if args.baseline:
            configs.append(("baseline", inst, {"LD_LIBRARY_PATH": args.baseline}))
        samples = {name: [] for name, _, _ in configs}
        for r in range(args.rounds):
            # Rotating the order spreads the machine's drift over every configuration.
            for i in range(len(configs)):
                name, exe, extra = configs[(i + r) % len(configs)]
                env = dict(os.environ,
                           POMP_EXPERIMENT_DIR=os.path.join(work, "exp-%d-%d" % (r, i)), **extra)
                samples[name].append(run_once(exe, env))

    def med(name, k):
        return statistics.median(s[k] for s in samples[name])

    print("load average: %.2f %.2f %.2f" % os.getloadavg())
    print("| configuration | wall ms (median) | quartiles | CPU ms | minor faults | "
          "added wall ms | added CPU ms | added faults |")
    print("|---|---|---|---|---|---|---|---|")
    for name, _, _ in configs:
        walls = sorted(s[0] for s in samples[name])
        q = statistics.quantiles(walls, n=4) if len(walls) > 1 else [walls[0]] * 3
        print("| %s | %.2f | %.2f-%.2f | %.2f | %.0f | %+.2f | %+.2f | %+.0f |" % (
            name, med(name, 0) * 1e3, q[0] * 1e3, q[2] * 1e3, med(name, 1) * 1e3, med(name, 2),
            (med(name, 0) - med("plain", 0)) * 1e3, (med(name, 1) - med("plain", 1)) * 1e3,
            med(name, 2) - med("plain", 2)))


if __name__ == "__main__":
    main()
