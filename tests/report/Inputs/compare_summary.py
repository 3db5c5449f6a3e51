#!/usr/bin/env python3
"""Checks that pomp-report shows the numbers libpomp itself shows, formatted the same way.

    compare_summary.py <stderr of the run> <pomp-report output> <profile.txt>

1. libpomp's summary on stderr: its header's thread and region counts equal pomp-report's header,
   and its region lines ("pomp:   0.048833 s exclusive  user region "compute" @sample.c:37") are
   pomp-report's first rows, in the same order, with the same exclusive time string.
2. profile.txt's table of regions: every row (exclusive, inclusive, visits, threads, imbalance,
   kind, region) is a row of pomp-report's table, in the same order, with the same strings.

Prints one line per check; a difference exits with status 1 and says where.
"""
import re
import sys

SUMMARY_HEADER = re.compile(r"^pomp: profile in .*: (\d+) threads, (\d+) regions, [0-9.]+ s$")
SUMMARY_ROW = re.compile(r"^pomp: +([0-9.]+) s exclusive  (.*)$")
REPORT_HEADER = re.compile(r"^POMP report of .*, (\d+) threads, (\d+) regions$")
# exclusive inclusive visits threads min avg max imbalance wait kind region
REPORT_ROW = re.compile(
    r"^ +([0-9.]+) +([0-9.]+) +(\d+) +(\d+) +[0-9.]+ +[0-9.]+ +[0-9.]+ +([0-9.]+%) +[0-9.]+ "
    r"(work|wait|event) +(.*)$"
)
# exclusive inclusive visits threads imbalance kind construct
PROFILE_ROW = re.compile(r"^ +([0-9.]+) +([0-9.]+) +(\d+) +(\d+) +([0-9.]+%) (work|wait|event) +(.*)$")


def fail(message):
    print("compare_summary.py: " + message, file=sys.stderr)
    sys.exit(1)


def lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def main():
    if len(sys.argv) != 4:
        fail("usage: compare_summary.py <stderr> <pomp-report output> <profile.txt>")
    summary, report, profile = (lines(p) for p in sys.argv[1:])

    header = [m.groups() for m in map(SUMMARY_HEADER.match, summary) if m]
    summary_rows = [m.groups() for m in map(SUMMARY_ROW.match, summary) if m]
    report_header = [m.groups() for m in map(REPORT_HEADER.match, report) if m]
    report_rows = [m.groups() for m in map(REPORT_ROW.match, report) if m]
    if len(header) != 1 or len(report_header) != 1:
        fail("expected one header in each: %s, %s" % (header, report_header))
    if not summary_rows:
        fail("no region lines in the summary")
    if header != report_header:
        fail("threads and regions differ: summary %s, pomp-report %s" % (header, report_header))
    for i, (excl, title) in enumerate(summary_rows):
        if i >= len(report_rows):
            fail("pomp-report has only %d rows" % len(report_rows))
        if (report_rows[i][0], report_rows[i][6]) != (excl, title):
            fail("row %d: summary says %s s %s, pomp-report %s s %s"
                 % (i + 1, excl, title, report_rows[i][0], report_rows[i][6]))
    print("summary and pomp-report agree: %s threads, %s regions, top %d rows"
          % (header[0][0], header[0][1], len(summary_rows)))

    # profile.txt's first table ends at its first empty line after the header.
    start = next(i for i, l in enumerate(profile) if l.startswith("Regions by exclusive time"))
    table = []
    for line in profile[start + 3:]:
        if not line.strip():
            break
        m = PROFILE_ROW.match(line)
        if not m:
            fail("cannot read profile.txt line: " + line)
        table.append(m.groups())
    # pomp-report orders the columns differently: exclusive, inclusive, visits, threads, ...
    shown = [(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in report_rows]
    if table != shown:
        for i, (a, b) in enumerate(zip(table, shown)):
            if a != b:
                fail("row %d: profile.txt %s, pomp-report %s" % (i + 1, a, b))
        fail("profile.txt has %d rows, pomp-report %d" % (len(table), len(shown)))
    print("profile.txt and pomp-report agree: %d rows" % len(table))


if __name__ == "__main__":
    main()
