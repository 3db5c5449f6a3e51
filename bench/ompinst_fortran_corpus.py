#!/usr/bin/env python3
"""ompinst against flang-new-19 -fsyntax-only on every Fortran file of real programs.

Issue 14's speed goal is ompinst at most 0.5 x `flang-new-19 -fsyntax-only` on a Fortran file.
bench/ompinst_vs_syntax.py times one file; this script times each file of the Fortran corpus
manifests (bench/corpus_runner.py's format: NPB 3.4 OMP's per-program builds, the OpenMP
Examples' single files) the same way, in alternating rounds, and prints the distribution of the
per-file ratios and the files above the goal.

    bench/ompinst_fortran_corpus.py [--ompinst build/bin/ompinst] [--rounds 3]
        [--npb-class W] MANIFEST.json...

For a program manifest, the part of its build command before the first `{fc}` (setparams and its
headers) runs in a copy of the suite, and the files that the first `{fc} ... -c` compiles are
timed in that order, so that each file's modules exist when flang checks it (`-fsyntax-only`
writes module files). For a single-file manifest every file its globs name is timed. A file that
flang itself rejects is counted and left out of the ratios.
"""
import argparse
import glob
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

GOAL = 0.5
FORTRAN_SUFFIXES = (".f", ".f90", ".F", ".F90", ".f95", ".f03", ".f08", ".for")


def timed(cmd, cwd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, proc.returncode


def measure(ompinst, flang, source, cwd, modules, out, rounds):
    """Median seconds of ompinst and of flang -fsyntax-only on one file; None if one fails."""
    ours = [ompinst, source, "-o", out, "--quiet", "--", "-I", cwd]
    theirs = [flang, "-fopenmp", "-fsyntax-only", "-module-dir", modules, "-I", modules, source]
    # A warm-up of each fills the file cache; it also writes the modules later files use.
    _, flang_rc = timed(theirs, cwd)
    _, ours_rc = timed(ours, cwd)
    if flang_rc != 0 or ours_rc != 0:
        return None, flang_rc, ours_rc
    a, b = [], []
    for _ in range(rounds):
        a.append(timed(ours, cwd)[0])
        b.append(timed(theirs, cwd)[0])
    return (statistics.median(a), statistics.median(b)), 0, 0


def program_files(build, klass):
    """The setparams prefix and the files of a program manifest's first Fortran compile."""
    prefix, _, rest = build.partition("{fc}")
    prefix = prefix.strip().rstrip("&").strip()
    prefix = re.sub(r"(\./setparams \w+) S\b", r"\1 " + klass, prefix)
    compile_args = rest.split("&&")[0]
    files = [w for w in shlex.split(compile_args) if w.endswith(FORTRAN_SUFFIXES)]
    return prefix, files


def run_manifest(path, args, work, rows, rejected):
    with open(path, encoding="utf-8") as f:
        manifest = json.load(f)
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), manifest["root"]))
    suite = manifest["suite"]
    out = os.path.join(work, "out.f90")
    if "programs" in manifest:
        copy = os.path.join(work, "suite")
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(root, copy, symlinks=True)
        seen = set()
        for program in manifest["programs"]:
            if program["dir"] in seen or "{fc}" not in program["build"]:
                continue
            seen.add(program["dir"])
            cwd = os.path.join(copy, program["dir"])
            prefix, files = program_files(program["build"], args.npb_class)
            subprocess.run(prefix, shell=True, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            modules = os.path.join(work, "mod-" + program["dir"])
            os.makedirs(modules, exist_ok=True)
            for name in files:
                result, flang_rc, ours_rc = measure(args.ompinst, args.flang, name, cwd, modules,
                                                    out, args.rounds)
                label = "%s/%s" % (program["dir"], name)
                if result is None:
                    rejected.append((suite, label, flang_rc, ours_rc))
                else:
                    rows.append((suite, label) + result)
    for single in manifest.get("single_file", []):
        for pattern in single["glob"]:
            for source in sorted(glob.glob(os.path.join(root, pattern))):
                modules = os.path.join(work, "mod-single")
                os.makedirs(modules, exist_ok=True)
                result, flang_rc, ours_rc = measure(args.ompinst, args.flang, source,
                                                    os.path.dirname(source), modules,
                                                    os.path.splitext(out)[0] +
                                                    os.path.splitext(source)[1], args.rounds)
                label = os.path.relpath(source, root)
                if result is None:
                    rejected.append((suite, label, flang_rc, ours_rc))
                else:
                    rows.append((suite, label) + result)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ompinst", default=os.path.join(here, "..", "build", "bin", "ompinst"))
    parser.add_argument("--flang", default="flang-new-19")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--npb-class", default="W", help="the class setparams is run for")
    parser.add_argument("--worst", type=int, default=8, help="how many of the slowest to list")
    parser.add_argument("manifests", nargs="+")
    args = parser.parse_args()
    args.ompinst = os.path.abspath(args.ompinst)
    rows, rejected = [], []
    print("load before: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    with tempfile.TemporaryDirectory(prefix="pomp-fbench-") as work:
        for manifest in args.manifests:
            run_manifest(manifest, args, work, rows, rejected)
    print("load after: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    print("%d rounds, alternating, medians per file; goal: ompinst / flang -fsyntax-only <= %.1f"
          % (args.rounds, GOAL))
    print()
    print("| suite | files | median ratio | largest ratio | files above %.1f | ompinst in all | "
          "flang in all | ratio of the sums |" % GOAL)
    print("|---|---|---|---|---|---|---|---|")
    for suite in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == suite]
        ratios = [r[2] / r[3] for r in mine]
        ours, theirs = sum(r[2] for r in mine), sum(r[3] for r in mine)
        print("| %s | %d | %.2f | %.2f | %d | %.2f s | %.2f s | %.2f |" % (
            suite, len(mine), statistics.median(ratios), max(ratios),
            sum(1 for x in ratios if x > GOAL), ours, theirs, ours / theirs))
    print()
    print("slowest files relative to flang:")
    for suite, label, ours, theirs in sorted(rows, key=lambda r: r[2] / r[3],
                                             reverse=True)[:args.worst]:
        print("  %.2f  %s %s (ompinst %.3f s, flang %.3f s)" % (ours / theirs, suite, label,
                                                                 ours, theirs))
    if rejected:
        print("not timed (flang's or ompinst's exit status):")
        for suite, label, flang_rc, ours_rc in rejected:
            print("  %s %s: flang %d, ompinst %d" % (suite, label, flang_rc, ours_rc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
