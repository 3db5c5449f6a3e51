#!/usr/bin/env python3
"""Checks a job's one OTF2 archive (docs/MPI.md, "Traces") and prints a summary for FileCheck.

    job_trace_check.py <otf2-print> <job dir> <ranks> <threads per rank>

Reads `otf2-print` of <job dir>/trace/traces.otf2 (its events and, with -G, its global
definitions). Checks, failing with status 1 and a message on stderr:
- the archive has <ranks> location groups (processes) and <ranks> x <threads> locations, each
  location in its rank's group, location numbers unique;
- every rank's events balance as trace_check.py checks one process's (timestamps never decrease
  per location, ENTER/LEAVE nest, forks join, teams pair, tasks complete) and hold exactly the
  visits of the rank's own profile (<job dir>/rank-<N>/profile.json);
- every region is defined once (the ranks' definitions were unified), and no rank kept its own
  archive (rank-<N>/trace is gone).
"""
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "runtime", "Inputs"))
import trace_check  # noqa: E402

LOCATION = re.compile(r'^LOCATION\s+(\d+)\s+Name: "([^"]*)".*, Group: "[^"]*" <(\d+)>')
GROUP = re.compile(r'^LOCATION_GROUP\s+(\d+)\s+Name: "([^"]*)"')
REGION = re.compile(r'^REGION\s+(\d+)\s+Name: "([^"]*)" <\d+>.*, Role: (\w+), .*'
                    r'File: "([^"]*)" <\d+>, Begin: (\d+), End: (\d+)')


def fail(message):
    print("job_trace_check.py: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 5:
        fail("usage: job_trace_check.py <otf2-print> <job dir> <ranks> <threads per rank>")
    otf2_print, job, ranks, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    anchor = os.path.join(job, "trace", "traces.otf2")
    out = subprocess.run([otf2_print, "-G", anchor], capture_output=True, text=True)
    if out.returncode != 0 or out.stderr.strip():
        fail("otf2-print -G failed: " + out.stderr.strip())
    rank_of, groups, regions = {}, {}, collections.Counter()
    for line in out.stdout.splitlines():
        m = LOCATION.match(line)
        if m:
            if int(m.group(1)) in rank_of:
                fail("location %s defined twice" % m.group(1))
            rank_of[int(m.group(1))] = int(m.group(3))
        m = GROUP.match(line)
        if m:
            groups[int(m.group(1))] = m.group(2)
        m = REGION.match(line)
        if m:
            regions[m.group(2, 3, 4, 5, 6)] += 1
    if sorted(groups) != list(range(ranks)):
        fail("location groups %s, expected one per rank 0..%d" % (sorted(groups), ranks - 1))
    if len(rank_of) != ranks * threads:
        fail("%d locations, expected %d ranks x %d threads" % (len(rank_of), ranks, threads))
    for rank in range(ranks):
        if sum(1 for r in rank_of.values() if r == rank) != threads:
            fail("rank %d does not have %d locations" % (rank, threads))
    twice = [r for r, n in regions.items() if n > 1]
    if twice:
        fail("regions defined more than once: %s" % twice[:3])
    events = trace_check.read_events(otf2_print, anchor)
    per_rank = collections.defaultdict(list)
    for event in events:
        if event[1] not in rank_of:
            fail("an event of undefined location %d" % event[1])
        per_rank[rank_of[event[1]]].append(event)
    enters = 0
    for rank in range(ranks):
        part = os.path.join(job, "rank-%d" % rank)
        if os.path.exists(os.path.join(part, "trace")):
            fail("rank %d kept its own archive" % rank)
        counts, _ = trace_check.check_locations(per_rank[rank])
        trace_check.check_against_profile(part, counts)
        enters += counts["ENTER"]
    print("job archive: %d ranks, %d locations, %d regions" % (ranks, len(rank_of), len(regions)))
    print("every rank balanced, ENTER = its profile's visits: %d in all" % enters)


if __name__ == "__main__":
    main()
