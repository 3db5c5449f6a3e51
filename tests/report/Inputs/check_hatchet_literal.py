#!/usr/bin/env python3
"""Checks a file in Hatchet's literal format the way hatchet/readers/literal_reader.py reads it,
and loads it with Hatchet itself when `import hatchet` works.

    check_hatchet_literal.py <file>

What the reader requires (LLNL/hatchet, LiteralReader.read and parse_node_literal): a JSON list of
root dictionaries; every node has a non-empty `frame` dictionary with a `name` (else it reads a
`name` key of the node), a `metrics` dictionary and optionally a `children` list of nodes. The
metric names of a root decide which metrics are inclusive (a name with "(inc)"), so every node
should have the same metric names. Prints one line per node, indented by depth:
`<name> | <type> | time=<exclusive> inc=<inclusive> visits=<n>`, then `hatchet: loaded <n> nodes`
or `hatchet: not installed`.
"""
import json
import sys


def fail(message):
    print("check_hatchet_literal.py: " + message, file=sys.stderr)
    sys.exit(1)


def walk(node, depth, names, lines, path):
    if not isinstance(node, dict):
        fail(path + ": a node must be an object")
    frame = node.get("frame")
    if not isinstance(frame, dict) or not frame:
        fail(path + ": frame must be a non-empty object")
    if not frame.get("name") and "name" not in node:
        fail(path + ": frame has no name")
    metrics = node.get("metrics")
    if not isinstance(metrics, dict):
        fail(path + ": metrics must be an object")
    if sorted(metrics) != names:
        fail(path + ": metrics %s differ from the root's %s" % (sorted(metrics), names))
    for key, value in metrics.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            fail(path + ": metric %r is not a number" % key)
    lines.append("%s%s | %s | time=%.9f inc=%.9f visits=%d" % (
        "  " * depth, frame["name"], frame.get("type", ""), metrics["time"],
        metrics["time (inc)"], metrics["visits"]))
    children = node.get("children", [])
    if not isinstance(children, list):
        fail(path + ": children must be a list")
    for index, child in enumerate(children):
        walk(child, depth + 1, names, lines, "%s/children/%d" % (path, index))


def main():
    with open(sys.argv[1]) as f:
        data = json.load(f)
    if not isinstance(data, list) or not data:
        fail("the top level must be a non-empty list of roots")
    lines = []
    for index, root in enumerate(data):
        if not isinstance(root, dict) or not isinstance(root.get("metrics"), dict):
            fail("/%d: a root must be an object with metrics" % index)
        names = sorted(root["metrics"])
        if not any("(inc)" in n for n in names):
            fail("no inclusive metric: Hatchet finds them by '(inc)' in the name")
        walk(root, 0, names, lines, "/%d" % index)
    print("\n".join(lines))
    try:
        import hatchet
    except ImportError:
        print("hatchet: not installed")
        return
    graph_frame = hatchet.GraphFrame.from_literal(data)
    print("hatchet: loaded %d nodes" % len(graph_frame.dataframe))


main()
