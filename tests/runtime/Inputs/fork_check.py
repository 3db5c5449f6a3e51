#!/usr/bin/env python3
"""Checks the experiment directories of tests/runtime/fork.c.

    fork_check.py <parent experiment dir> <file with the program's output>

The program prints "parent <pid>" and "child <pid>". The parent's directory must hold the parent's
profile (its pid), the child's directory <parent dir>-fork-<child pid> the child's (its pid). Prints
each profile's regions as "label visits" lines, parent first, and, when the directory holds
trace.json (Chrome trace events), the pid and the names of the events in it.
"""
import json
import os
import sys


def fail(message):
    print("fork_check.py: " + message, file=sys.stderr)
    sys.exit(1)


def show(title, directory, pid):
    with open(os.path.join(directory, "profile.json"), encoding="utf-8") as f:
        profile = json.load(f)
    if profile["pid"] != pid:
        fail("%s: profile of pid %d, expected %d" % (directory, profile["pid"], pid))
    regions = {r["id"]: r for r in profile["regions"]}
    print("%s: %d threads" % (title, len(profile["threads"])))
    for node in profile["nodes"][1:]:
        if node["visits"]:
            print("  %s %s %d" % (node["construct"], regions[node["region"]]["name"],
                                  node["visits"]))
    bad = {k: v for k, v in profile["anomalies"].items() if v}
    print("  anomalies: %s" % (bad or "none"))
    chrome = os.path.join(directory, "trace.json")
    if os.path.exists(chrome):
        with open(chrome, encoding="utf-8") as f:
            trace = json.load(f)
        pids = {e["pid"] for e in trace["traceEvents"]}
        if pids != {pid}:
            fail("%s: trace of pids %s, expected %d" % (chrome, sorted(pids), pid))
        names = [e["name"].split(" @")[0] + " " + e["ph"] for e in trace["traceEvents"]
                 if e["ph"] != "M"]
        print("  trace: " + ", ".join(names))


def main():
    if len(sys.argv) != 3:
        fail("usage: fork_check.py <parent experiment dir> <program output>")
    parent_dir = sys.argv[1]
    pids = {}
    with open(sys.argv[2], encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if len(words) == 2 and words[0] in ("parent", "child"):
                pids[words[0]] = int(words[1])
    if set(pids) != {"parent", "child"}:
        fail("the program did not print both pids")
    child_dir = "%s-fork-%d" % (parent_dir, pids["child"])
    if not os.path.isdir(child_dir):
        fail("no directory %s; there are: %s" % (child_dir, sorted(os.listdir(
            os.path.dirname(parent_dir) or "."))))
    show("parent", parent_dir, pids["parent"])
    show("child", child_dir, pids["child"])


if __name__ == "__main__":
    main()
