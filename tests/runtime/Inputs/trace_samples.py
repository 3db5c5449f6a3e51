"""Traces every given sample and checks each trace against its profile (trace_check.py).

Usage: trace_samples.py --ompcc ompcc --cc <compiler> --otf2-print <path> --work <dir> sample.c...
Builds each sample with ompcc and the compiler, runs it with POMP_TRACE=1 and 3 threads, and
prints "<sample>: <locations> locations, <forks> forks, <acquisitions> lock acquisitions, <tasks>
tasks" or the
checker's complaint (and exits 1).
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ompcc", required=True)
    parser.add_argument("--cc", required=True)
    parser.add_argument("--otf2-print", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("samples", nargs="+")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    status = 0
    for source in args.samples:
        name = os.path.splitext(os.path.basename(source))[0]
        exe = os.path.join(args.work, name)
        out = exe + ".dir"
        subprocess.run([args.ompcc, "--cc=" + args.cc, "-fopenmp", "-O1", source, "-o", exe, "-lm"],
                       check=True)
        subprocess.run(["rm", "-rf", out], check=True)
        env = dict(os.environ, OMP_NUM_THREADS="3", POMP_TRACE="1", POMP_QUIET="1",
                   POMP_EXPERIMENT_DIR=out)
        subprocess.run([exe], env=env, check=True, stdout=subprocess.DEVNULL)
        check = subprocess.run([sys.executable, os.path.join(HERE, "trace_check.py"),
                                args.otf2_print, out], capture_output=True, text=True)
        if check.returncode != 0:
            print("%s: %s" % (name, check.stderr.strip()))
            status = 1
            continue
        counts = dict(line.split(": ", 1) for line in check.stdout.splitlines() if ": " in line)
        print("%s: %s locations, %s forks, %s lock acquisitions, %s tasks" %
              (name, counts["locations"], counts["THREAD_FORK"], counts["THREAD_ACQUIRE_LOCK"],
               counts["THREAD_TASK_CREATE"]))
    return status


if __name__ == "__main__":
    sys.exit(main())
