#!/usr/bin/env python3
"""Compare the output of two ompinst binaries, byte for byte, over the lit tests and the samples.

A speed-up of ompinst must not change what it writes (issue 15). This runs every `%ompinst %s`
RUN line of tests/instrumenter, tests/header and tests/samples (redirections and pipes dropped),
plus ompinst on each of samples/ and on any FILE given (with FLAGS), once with each binary, and
compares exit status, the output file and the instrumented header copies. Prints the differences
and exits 1 when there is one.

    bench/ompinst_compare.py --base /tmp/ompinst.old [--new build/bin/ompinst] [FILE...]
        [-- FLAGS...]

With the preamble cache (docs/INSTRUMENTER.md), run it twice with the same --work directory and
cache: the first run compares a cold cache, the second a warm one.
"""
import argparse
import contextlib
import filecmp
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TEST_DIRS = ["tests/instrumenter", "tests/header", "tests/samples"]
SAMPLE_FLAGS = {".c": [], ".cpp": ["-std=c++17"], ".cc": ["-std=c++17"]}


def run_lines(path):
    """The ompinst commands of a test file, as argument lists with %s and %t to substitute."""
    with open(path, errors="replace") as f:
        text = f.read()
    for match in re.finditer(r"RUN:\s*(.*)", text):
        line = match.group(1).strip()
        if not line.startswith("%ompinst ") and not line.startswith("not %ompinst "):
            continue
        line = line.split("|")[0]
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        words = [w for w in words if w != "not"]
        # Drop redirections (2> file, 2>&1, > file).
        out, skip = [], False
        for w in words:
            if skip:
                skip = False
                continue
            if w in ("2>", ">", "<", "2>>", ">>"):
                skip = True
                continue
            if re.match(r"^\d?>&?\d*$", w) or w.startswith("2>") or w.startswith(">"):
                continue
            out.append(w)
        yield out[1:]


def run(binary, args, work):
    """Runs binary with args in work; returns the exit status and the files it wrote."""
    os.makedirs(work, exist_ok=True)
    proc = subprocess.run([binary] + args, cwd=work, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    files = {}
    for dirpath, _, names in os.walk(work):
        for n in names:
            full = os.path.join(dirpath, n)
            files[os.path.relpath(full, work)] = full
    return proc.returncode, files


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the ompinst to compare against")
    parser.add_argument("--new", default=os.path.join(ROOT, "build", "bin", "ompinst"))
    parser.add_argument("--extra", action="append", default=[],
                        help="more ompinst arguments for every run (--no-skip-bodies)")
    parser.add_argument("--only-files", action="store_true",
                        help="compare on the FILEs only, not on the tests and samples")
    parser.add_argument("--work", default=None,
                        help="run in this directory (emptied first) instead of a temporary one: "
                             "the same working directories from one run to the next, as a warm "
                             "preamble cache needs")
    parser.add_argument("files", nargs="*")
    parser.add_argument("flags", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cases = []
    for d in [] if args.only_files else TEST_DIRS:
        for path in sorted(glob.glob(os.path.join(ROOT, d, "*"))):
            if os.path.isfile(path):
                for words in run_lines(path):
                    cases.append((path, words))
    for path in [] if args.only_files else sorted(glob.glob(os.path.join(ROOT, "samples", "*.c*"))):
        ext = os.path.splitext(path)[1]
        cases.append((path, ["%s", "-o", "%t" + ext, "--"] + SAMPLE_FLAGS.get(ext, [])))
    flags = [f for f in args.flags if f != "--"]
    for path in args.files:
        ext = os.path.splitext(path)[1]
        cases.append((os.path.abspath(path), ["%s", "-o", "%t" + ext, "--"] + flags))
    differences = 0
    if args.work:
        shutil.rmtree(args.work, ignore_errors=True)
        os.makedirs(args.work)
    with (contextlib.nullcontext(os.path.abspath(args.work)) if args.work else
          tempfile.TemporaryDirectory(prefix="pomp-compare-")) as tmp:
        for n, (path, words) in enumerate(cases):
            results = []
            for side, binary in (("base", args.base), ("new", args.new)):
                work = os.path.join(tmp, side, str(n))
                argv = [w.replace("%s", path).replace("%t", os.path.join(work, "t"))
                        .replace("%S", os.path.dirname(path)) for w in words]
                extra = args.extra if side == "new" else []
                results.append(run(binary, argv[:1] + extra + argv[1:], work))
            (rb, fb), (rn, fn) = results
            # Paths inside the outputs name the work directory: compare with it replaced.
            same = rb == rn and sorted(fb) == sorted(fn)
            if same:
                for rel in fb:
                    a = open(fb[rel], "rb").read().replace(
                        os.path.join(tmp, "base").encode(), b"@")
                    b = open(fn[rel], "rb").read().replace(
                        os.path.join(tmp, "new").encode(), b"@")
                    if a != b:
                        same = False
                        print("DIFFERENT %s: %s (%s)" % (rel, path, " ".join(words)))
            else:
                print("DIFFERENT status/files %s -> %s, %s: %s (%s)" % (
                    rb, rn, sorted(set(fb) ^ set(fn)), path, " ".join(words)))
            differences += not same
    print("%d cases, %d different" % (len(cases), differences))
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
