#!/usr/bin/env python3
"""Prints the call-path tree of a libpomp profile.json for FileCheck, after checking the file.

    profile_tree.py <experiment dir or profile.json> [--times] [--folding]

One line per node, indented two spaces per level:

    parallel body @nested.c:12 visits=4 threads=2

--times adds inclusive and exclusive time in ms, --folding the node's folded and nested visits
(recursion, docs/PROFILE_FORMAT.md). The checks: the file parses as JSON, every node's
parent comes before it, every region id exists, per-thread values add up to the totals, no exclusive
time exceeds the inclusive one. A failed check exits with status 1 and a message on stderr.
"""
import json
import os
import sys


def fail(message):
    print("profile_tree.py: " + message, file=sys.stderr)
    sys.exit(1)


def check(profile):
    regions = {r["id"]: r for r in profile["regions"]}
    nodes = profile["nodes"]
    if not nodes or nodes[0]["parent"] is not None:
        fail("node 0 must be the root")
    for index, node in enumerate(nodes):
        if node["id"] != index:
            fail("node %d has id %d" % (index, node["id"]))
        if index and not 0 <= node["parent"] < index:
            fail("node %d comes before its parent %s" % (index, node["parent"]))
        if index and node["region"] not in regions:
            fail("node %d names region %s, which does not exist" % (index, node["region"]))
        per_thread = node["per_thread"]
        for key in ("visits", "inclusive_ns", "exclusive_ns"):
            if sum(t[key] for t in per_thread) != node[key]:
                fail("node %d: per-thread %s do not add up" % (index, key))
        if node["threads"] != len(per_thread):
            fail("node %d: thread count differs from per_thread" % index)
        for t in per_thread:
            if t["exclusive_ns"] > t["inclusive_ns"]:
                fail("node %d: exclusive time exceeds inclusive time" % index)
    return regions


def main():
    if len(sys.argv) < 2:
        fail("usage: profile_tree.py <experiment dir or profile.json> [--times] [--folding]")
    path = sys.argv[1]
    if os.path.isdir(path):
        path = os.path.join(path, "profile.json")
    with open(path, encoding="utf-8") as f:
        profile = json.load(f)
    regions = check(profile)
    times = "--times" in sys.argv[2:]
    folding = "--folding" in sys.argv[2:]
    print("threads: %d" % len(profile["threads"]))
    for node in profile["nodes"][1:]:
        region = regions[node["region"]]
        title = node["construct"]
        if region["name"]:
            title += ' "%s"' % region["name"]
        if region["location"]:
            title += " @" + region["location"]
        line = "%s%s visits=%d threads=%d" % (
            "  " * (node["depth"] - 1), title, node["visits"], node["threads"])
        if times:
            line += " incl=%.1fms excl=%.1fms" % (node["inclusive_ns"] / 1e6,
                                                  node["exclusive_ns"] / 1e6)
        if folding:
            line += " folded=%d nested=%d" % (node["folded_visits"], node["nested_visits"])
        print(line)
    anomalies = {k: v for k, v in profile["anomalies"].items() if v}
    print("anomalies: " + (" ".join("%s=%d" % kv for kv in sorted(anomalies.items()))
                           if anomalies else "none"))


if __name__ == "__main__":
    main()
