#!/usr/bin/env python3
"""Run-equivalence check of an instrumented program.

Builds the original source with gcc, and the instrumented source with gcc and
with clang-19 linked against the checking POMP library (Inputs/pomp_check.c).
Runs all of them with each thread count and fails unless every instrumented
run prints exactly what the original prints, the checking library saw no
violation, and gcc's and clang's builds produced the same event counts.
Prints the event counts of each thread count for FileCheck:

    threads 2
    pomp-check: Parallel_fork 1
    ...
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def run(cmd, env=None, cwd=None):
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=120, cwd=cwd)
    return proc.returncode, proc.stdout, proc.stderr


def fail(message):
    sys.stderr.write("run_equivalence: " + message + "\n")
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--original", required=True)
    parser.add_argument("--instrumented", required=True)
    parser.add_argument("--pomp-include", required=True)
    parser.add_argument("--check-lib", required=True)
    parser.add_argument("--gcc", required=True)
    parser.add_argument("--clang", required=True)
    parser.add_argument("--only", choices=("gcc", "clang"),
                        help="build the original and the instrumented file with this compiler "
                             "only (a construct the other one rejects or miscompiles); the test "
                             "says why")
    parser.add_argument("--fortran", action="store_true",
                        help="--gcc and --clang name gfortran and flang-new-19: each instrumented "
                             "build is compared with the original built by the same compiler "
                             "(their list-directed output differs)")
    parser.add_argument("--threads", default="1,2,4")
    parser.add_argument("--flags", default="-O1")
    parser.add_argument("--sort-output", action="store_true",
                        help="compare outputs as sorted lines (thread-ordered prints)")
    parser.add_argument("--unstable-events", default="",
                        help="comma-separated events whose counts depend on scheduling (they "
                             "may even be 0): left out of the comparison and the printout")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="pomp-equiv-")
    try:
        check(args, workdir)
    finally:
        # Also after a failure: tests leave nothing in the temporary directory.
        shutil.rmtree(workdir, ignore_errors=True)


def check(args, workdir):
    # Compilers run in the temporary directory: Fortran compilers write module files (.mod) to
    # the current directory, which must stay clean.
    args.original = os.path.abspath(args.original)
    args.instrumented = os.path.abspath(args.instrumented)
    args.check_lib = os.path.abspath(args.check_lib)
    args.pomp_include = os.path.abspath(args.pomp_include)
    flags = args.flags.split()
    link = [args.check_lib, "-lpthread", "-lm"]
    reference = os.path.join(workdir, "reference")
    compilers = [("gcc", args.gcc), ("clang", args.clang)]
    if args.only:
        compilers = [c for c in compilers if c[0] == args.only]
    reference_name, reference_compiler = compilers[0]
    references = {}
    for name, compiler in (compilers if args.fortran else compilers[:1]):
        references[name] = reference + "-" + name
        code, _, err = run([compiler, "-fopenmp"] + flags + [args.original, "-o",
                                                             references[name], "-lm"],
                           cwd=workdir)
        if code:
            fail("the original does not compile with %s:\n%s" % (name, err))
    binaries = {}
    for name, compiler in compilers:
        binary = os.path.join(workdir, "instrumented-" + name)
        code, _, err = run([compiler, "-fopenmp"] + flags + ["-I", args.pomp_include,
                           args.instrumented, "-o", binary] + link, cwd=workdir)
        if code:
            fail("the instrumented file does not compile with %s:\n%s" % (compiler, err))
        binaries[name] = binary

    unstable = set(filter(None, args.unstable_events.split(",")))

    def stable(report):
        lines = []
        for line in report.splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[1] in unstable:
                continue
            lines.append(line)
        return "\n".join(lines) + "\n"

    def normal(text):
        return sorted(text.splitlines()) if args.sort_output else text.splitlines()

    for threads in args.threads.split(","):
        env = dict(os.environ, OMP_NUM_THREADS=threads)
        reports = {}
        for name, binary in binaries.items():
            code, expected, err = run([references.get(name, references[reference_name])], env)
            if code:
                fail("the original exits with %d (threads %s):\n%s" % (code, threads, err))
            report_path = os.path.join(workdir, "events-%s-%s" % (name, threads))
            env_run = dict(env, POMP_CHECK_OUTPUT=report_path)
            code, out, err = run([binary], env_run)
            report = open(report_path).read() if os.path.exists(report_path) else ""
            if code:
                fail("%s build exits with %d (threads %s):\n%s%s" % (name, code, threads, err,
                                                                     report))
            if normal(out) != normal(expected):
                fail("%s build prints something else than the original (threads %s):\n"
                     "--- original\n%s--- instrumented\n%s" % (name, threads, expected, out))
            reports[name] = stable(report)
        if len(reports) > 1 and reports["gcc"] != reports["clang"]:
            fail("gcc and clang builds saw different events (threads %s):\n--- gcc\n%s"
                 "--- clang\n%s" % (threads, reports["gcc"], reports["clang"]))
        print("threads " + threads)
        sys.stdout.write(reports[reference_name])


if __name__ == "__main__":
    main()
