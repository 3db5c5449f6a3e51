#!/usr/bin/env python3
"""What measuring costs a whole program: third-party suites run plain and measured, in one run.

The microbenchmarks (ompt_overhead.py, pomp_event_bench) price one construct or one event; what an
HPC developer pays is a program's run time. This script takes the corpus runner's manifests
(bench/README.md, "corpus_runner.py"), builds every selected program plain and with ompcc (strict,
as the corpus runner does), and runs the builds in alternating rounds whose order rotates
(rotation.py) at one thread count:

  gcc      plain            gcc -fopenmp, libgomp
           POMP             ompcc over gcc: instrumented, libgomp (no OMPT there)
  clang    plain            clang-19 -fopenmp, libomp
           both             ompcc over clang-19: POMP and OMPT merged (what ompcc gives by default)
           POMP only        the same binary with POMP_OMPT=off
           OMPT only        the plain binary with libpomp as its OMPT tool (OMP_TOOL_LIBRARIES)

Per program and configuration it prints the plain run's median wall time, the median of each
round's ratio to the plain run of the same round with its distribution-free 95 % interval
(goals.py; at least 6 rounds), the median added seconds, the events the measured run recorded
(profile.json, every thread's `events`) and the added wall time per event. A run that fails (exit
status, timeout) stops that configuration's timing and is reported with its reason; the corpus
runner, not this script, judges whether the outputs are the same.

    bench/app_overhead.py MANIFEST... --toolkit-bin PREFIX/bin --work DIR [--rounds 7]
        [--threads 2] [--only REGEX] [--compilers gcc,clang] [--markdown FILE] [--json FILE]

The suites are never part of the project; MPI programs are skipped (said so). Python 3 standard
library only.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import sys
import time

import corpus_runner
from goals import median_interval
from ompinst_servers import private_servers
from rotation import rotated

# (compiler family, configuration name, build configuration, extra run environment: None for the
# plain reference, a dict otherwise; "libpomp" stands for the toolkit's libpomp.so).
VARIANTS = (
    ("gcc", "plain", "plain-gcc", None),
    ("gcc", "POMP", "ompcc-gcc", {}),
    ("clang", "plain", "plain-clang", None),
    ("clang", "both", "ompcc-clang", {}),
    ("clang", "POMP only", "ompcc-clang", {"POMP_OMPT": "off"}),
    ("clang", "OMPT only", "plain-clang", {"OMP_TOOL_LIBRARIES": "libpomp"}),
)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Run third-party OpenMP programs plain and measured by the toolkit in "
                    "alternating rounds; per program the paired ratio with its 95 % interval "
                    "and the added time per event (docs/PERFORMANCE.md).")
    parser.add_argument("manifests", nargs="+", help="corpus runner manifests (JSON)")
    parser.add_argument("--toolkit-bin", required=True,
                        help="the directory holding ompcc and ompc++ (libpomp.so in ../lib)")
    parser.add_argument("--work", required=True, help="scratch directory for builds and runs")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (default 7)")
    parser.add_argument("--warmup", type=int, default=1,
                        help="untimed runs of each configuration first (default 1)")
    parser.add_argument("--threads", type=int, default=2, help="OMP_NUM_THREADS (default 2)")
    parser.add_argument("--only", help="only programs whose 'suite/name' matches this regex")
    parser.add_argument("--compilers", default="gcc,clang",
                        help="comma-separated: gcc, clang (default both)")
    parser.add_argument("--build-jobs", type=int, default=1, help="{jobs} in build commands")
    parser.add_argument("--no-strict", dest="strict", action="store_false",
                        help="do not set OMPCC_STRICT=1 (a file ompcc cannot instrument is then "
                             "compiled as it is, and the program is timed partly measured)")
    parser.add_argument("--markdown", help="write the table here too")
    parser.add_argument("--json", help="write every round's times here")
    parser.add_argument("--clean", action="store_true", help="remove the work directory at the end")
    corpus_runner.add_compiler_arguments(parser)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.warmup < 0 or args.threads < 1:
        parser.error("--rounds and --threads must be at least 1, --warmup at least 0")
    args.compilers = [c for c in args.compilers.split(",") if c]
    unknown = sorted(set(args.compilers) - {"gcc", "clang"})
    if unknown or not args.compilers:
        parser.error(f"--compilers: give gcc and/or clang, not '{','.join(unknown)}'")
    args.toolkit_bin = os.path.abspath(args.toolkit_bin)
    if not os.access(os.path.join(args.toolkit_bin, "ompcc"), os.X_OK):
        parser.error(f"--toolkit-bin: no ompcc in '{args.toolkit_bin}'")
    args.libpomp = os.path.normpath(os.path.join(args.toolkit_bin, "..", "lib", "libpomp.so"))
    if "clang" in args.compilers and not os.path.isfile(args.libpomp):
        parser.error(f"--toolkit-bin: no libpomp.so in '{os.path.dirname(args.libpomp)}'")
    args.work = os.path.abspath(args.work)
    # What the corpus runner's build and run steps read of its own arguments.
    args.mpirun = "mpirun"
    return args


def profile_events(run_dir):
    """The events the run's profile recorded (every thread's), or None without a profile."""
    path = os.path.join(run_dir, "experiment", "profile.json")
    try:
        with open(path, encoding="utf-8") as f:
            profile = json.load(f)
        return sum(int(t.get("events", 0)) for t in profile.get("threads", []))
    except (OSError, ValueError, TypeError, AttributeError):
        return None


def why_failed(res):
    if res["timed_out"]:
        return "timed out"
    lines = (res["stderr"] or res["stdout"]).strip().splitlines()
    return f"exit status {res['rc']}" + (f": {lines[-1][:160]}" if lines else "")


class ProgramTiming:
    """One program: its builds, then the rounds of every configuration, and the figures."""

    def __init__(self, args, suite, program, configs):
        self.args, self.suite, self.program = args, suite, program
        self.runner = corpus_runner.ProgramRunner(args, suite, program, configs, args.work)
        self.configs = {c.name: c for c in configs}
        self.builds, self.failed, self.times, self.events = {}, {}, {}, {}

    def variants(self):
        return [v for v in VARIANTS if v[0] in self.args.compilers]

    def build_all(self):
        for family, name, config, _ in self.variants():
            if config in self.builds or config in self.failed:
                continue
            build = self.runner.build(self.configs[config], strict=self.args.strict)
            if build["ok"]:
                self.builds[config] = build
            else:
                self.failed[config] = (f"{config} build: exit status {build['rc']}: "
                                       f"{corpus_runner.first_error(build['log'])}")

    def run(self, variant, tag):
        family, name, config, extra = variant
        env = {k: (self.args.libpomp if v == "libpomp" else v) for k, v in (extra or {}).items()}
        label = re.sub(r"[^A-Za-z0-9]+", "-", name)
        return self.runner.run(self.configs[config], self.builds[config], self.args.threads,
                               tag=f"-{label}-{tag}", extra_env=env)

    def usable(self, variant):
        family, name, config, _ = variant
        plain = next(v for v in self.variants() if v[0] == family and v[3] is None)
        return (config in self.builds and plain[2] in self.builds and
                (family, name) not in self.failed and (family, "plain") not in self.failed)

    def measure(self):
        variants = self.variants()
        for r in range(-self.args.warmup, self.args.rounds):
            for variant in rotated(variants, max(r, 0)):
                if not self.usable(variant):
                    continue
                family, name = variant[0], variant[1]
                res = self.run(variant, "warmup" if r < 0 else "timed")
                if res["rc"] != 0 or res["timed_out"]:
                    self.failed[(family, name)] = f"{name} run: {why_failed(res)}"
                    continue
                if r < 0:
                    continue
                self.times.setdefault((family, name), []).append(res["seconds"])
                if variant[3] is not None and (family, name) not in self.events:
                    self.events[(family, name)] = profile_events(res["dir"])

    def rows(self):
        """(compiler, configuration, plain median, ratio, low, high, added s, events, ns/event,
        rounds, failure) per configuration that is not the plain reference."""
        rows = []
        for family, name, config, extra in self.variants():
            if extra is None:
                continue
            plain_config = next(v[2] for v in VARIANTS if v[0] == family and v[3] is None)
            failure = next((self.failed[key] for key in (config, plain_config, (family, name),
                                                         (family, "plain"))
                            if key in self.failed), "")
            base = self.times.get((family, "plain"), [])
            mine = self.times.get((family, name), [])
            n = min(len(base), len(mine))
            if failure or n == 0:
                rows.append((family, name, None, None, None, None, None, None, None, 0,
                             failure or "not run"))
                continue
            ratios = [mine[i] / base[i] for i in range(n) if base[i] > 0]
            ratio, low, high, _ = median_interval(ratios)
            added = statistics.median(mine[i] - base[i] for i in range(n))
            events = self.events.get((family, name))
            per_event = added * 1e9 / events if events else None
            rows.append((family, name, statistics.median(base), ratio, low, high, added, events,
                         per_event, n, ""))
        return rows


def load_average():
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def table(results):
    lines = ["| program | compiler | configuration | plain (s) | ratio | 95 % interval | added (s) "
             "| events | added ns per event |",
             "|---|---|---|---|---|---|---|---|---|"]
    for program, rows in results:
        for (family, name, plain, ratio, low, high, added, events, per_event, n,
             failure) in rows:
            compiler = "clang-19" if family == "clang" else "gcc"
            if failure:
                lines.append(f"| {program} | {compiler} | {name} | - | - | - | - | - | "
                             f"{failure} |")
                continue
            interval = "-" if low is None else f"[{low:.3f}, {high:.3f}]"
            lines.append(f"| {program} | {compiler} | {name} | {plain:.3f} | {ratio:.3f} | "
                         f"{interval} | {added:+.3f} | {events if events is not None else '-'} | "
                         f"{'-' if per_event is None else f'{per_event:.1f}'} |")
    return "\n".join(lines)


def main(argv):
    args = parse_args(argv)
    try:
        loaded = [corpus_runner.load_manifest(m) for m in args.manifests]
    except corpus_runner.ManifestError as e:
        print(f"app_overhead: error: {e}", file=sys.stderr)
        return 2
    for path in (args.markdown, args.json):
        directory = os.path.dirname(os.path.abspath(path)) if path else None
        if directory and not os.access(directory, os.W_OK):
            print(f"app_overhead: error: cannot write '{path}': its directory is not writable",
                  file=sys.stderr)
            return 2
    os.makedirs(os.path.join(args.work, "tmp"), exist_ok=True)
    configs = [c for c in corpus_runner.make_configs(args)
               if not c.coverage and c.family in args.compilers]
    corpus_runner.write_wrappers(configs, args.work)
    started = time.monotonic()
    load_before = load_average()
    results, samples, skipped = [], {}, []
    with private_servers(args.work):
        for suite, programs in loaded:
            selected = [p for p in programs if not p.get("skip") and
                        (not args.only or re.search(args.only, f"{suite['name']}/{p['name']}"))]
            mpi = [p for p in selected if p.get("mpi")]
            skipped += [f"{suite['name']}/{p['name']}" for p in mpi]
            selected = [p for p in selected if not p.get("mpi")]
            if not selected:
                continue
            if suite["copy"] and any(p["mode"] == "make" for p in selected):
                for config in configs:
                    try:
                        corpus_runner.prepare_tree(suite, config, args.work)
                    except corpus_runner.ManifestError as e:
                        print(f"app_overhead: error: {e}", file=sys.stderr)
                        return 1
            for program in selected:
                name = f"{suite['name']}/{program['name']}"
                timing = ProgramTiming(args, suite, program, configs)
                timing.build_all()
                timing.measure()
                rows = timing.rows()
                results.append((name, rows))
                samples[name] = {f"{f} {c}": t for (f, c), t in timing.times.items()}
                summary = ", ".join(f"{r[1]} {r[3]:.3f}" if r[3] is not None else
                                    f"{r[1]}: {r[10]}" for r in rows)
                print(f"[{time.monotonic() - started:6.0f}s] {name}: {summary}",
                      file=sys.stderr, flush=True)
    header = (f"{args.threads} threads, {args.rounds} rounds, load {load_before} -> "
              f"{load_average()}; ratio and added time: each round's measured run against the "
              f"plain run of the same round, medians")
    report = header + "\n\n" + table(results) + "\n"
    if skipped:
        report += "\nMPI programs, not timed: " + ", ".join(skipped) + "\n"
    print(report)
    if args.markdown:
        corpus_runner.write_atomically(args.markdown, report)
    if args.json:
        corpus_runner.write_atomically(args.json, json.dumps(
            {"threads": args.threads, "rounds": args.rounds, "seconds": samples},
            indent=1, sort_keys=True) + "\n")
    if args.clean:
        shutil.rmtree(args.work, ignore_errors=True)
    return 1 if any(r[10] for _, rows in results for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
