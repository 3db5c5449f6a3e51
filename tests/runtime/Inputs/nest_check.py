#!/usr/bin/env python3
"""Summarises the call-path tree of a deeply nested parallel region, level by level.

    nest_check.py <experiment dir>

The tree must be one chain of "parallel" nodes, each with one "parallel body" below it, and the
next level's "parallel" below that body. Level k is its parallel node and everything under it that
is not under level k+1. Each level becomes one line of its nodes in depth-first order as
"construct visits/threads"; equal neighbouring lines are merged into "levels a-b: ...". The last
lines are the recursion folding counters (docs/PROFILE_FORMAT.md, "Recursion": a region nested in
itself is counted at its node on the path, so recursive nesting gives one level) and the anomalies.
A tree that is not such a chain exits with status 1.
"""
import json
import os
import sys


def fail(message):
    print("nest_check.py: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 2:
        fail("usage: nest_check.py <experiment dir>")
    with open(os.path.join(sys.argv[1], "profile.json"), encoding="utf-8") as f:
        profile = json.load(f)
    nodes = profile["nodes"]
    children = {n["id"]: [] for n in nodes}
    for n in nodes[1:]:
        children[n["parent"]].append(n["id"])

    def parallels(parent):
        return [c for c in children[parent] if nodes[c]["construct"] == "parallel"]

    levels = []
    top = parallels(0)
    if len(top) != 1 or len(children[0]) != 1:
        fail("the root must hold exactly one parallel node")
    current = top[0]
    while current is not None:
        bodies = [c for c in children[current] if nodes[c]["construct"] == "parallel body"]
        if len(bodies) != 1:
            fail("parallel node %d has %d bodies" % (current, len(bodies)))
        inner = parallels(bodies[0])
        if len(inner) > 1:
            fail("parallel body %d holds %d parallel nodes" % (bodies[0], len(inner)))
        following = inner[0] if inner else None
        items = []
        pending = [current]
        while pending:
            n = pending.pop()
            if n == following:
                continue
            node = nodes[n]
            items.append("%s %d/%d" % (node["construct"], node["visits"], node["threads"]))
            pending.extend(reversed(children[n]))
        levels.append(", ".join(items))
        current = following
    start = 0
    for i in range(1, len(levels) + 1):
        if i == len(levels) or levels[i] != levels[start]:
            span = "level %d" % (start + 1) if i - 1 == start else "levels %d-%d" % (start + 1, i)
            print("%s: %s" % (span, levels[start]))
            start = i
    folding = profile["folding"]
    print("folding: folded %d, nested %d" % (folding["folded_visits"], folding["nested_visits"]))
    bad = {k: v for k, v in profile["anomalies"].items() if v}
    print("anomalies: " + (", ".join("%s=%d" % kv for kv in sorted(bad.items())) or "none"))


if __name__ == "__main__":
    main()
