#!/usr/bin/env python3
"""Checks where late_join.c's first region charged its threads' waiting at the join.

    late_join_check.py <experiment dir> [--shrunk-line N]

The master works InsideMs (5 ms) in each of the 10 rounds while the workers wait at the join, and
50 ms alone between rounds: each worker's implicit barrier must hold about 50 ms (more when the
master's sleeps overrun under load), far from the 550 ms it would hold if a worker's barrier ended
when its next team began, and from the nothing it would hold if it ended where it began.

With --shrunk-line, also the construct at that line, which ran a team of three threads whose
master worked 30 ms, then one of two whose master worked 200 ms: the thread only in the first team
waited about 30 ms at its join when its team's end was read (libgomp ends that thread at the
smaller team, and the thread reads it as it ends), nothing when the second team's end had
overwritten it (libomp keeps the thread idle: late_join_unknown, closed at the last start), and
230 ms or more if it took the second team's end for its own. Prints late_join_unknown's count too.
"""
import json
import os
import sys

LOW_MS, HIGH_MS, MASTER_MS = 25, 400, 25
# The thread only in the shrunk construct's first team: at its team's end (30 ms) or at its
# last start; never the 230 ms of the second team's end.
SHRUNK_END_MS, SHRUNK_WRONG_MS = 15, 200


def main():
    with open(os.path.join(sys.argv[1], "profile.json"), encoding="utf-8") as f:
        profile = json.load(f)
    regions = {r["id"]: r for r in profile["regions"]}
    nodes = profile["nodes"]
    first = next(n for n in nodes[1:] if n["construct"] == "parallel")
    body = next(n for n in nodes if n["parent"] == first["id"])
    barrier = next(n for n in nodes if n["parent"] == body["id"]
                   and regions[n["region"]]["type"] == "implicitbarrier")
    master = first["per_thread"][0]["thread"]
    waits = {t["thread"]: t["inclusive_ns"] / 1e6 for t in barrier["per_thread"]}
    workers = [ms for thread, ms in waits.items() if thread != master]
    inside = all(LOW_MS <= ms <= HIGH_MS for ms in workers)
    print("workers' waiting in the first region: %d threads, each %s" % (
        len(workers), "between %d and %d ms" % (LOW_MS, HIGH_MS) if inside else
        "at " + ", ".join("%.1f ms" % ms for ms in workers)))
    print("the master's waiting there: " + ("under %d ms" % MASTER_MS
                                            if waits[master] < MASTER_MS else
                                            "%.1f ms" % waits[master]))
    if "--shrunk-line" in sys.argv:
        print_shrunk(profile, regions, nodes, int(sys.argv[sys.argv.index("--shrunk-line") + 1]))


def print_shrunk(profile, regions, nodes, line):
    """Where the construct at line charged the join of the thread that ran only its first team."""
    fork = next(n for n in nodes[1:] if n["construct"] == "parallel"
                and line in regions[n["region"]]["start_lines"])
    body = next(n for n in nodes if n["parent"] == fork["id"])
    barrier = next(n for n in nodes if n["parent"] == body["id"]
                   and regions[n["region"]]["type"] == "implicitbarrier")
    once = [t["inclusive_ns"] / 1e6 for t in barrier["per_thread"] if t["visits"] == 1]
    if len(once) != 1:
        print("the thread only in the first team: %d such threads" % len(once))
    elif SHRUNK_END_MS <= once[0] < SHRUNK_WRONG_MS:
        print("the thread only in the first team: waited until its team's end")
    elif once[0] < SHRUNK_END_MS:
        print("the thread only in the first team: waited until its last start")
    else:
        print("the thread only in the first team: waited %.1f ms" % once[0])
    print("late_join_unknown=%d" % profile["anomalies"]["late_join_unknown"])


if __name__ == "__main__":
    main()
