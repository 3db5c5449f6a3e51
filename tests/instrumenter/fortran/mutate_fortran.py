#!/usr/bin/env python3
"""Robustness of ompinst's Fortran front end against mutated sources.

Makes mutants of seed Fortran files with a fixed random seed (1-3 mutations
each: a line deleted, duplicated or swapped with the next one, `!$omp` lines
picked more often; a token deleted or duplicated), runs ompinst on each with a
timeout and checks that it

  (a) does not crash: exit status 0 or 1, no signal, no assertion, stack dump
      or "PLEASE submit a bug report" on stderr;
  (b) does not hang: it finishes within --timeout seconds;
  (c) on exit status 0 writes output that gfortran accepts (-fsyntax-only)
      whenever gfortran accepts the mutant itself;
  (d) on exit status 1 writes no output file and says "error:".

Prints one summary line and each failure (the mutant is kept under --workdir);
exits 1 on any failure.
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys

CRASH_MARKS = ("PLEASE submit", "Assertion", "Stack dump", "Segmentation fault",
               "terminate called", "LLVM ERROR", "fatal internal error")
TOKEN_RE = re.compile(r"\s+|[A-Za-z_][A-Za-z_0-9]*|\d+|\S")


def mutate(text, rng):
    lines = text.split("\n")
    made = []
    for _ in range(rng.randint(1, 3)):
        omp = [i for i, l in enumerate(lines) if "$omp" in l.lower()]
        i = rng.choice(omp) if omp and rng.random() < 0.6 else rng.randrange(len(lines))
        kind = rng.choice(("delete-line", "duplicate-line", "swap-lines", "delete-token",
                           "duplicate-token"))
        if kind == "delete-line":
            del lines[i]
        elif kind == "duplicate-line":
            lines.insert(i, lines[i])
        elif kind == "swap-lines" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        else:
            tokens = [m for m in TOKEN_RE.finditer(lines[i]) if not m.group().isspace()]
            if not tokens:
                continue
            t = rng.choice(tokens)
            replacement = "" if kind == "delete-token" else t.group() * 2
            lines[i] = lines[i][:t.start()] + replacement + lines[i][t.end():]
        made.append("%s@%d" % (kind, i + 1))
        if not lines:
            lines = [""]
    return "\n".join(lines), made


def compiles(gfortran, path, timeout):
    try:
        proc = subprocess.run([gfortran, "-fopenmp", "-cpp", "-fsyntax-only", path],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=timeout, cwd=os.path.dirname(path))
    except subprocess.TimeoutExpired:
        return False
    return proc.returncode == 0


def check(args, number, seed_path):
    rng = random.Random("%d-%d" % (args.seed, number))
    text, made = mutate(open(seed_path).read(), rng)
    base, suffix = os.path.splitext(os.path.basename(seed_path))
    directory = os.path.join(args.workdir, "m%04d" % number)
    os.makedirs(directory, exist_ok=True)
    mutant = os.path.join(directory, base + suffix)
    output = os.path.join(directory, base + ".inst" + suffix)
    with open(mutant, "w") as f:
        f.write(text)
    try:
        proc = subprocess.run([args.ompinst, mutant, "-o", output], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True,
                              timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return "fail", "hang (over %d s): %s %s" % (args.timeout, mutant, made)
    err = proc.stderr
    if proc.returncode not in (0, 1) or any(m in err for m in CRASH_MARKS):
        return "fail", "crash (status %d): %s %s\n%s" % (proc.returncode, mutant, made, err[-2000:])
    if proc.returncode == 1:
        if os.path.exists(output):
            return "fail", "error exit but an output file: %s %s" % (mutant, made)
        if "error:" not in err:
            return "fail", "error exit without an error message: %s %s" % (mutant, made)
        shutil.rmtree(directory)
        return "rejected", ""
    if not compiles(args.gfortran, mutant, args.timeout):
        shutil.rmtree(directory)
        return "skipped", ""
    if not compiles(args.gfortran, output, args.timeout):
        return "fail", "output does not compile though the mutant does: %s %s" % (mutant, made)
    shutil.rmtree(directory)
    return "ok", ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ompinst", required=True)
    parser.add_argument("--gfortran", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--timeout", type=int, default=20)
    parser.add_argument("seeds", nargs="+")
    args = parser.parse_args()
    seeds = sorted(args.seeds)
    os.makedirs(args.workdir, exist_ok=True)
    counts = {"ok": 0, "rejected": 0, "skipped": 0, "fail": 0}
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [pool.submit(check, args, n, seeds[n % len(seeds)]) for n in range(args.count)]
        for job in jobs:
            outcome, message = job.result()
            counts[outcome] += 1
            if message:
                failures.append(message)
    print("mutants: %d, ok-instrumented: %d, rejected-with-error: %d, skipped: %d, failures: %d"
          % (args.count, counts["ok"], counts["rejected"], counts["skipped"], counts["fail"]))
    for message in failures:
        print("FAIL: " + message)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
