#!/usr/bin/env python3
"""A second identical build through ccache: ompcc against the plain compiler, in one run.

The sample project of tests/ompcc (static library, shared library, C++ program) is built with
`make -j2` from a clean tree, each way with its own private, warmed cache (CCACHE_DIR in a
temporary directory), in alternating rounds:

  plain      CC="ccache clang-19"                          the plain compiler through ccache
  inner      CC=ompcc OMPCC_CC="ccache clang-19"           ccache as ompcc's real compiler
  outer      CC="ccache ompcc"                             ccache around ompcc
  own        CC=ompcc                                      ompcc's own cache only (no ccache)
  uncached   CC=ompcc OMPCC_CACHE=0                        no cache at all, for reference

Every ompcc way but `uncached` has ompcc's own cache (OMPCC_CACHE_DIR, docs/OMPCC.md) in a private
directory, warmed like ccache's; an ompcc without that cache (--bin of an older build) ignores it.

Prints each way's median build time, its ratio to `plain`, and the hit rate of the measured
builds (`ccache --print-stats`: hits / (hits + misses) over the cacheable calls).

    bench/ompcc_ccache.py [--bin build/bin] [--rounds 5]
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"))
    parser.add_argument("--rounds", type=int, default=5)
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
        for _ in range(args.rounds):
            for name in ways:
                build(name, measured=True)
        plain = statistics.median(times["plain"])
        for name in ways:
            median = statistics.median(times[name])
            hits, misses = rates[name]
            rate = "-" if name not in uses_ccache else "%d/%d hits (%.0f%%)" % (
                hits, hits + misses, 100.0 * hits / max(hits + misses, 1))
            print("%-9s median %6.3f s   ratio to plain ccache %5.2f   %s"
                  % (name, median, median / plain, rate))
        print("load average after: %s" % open("/proc/loadavg").read().strip())


if __name__ == "__main__":
    main()
