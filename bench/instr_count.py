#!/usr/bin/env python3
"""Instructions per OpenMP construct with no tool, a no-op OMPT tool, OMPT only, POMP only and
both merged, counted by callgrind: repeatable on a loaded machine, where timings are not.

bench/constructs.c runs N executions of one construct; each configuration runs it under
`valgrind --tool=callgrind` with N1 and N2 executions, and the difference of the two instruction
counts divided by N2 - N1 is what one construct costs all threads together (the program's start
and end cancel out); a second table gives the instructions of libpomp.so alone. Threads wait passively (OMP_WAIT_POLICY=passive, KMP_BLOCKTIME=0), so that
no spinning is counted; valgrind runs the threads one at a time. Counts are user-space
instructions of the program, libomp and the tool: not time (a cache miss or a system call counts
as one instruction or none), but what a change of the tool's code adds or saves. The task rows
(`task`, `ptask`, `pair`) run with KMP_TASKING=0, tasks undeferred (see IMMEDIATE_TASKS below).

  bench/instr_count.py [--bin build/bin] [--lib build/lib] [--baseline PREFIX]
                       [--caliper PREFIX] [--ompinst-variant ARG] [--constructs parallel,...]
                       [--n1 200] [--n2 1000]

--caliper PREFIX adds LLNL Caliper's OMPT service (as in ompt_overhead.py; never built in CI).
--baseline PREFIX adds "OMPT only", "POMP only" and "both" of another toolkit (an installed one:
PREFIX/bin/ompcc, PREFIX/lib/libpomp.so), so a change is compared in one run.
--ompinst-variant ARG adds "POMP only" and "both" of this toolkit's ompcc given
--ompinst-arg=ARG (e.g. --thread-ids): an A/B of the instrumented code, same library.
Valgrind cannot read libpomp's debug information; the script runs copies without it
(objcopy --strip-debug).

libpomp is run with POMP_CLOCK=tsc (--clock): under valgrind an emulated rdtsc looks slower than
clock_gettime, libpomp would choose the monotonic clock, and with it every event would take the
general path instead of the fast one that real runs on a TSC machine take.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from ompinst_servers import private_servers

HERE = os.path.dirname(os.path.abspath(__file__))
CONSTRUCTS = ["parallel", "parallelfor", "reduction", "barrier", "single", "for", "lock", "task",
              "ptask", "pair", "nested"]
# Constructs with explicit tasks run in libomp's immediate mode (KMP_TASKING=0): every task runs
# where it is created, undeferred. With deferred tasks a waiting thread tries to steal for as long
# as valgrind runs it alone, and libomp's count of one task construct varied from 6,500 to 14,000
# between runs (instructions in its stealing loop), more than any tool adds; in immediate mode
# repeated runs agree within a few instructions, with every task and its callbacks recorded.
IMMEDIATE_TASKS = {"task", "ptask", "pair"}
# Not `nested`: libomp 19's immediate mode recurses until the stack overflows on its untied tasks
# (each part queues the next, which runs at once inside it). Deferred, its totals vary with
# stealing as above; libpomp's own count does not.
COLLECTED = re.compile(r"Collected : (\d+)")
# A function's self cost in callgrind_annotate's output: "1,234 (0.5%)  file:function [object]".
FUNCTION_LINE = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(?!=>)(\S.*\])\s*$")


def check(cmd, **kw):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if proc.returncode != 0:
        sys.exit("instr_count: command failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd),
                                                                 proc.stderr[-2000:]))
    return proc


def stripped(lib, work, name):
    os.makedirs(os.path.join(work, name), exist_ok=True)
    out = os.path.join(work, name, "libpomp.so")
    check(["objcopy", "--strip-debug", lib, out])
    return out


def own_instructions(profile):
    """Instructions executed in libpomp.so itself (self cost of its functions): what the
    library's code costs, independent of how libomp's waiting threads were scheduled."""
    out = check(["callgrind_annotate", "--inclusive=no", "--threshold=100", profile]).stdout
    total = 0
    for line in out.splitlines():
        m = FUNCTION_LINE.match(line)
        if m and m.group(2).endswith("libpomp.so]"):
            total += int(m.group(1).replace(",", ""))
    return total


def count(exe, construct, n, env, work):
    """All instructions of a run, and those of libpomp.so."""
    profile = os.path.join(work, "callgrind.out")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + profile, exe, construct,
           str(n)]
    proc = check(cmd, env=env, cwd=work)
    m = COLLECTED.search(proc.stderr)
    if not m:
        sys.exit("instr_count: no instruction count from callgrind:\n" + proc.stderr[-2000:])
    own = own_instructions(profile)
    os.remove(profile)
    return int(m.group(1)), own


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--lib", default="build/lib")
    parser.add_argument("--cc", default="clang-19")
    parser.add_argument("--baseline", help="prefix of another toolkit to compare with")
    parser.add_argument("--caliper", help="prefix of a Caliper installation built with OMPT")
    parser.add_argument("--ompinst-variant", metavar="ARG",
                        help="also POMP only and both with ompcc --ompinst-arg=ARG")
    parser.add_argument("--constructs", default=",".join(CONSTRUCTS))
    parser.add_argument("--n1", type=int, default=200)
    parser.add_argument("--n2", type=int, default=1000)
    parser.add_argument("--threads", default="2")
    parser.add_argument("--clock", default="tsc", help="POMP_CLOCK for libpomp (default tsc)")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("instr_count: valgrind is not installed")
    with tempfile.TemporaryDirectory(prefix="pomp-instr-count-") as work, private_servers(work):
        src = os.path.join(HERE, "constructs.c")
        flags = ["-fopenmp", "-O1"]
        tool = os.path.join(work, "noop_ompt_tool.so")
        check([args.cc, "-O2", "-shared", "-fPIC", os.path.join(HERE, "noop_ompt_tool.c"), "-o",
               tool])
        plain = os.path.join(work, "plain")
        check([args.cc] + flags + [src, "-o", plain])
        toolkits = [("", os.path.abspath(args.bin), os.path.abspath(args.lib), [])]
        if args.ompinst_variant:
            toolkits.append((" (%s)" % args.ompinst_variant, os.path.abspath(args.bin),
                             os.path.abspath(args.lib), ["--ompinst-arg=" + args.ompinst_variant]))
        if args.baseline:
            toolkits.append((" (baseline)", os.path.join(args.baseline, "bin"),
                             os.path.join(args.baseline, "lib"), []))
        runs = {"no tool": (plain, {}), "noop OMPT": (plain, {"OMP_TOOL_LIBRARIES": tool})}
        configs = ["no tool", "noop OMPT"]
        for i, (suffix, bindir, libdir, ompinst_args) in enumerate(toolkits):
            lib = stripped(os.path.join(libdir, "libpomp.so"), work, "lib%d" % i)
            inst = os.path.join(work, "inst%d" % i)
            check([os.path.join(bindir, "ompcc"), "--cc=" + args.cc] + ompinst_args + flags +
                  [src, "-o", inst], cwd=work)
            # A variant of the instrumentation has the same library: OMPT only is the same.
            variants = [] if ompinst_args else [("OMPT only", plain, {"OMP_TOOL_LIBRARIES": lib})]
            for name, exe, extra in variants + [
                    ("POMP only", inst, {"LD_PRELOAD": lib, "POMP_OMPT": "off"}),
                    ("both", inst, {"LD_PRELOAD": lib})]:
                runs[name + suffix] = (exe, extra)
                configs.append(name + suffix)
        if args.caliper:
            found = glob.glob(os.path.join(args.caliper, "lib*", "libcaliper.so"))
            if not found:
                sys.exit("instr_count: no lib*/libcaliper.so under " + args.caliper)
            # As in ompt_overhead.py: CALI_USE_OMPT=1, or Caliper declines to be the OMPT tool.
            runs["Caliper"] = (plain, {"OMP_TOOL_LIBRARIES": found[0], "CALI_USE_OMPT": "1",
                                       "CALI_CONFIG": "openmp-report,output=/dev/null"})
            configs.append("Caliper")
        base = dict(os.environ, OMP_NUM_THREADS=args.threads, OMP_WAIT_POLICY="passive",
                    KMP_BLOCKTIME="0", POMP_QUIET="1", POMP_CLOCK=args.clock)
        for name in ("OMP_TOOL_LIBRARIES", "POMP_OMPT", "OMP_TOOL", "LD_PRELOAD"):
            base.pop(name, None)
        print("instructions per construct (all %s threads), callgrind, N=%d and %d, POMP_CLOCK=%s" %
              (args.threads, args.n1, args.n2, args.clock))
        print("| construct | " + " | ".join(configs) + " |")
        print("|---" * (len(configs) + 1) + "|")
        own_rows = []
        for construct in args.constructs.split(","):
            cells = []
            own = []
            for config in configs:
                exe, extra = runs[config]
                env = dict(base, **extra)
                if construct in IMMEDIATE_TASKS:
                    env["KMP_TASKING"] = "0"
                env["POMP_EXPERIMENT_DIR"] = os.path.join(work, "exp-%s-%s-1" % (
                    construct, config.replace(" ", "_").replace("(", "").replace(")", "")))
                low, low_own = count(exe, construct, args.n1, env, work)
                env["POMP_EXPERIMENT_DIR"] = env["POMP_EXPERIMENT_DIR"][:-2] + "-2"
                high, high_own = count(exe, construct, args.n2, env, work)
                cells.append((high - low) / (args.n2 - args.n1))
                own.append((high_own - low_own) / (args.n2 - args.n1))
            print("| %s | %s |" % (construct, " | ".join("%.0f" % c for c in cells)), flush=True)
            own_rows.append((construct, own))
        # libomp's waiting threads run a different number of instructions from run to run (how
        # valgrind scheduled them), so the totals above vary by some hundreds; libpomp's own
        # instructions do not.
        tools = [i for i, c in enumerate(configs) if c not in ("no tool", "noop OMPT", "Caliper")]
        print()
        print("of which libpomp.so's own instructions")
        print("| construct | " + " | ".join(configs[i] for i in tools) + " |")
        print("|---" * (len(tools) + 1) + "|")
        for construct, own in own_rows:
            print("| %s | %s |" % (construct, " | ".join("%.0f" % own[i] for i in tools)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
