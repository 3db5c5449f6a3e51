#!/usr/bin/env python3
"""Checks where late_join.c's first region charged its threads' waiting at the join.

    late_join_check.py <experiment dir>

The master works InsideMs (5 ms) in each of the 10 rounds while the workers wait at the join, and
50 ms alone between rounds: each worker's implicit barrier must hold about 50 ms (more when the
master's sleeps overrun under load), far from the 550 ms it would hold if a worker's barrier ended
when its next team began, and from the nothing it would hold if it ended where it began.
"""
import json
import os
import sys

LOW_MS, HIGH_MS, MASTER_MS = 25, 400, 25


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


if __name__ == "__main__":
    main()
