#!/usr/bin/env python3
"""Checks a profile of recursive code: a bounded tree, visits per region, consistent times.

    recursion_check.py <experiment dir> --max-nodes N

Prints, for FileCheck:
  nodes: fewer than N               (call-path nodes below the program root; exits with status 1
                                    when there are N or more)
  <construct> @<file>:<line>: <visits>   one line per (construct, location), visits summed over
                                         the call paths, sorted
  folding: folded visits yes|no, nested visits yes|no   (the profile's "folding" object, which
                                         must equal the sums over the nodes)
  inclusive: consistent             (or a message and status 1)

Consistent inclusive times, per thread: no exclusive time above the inclusive one, and no child's
inclusive time above its parent's where the child runs inside its parent on the same thread. That
leaves out the nodes whose visits come by recursion folding (counted at a node higher up, where
other call paths reach it too) and task bodies, parallel bodies and teams bodies, which hang under
the place that created them and run elsewhere (docs/PROFILE_FORMAT.md, "Recursion").
"""
import json
import os
import re
import sys

# Rounding per merged node and thread: a few nanoseconds at most.
ROUNDING_NS = 16
RUN_ELSEWHERE = {"task", "parallel body", "teams body"}


def fail(message):
    print("recursion_check.py: " + message, file=sys.stderr)
    sys.exit(1)


def location(region):
    """file:line without directories and without the function OMPT's locations add."""
    match = re.match(r"(.*?):(\d+)", region["location"])
    if not match:
        return region["location"] or "?"
    return "%s:%s" % (os.path.basename(match.group(1)), match.group(2))


def main():
    if len(sys.argv) != 4 or sys.argv[2] != "--max-nodes":
        fail("usage: recursion_check.py <experiment dir> --max-nodes N")
    with open(os.path.join(sys.argv[1], "profile.json"), encoding="utf-8") as f:
        profile = json.load(f)
    max_nodes = int(sys.argv[3])
    nodes = profile["nodes"]
    regions = {r["id"]: r for r in profile["regions"]}
    if len(nodes) - 1 >= max_nodes:
        fail("%d nodes, expected fewer than %d" % (len(nodes) - 1, max_nodes))
    print("nodes: fewer than %d" % max_nodes)

    visits = {}
    folded = nested = 0
    for node in nodes[1:]:
        key = "%s @%s" % (node["construct"], location(regions[node["region"]]))
        visits[key] = visits.get(key, 0) + node["visits"]
        folded += node["folded_visits"]
        nested += node["nested_visits"]
        for key_name in ("folded_visits", "nested_visits"):
            if sum(t[key_name] for t in node["per_thread"]) != node[key_name]:
                fail("node %d: per-thread %s do not add up" % (node["id"], key_name))
    for key in sorted(visits):
        print("%s: %d" % (key, visits[key]))
    summary = profile["folding"]
    if summary["folded_visits"] != folded or summary["nested_visits"] != nested:
        fail("the folding summary differs from the sums over the nodes")
    print("folding: folded visits %s, nested visits %s" % ("yes" if folded else "no",
                                                           "yes" if nested else "no"))

    checked = 0
    for node in nodes[1:]:
        for t in node["per_thread"]:
            if t["exclusive_ns"] > t["inclusive_ns"]:
                fail("node %d thread %d: exclusive time above inclusive" % (node["id"], t["thread"]))
        parent = nodes[node["parent"]]
        if node["parent"] == 0 or node["construct"] in RUN_ELSEWHERE or node["folded_visits"]:
            continue
        parent_inclusive = {t["thread"]: t["inclusive_ns"] for t in parent["per_thread"]}
        for t in node["per_thread"]:
            if t["inclusive_ns"] > parent_inclusive.get(t["thread"], 0) + ROUNDING_NS:
                fail("node %d thread %d: inclusive %d ns above its parent %d's %d ns"
                     % (node["id"], t["thread"], t["inclusive_ns"], parent["id"],
                        parent_inclusive.get(t["thread"], 0)))
            checked += 1
    if checked == 0:
        fail("no parent and child to compare")
    print("inclusive: consistent")


if __name__ == "__main__":
    main()
