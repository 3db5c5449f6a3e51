"""Measures samples three ways and compares what both sources can see.

For each sample: POMP only (instrumented with ompcc, POMP_OMPT=off), OMPT only (the same source
built plainly, libpomp loaded through OMP_TOOL_LIBRARIES) and both (instrumented, OMPT on). Prints
one line per sample and count, "agree" or the three numbers, and a line per duplicated region in
the merged profile (a node directly under a node of the same construct from the other source).

Usage: three_ways.py --ompcc ompcc --cc clang-19 --lib <dir with libpomp.so> --work <dir>
                     [--skip sample:count ...] sample.c...
"""
import argparse
import collections
import json
import os
import subprocess
import sys

THREADS = "3"

# What each source can see: count name -> the events whose visits it sums. Every count of the
# merged profile equals the OMPT-only one (the runtime sees every instance), and its part from
# POMP-origin regions equals the POMP-only one. Except for tasks, POMP sees every instance too,
# so all three agree; POMP does not see the tasks a taskloop generates, which the merged profile
# takes from OMPT.
COUNTS = {
    "parallel regions": ["Parallel_enter"],
    "implicit tasks": ["Parallel_begin"],
    "explicit barriers": ["Barrier_enter"],
    "critical entries": ["Critical_enter"],
    "lock acquisitions": ["Set_lock_enter", "Set_nest_lock_enter"],
    "ordered regions": ["Ordered_enter"],
    "single constructs": ["Single_enter"],
    "tasks": ["Task_begin"],
}
POMP_SEES_PART = {"tasks"}


def run(cmd, env=None, cwd=None):
    subprocess.run(cmd, check=True, env=env, cwd=cwd, stdout=subprocess.DEVNULL)


def profile(path):
    with open(os.path.join(path, "profile.json"), encoding="utf-8") as f:
        return json.load(f)


def counts(p, origin=None):
    """The counts of a profile, of the regions from one source only when origin is given."""
    region_origin = {r["id"]: r["origin"] for r in p["regions"]}
    visits = collections.Counter()
    for node in p["nodes"]:
        if node["event"] and (origin is None or region_origin[node["region"]] == origin):
            visits[node["event"]] += node["visits"]
    return {name: sum(visits[e] for e in events) for name, events in COUNTS.items()}


def duplicates(p):
    origin = {r["id"]: r["origin"] for r in p["regions"]}
    nodes = p["nodes"]
    found = []
    for node in nodes:
        parent = node["parent"]
        if parent is None or nodes[parent]["event"] is None:
            continue
        up = nodes[parent]
        if (node["construct"] == up["construct"] and
                origin[node["region"]] != origin[up["region"]]):
            found.append(node["construct"])
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ompcc", required=True)
    parser.add_argument("--cc", required=True)
    parser.add_argument("--lib", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--skip", action="append", default=[])
    parser.add_argument("samples", nargs="+")
    args = parser.parse_args()
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    for source in args.samples:
        name = os.path.splitext(os.path.basename(source))[0]
        base = os.path.join(args.work, name)
        # In the work directory: Fortran compilers write module files where they run.
        run([args.ompcc, "--cc=" + args.cc, "-fopenmp", "-O1", source, "-o", base + ".inst",
             "-lm"], cwd=args.work)
        run([args.cc, "-fopenmp", "-O1", source, "-o", base + ".plain", "-lm"], cwd=args.work)
        env = dict(os.environ, OMP_NUM_THREADS=THREADS, POMP_QUIET="1")
        profiles = {}
        for mode, exe, extra in [("pomp", base + ".inst", {"POMP_OMPT": "off"}),
                                 ("ompt", base + ".plain",
                                  {"OMP_TOOL_LIBRARIES": os.path.join(args.lib, "libpomp.so")}),
                                 ("both", base + ".inst", {})]:
            out = f"{base}.{mode}"
            subprocess.run(["rm", "-rf", out], check=True)
            run([exe], dict(env, POMP_EXPERIMENT_DIR=out, **extra))
            profiles[mode] = profile(out)
        pomp, ompt = counts(profiles["pomp"]), counts(profiles["ompt"])
        both, both_pomp = counts(profiles["both"]), counts(profiles["both"], "pomp")
        for count in COUNTS:
            if f"{name}:{count}" in args.skip:
                continue
            agree = ompt[count] == both[count] and pomp[count] == both_pomp[count]
            if count not in POMP_SEES_PART:
                agree = agree and pomp[count] == ompt[count]
            if agree:
                print(f"{name}: {count}: agree")
            else:
                print(f"{name}: {count}: pomp={pomp[count]} ompt={ompt[count]} "
                      f"both={both[count]} (from pomp {both_pomp[count]})")
        for construct in duplicates(profiles["both"]):
            print(f"{name}: duplicated {construct}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
