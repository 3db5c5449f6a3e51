#!/usr/bin/env python3
"""A second identical build through ccache: ompcc against the plain compiler, in one run.

The sample project of tests/ompcc (static library, shared library, C++ program) is built with
`make -j2` from a clean tree, each way with its own private, warmed cache (CCACHE_DIR in a
temporary directory), in alternating rounds whose order rotates (bench/rotation.py):

  plain      CC="ccache clang-19"                          the plain compiler through ccache
  inner      CC=ompcc OMPCC_CC="ccache clang-19"           ccache as ompcc's real compiler
  outer      CC="ccache ompcc"                             ccache around ompcc
  own        CC=ompcc                                      ompcc's own cache only (no ccache)
  uncached   CC=ompcc OMPCC_CACHE=0                        no cache at all, for reference

Every ompcc way but `uncached` has ompcc's own cache (OMPCC_CACHE_DIR, docs/OMPCC.md) in a private
directory, warmed like ccache's; an ompcc without that cache (--bin of an older build) ignores it.

Prints each way's median build time, its ratio to `plain`, and the hit rate of the measured
builds (`ccache --print-stats`: hits / (hits + misses) over the cacheable calls).

Then one command by itself, which the build's spread on a small project hides: a cached compile
of the project's `vecsum.c` (`-O2 -fopenmp -MMD -MP -c`, ccache and ompcc's cache warm),
--command-rounds times in alternating rounds (rotating too), medians in ms:

  plain ccache     `ccache clang-19 ...` (and `ccache gcc ...`)
  ompcc            `ompcc ...` with that as its real compiler
  ompcc (base)     the same with --base-bin's ompcc, when given
  ompcc's own      ompcc with `true` as its real compiler, against `true` itself: what ompcc
                   adds, its process start included

    bench/ompcc_ccache.py [--bin build/bin] [--rounds 5] [--command-rounds 100]
        [--base-bin OLD_BIN]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from ompinst_servers import private_servers
from rotation import rotated

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.join(HERE, "..", "tests", "ompcc", "Inputs", "project")


def run(cmd, cwd, env):
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if proc.returncode != 0:
        sys.exit("bench: command failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd),
                                                         proc.stderr))
    return proc.stdout


def stats(env):
    counters = {}
    for line in run(["ccache", "--print-stats"], None, env).splitlines():
        name, _, value = line.partition("\t")
        if value.isdigit():
            counters[name] = int(value)
    hits = counters.get("direct_cache_hit", 0) + counters.get("preprocessed_cache_hit", 0)
    return hits, counters.get("cache_miss", 0)


def timed(cmd, cwd, env):
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def per_command(args, scratch):
    """One cached compile at a time (the module's docstring)."""
    tree = os.path.join(scratch, "command")
    shutil.copytree(PROJECT, tree)
    compile_args = ["-O2", "-fopenmp", "-MMD", "-MP", "-c", "vecsum.c", "-o", "vecsum.o"]
    drivers = [("ompcc", os.path.abspath(os.path.join(args.bin, "ompcc")))]
    if args.base_bin:
        drivers.append(("ompcc (base)", os.path.abspath(os.path.join(args.base_bin, "ompcc"))))
    print("one cached compile of vecsum.c, %d alternating rounds, medians (ms)"
          % args.command_rounds)
    for compiler in ("ccache clang-19", "ccache gcc", "true"):
        env = dict(os.environ, CCACHE_DIR=os.path.join(scratch, "command.cache"),
                   OMPCC_CACHE_DIR=os.path.join(scratch, "command.ompcc-cache"),
                   OMPINST_PREAMBLE_DIR=os.path.join(scratch, "command.preamble-cache"),
                   OMPCC_CC=compiler)
        env.pop("CCACHE_BASEDIR", None)
        plain = compiler.split() + compile_args if compiler != "true" else ["true"]
        ways = [("plain", plain)] + [(name, [path] + compile_args) for name, path in drivers]
        times = {name: [] for name, _ in ways}
        for _ in range(2):  # fills both caches
            for _, cmd in ways:
                timed(cmd, tree, env)
        for round_index in range(args.command_rounds):
            for name, cmd in rotated(ways, round_index):
                times[name].append(timed(cmd, tree, env))
        medians = {name: statistics.median(values) * 1e3 for name, values in times.items()}
        label = "ompcc's own (true)" if compiler == "true" else compiler
        print("  %-20s " % label + "   ".join(
            "%s %.2f" % (name, medians[name]) + ("" if name == "plain" else " (+%.2f)" % (
                medians[name] - medians["plain"])) for name, _ in ways))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--command-rounds", type=int, default=100,
                        help="rounds of the single cached compile (0: none)")
    parser.add_argument("--base-bin", help="another toolkit's bin directory, for the single "
                        "compile")
    args = parser.parse_args()
    if not shutil.which("ccache"):
        sys.exit("bench: ccache is not installed")
    ompcc = os.path.abspath(os.path.join(args.bin, "ompcc"))
    ompcxx = os.path.abspath(os.path.join(args.bin, "ompc++"))
    ways = {
        "plain": ({}, ["CC=ccache clang-19", "CXX=ccache clang++-19"]),
        "inner": ({"OMPCC_CC": "ccache clang-19", "OMPCC_CXX": "ccache clang++-19"},
                  ["CC=" + ompcc, "CXX=" + ompcxx]),
        "outer": ({"OMPCC_CC": "clang-19", "OMPCC_CXX": "clang++-19"},
                  ["CC=ccache " + ompcc, "CXX=ccache " + ompcxx]),
        "own": ({"OMPCC_CC": "clang-19", "OMPCC_CXX": "clang++-19"},
                ["CC=" + ompcc, "CXX=" + ompcxx]),
        "uncached": ({"OMPCC_CC": "clang-19", "OMPCC_CXX": "clang++-19", "OMPCC_CACHE": "0"},
                     ["CC=" + ompcc, "CXX=" + ompcxx]),
    }
    uses_ccache = {"plain", "inner", "outer"}
    with tempfile.TemporaryDirectory(prefix="ompcc-ccache-bench-") as scratch, \
            private_servers(scratch):
        trees, envs, times, rates = {}, {}, {}, {}
        for name, (extra, make_vars) in ways.items():
            tree = os.path.join(scratch, name)
            shutil.copytree(PROJECT, tree)
            env = dict(os.environ, CCACHE_DIR=os.path.join(scratch, name + ".cache"),
                       OMPCC_CACHE_DIR=os.path.join(scratch, name + ".ompcc-cache"),
                       OMPINST_PREAMBLE_DIR=os.path.join(scratch, name + ".preamble-cache"),
                       **extra)
            env.pop("CCACHE_BASEDIR", None)
            trees[name], envs[name], times[name] = tree, env, []
            rates[name] = [0, 0]

        def build(name, measured):
            tree, env = trees[name], envs[name]
            make_vars = ways[name][1]
            run(["make", "-s", "clean"], tree, env)
            if measured and name in uses_ccache:
                run(["ccache", "-z"], None, env)
            start = time.perf_counter()
            run(["make", "-s", "-j2"] + make_vars, tree, env)
            elapsed = time.perf_counter() - start
            if measured:
                times[name].append(elapsed)
                if name in uses_ccache:
                    hits, misses = stats(env)
                    rates[name][0] += hits
                    rates[name][1] += misses

        print("load average before: %s" % open("/proc/loadavg").read().strip())
        for name in ways:
            build(name, measured=False)  # fills the caches
        for round_index in range(args.rounds):
            for name in rotated(ways, round_index):
                build(name, measured=True)
        plain = statistics.median(times["plain"])
        for name in ways:
            median = statistics.median(times[name])
            hits, misses = rates[name]
            rate = "-" if name not in uses_ccache else "%d/%d hits (%.0f%%)" % (
                hits, hits + misses, 100.0 * hits / max(hits + misses, 1))
            print("%-9s median %6.3f s   ratio to plain ccache %5.2f   %s"
                  % (name, median, median / plain, rate))
        if args.command_rounds > 0:
            per_command(args, scratch)
        print("load average after: %s" % open("/proc/loadavg").read().strip())


if __name__ == "__main__":
    main()
