#!/usr/bin/env python3
"""Writes a large, valid profile.json (docs/PROFILE_FORMAT.md) for pomp-report's memory and time.

A program of many threads whose call-path tree is wide and deep: every node of the tree has
`--fanout` children until `--nodes` nodes are written, over `--regions` regions of the usual
constructs. Every node has every thread's metrics, as a parallel region's nodes have. The numbers
are made up but consistent enough for the report (exclusive <= inclusive, visits summed over
threads). The same arguments give the same file. Lines are written as libpomp writes them: one
node per line.

    bench/large_profile.py --nodes 200000 --threads 8 -o /tmp/big/profile.json
    /usr/bin/time -v build/bin/pomp-report /tmp/big > /dev/null
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

# (region type, event, construct, kind) of the nodes, as libpomp names them.
CONSTRUCTS = [
    ("parallel", "Parallel_begin", "parallel body", "work"),
    ("for", "For_enter", "for", "work"),
    ("implicitbarrier", "Implicit_barrier_enter", "implicit barrier", "wait"),
    ("barrier", "Barrier_enter", "barrier", "wait"),
    ("critical", "Critical_begin", "critical body", "work"),
    ("critical", "Critical_enter", "critical", "wait"),
    ("task", "Task_begin", "task", "work"),
    ("taskwait", "Taskwait_begin", "taskwait", "wait"),
    ("userregion", "User_region_enter", "user region", "work"),
    ("atomic", "Atomic_event", "atomic event", "event"),
]


def metrics(rng, visits):
    inclusive = rng.randrange(1000, 10**9)
    exclusive = rng.randrange(0, inclusive + 1)
    low = inclusive // max(visits, 1)
    return {"visits": visits, "inclusive_ns": inclusive, "exclusive_ns": exclusive,
            "min_ns": low, "max_ns": low + rng.randrange(0, 1000)}


def write_profile(out, nodes, threads, regions, fanout, seed):
    rng = random.Random(seed)
    dump = lambda value: json.dumps(value, separators=(", ", ": "))
    out.write('{\n"schema": "pomp-profile", "version": 1,\n')
    out.write('"program": "large", "pid": 4242, "start_time": "2026-11-25T03:00:00Z", '
              '"duration_ns": 9000000000, "partial": false, "partial_reason": "",\n')
    out.write('"clock": {"source": "tsc", "ticks_per_ns": 2.5, "invariant_tsc": true, '
              '"tsc_read_ns": 14.0, "monotonic_read_ns": 32.5, "reason": "generated"},\n')
    out.write('"levels": {}, "monitoring_on": true,\n"uninstrumented": [],\n')
    out.write('"folding": {"folded_visits": 0, "nested_visits": 0, "nodes": %d},\n' % nodes)
    out.write('"threads": [\n' + ",\n".join(
        dump({"index": t, "events": 2 * nodes, "handed_over": 0}) for t in range(threads)) +
        "\n],\n")
    kinds = []
    out.write('"regions": [\n')
    for r in range(1, regions + 1):
        kind = CONSTRUCTS[(r - 1) % len(CONSTRUCTS)]
        kinds.append(kind)
        line = 10 * r
        out.write(("" if r == 1 else ",\n") + dump({
            "id": r, "type": kind[0], "label": kind[0], "name": "",
            "file": "/src/large/kernel%d.c" % (r % 50), "start_lines": [line, line],
            "end_lines": [line + 5, line + 5], "location": "kernel%d.c:%d" % (r % 50, line),
            "origin": "pomp", "ctc": "generated"}))
    out.write('\n],\n"nodes": [\n')
    out.write(dump({"id": 0, "parent": None, "depth": 0, "region": None, "event": None,
                    "construct": "program", "kind": "root", "visits": 1,
                    "inclusive_ns": 9000000000, "exclusive_ns": 1000, "min_ns": 9000000000,
                    "max_ns": 9000000000, "threads": 1, "imbalance": 0.0,
                    "nested_visits": 0,
                    "per_thread": [{"thread": 0, "visits": 1, "inclusive_ns": 9000000000,
                                    "exclusive_ns": 1000, "min_ns": 9000000000,
                                    "max_ns": 9000000000}]}))
    depth = [0]
    # Children are added to the oldest node with room: a tree of the given fan-out, pre-order
    # ids (every parent is written before its children) because ids are handed out in order.
    parent = 0
    children = 0
    for node in range(1, nodes):
        if children == fanout:
            parent += 1
            children = 0
        children += 1
        depth.append(depth[parent] + 1)
        region = rng.randrange(1, regions + 1)
        _, event, construct, kind = kinds[region - 1]
        per_thread = []
        for thread in range(threads):
            per_thread.append(dict(thread=thread, **metrics(rng, rng.randrange(1, 100))))
        total = metrics(rng, sum(m["visits"] for m in per_thread))
        out.write(",\n" + dump(dict(
            id=node, parent=parent, depth=depth[-1], region=region, event=event,
            construct=construct, kind=kind, **total, threads=threads,
            imbalance=round(rng.random(), 4), nested_visits=0, per_thread=per_thread)))
    out.write('\n],\n"anomalies": {"unmatched_close": 0, "open_at_finalize": 0}\n}\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=200000, help="call-path nodes")
    parser.add_argument("--threads", type=int, default=8, help="threads (per_thread entries)")
    parser.add_argument("--regions", type=int, default=500, help="regions")
    parser.add_argument("--fanout", type=int, default=4, help="children per node")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", help="the profile.json to write")
    parser.add_argument("--report", metavar="POMP_REPORT",
                        help="without -o: write into a temporary directory, run this pomp-report "
                             "on it (with --tree --json as well) and remove the directory (ctest's "
                             "smoke run)")
    args = parser.parse_args()
    if not args.output:
        if not args.report:
            parser.error("-o or --report is needed")
        scratch = tempfile.mkdtemp(prefix="pomp-large-profile-")
        try:
            args.output = os.path.join(scratch, "profile.json")
            write(args)
            for options in ([], ["--tree", "--json"]):
                proc = subprocess.run([args.report] + options + [scratch],
                                      stdout=subprocess.DEVNULL)
                if proc.returncode != 0:
                    sys.exit("large_profile: %s failed (%d)" % (args.report, proc.returncode))
        finally:
            shutil.rmtree(scratch)
        return
    write(args)


def write(args):
    # Written aside and renamed: an interrupted run leaves no half profile.
    partial = args.output + ".partial"
    with open(partial, "w") as out:
        write_profile(out, args.nodes, args.threads, args.regions, args.fanout, args.seed)
    os.replace(partial, args.output)
    print("%s: %.1f MB, %d nodes, %d threads" % (args.output, os.path.getsize(args.output) / 1e6,
                                                 args.nodes, args.threads))


if __name__ == "__main__":
    main()
