#!/usr/bin/env python3
"""Build time with ompcc/ompc++ against the plain compiler, measured in one run.

Three measurements, each in alternating rounds whose order rotates (so that machine noise, and
what a build leaves to the next on a VM, hits both alike), reported as medians and ratios:

  samples   every program of samples/ compiled and linked in one command, one after the other:
            `ompcc -O2 x.c -o x -lm` against `<cc> -fopenmp -O2 x.c -o x -lm`
  project   the sample project of tests/ompcc (static library, shared library, C++ program)
            built from scratch with `make -j2 CC=ompcc CXX=ompc++` against the plain compilers
  probe     one configure probe (`conftest.c` compiled and linked), which ompcc passes through:
            the driver's own cost

  steps     one program (--steps-sample, default samples/jacobi.c) built by `ompcc -v -O2 x.c -o x`:
            the commands ompcc prints are run again one by one and timed each (ompinst, the
            instrumented compile, pomp-link, the compile of the generated initialisation when
            there is one, the link), against the plain compile (`-c`) and the plain link

  lulesh    with --lulesh DIR (a checkout of LLNL/LULESH, never part of the project): one large
            C++ file, `ompc++ -O2 -DUSE_MPI=0 -std=c++17 -c lulesh.cc` against the plain compiler
            (issue 15: at most 1.10 x)

each with clang-19 and with gcc as the real compiler. For samples and lulesh the ratio of each
round's two builds follows, its median with a 95 % interval and the verdict on issue 15's goal
(at most 1.3 and, with clang-19, 1.10 x: met, missed or open, bench/goals.py). The load average is printed before and
after: the machine is shared, and timings taken under load are noisy. By default a first build is
measured (ompinst's preamble cache off); --preamble warm measures the build an edit-compile cycle
repeats: the cache, a private one, serves the instrumentation's parse and, inside clang-19, the
compile (docs/OMPCC.md, "The compile's precompiled preamble"); --preamble second measures each
file's second compile, which precompiles both preambles (samples and lulesh only).

    bench/ompcc_build_time.py [--bin build/bin] [--rounds 5] [--compilers clang,gcc]
        [--what samples,project,probe,steps,lulesh] [--lulesh DIR] [--base-bin OLD_BIN]
        [--base-env NAME=VALUE]... [--steps-sample FILE] [--preamble off|warm|second]

--base-env runs the base with more environment, also the same toolkit as --bin when --base-bin is
not given: `--base-env OMPCC_PRELINK=pomp-link` compares ompcc's own pre-link with pomp-link's.
"""
import argparse
import contextlib
import glob
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from goals import BUILD_GOALS, median_interval, verdict
from ompinst_servers import private_servers
from rotation import rotated

COMPILERS = {
    "clang": ("clang-19", "clang++-19"),
    "gcc": ("gcc", "g++"),
}


def timed(cmd, cwd, env=None):
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit("bench: command failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd),
                                                         proc.stderr))
    return elapsed


BASE = []
# --preamble second: each timed compile through ompcc is the second of its file with a fresh
# preamble cache, after an untimed first one.
SECOND = [False]


def timed_build(cmd, cwd, env):
    """timed(), but with --preamble second an ompcc/ompc++ command first empties its preamble
    cache and runs once untimed."""
    if SECOND[0] and os.path.basename(cmd[0]).startswith("omp") and "OMPINST_PREAMBLE_DIR" in env:
        shutil.rmtree(env["OMPINST_PREAMBLE_DIR"], ignore_errors=True)
        timed(cmd, cwd, env)
    return timed(cmd, cwd, env)


def alternate(rounds, plain, wrapped, base=None):
    """Runs plain(), wrapped() and base() (when given) in alternating rounds after one warm-up
    each (WARMUPS[0] of the wrapped ones: with --preamble warm the preamble cache notes a
    preamble at its first compile and precompiles it at the second); medians. The order within a
    round rotates from one round to the next: a build that always came right after the plain one
    measured slower than the same work in the next place (LULESH with g++: 1.24-1.27 against
    1.08-1.18, docs/PERFORMANCE.md "Issue 15: session 25"). The base median goes to BASE for
    report()."""
    plain()
    for _ in range(WARMUPS[0]):
        wrapped()
    if base:
        for _ in range(WARMUPS[0]):
            base()
    ours, theirs, before = [], [], []
    runs = [(theirs, plain), (ours, wrapped)] + ([(before, base)] if base else [])
    for round_index in range(rounds):
        for times, run in rotated(runs, round_index):
            times.append(run())
    BASE[:] = [statistics.median(before)] if base else []
    RATIOS[:] = [o / t for o, t in zip(ours, theirs) if t > 0]
    return statistics.median(theirs), statistics.median(ours)


WARMUPS = [1]
# The last alternate()'s ratio of each round, ompcc's build over the plain one of the same round.
RATIOS = []


def report(name, plain_name, plain, wrapped, compiler=None):
    if BASE:
        print("%-8s %-22s base ompcc median %7.3f s   ratio %.2f"
              % (name, plain_name, BASE[0], BASE[0] / plain))
    print("%-8s %-22s median %7.3f s   ompcc median %7.3f s   ratio %.2f"
          % (name, plain_name, plain, wrapped, wrapped / plain))
    # Each round's ratio, and issue 15's goal for this build read from them (bench/goals.py).
    if RATIOS:
        median, low, high, _ = median_interval(RATIOS)
        interval = "no interval" if low is None else "95 %% interval [%.3f, %.3f]" % (low, high)
        limit = BUILD_GOALS.get((name, compiler))
        goal = "" if limit is None else ": goal <= %.2f %s" % (limit, verdict(low, high, limit))
        print("%-8s paired ratio per round %.3f, %s%s" % ("", median, interval, goal))


# --per-file: each sample's build times by configuration ("plain", "ompcc"), the warm-up rounds
# included (alternate() runs plain once and ompcc WARMUPS[0] times first; dropped when printed).
PER_FILE = {}


def report_per_file(samples):
    """Each sample's median build time, plain and through ompcc, the difference and the ratio,
    largest difference first: which files the samples' ratio comes from."""
    rows = []
    for sample in samples:
        plain = statistics.median(PER_FILE[("plain", sample)][1:])
        ours = statistics.median(PER_FILE[("ompcc", sample)][WARMUPS[0]:])
        rows.append((ours - plain, os.path.basename(sample), plain, ours))
    print("  %-18s %9s %9s %8s %6s" % ("sample", "plain ms", "ompcc ms", "+ms", "ratio"))
    for extra, name, plain, ours in sorted(rows, reverse=True):
        print("  %-18s %9.1f %9.1f %+8.1f %6.2f" % (name, 1000 * plain, 1000 * ours,
                                                    1000 * extra, ours / plain))


def step_name(words):
    """The step of an ompcc command line, from the program and its arguments."""
    program = os.path.basename(words[0])
    if program.startswith("ompinst"):  # also an installed toolkit's ompinst-clang
        return "ompinst"
    if program == "pomp-link":
        return program
    if "-c" in words:
        return "init compile" if any(w.endswith("pomp_init.c") for w in words) else "compile"
    return "link"


def ompcc_steps(driver, sample, work, env):
    """The commands `driver -v -O2 sample -o prog` runs, as lists of words."""
    proc = subprocess.run([driver, "-v", "-O2", sample, "-o", "prog", "-lm"], cwd=work, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit("bench: %s failed:\n%s" % (driver, proc.stderr))
    prefix = os.path.basename(driver) + ": "
    # ompcc's own pre-link of plain objects runs in its process, which no step times (callgrind
    # counts it with ompcc itself); the same pomp-link command is replayed untimed, only so that
    # the link finds the object.
    in_process = prefix + "pre-link in "
    lines = [line[line.index("): ", len(in_process)) + 3:] if line.startswith(in_process)
             else line[len(prefix):] if line.startswith(prefix) else None
             for line in proc.stderr.splitlines()]
    # -v was ompcc's, and it reaches the real compiler and pomp-link: not part of a build.
    commands = [([UNTIMED] if raw.startswith(in_process) else [])
                + [w for w in shlex.split(line) if w != "-v"]
                for raw, line in zip(proc.stderr.splitlines(), lines)
                if line is not None and not raw.startswith(prefix + "warning")]
    # A message about a file ("ompcc: x.c: ...") names no program.
    return [c for c in commands
            if c and (c[0] == UNTIMED
                      or (not c[0].endswith(":") and (os.path.isabs(c[0]) or shutil.which(c[0]))))]


UNTIMED = "<untimed>"


def replay(commands, work, env):
    """Runs the commands one after the other (their temporary directories made first); the time
    of each step, summed by step name. A command marked UNTIMED runs but is not counted."""
    times = {}
    for words in commands:
        untimed = words[0] == UNTIMED
        words = words[1:] if untimed else words
        for i, word in enumerate(words[:-1]):
            if word == "-o":
                os.makedirs(os.path.dirname(os.path.join(work, words[i + 1])), exist_ok=True)
        elapsed = timed(words, work, env)
        if not untimed:
            name = step_name(words)
            times[name] = times.get(name, 0.0) + elapsed
    return times


def measure_steps(args, root, work, compilers, env, drivers, base, base_env):
    sample = os.path.abspath(args.steps_sample or os.path.join(root, "samples", "jacobi.c"))
    # A C++ sample is built by ompc++ and the C++ compiler (and linked with its runtime).
    cxx = sample.endswith((".cpp", ".cc", ".cxx", ".C"))
    cc, ompcc = compilers[cxx], drivers[cxx]
    # The replayed commands name ompcc's temporary directory: a private TMPDIR keeps it apart.
    # Steps run one after the other, so gcc's compile beside the instrumentation, whose main file
    # and pipe live only while ompcc runs, is replayed as the compile after it (OMPINST_OVERLAP=0).
    env = dict(env, TMPDIR=os.path.join(work, "tmp"), OMPINST_OVERLAP="0")
    os.makedirs(env["TMPDIR"], exist_ok=True)
    variants = [("ompcc", ompcc_steps(ompcc, sample, work, env))]
    if base:
        variants.append(("base", ompcc_steps(base[cxx], sample, work, dict(env, **base_env))))
    plain = [[cc, "-fopenmp", "-O2", "-c", sample, "-o", "plain.o"],
             [cc, "-fopenmp", "plain.o", "-o", "plain", "-lm"]]
    rounds = {name: [] for name, _ in variants}
    rounds["plain"] = []
    for commands in [c for _, c in variants] + [plain]:
        replay(commands, work, env)  # warm-up
    for _ in range(args.rounds):
        rounds["plain"].append(replay(plain, work, env))
        for name, commands in variants:
            rounds[name].append(replay(commands, work, env))
    print("steps    %s, %s, medians of %d alternating rounds (ms)"
          % (os.path.relpath(sample, root), cc, args.rounds))
    for name, _ in [("plain", None)] + variants:
        steps = {}
        for times in rounds[name]:
            for step, t in times.items():
                steps.setdefault(step, []).append(t)
        total = statistics.median([sum(t.values()) for t in rounds[name]])
        print("  %-6s %s   in all %.1f" % (name, "   ".join(
            "%s %.1f" % (step, 1000 * statistics.median(t)) for step, t in steps.items()),
            1000 * total))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(root, "build", "bin"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--compilers", default="clang,gcc")
    parser.add_argument("--what", default="samples,project,probe,lulesh",
                        help="the measurements to take (lulesh only with --lulesh)")
    parser.add_argument("--lulesh", default=None, help="a directory with LULESH's lulesh.cc")
    parser.add_argument("--preamble", choices=("off", "warm", "second"), default="off",
                        help="off (the default): a first build, ompinst's preamble cache off; "
                             "warm: a build after two others, the cache (a private one) serving "
                             "the instrumentation's parse and, inside clang-19, the compile; "
                             "second: each file's second compile with a fresh cache, which "
                             "precompiles the preambles (samples and lulesh)")
    parser.add_argument("--per-file", action="store_true",
                        help="with samples: also each sample's medians, plain and through ompcc")
    parser.add_argument("--steps-sample", default=None,
                        help="the program of the steps measurement (default samples/jacobi.c)")
    parser.add_argument("--base-bin", default=None,
                        help="another toolkit's bin directory (an older ompcc and ompinst), "
                             "timed in the same rounds: a before/after comparison")
    parser.add_argument("--base-env", action="append", default=[], metavar="NAME=VALUE",
                        help="more environment for the base (repeatable); without --base-bin "
                             "the base is --bin's toolkit")
    args = parser.parse_args()
    base_env = dict(item.split("=", 1) for item in args.base_env)
    what = set(args.what.split(","))
    if args.lulesh is None:
        what.discard("lulesh")
    print("load before: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    ompcc = os.path.join(os.path.abspath(args.bin), "ompcc")
    ompcxx = os.path.join(os.path.abspath(args.bin), "ompc++")
    base = None
    if args.base_bin or base_env:
        base_bin = os.path.abspath(args.base_bin or args.bin)
        base = (os.path.join(base_bin, "ompcc"), os.path.join(base_bin, "ompc++"))
    samples = sorted(glob.glob(os.path.join(root, "samples", "*.c")) +
                     glob.glob(os.path.join(root, "samples", "*.cpp")))
    # The MPI sample needs an MPI compiler wrapper (docs/MPI.md): not one of these builds.
    samples = [s for s in samples if "<mpi.h>" not in open(s, errors="replace").read()]
    programs = {s for s in samples if "main(" in open(s, errors="replace").read()}
    project = os.path.join(root, "tests", "ompcc", "Inputs", "project")
    work = tempfile.mkdtemp(prefix="pomp-bench-ompcc-")
    servers = contextlib.ExitStack()
    try:
        servers.enter_context(private_servers(work))
        print("%d samples, %d rounds, alternating; ratio = ompcc / plain" % (len(samples),
                                                                            args.rounds))
        for key in args.compilers.split(","):
            cc, cxx = COMPILERS[key]
            # A first build is measured: ompcc's own cache and ompinst's preamble cache would
            # serve every round after the first (bench/ompcc_ccache.py measures the second build)
            # unless --preamble warm asks for the preamble cache.
            env = dict(os.environ, OMPCC_CC=cc, OMPCC_CXX=cxx, POMP_QUIET="1", OMPCC_CACHE="0",
                       OMPINST_PREAMBLE="0")
            if args.preamble in ("warm", "second"):
                env.update(OMPINST_PREAMBLE="1",
                           OMPINST_PREAMBLE_DIR=os.path.join(work, "preamble-" + key))
                WARMUPS[0] = 2 if args.preamble == "warm" else 1
                SECOND[0] = args.preamble == "second"

            def build_samples(c_driver, cxx_driver, extra, run_env=None, label=None):
                def run():
                    total = 0.0
                    for sample in samples:
                        driver = cxx_driver if sample.endswith(".cpp") else c_driver
                        out = os.path.join(work, "sample")
                        # A sample without main (a kernel of a mixed program) is compiled only.
                        link = ["-o", out, "-lm"] if sample in programs else ["-c", "-o", out]
                        elapsed = timed_build([driver] + extra + ["-O2", sample] + link, work,
                                              run_env or env)
                        if label:
                            PER_FILE.setdefault((label, sample), []).append(elapsed)
                        total += elapsed
                    return total
                return run

            if "samples" in what:
                PER_FILE.clear()
                plain, wrapped = alternate(args.rounds,
                                           build_samples(cc, cxx, ["-fopenmp"], label="plain"),
                                           build_samples(ompcc, ompcxx, [], label="ompcc"),
                                           build_samples(base[0], base[1], [],
                                                         dict(env, **base_env)) if base else None)
                report("samples", cc + " -fopenmp", plain, wrapped, key)
                if args.per_file:
                    report_per_file(samples)

            def build_project(c_driver, cxx_driver, run_env=None):
                def run():
                    directory = os.path.join(work, "project")
                    shutil.rmtree(directory, ignore_errors=True)
                    shutil.copytree(project, directory)
                    return timed(["make", "-s", "-j2", "CC=" + c_driver, "CXX=" + cxx_driver],
                                 directory, run_env or env)
                return run

            if "project" in what:
                plain, wrapped = alternate(args.rounds, build_project(cc, cxx),
                                           build_project(ompcc, ompcxx),
                                           build_project(*base, dict(env, **base_env))
                                           if base else None)
                report("project", "make -j2 (" + cc + ")", plain, wrapped)

            if "steps" in what:
                measure_steps(args, root, work, (cc, cxx), env, (ompcc, ompcxx), base, base_env)

            probe = os.path.join(work, "conftest.c")
            with open(probe, "w") as f:
                f.write("int main(void) { return 0; }\n")

            def build_probe(driver):
                return lambda: timed([driver, "-O2", "conftest.c", "-o", "conftest"], work, env)

            if "probe" in what:
                plain, wrapped = alternate(args.rounds * 4, build_probe(cc), build_probe(ompcc))
                report("probe", cc + " (conftest)", plain, wrapped)

            def build_lulesh(driver, extra, run_env=None):
                source = os.path.join(os.path.abspath(args.lulesh), "lulesh.cc")
                flags = ["-O2", "-DUSE_MPI=0", "-std=c++17", "-c", source, "-o", "lulesh.o"]
                return lambda: timed_build([driver] + extra + flags, work, run_env or env)

            if "lulesh" in what:
                plain, wrapped = alternate(args.rounds, build_lulesh(cxx, ["-fopenmp"]),
                                           build_lulesh(ompcxx, []),
                                           build_lulesh(base[1], [], dict(env, **base_env))
                                           if base else None)
                report("lulesh", cxx + " -c lulesh.cc", plain, wrapped, key)
        print("load after: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    finally:
        servers.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
