#!/usr/bin/env python3
"""Prints what a libpomp profile.json recorded of hardware counters (POMP_METRICS), for FileCheck.

    metrics_check.py <experiment dir> <metric> <minimum>

First the profile's "metrics" record (requested, recorded, unavailable with reasons), then one line
per node below the root: its call path of region names, and whether the metric's inclusive and
exclusive values reach <minimum> in total and on each thread. Checks on the way (exit status 1 and
a message): per-thread values add up to the node's, exclusive never exceeds inclusive, a parent's
inclusive value holds its children's.
"""
import json
import os
import sys


def fail(message):
    print("metrics_check.py: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 4:
        fail("usage: metrics_check.py <experiment dir> <metric> <minimum>")
    with open(os.path.join(sys.argv[1], "profile.json"), encoding="utf-8") as f:
        profile = json.load(f)
    metric, minimum = sys.argv[2], int(sys.argv[3])
    record = profile["metrics"]
    print("requested: " + " ".join(record["requested"]))
    print("recorded: " + " ".join(record["recorded"]))
    for u in record["unavailable"]:
        print("unavailable: %s (%s)" % (u["name"], u["reason"]))
    regions = {r["id"]: r for r in profile["regions"]}
    nodes = profile["nodes"]
    paths = {0: ""}
    for node in nodes[1:]:
        name = regions[node["region"]]["name"] or node["construct"]
        paths[node["id"]] = paths[node["parent"]] + "/" + name
        if metric not in record["recorded"]:
            if "metrics" in node:
                fail("node %d has metrics that were not recorded" % node["id"])
            print(paths[node["id"]])
            continue
        total = node["metrics"][metric]
        for key in ("inclusive", "exclusive"):
            if sum(t["metrics"][metric][key] for t in node["per_thread"]) != total[key]:
                fail("node %d: per-thread %s values do not add up" % (node["id"], key))
        for values in [total] + [t["metrics"][metric] for t in node["per_thread"]]:
            if values["exclusive"] > values["inclusive"]:
                fail("node %d: exclusive exceeds inclusive" % node["id"])
        children = [c for c in nodes if c["parent"] == node["id"]]
        if sum(c["metrics"][metric]["inclusive"] for c in children) > total["inclusive"]:
            fail("node %d: children's inclusive values exceed the node's" % node["id"])
        each = all(t["metrics"][metric]["inclusive"] >= minimum for t in node["per_thread"])
        print("%s threads=%d inclusive>=%d:%s exclusive>=%d:%s each-thread:%s" % (
            paths[node["id"]], node["threads"], minimum,
            "yes" if total["inclusive"] >= minimum else "no", minimum,
            "yes" if total["exclusive"] >= minimum else "no", "yes" if each else "no"))


if __name__ == "__main__":
    main()
