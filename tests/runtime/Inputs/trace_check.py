#!/usr/bin/env python3
"""Checks the OTF2 trace of a libpomp run against its profile and prints a summary for FileCheck.

    trace_check.py <otf2-print> <experiment dir> [--paths] [--chrome] [--runtime-locks] [--teams]

Reads `otf2-print` of <dir>/trace/traces.otf2 and <dir>/profile.json. Checks, failing with status 1
and a message on stderr:
- per location, timestamps never decrease, every LEAVE closes the innermost ENTERed region, every
  THREAD_JOIN closes a THREAD_FORK, nothing is left open;
- every THREAD_RELEASE_LOCK pairs with an earlier THREAD_ACQUIRE_LOCK of the same lock and
  acquisition order, and acquisition orders of a lock count up from 0;
- the trace holds exactly the profile's visits: one ENTER per visit of every node, one THREAD_FORK
  per visit of a parallel construct (Parallel_enter), one acquisition inside each visit of
  omp_set_lock (Set_lock_enter, Set_lock_event), one release inside each Unset_lock_event when no
  omp_test_lock ran (nest locks and tests are only checked for pairing);
- every THREAD_TASK_SWITCH and THREAD_TASK_COMPLETE names a task created before and not yet
  completed, no task is created twice while it lives, there is one THREAD_TASK_CREATE per visit
  of a task creation (Task_create_enter) and every task completes;
- with --runtime-locks (a trace of OMPT events), each acquisition is released once by its location,
  but not necessarily before the next acquisition's timestamp: the runtime reports a release after
  the lock is free, when another thread may have taken it already;
- every location's THREAD_TEAM_BEGIN and THREAD_TEAM_END records pair and nest, and there is one
  THREAD_TEAM_BEGIN per visit of a parallel body; --teams prints the requested threads of the forks
  and the team begins per thread team;
- with --chrome, <dir>/trace.json parses, its complete (X) events nest per tid and its X and i
  events equal the OTF2 ENTERs.

Prints the number of locations, the count of each record type (BUFFER_FLUSH only as "flushes > 0"
or "flushes: 0"), and with --paths every distinct stack of regions seen on a location with the
number of locations that had it, indented by depth.
"""
import collections
import json
import os
import re
import subprocess
import sys

EVENT = re.compile(r"^([A-Z_]+)\s+(\d+)\s+(\d+)\s*(.*)$")
REGION = re.compile(r'Region: "(.*)" <\d+>')
LOCK = re.compile(r"Lock: (\d+), Acquisition Order: (\d+)")
# Requested threads of the THREAD_FORK records and ThreadTeamBegin records per team, for --teams.
fork_sizes = collections.Counter()
team_sizes = collections.Counter()
TASK = re.compile(r"Creating Thread: (\d+) .*Generation Number: (\d+)")


def fail(message):
    print("trace_check.py: " + message, file=sys.stderr)
    sys.exit(1)


def read_events(otf2_print, anchor):
    out = subprocess.run([otf2_print, anchor], capture_output=True, text=True)
    if out.returncode != 0 or "warning" in out.stderr or "error" in out.stderr:
        fail("otf2-print failed: " + out.stderr.strip())
    events = []
    for line in out.stdout.splitlines():
        m = EVENT.match(line)
        if m and m.group(1) not in ("Event",):
            events.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
    return events


def check_locations(events, runtime_locks=False):
    stacks = collections.defaultdict(list)
    forks = collections.defaultdict(int)
    last_time = {}
    paths = collections.defaultdict(set)
    held = {}
    orders = collections.defaultdict(int)
    lock_records = collections.defaultdict(list)  # lock -> [(order, is release, location)]
    tasks = {}  # (creator, generation) -> "created" or "completed"
    counts = collections.Counter()
    teams = collections.defaultdict(list)  # location -> open thread teams, innermost last
    for kind, loc, time, attrs in events:
        counts[kind] += 1
        if time < last_time.get(loc, 0):
            fail("location %d: time goes back at %s %d" % (loc, kind, time))
        last_time[loc] = time
        if kind == "ENTER":
            region = REGION.search(attrs)
            if not region:
                fail("location %d: ENTER without a region: %s" % (loc, attrs))
            stacks[loc].append(region.group(1))
            paths[tuple(stacks[loc])].add(loc)
        elif kind == "LEAVE":
            region = REGION.search(attrs).group(1)
            if not stacks[loc] or stacks[loc][-1] != region:
                fail("location %d: LEAVE of %s, innermost is %s" % (loc, region, stacks[loc][-1:]))
            stacks[loc].pop()
        elif kind == "THREAD_FORK":
            forks[loc] += 1
            requested = re.search(r"# Requested Threads: (\d+)", attrs)
            fork_sizes[int(requested.group(1)) if requested else -1] += 1
        elif kind == "THREAD_TEAM_BEGIN":
            team = re.search(r'Thread Team: "([^"]*)"', attrs).group(1)
            teams[loc].append(team)
            team_sizes[team] += 1
        elif kind == "THREAD_TEAM_END":
            team = re.search(r'Thread Team: "([^"]*)"', attrs).group(1)
            if not teams[loc] or teams[loc][-1] != team:
                fail("location %d: THREAD_TEAM_END of %s, innermost is %s" %
                     (loc, team, teams[loc][-1:]))
            teams[loc].pop()
        elif kind == "THREAD_JOIN":
            if forks[loc] == 0:
                fail("location %d: THREAD_JOIN without THREAD_FORK" % loc)
            forks[loc] -= 1
        elif kind in ("THREAD_TASK_CREATE", "THREAD_TASK_SWITCH", "THREAD_TASK_COMPLETE"):
            task = tuple(map(int, TASK.search(attrs).groups()))
            if kind == "THREAD_TASK_CREATE":
                if tasks.get(task) == "created":
                    fail("location %d: task %s created twice" % (loc, task))
                tasks[task] = "created"
            elif tasks.get(task) != "created":
                fail("location %d: %s of task %s, which is not alive" % (loc, kind, task))
            elif kind == "THREAD_TASK_COMPLETE":
                tasks[task] = "completed"
        elif kind in ("THREAD_ACQUIRE_LOCK", "THREAD_RELEASE_LOCK"):
            lock, order = map(int, LOCK.search(attrs).groups())
            # Which routine the record belongs to: the region it is in.
            inner = stacks[loc][-1] if stacks[loc] else ""
            if kind == "THREAD_ACQUIRE_LOCK" and inner.startswith("set lock "):
                counts["plain set"] += 1
            elif kind == "THREAD_RELEASE_LOCK" and inner.startswith("unset lock event "):
                counts["plain unset"] += 1
            if runtime_locks:
                key = (lock, order)
                if kind == "THREAD_ACQUIRE_LOCK":
                    if key in held:
                        fail("location %d: lock %d order %d acquired twice" % (loc, lock, order))
                    held[key] = loc
                elif held.pop(key, None) != loc:
                    fail("location %d: release of lock %d order %d was not acquired" %
                         (loc, lock, order))
            else:
                # Checked below in acquisition order: the merged records of two threads are in
                # timestamp order, and the clocks of two CPUs may disagree by more than the time
                # between one thread's release record and the next thread's acquisition.
                lock_records[lock].append((order, kind == "THREAD_RELEASE_LOCK", loc))
    for lock, records in lock_records.items():
        for order, release, loc in sorted(records):
            if not release:
                if lock in held or order != orders[lock]:
                    fail("location %d: lock %d acquired out of order (%d)" % (loc, lock, order))
                held[lock] = (loc, order)
                orders[lock] += 1
            elif held.pop(lock, None) != (loc, order):
                fail("location %d: release of lock %d order %d was not acquired" % (loc, lock, order))
    for loc, stack in stacks.items():
        if stack:
            fail("location %d: regions left open: %s" % (loc, stack))
    if any(forks.values()) or held:
        fail("forks or locks left open")
    for loc, open_teams in teams.items():
        if open_teams:
            fail("location %d: thread teams left open: %s" % (loc, open_teams))
    return counts, paths


def check_against_profile(directory, counts):
    with open(os.path.join(directory, "profile.json"), encoding="utf-8") as f:
        profile = json.load(f)
    nodes = profile["nodes"][1:]

    def visits(*events):
        return sum(n["visits"] for n in nodes if n["event"] in events)

    # Nest locks are recorded at their outermost set and last unset, and tests that set a lock are
    # acquisitions too, neither of which the profile can tell: only omp_set_lock's acquisitions
    # are counted exactly, and omp_unset_lock's releases where no test set a lock.
    # A region the runtime reported and instrumented code took over is in the trace, not counted.
    handed_over = sum(t.get("handed_over", 0) for t in profile["threads"])
    expected = {
        "ENTER": sum(n["visits"] for n in nodes) + handed_over,
        "THREAD_FORK": visits("Parallel_enter"),
        "plain set": visits("Set_lock_enter", "Set_lock_event"),
    }
    if not visits("Test_lock_event"):
        expected["plain unset"] = visits("Unset_lock_event")
    for kind, number in expected.items():
        if counts[kind] != number:
            fail("%d %s records, the profile says %d" % (counts[kind], kind, number))
    if counts["THREAD_JOIN"] != counts["THREAD_FORK"]:
        fail("THREAD_JOIN and THREAD_FORK differ")
    # Every thread's visit of a parallel body is in a thread team.
    if counts["THREAD_TEAM_BEGIN"] != visits("Parallel_begin"):
        fail("%d THREAD_TEAM_BEGIN records, the profile has %d parallel body visits" %
             (counts["THREAD_TEAM_BEGIN"], visits("Parallel_begin")))
    # Task records name every task created while task creation was recorded; all complete.
    if counts["THREAD_TASK_CREATE"] != visits("Task_create_enter"):
        fail("%d THREAD_TASK_CREATE records, the profile says %d" %
             (counts["THREAD_TASK_CREATE"], visits("Task_create_enter")))
    if counts["THREAD_TASK_COMPLETE"] != counts["THREAD_TASK_CREATE"]:
        fail("THREAD_TASK_COMPLETE and THREAD_TASK_CREATE differ")


def check_chrome(directory, enters):
    with open(os.path.join(directory, "trace.json"), encoding="utf-8") as f:
        trace = json.load(f)
    # Complete (X) events, one per visit: per tid they nest or are disjoint, up to the rounding
    # of ts and dur to nanoseconds (three decimals of a microsecond).
    slack = 0.002
    visits = collections.defaultdict(list)
    opened = 0
    for e in trace["traceEvents"]:
        if e["ph"] == "X":
            if e["dur"] < 0:
                fail("trace.json: negative duration of %s" % e["name"])
            visits[e["tid"]].append((e["ts"], -e["dur"], e["name"]))
            opened += 1
        elif e["ph"] == "i":
            opened += 1
        elif e["ph"] != "M":
            fail("trace.json: unexpected phase %r" % e["ph"])
    for tid, events in visits.items():
        stack = []
        for ts, negative_dur, name in sorted(events):
            end = ts - negative_dur
            while stack and stack[-1] <= ts + slack:
                stack.pop()
            if stack and end > stack[-1] + slack:
                fail("trace.json: %s on tid %d overlaps its enclosing visit" % (name, tid))
            stack.append(end)
    if opened != enters:
        fail("trace.json: %d events for %d OTF2 ENTERs" % (opened, enters))
    print("chrome: %d events, balanced" % opened)


def main():
    if len(sys.argv) < 3:
        fail("usage: trace_check.py <otf2-print> <experiment dir> [--paths] [--chrome] "
             "[--runtime-locks] [--teams]")
    otf2_print, directory = sys.argv[1], sys.argv[2]
    events = read_events(otf2_print, os.path.join(directory, "trace", "traces.otf2"))
    counts, paths = check_locations(events, "--runtime-locks" in sys.argv[3:])
    check_against_profile(directory, counts)
    print("locations: %d" % len({loc for _, loc, _, _ in events}))
    for kind in ("ENTER", "LEAVE", "THREAD_FORK", "THREAD_JOIN", "THREAD_ACQUIRE_LOCK",
                 "THREAD_RELEASE_LOCK", "THREAD_TASK_CREATE", "THREAD_TASK_SWITCH",
                 "THREAD_TASK_COMPLETE"):
        print("%s: %d" % (kind, counts[kind]))
    print("flushes > 0" if counts["BUFFER_FLUSH"] else "flushes: 0")
    if "--teams" in sys.argv[3:]:
        for size in sorted(fork_sizes):
            print("THREAD_FORK with %d requested threads: %d" % (size, fork_sizes[size]))
        for team in sorted(team_sizes):
            print("THREAD_TEAM_BEGIN in %s: %d" % (team, team_sizes[team]))
    if "--chrome" in sys.argv[3:]:
        check_chrome(directory, counts["ENTER"])
    if "--paths" in sys.argv[3:]:
        for path in sorted(paths):
            print("%s%s locations=%d" % ("  " * (len(path) - 1), path[-1], len(paths[path])))


if __name__ == "__main__":
    main()
