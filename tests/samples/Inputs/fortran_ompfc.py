#!/usr/bin/env python3
"""Builds a Fortran sample plainly and with ompfc (strict: every file instrumented) over gfortran
and over flang-new-19, runs each build with 1, 2 and 4 threads, and fails unless every instrumented
run prints what the plain build of the same compiler prints and exits as it does. Prints, per
compiler, the profile tree of the 2-thread run (profile_tree.py, paths reduced to file names) for
FileCheck: on gfortran the POMP events alone, on flang the merged POMP + OMPT profile.

    fortran_ompfc.py --ompfc ompfc --gfortran gfortran --flang flang-new-19 --gcc gcc
                     --clang clang-19 --work DIR source...

C sources among the sources are compiled by the C compiler of the same OpenMP runtime (gcc beside
gfortran, clang-19 beside flang), as ompfc does with OMPCC_CC.
"""
import argparse
import os
import shutil
import subprocess
import sys

THREADS = ("1", "2", "4")
PROFILE_THREADS = "2"
TREE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "runtime", "Inputs",
                    "profile_tree.py")


def fail(message):
    sys.stderr.write("fortran_ompfc: " + message + "\n")
    sys.exit(1)


def run(cmd, cwd, env=None):
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def main():
    parser = argparse.ArgumentParser()
    for tool in ("ompfc", "gfortran", "flang", "gcc", "clang", "work"):
        parser.add_argument("--" + tool, required=True)
    parser.add_argument("sources", nargs="+")
    args = parser.parse_args()
    sources = [os.path.abspath(s) for s in args.sources]
    shutil.rmtree(args.work, ignore_errors=True)
    for name, fc, cc in (("gfortran", args.gfortran, args.gcc), ("flang", args.flang, args.clang)):
        work = os.path.join(args.work, name)
        plain, inst = os.path.join(work, "plain"), os.path.join(work, "inst")
        os.makedirs(plain)
        os.makedirs(inst)
        # Plain build: C sources by the C compiler, then the Fortran compiler links.
        objects = []
        for source in sources:
            if source.endswith(".c"):
                obj = os.path.join(plain, os.path.basename(source) + ".o")
                code, _, err = run([cc, "-fopenmp", "-O2", "-c", source, "-o", obj], plain)
                if code:
                    fail("%s does not compile with %s:\n%s" % (source, cc, err))
                objects.append(obj)
        fortran = [s for s in sources if not s.endswith(".c")]
        code, _, err = run([fc, "-fopenmp", "-O2"] + fortran + objects + ["-o", "prog"], plain)
        if code:
            fail("the plain %s build fails:\n%s" % (name, err))
        env = dict(os.environ, OMPCC_FC=fc, OMPCC_CC=cc, OMPCC_STRICT="1")
        code, _, err = run([args.ompfc, "-fopenmp", "-O2"] + sources + ["-o", "prog"], inst, env)
        if code:
            fail("the ompfc build over %s fails:\n%s" % (name, err))
        for threads in THREADS:
            env = dict(os.environ, OMP_NUM_THREADS=threads, POMP_QUIET="1")
            code_p, out_p, err_p = run([os.path.join(plain, "prog")], plain, env)
            experiment = os.path.join(inst, "exp-" + threads)
            code_i, out_i, err_i = run([os.path.join(inst, "prog")], inst,
                                       dict(env, POMP_EXPERIMENT_DIR=experiment))
            if (code_i, out_i) != (code_p, out_p):
                fail("%s, %s threads: the instrumented build exits with %d and prints\n%s"
                     "where the plain one exits with %d and prints\n%s%s"
                     % (name, threads, code_i, out_i, code_p, out_p, err_i))
        code, tree, err = run([sys.executable, TREE, os.path.join(inst, "exp-" + PROFILE_THREADS)],
                              inst)
        if code:
            fail("%s: %s" % (name, err))
        for source in sources:
            tree = tree.replace(os.path.dirname(source) + "/", "")
        print("== " + name)
        print("outputs: as plain at %s threads" % " ".join(THREADS))
        sys.stdout.write(tree)
    shutil.rmtree(args.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
