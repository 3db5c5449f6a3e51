#!/usr/bin/env python3
"""Prints the regions of a libpomp profile.json, one per line: "<file base name>:<first line>
<type>", sorted and without repetition; with --ids "<id> <file base name>:<first line> <type>" in
the order of the ids, which is the order in which the handles were bound. Exit status 1 when the
profile has no regions."""
import argparse
import json
import os
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("profile")
    parser.add_argument("--ids", action="store_true")
    args = parser.parse_args()
    with open(args.profile) as f:
        regions = json.load(f).get("regions", [])

    def describe(region):
        return "%s:%s %s" % (os.path.basename(region.get("file", "")),
                             (region.get("start_lines") or ["?"])[0], region.get("type", ""))

    if args.ids:
        lines = ["%d %s" % (r["id"], describe(r)) for r in sorted(regions, key=lambda r: r["id"])]
    else:
        lines = sorted({describe(r) for r in regions})
    for line in lines:
        print(line)
    return 0 if lines else 1


if __name__ == "__main__":
    sys.exit(main())
