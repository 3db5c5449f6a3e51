#!/usr/bin/env python3
"""Build time with ompcc/ompc++ against the plain compiler, measured in one run.

Three measurements, each in alternating rounds (so that machine noise hits both alike), reported
as medians and ratios:

  samples   every program of samples/ compiled and linked in one command, one after the other:
            `ompcc -O2 x.c -o x -lm` against `<cc> -fopenmp -O2 x.c -o x -lm`
  project   the sample project of tests/ompcc (static library, shared library, C++ program)
            built from scratch with `make -j2 CC=ompcc CXX=ompc++` against the plain compilers
  probe     one configure probe (`conftest.c` compiled and linked), which ompcc passes through:
            the driver's own cost

  lulesh    with --lulesh DIR (a checkout of LLNL/LULESH, never part of the project): one large
            C++ file, `ompc++ -O2 -DUSE_MPI=0 -std=c++17 -c lulesh.cc` against the plain compiler
            (issue 15: at most 1.10 x)

each with clang-19 and with gcc as the real compiler. The load average is printed before and
after: the machine is shared, and timings taken under load are noisy.

    bench/ompcc_build_time.py [--bin build/bin] [--rounds 5] [--compilers clang,gcc]
        [--what samples,project,probe,lulesh] [--lulesh DIR]
"""
import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

COMPILERS = {
    "clang": ("clang-19", "clang++-19"),
    "gcc": ("gcc", "g++"),
}


def timed(cmd, cwd, env=None):
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit("bench: command failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd),
                                                         proc.stderr))
    return elapsed


def alternate(rounds, plain, wrapped):
    """Runs plain() and wrapped() in alternating rounds after one warm-up each; medians."""
    plain()
    wrapped()
    ours, theirs = [], []
    for _ in range(rounds):
        theirs.append(plain())
        ours.append(wrapped())
    return statistics.median(theirs), statistics.median(ours)


def report(name, plain_name, plain, wrapped):
    print("%-8s %-22s median %7.3f s   ompcc median %7.3f s   ratio %.2f"
          % (name, plain_name, plain, wrapped, wrapped / plain))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(root, "build", "bin"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--compilers", default="clang,gcc")
    parser.add_argument("--what", default="samples,project,probe,lulesh",
                        help="the measurements to take (lulesh only with --lulesh)")
    parser.add_argument("--lulesh", default=None, help="a directory with LULESH's lulesh.cc")
    args = parser.parse_args()
    what = set(args.what.split(","))
    if args.lulesh is None:
        what.discard("lulesh")
    print("load before: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    ompcc = os.path.join(os.path.abspath(args.bin), "ompcc")
    ompcxx = os.path.join(os.path.abspath(args.bin), "ompc++")
    samples = sorted(glob.glob(os.path.join(root, "samples", "*.c")) +
                     glob.glob(os.path.join(root, "samples", "*.cpp")))
    project = os.path.join(root, "tests", "ompcc", "Inputs", "project")
    work = tempfile.mkdtemp(prefix="pomp-bench-ompcc-")
    try:
        print("%d samples, %d rounds, alternating; ratio = ompcc / plain" % (len(samples),
                                                                            args.rounds))
        for key in args.compilers.split(","):
            cc, cxx = COMPILERS[key]
            env = dict(os.environ, OMPCC_CC=cc, OMPCC_CXX=cxx, POMP_QUIET="1")

            def build_samples(c_driver, cxx_driver, extra):
                def run():
                    total = 0.0
                    for sample in samples:
                        driver = cxx_driver if sample.endswith(".cpp") else c_driver
                        out = os.path.join(work, "sample")
                        total += timed([driver] + extra + ["-O2", sample, "-o", out, "-lm"],
                                       work, env)
                    return total
                return run

            if "samples" in what:
                plain, wrapped = alternate(args.rounds, build_samples(cc, cxx, ["-fopenmp"]),
                                           build_samples(ompcc, ompcxx, []))
                report("samples", cc + " -fopenmp", plain, wrapped)

            def build_project(c_driver, cxx_driver):
                def run():
                    directory = os.path.join(work, "project")
                    shutil.rmtree(directory, ignore_errors=True)
                    shutil.copytree(project, directory)
                    return timed(["make", "-s", "-j2", "CC=" + c_driver, "CXX=" + cxx_driver],
                                 directory, env)
                return run

            if "project" in what:
                plain, wrapped = alternate(args.rounds, build_project(cc, cxx),
                                           build_project(ompcc, ompcxx))
                report("project", "make -j2 (" + cc + ")", plain, wrapped)

            probe = os.path.join(work, "conftest.c")
            with open(probe, "w") as f:
                f.write("int main(void) { return 0; }\n")

            def build_probe(driver):
                return lambda: timed([driver, "-O2", "conftest.c", "-o", "conftest"], work, env)

            if "probe" in what:
                plain, wrapped = alternate(args.rounds * 4, build_probe(cc), build_probe(ompcc))
                report("probe", cc + " (conftest)", plain, wrapped)

            def build_lulesh(driver, extra):
                source = os.path.join(os.path.abspath(args.lulesh), "lulesh.cc")
                flags = ["-O2", "-DUSE_MPI=0", "-std=c++17", "-c", source, "-o", "lulesh.o"]
                return lambda: timed([driver] + extra + flags, work, env)

            if "lulesh" in what:
                plain, wrapped = alternate(args.rounds, build_lulesh(cxx, ["-fopenmp"]),
                                           build_lulesh(ompcxx, []))
                report("lulesh", cxx + " -c lulesh.cc", plain, wrapped)
        print("load after: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
