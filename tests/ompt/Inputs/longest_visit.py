"""Prints the longest visit (ms) of a construct by any thread in a profile: its max_ns.

Usage: longest_visit.py <experiment-dir> <construct> <limit-ms>
Prints "<construct>: within <limit> ms" or "<construct>: <t> ms exceeds <limit> ms" for FileCheck.
"""
import json
import sys

directory, construct, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
with open(directory + "/profile.json") as f:
    profile = json.load(f)
longest = 0.0
for node in profile["nodes"]:
    if node["construct"] != construct:
        continue
    for thread in node["per_thread"]:
        if thread["visits"]:
            longest = max(longest, thread["max_ns"] / 1e6)
if longest <= limit:
    print(f"{construct}: within {limit:g} ms")
else:
    print(f"{construct}: {longest:.1f} ms exceeds {limit:g} ms")
