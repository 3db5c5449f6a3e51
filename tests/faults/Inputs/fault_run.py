#!/usr/bin/env python3
"""Runs a measured program with the ENOSPC shim (enospc.c) at one fault point and prints what
the fault tests check, one fact per line, for FileCheck:

  status <measured> <reference>   exit status with libpomp and the fault, and without libpomp
  stdout intact | stdout DIFFERS  the program's own output against the reference run's
  messages <n>                    lines libpomp wrote on stderr (POMP_QUIET=1: only failures)
  message <text>                  each of them, the experiment directory shown as DIR
  fault <op> <file>               what the shim made fail (relative to DIR), once per file
                                  (random parts of temporary names shown as RANDOM)
  files <names>                   everything in DIR (ls -A, recursively), or "files: no DIR"
  trace <format> complete=... removed=... events=N written=W lost=L error=...   per trace
  profile partial=<bool>          when profile.json exists

Usage: fault_run.py --shim lib.so --work dir [--trace otf2|chrome|both] [--fault VAR=VALUE]...
                    --reference prog --measured prog [args...]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys


def normalize(text, directory):
    """The experiment directory as DIR, the random part of temporary names as RANDOM."""
    return re.sub(r"\.[0-9a-f]{16}\b", ".RANDOM", text.replace(directory, "DIR"))


def listing(root):
    names = []
    for base, dirs, files in os.walk(root):
        rel = os.path.relpath(base, root)
        for name in sorted(dirs + files):
            names.append(name if rel == "." else os.path.join(rel, name))
    return sorted(names)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shim", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--trace", choices=["otf2", "chrome", "both"])
    parser.add_argument("--fault", action="append", default=[])
    parser.add_argument("--reference", required=True)
    parser.add_argument("--measured", required=True)
    parser.add_argument("args", nargs="*")
    args = parser.parse_args()

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    directory = os.path.join(args.work, "exp")
    log = os.path.join(args.work, "faults.log")

    reference = subprocess.run([args.reference] + args.args, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, check=False)
    env = dict(os.environ, POMP_QUIET="1", POMP_EXPERIMENT_DIR=directory,
               LD_PRELOAD=args.shim, FAULT_UNDER=args.work, FAULT_LOG=log)
    if args.trace:
        env.update(POMP_TRACE="1", POMP_TRACE_FORMAT=args.trace, POMP_TRACE_BUFFER="256K")
    for fault in args.fault:
        name, value = fault.split("=", 1)
        env[name] = value
    measured = subprocess.run([args.measured] + args.args, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env, check=False, timeout=300)

    print("status %d %d" % (measured.returncode, reference.returncode))
    print("stdout intact" if measured.stdout == reference.stdout and measured.stdout
          else "stdout DIFFERS")
    lines = measured.stderr.decode(errors="replace").splitlines()
    print("messages %d" % len(lines))
    for line in lines:
        print("message " + normalize(line, directory))
    if os.path.exists(log):
        with open(log) as f:
            for line in f:
                op, path = line.rstrip("\n").split(" ", 1)
                print("fault %s %s" % (op, normalize(os.path.relpath(path, directory), directory)))
    if os.path.isdir(directory):
        print("files " + " ".join(listing(directory)))
    else:
        print("files: no DIR")
    profile = os.path.join(directory, "profile.json")
    if os.path.exists(profile):
        with open(profile) as f:
            data = json.load(f)
        for t in data["traces"]:
            print("trace %s complete=%s removed=%s events=%d written=%d lost=%d error=%s" % (
                t["format"], str(t["complete"]).lower(), str(t["removed"]).lower(), t["events"],
                t["events_written"], t["events_lost"], t["error"]))
        print("profile partial=%s" % str(data["partial"]).lower())
    shutil.rmtree(args.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
