#!/usr/bin/env python3
"""Prints the regions of a libpomp profile.json, one per line: "<file base name>:<first line>
<type>", sorted and without repetition; with --ids "<id> <file base name>:<first line> <type>" in
the order of the ids, which is the order in which the handles were bound; with --uninstrumented
"uninstrumented <file base name>" for each file compiled without instrumentation, before the
regions. Exit status 1 when the profile has no regions."""
import argparse
import json
import os
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("profile")
    parser.add_argument("--ids", action="store_true")
    parser.add_argument("--uninstrumented", action="store_true")
    args = parser.parse_args()
    with open(args.profile) as f:
        profile = json.load(f)
    regions = profile.get("regions", [])
    if args.uninstrumented:
        for entry in sorted(os.path.basename(u["file"]) for u in profile.get("uninstrumented", [])):
            print("uninstrumented " + entry)

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
