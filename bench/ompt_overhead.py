#!/usr/bin/env python3
"""What measuring costs per OpenMP construct: no tool, a no-op OMPT tool, OMPT only, POMP only and
both merged, measured in one run.

The program is bench/parallel_barrier.c (one parallel region, one barrier) or, with --epcc, the
EPCC OpenMP micro-benchmarks' syncbench v4.0 (PARALLEL, FOR, BARRIER, SINGLE, CRITICAL, LOCK, ORDERED,
ATOMIC, REDUCTION, ...: github.com/EPCCed/epcc-openmp-microbenchmarks, openmpbench_C_v40; fetch it
yourself, it is not part of this project), or with --epcc and --taskbench its taskbench (overhead
per task). Each is built twice,
plainly with clang-19 and instrumented with ompcc; the configurations run in alternating
rounds so that machine noise hits all alike, in an order that rotates by one place per round
(bench/rotation.py), and the table shows medians:

  no tool      plain build, no OMPT tool
  noop OMPT    plain build, bench/noop_ompt_tool.c (empty callbacks): the floor of OMPT tools
  noop (libpomp's callbacks)
               the same tool built to register exactly the callbacks libpomp registers (tasks,
               mutexes, ...): libomp's own cost of delivering them, the floor of a tool that
               records what libpomp records
  OMPT only    plain build, libpomp as libomp's OMPT tool (what pomp-run does)
  POMP only    ompcc build, POMP_OMPT=off
  both         ompcc build, POMP and OMPT merged (the default with libomp)
  ... (baseline)  with --baseline PREFIX: the same three of another (installed) toolkit
  Caliper      with --caliper PREFIX: plain build, LLNL Caliper's OMPT service
               (CALI_USE_OMPT=1 CALI_CONFIG=openmp-report: its ompt, event and aggregate
               services; PREFIX/lib*/libcaliper.so as the OMPT tool); fetch and
               build Caliper yourself (-DWITH_OMPT=ON), it is never part of this project or CI
  Score-P      with --scorep PREFIX: the program built by PREFIX/bin/scorep (--scorep-flags,
               by default OPARI2's source instrumentation of OpenMP, as Score-P 4 to 8 spell
               it: --openmp --thread=omp --nocompiler), profiling on, tracing off; fetch and
               build Score-P yourself, it is never part of this project or CI

    bench/ompt_overhead.py [--bin build/bin] [--lib build/lib] [--rounds 11] [--epcc DIR]
                           [--taskbench] [--baseline PREFIX] [--caliper PREFIX]
                           [--scorep PREFIX [--scorep-flags FLAGS]] [--paired]
                           [--samples-out FILE]
    bench/ompt_overhead.py --from-samples FILE [--paired]

With --paired and --baseline, a table of each configuration minus the baseline's in the same round
(median and 95 % interval) follows each speed's paired table: the change alone.
With --paired and --epcc, issue 15's goals follow each speed's paired table: each goal's paired
median, its 95 % interval and whether the rounds say it is met, missed or leave it open
(bench/goals.py). --samples-out keeps every round's figures; --from-samples reports on them again
without measuring.
"""
import argparse
import contextlib
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

from goals import format_goal_rows, goal_rows, median_interval, paired_differences
from rotation import rotated
from ompinst_servers import private_servers

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = ["no tool", "noop OMPT", "noop (libpomp's callbacks)", "OMPT only", "POMP only", "both"]
# EPCC v4.0 prints "<CONSTRUCT> median_ovrhd = <us> microseconds" (TARGETS.md compares medians).
EPCC_LINE = re.compile(r"^(.+?) median_ovrhd\s*=\s*(-?[0-9.]+) microseconds")
# Tasks each thread runs per inner repetition of a taskbench test (n: the thread count), read
# from taskbench.c: an overhead divided by it is the added time per task of one thread.
TASKS_PER_REP = {
    "PARALLEL TASK": lambda n: 1.0,
    "PARALLEL TASK DEPS": lambda n: 1.0,
    "MASTER TASK DEPS": lambda n: 1.0,  # the master creates n tasks per repetition
    "MASTER TASK": lambda n: 1.0,
    "MASTER TASK (2)": lambda n: 1.0,
    "MASTER TASK BUSY SLAVES": lambda n: 1.0 / n,  # thread 0 creates one, the others delay
    "CONDITIONAL TASK": lambda n: 1.0,  # if(0): undeferred
    "TASK WAIT": lambda n: 1.0,
    "TASK BARRIER": lambda n: 1.0,
    "NESTED TASK": lambda n: (1.0 + n) / n,  # an outer task per n repetitions with n inner
    "NESTED MASTER TASK": lambda n: (1.0 + n) / n,
    "BRANCH TASK TREE": lambda n: 1.0,  # 64 tasks per 64 repetitions
    "LEAF TASK TREE": lambda n: 63.0 / 64.0,
}


def check(cmd, **kw):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if proc.returncode != 0:
        sys.exit("bench: command failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd),
                                                           proc.stderr))
    return proc.stdout


def build(args, work):
    cc = args.cc
    tool = os.path.join(work, "noop_ompt_tool.so")
    check([cc, "-O2", "-shared", "-fPIC", os.path.join(HERE, "noop_ompt_tool.c"), "-o", tool])
    tool_all = os.path.join(work, "noop_ompt_tool_libpomp.so")
    check([cc, "-O2", "-shared", "-fPIC", "-DNOOP_LIBPOMP_CALLBACKS",
           "-I" + os.path.join(HERE, "..", "pomp-runtime", "src", "adapters", "ompt"),
           os.path.join(HERE, "noop_ompt_tool.c"), "-o", tool_all])
    if args.epcc:
        bench = "taskbench.c" if args.taskbench else "syncbench.c"
        sources = [os.path.join(args.epcc, bench), os.path.join(args.epcc, "common.c")]
        flags = ["-fopenmp", "-O1", "-I" + args.epcc]
    else:
        sources = [os.path.join(HERE, "parallel_barrier.c")]
        flags = ["-fopenmp", "-O2"]
    plain = os.path.join(work, "plain")
    inst = os.path.join(work, "instrumented")
    check([cc] + flags + sources + ["-o", plain, "-lm"])
    check([os.path.join(args.bin, "ompcc"), "--cc=" + cc] + flags + sources + ["-o", inst, "-lm"],
          cwd=work)
    baseline = None
    if args.baseline:
        baseline = os.path.join(work, "instrumented-baseline")
        check([os.path.join(args.baseline, "bin", "ompcc"), "--cc=" + cc] + flags + sources +
              ["-o", baseline, "-lm"], cwd=work)
    scorep = None
    if args.scorep:
        scorep = os.path.join(work, "scorep")
        # Older Score-P versions have no POMP2 wrapper of omp_init_lock_with_hint (a hint is
        # advisory), and link their measurement archives, whose common symbols (-fcommon
        # builds) would take EPCC's function `stats` for their own data: renamed here.
        shim = os.path.join(work, "scorep_shim.h")
        with open(shim, "w") as f:
            f.write("#define omp_init_lock_with_hint(lock, hint) omp_init_lock(lock)\n")
        check([os.path.join(args.scorep, "bin", "scorep")] + args.scorep_flags.split() +
              [cc] + flags + ["-include" + shim, "-Dstats=epcc_stats"] + sources +
              ["-o", scorep, "-lm"], cwd=work, env=dict(os.environ, TMPDIR=work))
    return plain, inst, (tool, tool_all), baseline, scorep


def measure(args, exe, env):
    cmd = [exe]
    if args.epcc:
        cmd += ["--outer-repetitions", str(args.epcc_outer)]
        if args.epcc_test_time:
            cmd += ["--test-time", str(args.epcc_test_time)]
    elif args.repetitions:
        cmd += [str(args.repetitions)]
    out = check(cmd, env=env)
    values = {}
    for line in out.splitlines():
        m = EPCC_LINE.match(line.strip())
        if m:
            # taskbench names two tests MASTER TASK: the second gets its number.
            key = m.group(1).strip()
            while key in values:
                key += " (2)"
            values[key] = float(m.group(2))
        elif line.startswith(("parallel_ns", "barrier_ns")):
            key, value = line.split()
            values[key] = float(value)
    return values


def print_per_task(args, samples, configs, keys):
    """Added µs per task and thread over no tool: each test's overhead minus the no-tool one,
    divided by the tasks a thread runs per inner repetition (TASKS_PER_REP)."""
    threads = int(args.threads)
    print()
    print("added per task over no tool (us per task and thread; the medians above minus no tool's,"
          " divided by the tasks a thread runs per repetition)")
    print("| test | tasks per thread and repetition | " + " | ".join(configs[1:]) + " |")
    print("|---" * (len(configs) + 1) + "|")
    for key in keys:
        per_rep = TASKS_PER_REP.get(key)
        if per_rep is None:
            continue
        tasks = per_rep(threads)
        plain = statistics.median(samples["no tool"][key])
        cells = " | ".join("%+.3f" % ((statistics.median(samples[c].get(key, [float("nan")])) -
                                       plain) / tasks) for c in configs[1:])
        print("| %s | %.3g | %s |" % (key, tasks, cells))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--lib", default="build/lib")
    parser.add_argument("--cc", default="clang-19")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--threads", default="2")
    parser.add_argument("--repetitions", type=int, default=0,
                        help="parallel_barrier's repetitions (default: its own)")
    parser.add_argument("--epcc", help="directory of the EPCC OpenMP micro-benchmarks")
    parser.add_argument("--epcc-outer", type=int, default=20)
    parser.add_argument("--epcc-test-time", type=float,
                        help="EPCC's --test-time in µs (its default: 1000); on a loaded machine a "
                             "longer one keeps its calibration from stopping at a few repetitions, "
                             "whose overhead is then a fork and a wake-up divided by them")
    parser.add_argument("--taskbench", action="store_true",
                        help="with --epcc: EPCC's taskbench instead of syncbench")
    parser.add_argument("--baseline", help="prefix of another toolkit (bin/ompcc, lib/libpomp.so)")
    parser.add_argument("--paired", action="store_true",
                        help="also each configuration minus the no-tool run of the same round, "
                             "per speed of the machine (docs/PERFORMANCE.md, two speeds)")
    parser.add_argument("--caliper", help="prefix of a Caliper installation built with OMPT")
    parser.add_argument("--caliper-config", default="openmp-report,output=/dev/null",
                        help="CALI_CONFIG of the Caliper runs (default: %(default)s)")
    parser.add_argument("--scorep", help="prefix of a Score-P installation (bin/scorep)")
    parser.add_argument("--scorep-flags", default="--openmp --thread=omp --nocompiler",
                        help="the scorep wrapper's options (default: %(default)s)")
    parser.add_argument("--samples-out", metavar="FILE",
                        help="also write every round's figures as JSON, to report on again")
    parser.add_argument("--from-samples", metavar="FILE",
                        help="measure nothing: report on a run written by --samples-out "
                             "(and with --samples-out write it again)")
    args = parser.parse_args()
    if args.from_samples:
        run = read_samples(args.from_samples)
        report(args, run)
        return write_samples(args.samples_out, run) if args.samples_out else 0
    args.bin = os.path.abspath(args.bin)
    if args.baseline:
        args.baseline = os.path.abspath(args.baseline)
    libpomp = os.path.abspath(os.path.join(args.lib, "libpomp.so"))
    with tempfile.TemporaryDirectory(prefix="pomp-ompt-bench-") as work, private_servers(work):
        plain, inst, (tool, tool_all), baseline, scorep = build(args, work)
        base = dict(os.environ, OMP_NUM_THREADS=args.threads, OMP_PROC_BIND="true",
                    POMP_QUIET="1")
        for name in ("OMP_TOOL_LIBRARIES", "POMP_OMPT", "OMP_TOOL"):
            base.pop(name, None)
        runs = {
            "no tool": (plain, {}),
            "noop OMPT": (plain, {"OMP_TOOL_LIBRARIES": tool}),
            "noop (libpomp's callbacks)": (plain, {"OMP_TOOL_LIBRARIES": tool_all}),
            "OMPT only": (plain, {"OMP_TOOL_LIBRARIES": libpomp}),
            "POMP only": (inst, {"POMP_OMPT": "off"}),
            "both": (inst, {}),
        }
        configs = list(CONFIGS)
        if baseline:
            runs["OMPT only (baseline)"] = (
                plain, {"OMP_TOOL_LIBRARIES": os.path.join(args.baseline, "lib", "libpomp.so")})
            runs["POMP only (baseline)"] = (baseline, {"POMP_OMPT": "off"})
            runs["both (baseline)"] = (baseline, {})
            configs += ["OMPT only (baseline)", "POMP only (baseline)", "both (baseline)"]
        if args.caliper:
            found = glob.glob(os.path.join(args.caliper, "lib*", "libcaliper.so"))
            if not found:
                sys.exit("bench: no lib*/libcaliper.so under " + args.caliper)
            # Caliper answers libomp's ompt_start_tool only when a channel with its ompt service
            # exists already or CALI_USE_OMPT=1: loaded as the OMPT tool, before any Caliper
            # call, it needs the variable, or it measures nothing.
            runs["Caliper"] = (plain, {"OMP_TOOL_LIBRARIES": found[0], "CALI_USE_OMPT": "1",
                                       "CALI_CONFIG": args.caliper_config})
            configs.append("Caliper")
        if scorep:
            runs["Score-P"] = (scorep, {"SCOREP_ENABLE_PROFILING": "true",
                                        "SCOREP_ENABLE_TRACING": "false",
                                        "SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY": "true",
                                        # Its default 16 MB run out in taskbench (a profile node
                                        # per task instance in older versions).
                                        "SCOREP_TOTAL_MEMORY": "1G"})
            configs.append("Score-P")
        samples = {c: {} for c in configs}
        load_before = os.getloadavg()
        for r in range(args.rounds):
            # A fixed order put each configuration after the same other one in every round: in
            # session 29 POMP only's fork constructs came out 0.1 µs above the baseline's in two
            # runs, which a direct A/B did not confirm.
            for config in rotated(configs, r):
                exe, extra = runs[config]
                env = dict(base, POMP_EXPERIMENT_DIR=os.path.join(work, "exp-%d" % r), **extra)
                env["POMP_EXPERIMENT_DIR"] += "-" + config.replace(" ", "_")
                env["SCOREP_EXPERIMENT_DIRECTORY"] = env["POMP_EXPERIMENT_DIR"]
                for key, value in measure(args, exe, env).items():
                    samples[config].setdefault(key, []).append(value)
        run = {"rounds": args.rounds, "threads": args.threads, "epcc": bool(args.epcc),
               "taskbench": bool(args.taskbench), "epcc_outer": args.epcc_outer,
               "epcc_test_time": args.epcc_test_time, "configs": configs, "samples": samples,
               "load": list(load_before + os.getloadavg()),
               "clocks": {c: clock_of(work, c, args.rounds)
                          for c in configs if c.startswith("both")}}
    report(args, run)
    if args.samples_out:
        return write_samples(args.samples_out, run)
    return 0


def write_samples(path, run):
    """--samples-out: the run as JSON, written whole or not at all (a temporary file renamed)."""
    temporary = path + ".tmp%d" % os.getpid()
    try:
        with open(temporary, "w") as f:
            json.dump(run, f, indent=1)
        os.replace(temporary, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        print("bench: cannot write %s: %s" % (path, e), file=sys.stderr)
        return 1
    return 0


def read_samples(path):
    """A run written by --samples-out, checked enough to report on."""
    try:
        with open(path) as f:
            run = json.load(f)
        configs, samples = run["configs"], run["samples"]
        if "no tool" not in configs or "both" not in configs or set(configs) != set(samples):
            raise ValueError("its configurations and samples do not match")
        missing = [k for k in ("rounds", "threads", "epcc", "taskbench", "epcc_outer",
                               "epcc_test_time", "load", "clocks") if k not in run]
        if missing:
            raise ValueError("no " + ", ".join(missing))
        return run
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit("bench: %s: not a run of this script's --samples-out: %s" % (path, e))


def report(args, run):
    """The tables of a run, measured now or read back (--from-samples)."""
    configs, samples = run["configs"], run["samples"]
    args.threads = run["threads"]
    unit = "us" if run["epcc"] else "ns"
    keys = list(samples["no tool"])
    print("median of %d alternating rounds, %s threads, %s per construct%s" %
          (run["rounds"], run["threads"], unit, " (EPCC overhead)" if run["epcc"] else ""))
    if run["epcc"]:
        print("EPCC --outer-repetitions %d --test-time %s" %
              (run["epcc_outer"], run["epcc_test_time"] or "(default)"))
    print("load average (1, 5, 15 min) before: %.2f %.2f %.2f, after: %.2f %.2f %.2f" %
          tuple(run["load"]))
    for config, clock in run["clocks"].items():
        print("libpomp's clock in %s: %s" % (config, clock))
    print("| construct | " + " | ".join(configs) + " | both / no tool |")
    print("|---" * (len(configs) + 2) + "|")
    both = configs.index("both")
    for key in keys:
        medians = [statistics.median(samples[c].get(key, [float("nan")])) for c in configs]
        ratio = medians[both] / medians[0] if medians[0] else float("nan")
        cells = " | ".join("%.3f" % m if run["epcc"] else "%.0f" % m for m in medians)
        print("| %s | %s | %.2f |" % (key, cells, ratio))
    if run["epcc"] and run["taskbench"]:
        print_per_task(args, samples, configs, keys)
    if args.paired:
        benchmark = ("taskbench" if run["taskbench"] else "syncbench") if run["epcc"] else None
        print_paired(samples, configs, keys, benchmark, int(run["threads"]))
    warn_speed_change(samples, keys)


def clock_of(work, config, rounds):
    """The clock libpomp chose in each round of a configuration, and why (profile.json's clock):
    with clock_gettime instead of the TSC every event costs some 15 ns more, so a round that
    chose another clock than the others is named."""
    chosen = {}
    for r in range(rounds):
        path = os.path.join(work, "exp-%d-%s" % (r, config.replace(" ", "_")), "profile.json")
        try:
            with open(path) as f:
                clock = json.load(f)["clock"]
            what = "%s (%s)" % (clock.get("source"), clock.get("reason"))
        except (OSError, ValueError, KeyError) as e:
            what = "unknown (%s)" % e
        chosen.setdefault(what, []).append(r)
    if len(chosen) == 1:
        return next(iter(chosen))
    return "; ".join("%s in round%s %s" % (what, "s" if len(rs) > 1 else "",
                                           ", ".join(str(r) for r in rs))
                     for what, rs in chosen.items())


# Some VMs run the same program at two speeds, in spells of minutes (docs/PERFORMANCE.md,
# "This VM runs in two speeds"): a run whose no-tool times differ this much took rounds in
# both, and its medians mix them.
SPEED_CHANGE = 1.5


def print_paired(samples, configs, keys, benchmark, threads):
    """Each configuration's time minus the no-tool time of the same round, median over the rounds
    of each speed of the machine: rounds are split at the geometric mean of the fastest and the
    slowest no-tool run of the longest construct when those differ by more than SPEED_CHANGE
    (the table above then mixes both speeds). For EPCC's benchmarks, issue 15's goals follow
    each speed's table, each with its interval and verdict (bench/goals.py)."""
    runs = samples["no tool"]
    longest = max(keys, key=lambda k: statistics.median(runs[k]) if runs.get(k) else 0)
    times = runs.get(longest, [])
    if not times:
        return
    rounds = list(range(len(times)))
    groups = [("all", rounds)]
    if min(times) > 0 and max(times) > SPEED_CHANGE * min(times):
        cut = (min(times) * max(times)) ** 0.5
        groups = [("fast", [r for r in rounds if times[r] < cut]),
                  ("slow", [r for r in rounds if times[r] >= cut])]
    for speed, chosen in groups:
        print()
        print("paired with the no-tool run of the same round, %s rounds (%d; no tool's %s: %.4g)"
              % (speed, len(chosen), longest, statistics.median(times[r] for r in chosen)))
        # The merged mode against the no-op tool of the same round too: the goal of the
        # constructs whose OMPT floor is most of their cost (issue 15: BARRIER, SINGLE, FOR).
        over_noop = [c for c in configs if c.startswith("both")]
        print("| construct | " + " | ".join(configs[1:]) + "".join(
            " | %s - noop OMPT" % c for c in over_noop) + " |")
        print("|---" * (len(configs) + len(over_noop)) + "|")
        for key in keys:
            cells = []
            for config, base in ([(c, "no tool") for c in configs[1:]] +
                                 [(c, "noop OMPT") for c in over_noop]):
                cells.append(paired_median(samples, config, base, key, chosen))
            print("| %s | %s |" % (key, " | ".join(cells)))
        print_against_baseline(samples, configs, keys, speed, chosen)
        rows = goal_rows(samples, chosen, benchmark,
                         lambda test: TASKS_PER_REP.get(test, lambda n: 1.0)(threads)) if benchmark else []
        if rows:
            print()
            print("issue 15's goals, %s rounds (%d): the paired median and its interval"
                  % (speed, len(chosen)))
            print(format_goal_rows(rows, per_task=benchmark == "taskbench"))


def print_against_baseline(samples, configs, keys, speed, chosen):
    """With --baseline: each configuration's time minus the baseline's in the same round, median
    and 95 % interval: the change itself, without the no-tool runs' noise (a clock read per
    construct is a few ns, which the tables above, each against no tool, do not resolve)."""
    pairs = [(c, c + " (baseline)") for c in ("OMPT only", "POMP only", "both")
             if c in configs and c + " (baseline)" in configs]
    if not pairs:
        return
    print()
    print("this toolkit minus the baseline in the same round, %s rounds (%d): median [95 %% interval]"
          % (speed, len(chosen)))
    print("| construct | " + " | ".join(c for c, _ in pairs) + " |")
    print("|---" * (len(pairs) + 1) + "|")
    for key in keys:
        cells = []
        for config, base in pairs:
            median, low, high, _ = median_interval(
                paired_differences(samples, config, base, key, chosen))
            if median is None:
                cells.append("-")
            elif low is None:
                cells.append("%+.3f" % median)
            else:
                cells.append("%+.3f [%+.3f, %+.3f]" % (median, low, high))
        print("| %s | %s |" % (key, " | ".join(cells)))


def paired_median(samples, config, base, key, chosen):
    """The median over the chosen rounds of config's time minus base's in the same round."""
    values = samples[config].get(key, [])
    bases = samples[base].get(key, [])
    diffs = [values[r] - bases[r] for r in chosen if r < len(values) and r < len(bases)]
    return "%+.3f" % statistics.median(diffs) if diffs else "-"


def warn_speed_change(samples, keys):
    """Says when the no-tool times of the longest construct vary so much that the machine changed
    speed during the run: the table's medians then mix two speeds and compare nothing. (Short
    constructs, a few ns, vary by more than that with noise alone.)"""
    runs = samples["no tool"]
    longest = max(keys, key=lambda k: statistics.median(runs[k]) if runs.get(k) else 0)
    times = runs.get(longest, [])
    if len(times) > 1 and min(times) > 0 and max(times) > SPEED_CHANGE * min(times):
        print("bench: warning: no tool's %s took %.3g to %.3g in this run: the machine changed "
              "speed between rounds, so these medians mix both speeds; run again"
              % (longest, min(times), max(times)))


if __name__ == "__main__":
    sys.exit(main())
