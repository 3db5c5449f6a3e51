#!/usr/bin/env python3
"""Fidelity of ompcc on third-party OpenMP suites (docs/FIDELITY.md).

For every program a manifest describes, the runner
  - builds it plain (gcc, clang-19), with ompcc/ompc++ over each of them (strict mode) and with
    clang-19's source-based coverage;
  - runs each build at every thread count and compares the instrumented run's output with the
    plain run of the same compiler (after the manifest's normalisation);
  - counts the source files ompcc instrumented, compiled as they are (fallback, with the reason)
    or did not need to instrument (no OpenMP in them);
  - takes the OpenMP construct sites the coverage run executed as ground truth and checks that
    each got a visited region in the instrumented runs' profiles.
MPI programs (a manifest's "mpi") are built with the MPI compiler wrappers (under ompcc in the
instrumented configurations), run with mpirun, and each instrumented run's job directory is
checked to have a whole part per rank.
It writes a markdown table (docs/FIDELITY.md) and a JSON file of every failure. The suites and
the manifests that say how to build them live outside the repository: nothing here builds a
particular project. bench/README.md documents the manifest format.

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import fnmatch
import glob
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

from ompinst_servers import private_servers

DEFAULT_THREADS = (2, 3)
DEFAULT_RUN_TIMEOUT = 60
DEFAULT_BUILD_TIMEOUT = 600
# Stdout beyond this is cut before comparing (a runaway program must not fill the memory).
MAX_OUTPUT_BYTES = 16 << 20
# Exit statuses from here on are a shell's report of a signal (or a runtime's abort).
SIGNAL_EXIT_STATUS = 128
FORTRAN_EXTENSIONS = (".f", ".F", ".f90", ".F90", ".f95", ".F95", ".f03", ".F03", ".f08", ".F08",
                      ".for", ".FOR", ".ftn", ".FTN")
SOURCE_EXTENSIONS = (".c", ".cc", ".cpp", ".cxx", ".c++", ".C") + FORTRAN_EXTENSIONS

# Directives that execute and that ompinst gives a region (docs/INSTRUMENTER.md, "What each
# construct becomes"): the first word of the directive.
EXECUTABLE_DIRECTIVES = {
    "parallel", "for", "simd", "sections", "single", "scope", "master", "masked", "critical",
    "barrier", "atomic", "flush", "ordered", "task", "taskwait", "taskyield", "taskgroup",
    "taskloop", "cancel", "cancellation", "teams", "distribute", "loop", "target", "error",
}
# Executable directives that ompinst leaves as they are by design (documented): counted apart.
LEFT_ALONE_DIRECTIVES = {
    "section", "tile", "unroll", "scan", "depobj", "interop", "dispatch", "metadirective",
    "nothing", "assume",
}
# Declarative directives: no run-time site.
DECLARATIVE_DIRECTIVES = {
    "declare", "begin", "end", "threadprivate", "requires", "allocate", "assumes", "groupprivate",
}
# Target forms whose block is host code (the others' blocks are device code, not instrumented).
HOST_TARGET_FORMS = ("target data", "target enter", "target exit", "target update")

# ompcc's warning (or, in strict mode, error) for a file compiled uninstrumented.
FALLBACK_RE = re.compile(
    r"^(?:\S*/)?(ompcc|ompc\+\+|ompfc|ompf90|ompf77): (warning|error): (.+?): "
    r"(?:not instrumented|not instrumented, its OpenMP constructs are not measured|"
    r"cannot be instrumented): (.*)$",
    re.M,
)
# Files ompcc compiles as they are because nothing in them needs instrumenting (the rule of
# linker-wrapper/lib/SourceChecks.cpp, mayNeedInstrumentation).
NEEDS_INSTRUMENTATION_RE = re.compile(
    r"(?<![A-Za-z0-9_$])(?:omp|pomp|_Pragma|main|omp_[A-Za-z0-9_$]*)(?![A-Za-z0-9_$])"
)
MAIN_RE = re.compile(r"(?<![A-Za-z0-9_])main\s*\(\s*(void|int|\))")
# A Fortran main program: a PROGRAM statement (free or fixed form).
FORTRAN_MAIN_RE = re.compile(r"^[ \t]*program[ \t]+[a-z]\w*[ \t]*(!.*)?$", re.I | re.M)
# ompfc's rule for Fortran files that cannot need instrumentation (docs/FORTRAN.md): no `$`,
# `omp_`, `program` or `include` in any case.
FORTRAN_NEEDS_INSTRUMENTATION_RE = re.compile(r"\$|omp_|program|include", re.I)
# Region types of the merged profile that OMPT alone may add under instrumented Fortran code by
# design (docs/FORTRAN.md): waits, reductions, the barriers flang emits around them, the single
# flang runs a workshare as, the implicit tasks of a team. Any other OMPT-only construct region
# in a merged flang profile is one that ompinst did not instrument.
OMPT_ONLY_EXPECTED = {"wait", "reduction", "implicitbarrier", "single", "singlebody",
                      "implicittask", "parallelbody", "taskcreate", "task", "overhead"}
# The separator the compiler wrappers put between the words of a logged command.
LOG_SEPARATOR = "\x1f"
# mpirun refuses to start a job as root without it.
MPIRUN_ROOT = "--allow-run-as-root " if hasattr(os, "geteuid") and os.geteuid() == 0 else ""
# Seconds mpirun gets to stop its ranks (SIGTERM, then Open MPI's SIGKILL) when a job times out.
MPIRUN_TERM_GRACE = 10


class ManifestError(Exception):
    """A manifest that cannot be used: the message names the file and the entry."""


# --------------------------------------------------------------------------------------------
# Manifests


def load_manifest(path):
    """Reads one manifest and returns (suite dict, list of program dicts)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise ManifestError(f"{path}: {e}")
    if not isinstance(data, dict):
        raise ManifestError(f"{path}: the top level must be an object")
    for key in ("suite", "root"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ManifestError(f"{path}: '{key}' (a non-empty string) is required")
    known = {"suite", "root", "timeout", "build_timeout", "normalize", "env", "programs",
             "single_file", "copy", "compare", "setup", "comment", "fortran", "mpi"}
    for key in data:
        if key not in known:
            raise ManifestError(f"{path}: unknown key '{key}' (known: {', '.join(sorted(known))})")
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), data["root"]))
    if not os.path.isdir(root):
        raise ManifestError(f"{path}: root '{root}' is not a directory")
    suite = {
        "name": data["suite"],
        "root": root,
        "timeout": data.get("timeout", DEFAULT_RUN_TIMEOUT),
        "build_timeout": data.get("build_timeout", DEFAULT_BUILD_TIMEOUT),
        "normalize": data.get("normalize", []),
        "env": data.get("env", {}),
        "copy": data.get("copy", bool(data.get("programs"))),
        "compare": data.get("compare", "stdout"),
        "setup": data.get("setup"),
        "mpi": parse_mpi(path, data.get("mpi")),
    }
    check_regexes(path, "normalize", suite["normalize"])
    programs = []
    for i, entry in enumerate(data.get("programs", [])):
        where = f"{path}: programs[{i}]"
        for key in ("name", "build", "binary"):
            if not isinstance(entry.get(key), str) or not entry[key]:
                raise ManifestError(f"{where}: '{key}' (a non-empty string) is required")
        check_regexes(where, "normalize", entry.get("normalize", []))
        programs.append({
            "name": entry["name"], "mode": "make", "dir": entry.get("dir", "."),
            "build": entry["build"], "binary": entry["binary"],
            "args": program_args(where, entry.get("args", "")),
            "run_dir": entry.get("run_dir", entry.get("dir", ".")),
            "normalize": suite["normalize"] + entry.get("normalize", []),
            "timeout": entry.get("timeout", suite["timeout"]),
            "env": {**suite["env"], **entry.get("env", {})},
            "compare": entry.get("compare", suite["compare"]),
            "skip": entry.get("skip"),
            "fortran": bool(entry.get("fortran", data.get("fortran", False))),
            "mpi": parse_mpi(where, entry["mpi"]) if "mpi" in entry else suite["mpi"],
        })
    for i, spec in enumerate(data.get("single_file", [])):
        where = f"{path}: single_file[{i}]"
        if not spec.get("glob"):
            raise ManifestError(f"{where}: 'glob' (a list of patterns under root) is required")
        check_regexes(where, "exclude", spec.get("exclude", []))
        programs.extend(single_file_programs(suite, spec, where))
    if not programs:
        raise ManifestError(f"{path}: no programs (give 'programs' or 'single_file')")
    names = [p["name"] for p in programs]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ManifestError(f"{path}: program names used twice: {', '.join(duplicates)}")
    return suite, programs


def parse_mpi(where, value):
    """An MPI program's job ({"ranks": N}), or None for a program that is not one (absent,
    null or false)."""
    if value is None or value is False:
        return None
    if not isinstance(value, dict):
        raise ManifestError(f"{where}: 'mpi' must be an object such as {{\"ranks\": 2}} or false")
    unknown = sorted(set(value) - {"ranks"})
    if unknown:
        raise ManifestError(f"{where}: mpi: unknown key '{unknown[0]}' (known: ranks)")
    ranks = value.get("ranks")
    if not isinstance(ranks, int) or isinstance(ranks, bool) or ranks < 1:
        raise ManifestError(f"{where}: mpi: 'ranks' (a number of processes, 1 or more) is "
                            "required")
    return {"ranks": ranks}


def check_regexes(where, key, patterns):
    if not isinstance(patterns, list):
        raise ManifestError(f"{where}: '{key}' must be a list of regular expressions")
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as e:
            raise ManifestError(f"{where}: {key}: bad regular expression '{pattern}': {e}")


# The OpenMP Examples mark a program whose output OpenMP leaves open (a race on purpose) with
# `@@expect: unspecified` in its header comment.
EXPECT_UNSPECIFIED_RE = re.compile(r"@@expect:\s*unspecified\b")


def declares_output_unspecified(path):
    """Whether the source says its own output is unspecified."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return bool(EXPECT_UNSPECIFIED_RE.search(f.read(4096)))
    except OSError:
        return False


def single_file_programs(suite, spec, where):
    """One program per source file with a main function that the globs select."""
    root = suite["root"]
    files = set()
    for pattern in spec["glob"]:
        files.update(glob.glob(os.path.join(root, pattern), recursive=True))
    excludes = [re.compile(p) for p in spec.get("exclude", [])]
    per_file = spec.get("per_file", {})
    programs = []
    for path in sorted(files):
        rel = os.path.relpath(path, root)
        if any(e.search(rel) for e in excludes):
            continue
        if spec.get("require_main", True) and not path.endswith(FORTRAN_EXTENSIONS):
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    if not MAIN_RE.search(strip_comments(f.read())):
                        continue
            except OSError as e:
                raise ManifestError(f"{where}: cannot read {path}: {e}")
        fortran = path.endswith(FORTRAN_EXTENSIONS)
        if fortran and spec.get("require_main", True):
            with open(path, encoding="utf-8", errors="replace") as f:
                if not FORTRAN_MAIN_RE.search(f.read()):
                    continue
        cxx = not path.endswith(".c") and not fortran
        extra = {}
        for pattern, values in per_file.items():
            if fnmatch.fnmatch(rel, pattern):
                extra.update(values)
        values = {"root": root, "dir": os.path.dirname(path)}
        flags = substitute(extra.get("flags", spec.get(
            "fflags" if fortran else "cxxflags" if cxx else "cflags", "-O1")), values)
        program = {
            "name": rel, "mode": "single", "source": path, "cxx": cxx, "flags": flags,
            "fortran": fortran,
            "output_unspecified": declares_output_unspecified(path),
            "libs": substitute(extra.get("libs", spec.get("libs", "-lm")), values),
            "args": program_args(f"{path}: {rel}", extra.get("args", spec.get("args", ""))),
            "normalize": (suite["normalize"] + spec.get("normalize", []) +
                          extra.get("normalize", [])),
            "timeout": extra.get("timeout", spec.get("timeout", suite["timeout"])),
            "env": {**suite["env"], **spec.get("env", {}), **extra.get("env", {})},
            "compare": extra.get("compare", spec.get("compare", suite["compare"])),
            "skip": extra.get("skip"),
            "mpi": (parse_mpi(where, extra["mpi"]) if "mpi" in extra else
                    parse_mpi(where, spec["mpi"]) if "mpi" in spec else suite["mpi"]),
        }
        programs.append(program)
    return programs


# --------------------------------------------------------------------------------------------
# Build configurations and compiler wrappers


class Config:
    """One way of building: the compilers a build sees and what is added to every command."""

    def __init__(self, name, family, cc, cxx, env=None, extra=(), instrumented=False,
                 coverage=False, fc=None, mpi=False):
        self.name, self.family = name, family
        self.cc, self.cxx, self.fc = cc, cxx, fc
        self.env = env or {}
        self.extra = list(extra)
        self.instrumented, self.coverage = instrumented, coverage
        self.mpi = mpi
        self.wrapper_cc = self.wrapper_cxx = self.wrapper_fc = None


# What an MPI wrapper compiles for each language: Open MPI's variable that names the compiler
# it runs (docs/MPI.md), ompcc's variable that names the MPI wrapper as its real compiler, and a
# program that uses MPI (MPI_PROBES: whether this wrapper and compiler can build one at all).
MPI_LANGUAGES = (("cc", "OMPI_CC", "OMPCC_CC"), ("cxx", "OMPI_CXX", "OMPCC_CXX"),
                 ("fc", "OMPI_FC", "OMPCC_FC"))
MPI_PROBES = {
    "cc": ("probe.c", "#include <mpi.h>\n"
                      "int main(int argc, char **argv) {\n"
                      "  MPI_Init(&argc, &argv);\n  MPI_Finalize();\n  return 0;\n}\n",
           "#include <mpi.h>"),
    "cxx": ("probe.cpp", "#include <mpi.h>\n"
                         "int main(int argc, char **argv) {\n"
                         "  MPI_Init(&argc, &argv);\n  MPI_Finalize();\n  return 0;\n}\n",
            "#include <mpi.h>"),
    "fc": ("probe.f90", "program probe\n  use mpi\n  integer :: ierr\n"
                        "  call MPI_Init(ierr)\n  call MPI_Finalize(ierr)\nend program probe\n",
           "use mpi"),
}


def make_configs(args, mpi=False):
    """The five configurations; with mpi=True the same five for MPI programs: plain, the MPI
    compiler wrappers (--mpicc, --mpicxx, --mpifc) running the family's compilers (OMPI_CC,
    OMPI_CXX, OMPI_FC); instrumented, ompcc/ompc++/ompfc with those wrappers as their real
    compilers (OMPCC_CC=mpicc, ...), which makes ompcc link libpomp-mpi (docs/MPI.md)."""
    if mpi:
        return make_mpi_configs(args)
    bin_dir = args.toolkit_bin
    ompcc, ompcxx = os.path.join(bin_dir, "ompcc"), os.path.join(bin_dir, "ompc++")
    # Fortran: gfortran beside gcc (libgomp), flang-new-19 beside clang-19 (libomp); ompfc over
    # each. flang has no source-based coverage: Fortran programs are checked against OMPT instead
    # (ProgramRunner.ompt_only_constructs).
    ompfc = os.path.join(bin_dir, "ompfc")
    return [
        Config("plain-gcc", "gcc", args.gcc, args.gxx, fc=args.gfortran),
        Config("plain-clang", "clang", args.clang, args.clangxx, fc=args.flang),
        Config("ompcc-gcc", "gcc", ompcc, ompcxx,
               {"OMPCC_CC": args.gcc, "OMPCC_CXX": args.gxx, "OMPCC_FC": args.gfortran},
               instrumented=True, fc=ompfc),
        Config("ompcc-clang", "clang", ompcc, ompcxx,
               {"OMPCC_CC": args.clang, "OMPCC_CXX": args.clangxx, "OMPCC_FC": args.flang},
               instrumented=True, fc=ompfc),
        # Atomic counters: threads that bump one counter at once lose updates otherwise, and
        # llvm-cov derives a branch's count by subtraction, so a lost update made BOTS fft's
        # never-taken `else` an executed site of 2^64 - k runs.
        Config("cov-clang", "clang", args.clang, args.clangxx,
               extra=["-fprofile-instr-generate", "-fcoverage-mapping",
                      "-fprofile-update=atomic"], coverage=True,
               fc=args.flang),
    ]


def make_mpi_configs(args):
    bin_dir = args.toolkit_bin
    ompcc, ompcxx = os.path.join(bin_dir, "ompcc"), os.path.join(bin_dir, "ompc++")
    ompfc = os.path.join(bin_dir, "ompfc")
    mpi = {"cc": args.mpicc, "cxx": args.mpicxx, "fc": args.mpifc}
    real = {"gcc": {"cc": args.gcc, "cxx": args.gxx, "fc": args.gfortran},
            "clang": {"cc": args.clang, "cxx": args.clangxx, "fc": args.flang}}

    def mpi_env(family, instrumented=False):
        env = {ompi: real[family][lang] for lang, ompi, _ in MPI_LANGUAGES}
        if instrumented:
            env.update({ompcc_var: mpi[lang] for lang, _, ompcc_var in MPI_LANGUAGES})
        return env
    return [
        Config("plain-gcc", "gcc", mpi["cc"], mpi["cxx"], mpi_env("gcc"), fc=mpi["fc"],
               mpi=True),
        Config("plain-clang", "clang", mpi["cc"], mpi["cxx"], mpi_env("clang"), fc=mpi["fc"],
               mpi=True),
        Config("ompcc-gcc", "gcc", ompcc, ompcxx, mpi_env("gcc", True), instrumented=True,
               fc=ompfc, mpi=True),
        Config("ompcc-clang", "clang", ompcc, ompcxx, mpi_env("clang", True), instrumented=True,
               fc=ompfc, mpi=True),
        Config("cov-clang", "clang", mpi["cc"], mpi["cxx"], mpi_env("clang"),
               extra=["-fprofile-instr-generate", "-fcoverage-mapping",
                      "-fprofile-update=atomic"], coverage=True, fc=mpi["fc"], mpi=True),
    ]


def probe_mpi(configs, work, args):
    """Whether each family's MPI wrappers can build an MPI program, per language: {family:
    {lang: None, or why not}}. Found out, not assumed: a compile and link of a program that
    uses MPI (MPI_PROBES) through the plain configuration's wrapper, as a build would run it.
    Debian's Open MPI, for one, ships its Fortran `mpi` module for gfortran only."""
    found = {}
    mpirun = shutil.which(args.mpirun)
    for config in configs:
        if not config.name.startswith("plain-"):
            continue
        reasons = found.setdefault(config.family, {})
        directory = os.path.join(work, "mpi-probe", config.family)
        os.makedirs(directory, exist_ok=True)
        for lang, ompi, _ in MPI_LANGUAGES:
            if not mpirun:
                reasons[lang] = f"no '{args.mpirun}' to start the job (--mpirun)"
                continue
            source, text, what = MPI_PROBES[lang]
            with open(os.path.join(directory, source), "w", encoding="utf-8") as f:
                f.write(text)
            wrapper = getattr(config, "wrapper_" + lang)
            res = run_command([wrapper, source, "-o", "probe-" + lang], directory,
                              base_env(work), 300, max_output=1 << 16)
            if res["rc"] == 0 and not res["timed_out"]:
                reasons[lang] = None
                continue
            compiler = getattr(config, lang)
            reasons[lang] = (f"{compiler} with {ompi}={config.env[ompi]} cannot build a program "
                             f"that uses MPI ({what}): " +
                             ("timeout" if res["timed_out"] else
                              probe_error(res["stdout"] + res["stderr"])))
    return found


def probe_error(log):
    """The first two distinct error lines of a failed probe (flang repeats one per byte of a
    module file it cannot read)."""
    lines = []
    for line in log.splitlines():
        line = line.strip()
        if "error" in line.lower() and line not in lines:
            lines.append(line[:200])
            if len(lines) == 2:
                break
    return "; ".join(lines) or first_error(log)


def write_wrappers(configs, work):
    """A shell script per configuration and language that logs the command (for counting the
    files compiled) and runs the compiler with the configuration's environment."""
    for config in configs:
        directory = os.path.join(work, "wrappers-mpi" if config.mpi else "wrappers", config.name)
        os.makedirs(directory, exist_ok=True)
        for lang, compiler in (("cc", config.cc), ("cxx", config.cxx), ("fc", config.fc)):
            if compiler is None:
                continue
            exports = "".join(f"{k}={shlex.quote(v)}; export {k}\n"
                              for k, v in sorted(config.env.items()))
            extra = " ".join(shlex.quote(e) for e in config.extra)
            script = (
                "#!/bin/sh\n"
                "# corpus_runner.py: logs the command, then runs the compiler.\n"
                'if [ -n "$CORPUS_CMD_LOG" ]; then\n'
                f"  {{ printf 'cmd'; printf '{LOG_SEPARATOR}%s' \"$PWD\" \"$@\"; printf '\\n'; }}"
                ' >> "$CORPUS_CMD_LOG"\n'
                "fi\n"
                f"{exports}"
                f'exec {shlex.quote(compiler)} "$@" {extra}\n'
            )
            path = os.path.join(directory, lang)
            with open(path, "w", encoding="utf-8") as f:
                f.write(script)
            os.chmod(path, 0o755)
            setattr(config, "wrapper_" + lang, path)


def strict_supported(ompcc):
    """Whether this ompcc knows OMPCC_STRICT (its help mentions it)."""
    try:
        out = subprocess.run([ompcc, "--ompcc-help"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "OMPCC_STRICT" in out.stdout + out.stderr


# --------------------------------------------------------------------------------------------
# Running commands


def run_command(cmd, cwd, env, timeout, shell=False, stdout_path=None, max_output=MAX_OUTPUT_BYTES,
                term_grace=None):
    """Runs cmd in its own process group; on timeout the whole group is killed (with term_grace,
    first asked with SIGTERM and given that many seconds: mpirun then stops its ranks, which
    run in process groups of their own). Output beyond max_output bytes is cut (None: kept
    whole, for our own tools' output such as llvm-cov's).
    Returns dict(rc, stdout, stderr, timed_out, seconds)."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, shell=shell, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
    except OSError as e:
        return {"rc": 127, "stdout": "", "stderr": str(e), "timed_out": False, "seconds": 0.0}
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        out = err = None
        if term_grace:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                out, err = proc.communicate(timeout=term_grace)
            except ProcessLookupError:
                pass
            except subprocess.TimeoutExpired:
                pass
        if out is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            out, err = proc.communicate()
    result = {
        "rc": proc.returncode,
        "stdout": out[:max_output].decode("utf-8", "replace"),
        "stderr": err[:max_output].decode("utf-8", "replace"),
        "timed_out": timed_out,
        "seconds": round(time.monotonic() - start, 6),
    }
    if stdout_path:
        with open(stdout_path, "w", encoding="utf-8") as f:
            f.write(result["stdout"])
        with open(stdout_path[:-len(".out")] + ".err", "w", encoding="utf-8") as f:
            f.write(result["stderr"])
    return result


def base_env(work):
    env = dict(os.environ)
    for var in ("OMPCC_CC", "OMPCC_CXX", "OMPCC_PASSTHROUGH", "OMPCC_STRICT", "POMP_TRACE",
                "OMP_TOOL_LIBRARIES", "LLVM_PROFILE_FILE"):
        env.pop(var, None)
    # ompcc's temporary directories (and anything else well behaved) stay in the work dir.
    env["TMPDIR"] = os.path.join(work, "tmp")
    return env


def program_args(where, args):
    """A program's arguments as a shell string: the manifest gives one, or a list of words, each
    quoted here (a path with a space stays one word; placeholders are substituted later, inside
    the quotes)."""
    if isinstance(args, str):
        return args
    if isinstance(args, list) and all(isinstance(a, str) for a in args):
        return " ".join(shlex.quote(a) for a in args)
    raise ManifestError(f"{where}: 'args' must be a string or a list of strings, not {args!r}")


def substitute(template, values):
    """{name} placeholders; an unknown one is a manifest error, not a KeyError."""
    def repl(match):
        key = match.group(1)
        if key not in values:
            raise ManifestError(f"unknown placeholder {{{key}}} in '{template}' "
                                f"(known: {', '.join(sorted(values))})")
        return values[key]
    return re.sub(r"\{([A-Za-z_]+)\}", repl, template)


# --------------------------------------------------------------------------------------------
# OpenMP construct sites in source text


def strip_comments(text):
    """Comments and string/char literal contents replaced by spaces; newlines kept, so offsets
    and line numbers stay those of the original."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            while j > 0 and text[j - 1] == "\\" and j < n:  # a continued // comment
                j = text.find("\n", j + 1)
                j = n if j < 0 else j
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            # The quotes stay (the _Pragma scanner needs the string), the contents of char
            # literals go; string contents stay for _Pragma("omp ...").
            if c == "'":
                for k in range(i + 1, min(j, n)):
                    out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


class Site:
    """One OpenMP directive in a source file."""

    def __init__(self, file, line, column, end_line, directive, kind):
        self.file, self.line, self.column, self.end_line = file, line, column, end_line
        self.directive, self.kind = directive, kind  # kind: executable, left-alone, device, macro
        # For a site made 'device' by a target region or declare target block: the lines of the
        # directives that opened it (the site is host code when all of them were preprocessed out).
        self.device_lines = []

    def key(self):
        return (self.file, self.line)


def directive_kind(directive):
    words = re.findall(r"[A-Za-z_]+", directive)
    if not words:
        return None
    first = words[0]
    if first in DECLARATIVE_DIRECTIVES:
        return None
    if first in LEFT_ALONE_DIRECTIVES:
        return "left-alone"
    if first == "error":
        return "executable" if re.search(r"\bat\s*\(\s*execution\s*\)", directive) else None
    if first in EXECUTABLE_DIRECTIVES:
        return "executable"
    return None


def line_starts(text):
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    return starts


def offset_to_line(starts, offset):
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1


def statement_end(code, pos):
    """The end offset of the statement that starts at or after pos (code is comment-free);
    directives and other preprocessor lines before it belong to it."""
    n = len(code)

    def skip_space(p):
        while p < n:
            if code[p].isspace():
                p += 1
            elif code[p] == "#" and (p == 0 or code.rfind("\n", 0, p) == p - 1 or
                                     code[code.rfind("\n", 0, p) + 1:p].strip() == ""):
                p = directive_line_end(code, p)
            else:
                break
        return p

    def match(p, opening, closing):
        depth = 0
        while p < n:
            if code[p] == opening:
                depth += 1
            elif code[p] == closing:
                depth -= 1
                if depth == 0:
                    return p + 1
            elif code[p] in "\"'":
                q = p + 1
                while q < n and code[q] != code[p] and code[q] != "\n":
                    q += 2 if code[q] == "\\" else 1
                p = q
            p += 1
        return n

    def stmt(p, depth=0):
        p = skip_space(p)
        if p >= n or depth > 200:
            return n
        if code[p] == "{":
            return match(p, "{", "}")
        word = re.match(r"[A-Za-z_]\w*", code[p:p + 32])
        keyword = word.group(0) if word else ""
        if keyword in ("for", "while", "switch"):
            q = skip_space(p + len(keyword))
            if q < n and code[q] == "(":
                return stmt(match(q, "(", ")"), depth + 1)
        if keyword == "if":
            q = skip_space(p + 2)
            if code.startswith("constexpr", q):
                q = skip_space(q + len("constexpr"))
            if q < n and code[q] == "(":
                end = stmt(match(q, "(", ")"), depth + 1)
                r = skip_space(end)
                if re.match(r"else\b", code[r:r + 5]):
                    return stmt(r + 4, depth + 1)
                return end
        if keyword == "do":
            end = stmt(p + 2, depth + 1)
            semicolon = code.find(";", end)
            return n if semicolon < 0 else semicolon + 1
        # A simple statement: up to the ';' outside parentheses and braces (lambdas).
        q, depth_paren = p, 0
        while q < n:
            c = code[q]
            if c in "({[":
                depth_paren += 1
            elif c in ")}]":
                depth_paren -= 1
                if depth_paren < 0:
                    return q
            elif c == ";" and depth_paren == 0:
                return q + 1
            q += 1
        return n

    return stmt(pos)


def directive_line_end(code, pos):
    """The offset after the (possibly continued) preprocessor line starting at pos."""
    n = len(code)
    while True:
        j = code.find("\n", pos)
        if j < 0:
            return n
        if code[:j].rstrip(" \t\r").endswith("\\"):
            pos = j + 1
            continue
        return j + 1


PRAGMA_RE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+omp\b", re.M)
UNDERSCORE_PRAGMA_RE = re.compile(r"\b_Pragma\s*\(\s*\"\s*omp\b([^\"]*)\"")
DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define\b", re.M)
# OpenMP 5.1's attribute syntax: [[omp::directive(D)]], [[omp::sequence(directive(D1), ...)]],
# and the same after `using omp:`.
ATTRIBUTE_RE = re.compile(
    r"\[\[\s*(?:using\s+omp\s*:\s*(?P<using>directive|sequence)|"
    r"omp\s*::\s*(?P<name>directive|sequence))\s*\(")
NESTED_DIRECTIVE_RE = re.compile(r"(?:\bomp\s*::\s*)?\bdirective\s*\(")


def balanced_end(code, open_paren):
    """The offset just past the ')' that closes the '(' at open_paren, or None."""
    depth = 0
    for i in range(open_paren, len(code)):
        if code[i] == "(":
            depth += 1
        elif code[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def attribute_directives(code):
    """(offset of the attribute's '[[', end offset, directive text) for every directive written
    in the attribute syntax; a sequence gives one entry per directive, in order."""
    found = []
    for m in ATTRIBUTE_RE.finditer(code):
        end = balanced_end(code, m.end() - 1)
        if end is None:
            continue
        inner = code[m.end():end - 1]
        if (m.group("using") or m.group("name")) == "directive":
            found.append((m.start(), end, inner.strip()))
            continue
        for d in NESTED_DIRECTIVE_RE.finditer(inner):
            d_end = balanced_end(inner, d.end() - 1)
            if d_end is not None:
                found.append((m.start(), end, inner[d.end():d_end - 1].strip()))
    return found


def scan_sites(path, rel):
    """The OpenMP directives of a file, each with its kind: 'executable' (expected to get a
    region), 'left-alone' (documented as left as it is), 'device' (inside a target region or a
    declare target block: device code, documented as not instrumented) or 'macro' (a _Pragma in
    a macro definition: ompinst leaves it with a warning; where it runs is not this line)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    code = strip_comments(text)
    starts = line_starts(code)
    sites = []
    device_ranges = []
    define_ranges = [(m.start(), directive_line_end(code, m.start()))
                     for m in DEFINE_RE.finditer(code)]
    declare_target_start = None
    for m in PRAGMA_RE.finditer(code):
        end = directive_line_end(code, m.start())
        directive = re.sub(r"\\\n", " ", code[m.end():end]).strip()
        words = re.findall(r"[A-Za-z_]+", directive)
        line = offset_to_line(starts, m.start())
        end_line = offset_to_line(starts, max(m.start(), end - 1))
        if words[:2] in (["declare", "target"], ["begin", "declare"]) and (
                words[:2] == ["begin", "declare"] or not re.search(r"\(", directive)):
            declare_target_start = end
            declare_target_line = line
        elif words[:3] == ["end", "declare", "target"] and declare_target_start is not None:
            device_ranges.append((declare_target_start, m.start(), declare_target_line))
            declare_target_start = None
        kind = directive_kind(directive)
        if kind is None:
            continue
        if kind == "executable" and words[0] == "target" and not any(
                directive.startswith(f) for f in HOST_TARGET_FORMS):
            device_ranges.append((end, statement_end(code, end), line))
        column = code.index("#", m.start()) - starts[line - 1] + 1
        sites.append((m.start(), Site(rel, line, column, end_line, directive, kind)))
    for m in UNDERSCORE_PRAGMA_RE.finditer(code):
        directive = m.group(1).strip()
        kind = directive_kind(directive)
        if kind is None:
            continue
        line = offset_to_line(starts, m.start())
        if any(a <= m.start() < b for a, b in define_ranges):
            kind = "macro"
        column = m.start() - starts[line - 1] + 1
        sites.append((m.start(), Site(rel, line, column, offset_to_line(starts, m.end()),
                                      directive, kind)))
    for start, end, directive in attribute_directives(code):
        kind = directive_kind(directive)
        if kind is None:
            continue
        line = offset_to_line(starts, start)
        if any(a <= start < b for a, b in define_ranges):
            kind = "macro"
        column = start - starts[line - 1] + 1
        sites.append((start, Site(rel, line, column, offset_to_line(starts, end - 1), directive,
                                  kind)))
    result = []
    for offset, site in sorted(sites, key=lambda s: s[0]):
        origins = [line for a, b, line in device_ranges if a <= offset < b]
        if site.kind == "executable" and origins:
            site.kind = "device"
            site.device_lines = origins
        result.append(site)
    return result


# --------------------------------------------------------------------------------------------
# Coverage: which sites ran


def segment_count_at(segments, line, column):
    """The execution count at (line, column): the last segment starting at or before it, or
    None where no code region covers it."""
    count = None
    for seg in segments:
        seg_line, seg_col, seg_count, has_count = seg[0], seg[1], seg[2], seg[3]
        if (seg_line, seg_col) > (line, column):
            break
        count = seg_count if has_count else None
    return count


# A coverage region's kind in llvm-cov's export: [line start, column start, line end, column end,
# count, file id, expanded file id, kind], kind 2 a skipped region (preprocessed out).
SKIPPED_REGION = 2


def skipped_lines(segments, spans=()):
    """The lines the preprocessor left out: the skipped regions' spans of the file's functions
    (functions_skipped_spans()), and from its sorted coverage segments, for inactive blocks
    outside functions, a segment that starts a region without a count, up to the next segment.
    The segments alone lose the rest of a block whose blank line clang-19 marks as a skipped
    region of its own (Rodinia nw's `#ifdef OMP_OFFLOAD` around a `target` directive)."""
    lines = set()
    for first, last in spans:
        lines.update(range(first, last + 1))
    for seg, following in zip(segments, segments[1:]):
        if not seg[3] and seg[4]:
            lines.update(range(seg[0], following[0] + 1))
    return lines


def coverage_export_command(llvm_cov, profdata, binary):
    """The llvm-cov export that executed_sites() reads. With the functions: their skipped
    regions give whole preprocessed-out blocks (skipped_lines()), for some 10 % more output
    (NPB-CPP LU: 426 against 468 KB)."""
    return [llvm_cov, "export", "-instr-profile=" + profdata, binary]


def functions_skipped_spans(data):
    """{file name: [(first line, last line)]} of the skipped regions of an export's functions."""
    spans = {}
    for function in data.get("functions", []):
        files = function.get("filenames", [])
        for region in function.get("regions", []):
            if len(region) >= 8 and region[7] == SKIPPED_REGION and region[5] < len(files):
                spans.setdefault(os.path.realpath(files[region[5]]), []).append(
                    (region[0], region[2]))
    return spans


def effective_kind(site, skipped):
    """A site's kind in this build: a 'device' site whose target directives were all preprocessed
    out (`#ifdef OMP_OFFLOAD` around `#pragma omp target`, as in Rodinia) is host code."""
    if site.kind == "device" and site.device_lines and all(
            line in skipped for line in site.device_lines):
        return "executable"
    return site.kind


def executed_sites(export, root, site_cache):
    """Sites in the program's own files (under root) whose directive line ran, from an
    llvm-cov export. Returns (executed executable sites, executed sites of the other kinds)."""
    real_root = os.path.realpath(root)
    executed, other = [], []
    for data in export.get("data", []):
        spans = functions_skipped_spans(data)
        for entry in data.get("files", []):
            path = os.path.realpath(entry["filename"])
            if not (path + "/").startswith(real_root + "/"):
                continue
            rel = os.path.relpath(path, real_root)
            if rel not in site_cache:
                site_cache[rel] = scan_sites(path, rel)
            segments = sorted(entry.get("segments", []), key=lambda s: (s[0], s[1]))
            skipped = skipped_lines(segments, spans.get(path, ()))
            for site in site_cache[rel]:
                # The end of the directive's last line: a region the directive itself starts
                # (its statement) begins at or before it, the next statement's after it.
                count = segment_count_at(segments, site.end_line, 1 << 20)
                if count:
                    kind = effective_kind(site, skipped)
                    (executed if kind == "executable" else other).append(site)
    return executed, other


# --------------------------------------------------------------------------------------------
# Profiles: which sites got a region


def visited_region_lines(profile_path, root):
    """{(file relative to root, line)} covered by a region of instrumented code that some node
    visited (every line of its start_lines range)."""
    with open(profile_path, encoding="utf-8") as f:
        profile = json.load(f)
    real_root = os.path.realpath(root)
    visited = {n["region"] for n in profile.get("nodes", [])
               if n.get("region") is not None and n.get("visits", 0) > 0}
    lines = set()
    for region in profile.get("regions", []):
        if region.get("id") not in visited or region.get("origin", "pomp") != "pomp":
            continue
        if not region.get("file") or not region.get("start_lines"):
            continue
        path = os.path.realpath(region["file"])
        if not (path + "/").startswith(real_root + "/"):
            continue
        rel = os.path.relpath(path, real_root)
        first, last = region["start_lines"][0], region["start_lines"][-1]
        for line in range(first, max(first, last) + 1):
            lines.add((rel, line))
    return lines


# --------------------------------------------------------------------------------------------
# MPI jobs: one measurement per job


# What check_mpi_job reports as anomalies of an MPI run (besides the ranks' own), by kind.
MPI_JOB_PROBLEMS = {
    "mpi_no_job": "no job directory (no experiment with job.json): the ranks were not measured "
                  "as one job",
    "mpi_not_a_job": "an experiment directory without job.json: a rank measured as a program "
                     "of its own",
    "mpi_job_dirs": "job directories beyond the first",
    "mpi_job_unreadable": "job.json is not JSON",
    "mpi_job_incomplete": "job.json says \"complete\": false (the job did not pass MPI_Finalize)",
    "mpi_job_size": "job.json's size or parts are not the ranks started",
    "mpi_rank_missing": "a rank without a readable rank-<N>/profile.json",
    "mpi_rank_mismatch": "a part whose profile names another rank or job size",
    "mpi_rank_partial": "a part whose profile is partial (the rank was stopped by a signal)",
    "mpi_extra_parts": "parts beyond the ranks started",
}


def check_mpi_job(run_dir, ranks):
    """The measurement of one MPI job (docs/MPI.md, "The job directory"): one directory
    (POMP_EXPERIMENT_DIR, experiment*/ in run_dir) with job.json and a part per rank, rank-0 ..
    rank-<ranks-1>, each an experiment directory with its profile.json. Returns the profiles to
    read, what each rank's says and what is wrong, counted by MPI_JOB_PROBLEMS kind."""
    job = {"ranks": ranks, "job_dirs": [], "complete": None, "size": None, "parts": 0,
           "per_rank": {}, "problems": {}, "profiles": []}

    def problem(kind, count=1):
        job["problems"][kind] = job["problems"].get(kind, 0) + count
    directories = sorted(d for d in glob.glob(os.path.join(run_dir, "experiment*"))
                         if os.path.isdir(d))
    jobs = [d for d in directories if os.path.exists(os.path.join(d, "job.json"))]
    for directory in directories:
        if directory not in jobs:
            problem("mpi_not_a_job")
            if os.path.isfile(os.path.join(directory, "profile.json")):
                job["profiles"].append(os.path.join(directory, "profile.json"))
    if not jobs:
        problem("mpi_no_job")
        return job
    if len(jobs) > 1:
        problem("mpi_job_dirs", len(jobs) - 1)
    for directory in jobs:
        job["job_dirs"].append(os.path.relpath(directory, run_dir))
        try:
            with open(os.path.join(directory, "job.json"), encoding="utf-8") as f:
                meta = json.load(f)
        except (OSError, ValueError):
            problem("mpi_job_unreadable")
            meta = {}
        complete = meta.get("complete") is True
        job["complete"] = complete if job["complete"] is None else job["complete"] and complete
        if not complete:
            problem("mpi_job_incomplete")
        job["size"] = meta.get("size")
        if meta.get("size") != ranks or \
                meta.get("parts") != [f"rank-{rank}" for rank in range(ranks)]:
            problem("mpi_job_size")
        for rank in range(ranks):
            path = os.path.join(directory, f"rank-{rank}", "profile.json")
            try:
                with open(path, encoding="utf-8") as f:
                    profile = json.load(f)
            except (OSError, ValueError):
                problem("mpi_rank_missing")
                continue
            job["parts"] += 1
            job["profiles"].append(path)
            mpi = profile.get("mpi") or {}
            if mpi.get("rank") != rank or mpi.get("size") != ranks:
                problem("mpi_rank_mismatch")
            if profile.get("partial"):
                problem("mpi_rank_partial")
            visited = {n["region"] for n in profile.get("nodes", [])
                       if n.get("region") is not None and n.get("visits", 0) > 0}
            job["per_rank"][str(rank)] = {
                "threads": len(profile.get("threads", [])) or None,
                "visited_regions": len(visited),
                "partial": bool(profile.get("partial")),
                "anomalies": {k: v for k, v in profile.get("anomalies", {}).items() if v},
            }
        extra = [p for p in glob.glob(os.path.join(directory, "rank-*"))
                 if not re.fullmatch(r"rank-(\d+)", os.path.basename(p)) or
                 int(os.path.basename(p)[5:]) >= ranks]
        if extra:
            problem("mpi_extra_parts", len(extra))
    return job


# --------------------------------------------------------------------------------------------
# One program


def normalise(text, patterns):
    regexes = [re.compile(p) for p in patterns]
    return [line.rstrip() for line in text.splitlines()
            if not any(r.search(line) for r in regexes)]


def parse_command_log(path):
    """The commands a build ran through a wrapper: list of (cwd, argv)."""
    commands = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                words = line.rstrip("\n").split(LOG_SEPARATOR)
                if len(words) >= 2 and words[0] == "cmd":
                    commands.append((words[1], words[2:]))
    except OSError:
        pass
    return commands


def compiled_sources(commands):
    """Absolute paths of the C/C++ sources the logged commands compiled."""
    pass_through = {"-E", "-M", "-MM", "-fsyntax-only", "-###"}
    sources = set()
    for cwd, argv in commands:
        if pass_through & set(argv):
            continue
        for word in argv:
            if word.endswith(SOURCE_EXTENSIONS) and not word.startswith("-"):
                path = os.path.normpath(os.path.join(cwd, word))
                if os.path.basename(path).startswith("conftest"):
                    continue
                if os.path.isfile(path):
                    sources.add(path)
    return sources


# makeFileId (handle-init/lib/HandleInit.cpp): the base name, identifier characters kept and the
# others made '_', at most this long, then '_' and a 64-bit hash in hex.
FILE_ID_BASE_LENGTH = 64
INIT_SYMBOL_RE = re.compile(r"^POMP_Init_([A-Za-z0-9_$]+)_[0-9a-f]{16}$")


def file_id_base(path):
    base = os.path.basename(path)[:FILE_ID_BASE_LENGTH]
    return re.sub(r"[^A-Za-z0-9_$]", "_", base)


def init_function_bases(binary):
    """The file-id base names of the per-file POMP init functions defined in a binary (one per
    instrumented translation unit), or None when nm cannot read it."""
    try:
        out = subprocess.run(["nm", "-P", "--defined-only", binary], capture_output=True,
                             text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    bases = set()
    for line in out.stdout.splitlines():
        m = INIT_SYMBOL_RE.match(line.split(" ", 1)[0])
        if m:
            bases.add(m.group(1))
    return bases


def needs_instrumentation(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            if path.endswith(FORTRAN_EXTENSIONS):
                return bool(FORTRAN_NEEDS_INSTRUMENTATION_RE.search(f.read()))
            return bool(NEEDS_INSTRUMENTATION_RE.search(f.read()))
    except OSError:
        return True


class ProgramRunner:
    """Builds, runs and checks one program in every configuration."""

    def __init__(self, args, suite, program, configs, work, mpi_probes=None):
        self.args, self.suite, self.program, self.configs = args, suite, program, configs
        self.mpi_probes = mpi_probes or {}
        self.safe = re.sub(r"[^A-Za-z0-9_.+-]", "_", program["name"])
        self.dir = os.path.join(work, "programs", re.sub(r"[^A-Za-z0-9_.+-]", "_", suite["name"]),
                                self.safe)
        self.work = work
        self.failures = []
        self.result = {"suite": suite["name"], "program": program["name"], "builds": {},
                       "runs": {}, "files": {}, "sites": {}, "notes": []}

    def fail(self, kind, config=None, **details):
        entry = {"suite": self.suite["name"], "program": self.program["name"], "class": kind}
        if config:
            entry["build"] = config
        entry.update(details)
        self.failures.append(entry)

    def root_for(self, config):
        if self.program["mode"] == "single" or not self.suite["copy"]:
            return self.suite["root"]
        return os.path.join(self.work, "trees", re.sub(r"[^A-Za-z0-9_.+-]", "_",
                                                       self.suite["name"]), config.name)

    # -- build --------------------------------------------------------------------------------
    def build(self, config, strict=True):
        program = self.program
        out_dir = os.path.join(self.dir, config.name)
        os.makedirs(out_dir, exist_ok=True)
        log = os.path.join(out_dir, "commands.log")
        if os.path.exists(log):
            os.unlink(log)
        env = base_env(self.work)
        env["CORPUS_CMD_LOG"] = log
        if config.instrumented:
            # Explicit both ways: the caller's environment may hold either.
            env["OMPCC_STRICT"] = "1" if self.args.strict and strict else "0"
        root = self.root_for(config)
        values = {"cc": config.wrapper_cc, "cxx": config.wrapper_cxx, "fc": config.wrapper_fc,
                  "root": root,
                  "jobs": str(self.args.build_jobs), "openmp": "-fopenmp", "out": out_dir}
        if program["mode"] == "single":
            binary = os.path.join(out_dir, "prog")
            compiler = (config.wrapper_fc if program.get("fortran") else
                        config.wrapper_cxx if program["cxx"] else config.wrapper_cc)
            cmd = (f"{shlex.quote(compiler)} {program['flags']} -fopenmp "
                   f"{shlex.quote(program['source'])} -o {shlex.quote(binary)} {program['libs']}")
            cwd = out_dir
        else:
            cmd = substitute(program["build"], values)
            binary = os.path.join(root, program["dir"], substitute(program["binary"], values))
            cwd = os.path.join(root, program["dir"])
            env.update({"CC": config.wrapper_cc, "CXX": config.wrapper_cxx,
                        "FC": config.wrapper_fc})
            if os.path.exists(binary):
                os.unlink(binary)
        res = run_command(cmd, cwd, env, self.suite["build_timeout"], shell=True)
        with open(os.path.join(out_dir, "build.log"), "w", encoding="utf-8") as f:
            f.write(f"$ cd {cwd} && {cmd}\n{res['stdout']}{res['stderr']}")
        ok = res["rc"] == 0 and not res["timed_out"] and os.path.isfile(binary)
        return {"ok": ok, "binary": binary, "log": res["stdout"] + res["stderr"],
                "commands": parse_command_log(log), "root": root, "rc": res["rc"],
                "timed_out": res["timed_out"], "cmd": cmd}

    # -- run ----------------------------------------------------------------------------------
    def run(self, config, build, threads, tag="", extra_env=None):
        """Runs a build at a thread count; extra_env (a timing variant's POMP_OMPT or
        OMP_TOOL_LIBRARIES, bench/app_overhead.py) comes last."""
        program = self.program
        root = build["root"]
        run_dir = os.path.join(self.dir, config.name, f"run-t{threads}{tag}")
        if os.path.exists(run_dir):
            shutil.rmtree(run_dir)
        os.makedirs(run_dir)
        values = {"root": root, "out": run_dir, "threads": str(threads)}
        args = substitute(program["args"], values) if program["args"] else ""
        if program["mode"] == "single":
            cwd = run_dir
        else:
            cwd = os.path.join(root, substitute(program["run_dir"], values))
        env = base_env(self.work)
        env.update({k: substitute(str(v), values) for k, v in program["env"].items()})
        env["OMP_NUM_THREADS"] = str(threads)
        env["POMP_EXPERIMENT_DIR"] = os.path.join(run_dir, "experiment")
        env["POMP_QUIET"] = "1"
        env.update(extra_env or {})
        if config.coverage:
            env["LLVM_PROFILE_FILE"] = os.path.join(run_dir, "cov-%p.profraw")
        cmd = f"exec {shlex.quote(build['binary'])} {args}"
        grace = None
        if program.get("mpi"):
            # One job; with the instrumented build its measurement is one job directory,
            # POMP_EXPERIMENT_DIR, with a part per rank (docs/MPI.md).
            cmd = (f"exec {shlex.quote(self.args.mpirun)} {MPIRUN_ROOT}--oversubscribe "
                   f"-np {program['mpi']['ranks']} {shlex.quote(build['binary'])} {args}")
            grace = MPIRUN_TERM_GRACE
        res = run_command(cmd, cwd, env, program["timeout"], shell=True,
                          stdout_path=os.path.join(run_dir, "run.out"), term_grace=grace)
        # Output that names the build's own copy of the suite (an input file's path) is the same
        # output: the copies differ by configuration.
        if self.program["mode"] == "make" and self.suite["copy"]:
            for stream in ("stdout", "stderr"):
                res[stream] = res[stream].replace(root, "{root}")
        res["dir"] = run_dir
        return res

    def same_output(self, a, b, ordered=True):
        """Same exit status and the same normalised output; with ordered=False the same lines
        in any order."""
        patterns = self.program["normalize"]
        if self.program["compare"] == "exit":
            return a["rc"] == b["rc"]
        streams = ["stdout"] + (["stderr"] if self.program["compare"] == "stdout+stderr" else [])
        for stream in streams:
            x, y = normalise(a[stream], patterns), normalise(b[stream], patterns)
            if not ordered:
                x, y = sorted(x), sorted(y)
            if x != y:
                return False
        return a["rc"] == b["rc"]

    # -- files --------------------------------------------------------------------------------
    def count_files(self, config, build):
        """Each compiled source is instrumented (its POMP_Init_<file id> function is in the
        binary), fell back (ompcc said so, with the reason), needed no instrumentation (nothing
        OpenMP in it), or none of these: not instrumented without a word."""
        sources = compiled_sources(build["commands"])
        init_ids = init_function_bases(build["binary"]) if build["ok"] else None
        fallbacks = {}
        for m in FALLBACK_RE.finditer(build["log"]):
            fallbacks[m.group(3)] = m.group(4)
        fallback_paths = {}
        for named, reason in fallbacks.items():
            matches = [s for s in sources if s == os.path.normpath(named) or
                       s.endswith("/" + os.path.normpath(named).lstrip("./"))]
            fallback_paths[matches[0] if matches else named] = reason
        no_openmp = {s for s in sources if s not in fallback_paths and not needs_instrumentation(s)}
        instrumented = sources - set(fallback_paths) - no_openmp
        silent = set()
        if init_ids is not None:
            silent = {s for s in instrumented if file_id_base(s) not in init_ids}
            instrumented -= silent
        root = build["root"]

        def rel(p):
            return os.path.relpath(p, root) if p.startswith(root + "/") else p
        return {"compiled": len(sources), "instrumented": len(instrumented),
                "no_openmp": len(no_openmp),
                "fallback": {rel(p): r for p, r in sorted(fallback_paths.items())},
                "silent": sorted(rel(p) for p in silent)}

    # -- everything ---------------------------------------------------------------------------
    def process(self):
        program, result = self.program, self.result
        if program.get("skip"):
            result["skipped"] = program["skip"]
            return result, self.failures
        builds = {}
        if program.get("mpi"):
            result["mpi"] = {"ranks": program["mpi"]["ranks"], "unusable": {}}
        for config in self.configs:
            unusable = self.mpi_unusable(config)
            if unusable:
                result["builds"][config.name] = f"not built (MPI: {unusable})"
                result["mpi"]["unusable"][config.name] = unusable
                continue
            if config.instrumented:
                plain = builds.get("plain-" + config.family)
                if not plain or not plain["ok"]:
                    result["builds"][config.name] = "not built (plain build fails)"
                    continue
            if config.coverage and self.program.get("fortran"):
                result["builds"][config.name] = "not built (Fortran: no source-based coverage)"
                continue
            if config.coverage and not builds["plain-clang"]["ok"]:
                result["builds"][config.name] = "not built (plain build fails)"
                continue
            build = self.build(config)
            if config.instrumented:
                if not build["ok"] and FALLBACK_RE.search(build["log"]):
                    # Strict mode made the fallback an error: build again without it, so the
                    # program's runs are still compared; the strict log names the files.
                    result["notes"].append(f"{config.name}: strict build failed on fallback; "
                                           "rebuilt without OMPCC_STRICT")
                    strict_log = build["log"]
                    build = self.build(config, strict=False)
                    build["log"] = strict_log + build["log"]
                files = self.count_files(config, build)
                result["files"][config.name] = files
                for file, reason in files["fallback"].items():
                    self.fail("fallback", config.name, file=file, reason=reason)
                for file in files["silent"]:
                    self.fail("not instrumented, no warning", config.name, file=file)
            builds[config.name] = build
            result["builds"][config.name] = "ok" if build["ok"] else "failed"
            if not build["ok"] and not config.coverage:
                if config.instrumented:
                    self.fail("build", config.name, rc=build["rc"],
                              timed_out=build["timed_out"], first_error=first_error(build["log"]))
                elif config.family == "gcc" or config.name == "plain-clang":
                    result["notes"].append(f"{config.name}: plain build fails: "
                                           f"{first_error(build['log'])}")
        if not any(b["ok"] for name, b in builds.items() if name.startswith("plain-")):
            result["skipped"] = "no plain build works"
            return result, self.failures

        # Runs: plain first, then instrumented, per thread count.
        runs = {}
        for threads in self.args.threads:
            for family in ("gcc", "clang"):
                plain_name, inst_name = "plain-" + family, "ompcc-" + family
                plain, inst = builds.get(plain_name), builds.get(inst_name)
                if not plain or not plain["ok"]:
                    continue
                config = self.config(plain_name)
                p = self.run(config, plain, threads)
                runs[(plain_name, threads)] = p
                status = {"plain_rc": p["rc"], "plain_seconds": p["seconds"]}
                if p["timed_out"] or p["rc"] < 0 or p["rc"] >= SIGNAL_EXIT_STATUS:
                    # Nothing to compare with (some suites hold programs meant to fail).
                    status["status"] = "plain run fails" + (
                        " (timeout)" if p["timed_out"] else f" (exit status {p['rc']})")
                    result["runs"][f"{inst_name}/t{threads}"] = status
                    continue
                if not inst or not inst["ok"]:
                    continue
                i = self.run(self.config(inst_name), inst, threads)
                runs[(inst_name, threads)] = i
                status.update({"rc": i["rc"], "seconds": i["seconds"]})
                if i["timed_out"]:
                    status["status"] = "timeout"
                    self.fail("timeout", inst_name, threads=threads, timeout=program["timeout"],
                              plain_seconds=p["seconds"])
                elif i["rc"] != p["rc"] and (i["rc"] < 0 or i["rc"] >= SIGNAL_EXIT_STATUS):
                    status["status"] = "crash"
                    self.fail("crash", inst_name, threads=threads, rc=i["rc"],
                              plain_rc=p["rc"], stderr_tail=i["stderr"][-600:])
                elif self.same_output(p, i):
                    status["status"] = "same"
                elif self.same_output(p, i, ordered=False):
                    # Threads print in any order: the same lines count as the same output.
                    status["status"] = "same"
                    status["note"] = "same lines in another order"
                elif program.get("output_unspecified"):
                    status["status"] = "nondeterministic"
                    status["note"] = "the program declares its output unspecified"
                else:
                    # Does the plain program give the same output again?
                    agains = [self.run(config, plain, threads, tag=f"-again{k}")
                              for k in range(self.args.reruns)]
                    if any(not self.same_output(p, a, ordered=False) for a in agains):
                        status["status"] = "nondeterministic"
                    else:
                        status["status"] = "differs"
                        self.fail("output mismatch", inst_name, threads=threads, rc=i["rc"],
                                  plain_rc=p["rc"],
                                  diff=first_difference(
                                      normalise(p["stdout"], program["normalize"]),
                                      normalise(i["stdout"], program["normalize"])),
                                  stderr_tail=i["stderr"][-400:])
                result["runs"][f"{inst_name}/t{threads}"] = status

        regions = self.profile_regions(builds, runs)
        self.profile_anomalies(runs)
        if self.program.get("fortran"):
            self.ompt_only_constructs(runs)
        # Ground truth: the sites the coverage build executed.
        cov = builds.get("cov-clang")
        if cov and cov["ok"]:
            executed = self.coverage(cov)
            if executed is not None:
                self.check_sites(executed, regions)
        return result, self.failures

    def config(self, name):
        return next(c for c in self.configs if c.name == name)

    def mpi_unusable(self, config):
        """Why an MPI program cannot be built in this configuration (its family's MPI wrapper
        cannot build an MPI program in a language the program uses: probe_mpi), or None."""
        if not self.program.get("mpi"):
            return None
        program = self.program
        if program["mode"] == "single":
            languages = ["fc" if program.get("fortran") else "cxx" if program["cxx"] else "cc"]
        else:
            languages = ["cc"] + (["fc"] if program.get("fortran") else [])
        reasons = self.mpi_probes.get(config.family, {})
        for lang in languages:
            if reasons.get(lang):
                return reasons[lang]
        return None

    def profiles(self, run):
        """The profile.json files of a run's measurement. A plain program's: each experiment
        directory's. An MPI job's: each rank's part of its job directory, checked once per run
        (check_mpi_job, cached in the run)."""
        if not self.program.get("mpi"):
            return glob.glob(os.path.join(run["dir"], "experiment*", "profile.json"))
        if "job" not in run:
            run["job"] = check_mpi_job(run["dir"], self.program["mpi"]["ranks"])
        return run["job"]["profiles"]

    def ompt_only_constructs(self, runs):
        """Fortran has no coverage build: the merged POMP + OMPT profiles of the flang build
        are the check instead. OMPT sees every construct that ran; one that ompinst instrumented
        is merged into its POMP region, so an OMPT-only region of a construct type (other than
        those flang adds by design, OMPT_ONLY_EXPECTED) is a construct that ran without its
        region."""
        name = "ompcc-clang"
        found, profiles = {}, 0
        for threads in self.args.threads:
            run = runs.get((name, threads))
            if not run:
                continue
            for path in self.profiles(run):
                profiles += 1
                try:
                    with open(path, encoding="utf-8") as f:
                        profile = json.load(f)
                except (OSError, ValueError):
                    continue
                regions = {r["id"]: r for r in profile.get("regions", [])}
                for node in profile.get("nodes", []):
                    region = regions.get(node.get("region"))
                    if not region or region.get("origin") != "ompt" or not node.get("visits"):
                        continue
                    kind = region.get("type", "")
                    if kind in OMPT_ONLY_EXPECTED:
                        continue
                    where = region.get("name") or region.get("function") or ""
                    found[(kind, where)] = found.get((kind, where), 0) + node["visits"]
        if not profiles:
            return
        self.result["sites"]["ompt_only_constructs"] = sum(1 for _ in found)
        for (kind, where), visits in sorted(found.items()):
            self.fail("site without region", name, construct=kind, where=where,
                      note=f"OMPT-only region in the merged profile, {visits} visits")

    def coverage(self, build):
        config = self.config("cov-clang")
        threads = self.args.threads[0]
        run = self.run(config, build, threads)
        raws = glob.glob(os.path.join(run["dir"], "cov-*.profraw"))
        if run["timed_out"] or not raws:
            self.result["notes"].append("coverage run gave no profile" +
                                        (" (timeout)" if run["timed_out"] else ""))
            return None
        profdata = os.path.join(run["dir"], "cov.profdata")
        merge = run_command([self.args.llvm_profdata, "merge", "-sparse", "-o", profdata] + raws,
                            None, None, 300)
        if merge["rc"] != 0:
            self.result["notes"].append("llvm-profdata merge failed: " + merge["stderr"][:200])
            return None
        export = run_command(coverage_export_command(self.args.llvm_cov, profdata,
                                                     build["binary"]),
                             None, None, 300, max_output=None)
        if export["rc"] != 0:
            self.result["notes"].append("llvm-cov export failed: " + export["stderr"][:200])
            return None
        cache = {}
        executed, other = executed_sites(json.loads(export["stdout"]), build["root"], cache)
        by_kind = {}
        for site in other:
            by_kind[site.kind] = by_kind.get(site.kind, 0) + 1
        self.result["sites"]["executed"] = len(executed)
        self.result["sites"]["executed_not_expected"] = by_kind
        return executed

    def profile_anomalies(self, runs):
        """What libpomp counted as anomalies in the profiles of the instrumented runs, per run
        ("ompcc-gcc/t2": {"open_at_finalize": 2}): a region the measurement had to close or drop
        is visible in the table even when the counts and the output are right."""
        found = {}
        for (name, threads), run in sorted(runs.items()):
            if not name.startswith("ompcc") or not run.get("dir"):
                continue
            for path in self.profiles(run):
                try:
                    with open(path, encoding="utf-8") as f:
                        anomalies = json.load(f).get("anomalies", {})
                except (OSError, ValueError):
                    continue
                counted = found.setdefault(f"{name}/t{threads}", {})
                for kind, count in anomalies.items():
                    if count:
                        counted[kind] = counted.get(kind, 0) + count
            if self.program.get("mpi"):
                self.mpi_job_checked(name, threads, run, found.setdefault(f"{name}/t{threads}", {}))
        self.result["anomalies"] = {run: kinds for run, kinds in found.items() if kinds}

    def mpi_job_checked(self, name, threads, run, counted):
        """An MPI job's measurement, checked once per run (check_mpi_job): its rank parts'
        anomalies are summed with the others (profile_anomalies), what is wrong with the job
        directory is added as anomalies of its own (MPI_JOB_PROBLEMS) and a failure, and the job
        is summarised in the results ("mpi_jobs")."""
        self.profiles(run)
        job = run["job"]
        for kind, count in job["problems"].items():
            counted[kind] = counted.get(kind, 0) + count
        summary = {k: v for k, v in job.items() if k != "profiles"}
        self.result.setdefault("mpi_jobs", {})[f"{name}/t{threads}"] = summary
        if job["problems"]:
            self.fail("mpi job", name, threads=threads, problems=job["problems"],
                      job_dirs=job["job_dirs"], complete=job["complete"],
                      parts=job["parts"], ranks=job["ranks"],
                      reason="; ".join(MPI_JOB_PROBLEMS[k] for k in sorted(job["problems"])))

    def profile_regions(self, builds, runs):
        """Per instrumented build that ran: the (file, line) pairs of its visited regions over
        all its runs, or None when no run wrote a profile (a failure of its own)."""
        regions = {}
        for family in ("gcc", "clang"):
            name = "ompcc-" + family
            build = builds.get(name)
            ran = [runs[(name, t)] for t in self.args.threads if (name, t) in runs]
            if not build or not build["ok"] or not ran:
                continue
            lines, profiles = set(), 0
            for run in ran:
                for profile in self.profiles(run):
                    profiles += 1
                    try:
                        lines |= visited_region_lines(profile, build["root"])
                    except (OSError, ValueError) as e:
                        self.result["notes"].append(f"{name}: unreadable profile {profile}: {e}")
            if profiles == 0:
                self.fail("no profile", name, note="the instrumented runs wrote no profile")
            regions[name] = lines if profiles else None
        return regions

    def check_sites(self, executed, regions):
        for name, lines in regions.items():
            if lines is None:
                self.result["sites"][name] = None
                continue
            missing = [s for s in executed if s.key() not in lines]
            self.result["sites"][name] = len(executed) - len(missing)
            for site in missing:
                self.fail("site without region", name, file=site.file, line=site.line,
                          directive=site.directive[:120])


def first_error(log):
    for line in log.splitlines():
        if "error" in line.lower():
            return line.strip()[:300]
    lines = [l for l in log.splitlines() if l.strip()]
    return lines[-1][:300] if lines else ""


def first_difference(a, b):
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<end>"
        y = b[i] if i < len(b) else "<end>"
        if x != y:
            return {"line": i + 1, "plain": x[:200], "instrumented": y[:200]}
    return {"line": None, "note": "exit status differs"}


# --------------------------------------------------------------------------------------------
# Reports


def summarise(results, args):
    """Per suite: the numbers of the FIDELITY.md table."""
    suites = {}
    for r in results:
        s = suites.setdefault(r["suite"], {
            "programs": 0, "skipped": 0, "builds": 0, "built": 0, "same": 0, "nondet": 0,
            "compared": 0, "files": 0, "instrumented": 0, "no_openmp": 0,
            "all_files_instrumented": 0, "executed": 0, "region_gcc": 0, "region_clang": 0,
            "sites_checked_gcc": 0, "sites_checked_clang": 0, "excluded": {}})
        s["programs"] += 1
        if r.get("skipped"):
            s["skipped"] += 1
            continue
        for family in ("gcc", "clang"):
            name = "ompcc-" + family
            state = r["builds"].get(name)
            if state is None or state.startswith("not built"):
                continue
            s["builds"] += 1
            if state != "ok":
                continue
            s["built"] += 1
            statuses = [v["status"] for k, v in r["runs"].items()
                        if k.startswith(name + "/") and "status" in v]
            if statuses and all(x == "same" for x in statuses):
                s["same"] += 1
            if statuses and all(x in ("same", "nondeterministic") for x in statuses) and \
                    "nondeterministic" in statuses:
                s["nondet"] += 1
            if statuses and not any(x.startswith("plain run fails") for x in statuses):
                s["compared"] += 1
            files = r["files"].get(name, {})
            need = files.get("compiled", 0) - files.get("no_openmp", 0)
            s["files"] += need
            s["instrumented"] += files.get("instrumented", 0)
            if files and files.get("instrumented", 0) == need:
                s["all_files_instrumented"] += 1
            if r["sites"].get(name) is not None and "executed" in r["sites"]:
                s["sites_checked_" + family] += r["sites"]["executed"]
                s["region_" + family] += r["sites"][name]
        if "executed" in r["sites"]:
            s["executed"] += r["sites"]["executed"]
            for kind, n in r["sites"].get("executed_not_expected", {}).items():
                s["excluded"][kind] = s["excluded"].get(kind, 0) + n
    return suites


def markdown_table(suites):
    lines = [
        "| suite | programs (run) | ompcc builds | built | same output, every run | "
        "files instrumented | executed sites | with region (gcc) | with region (clang-19) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    total = {k: 0 for k in ("programs", "skipped", "builds", "built", "same", "files",
                            "instrumented", "executed", "region_gcc", "region_clang",
                            "sites_checked_gcc", "sites_checked_clang")}
    for name in sorted(suites):
        s = suites[name]
        for k in total:
            total[k] += s[k]
        lines.append(row(name, s))
    lines.append(row("**total**", total))
    return "\n".join(lines)


def anomaly_list(results):
    """The programs whose instrumented runs' profiles counted anomalies, one line each."""
    lines = []
    for r in results:
        for run, kinds in sorted(r.get("anomalies", {}).items()):
            lines.append(f"- {r['suite']}/{r['program']}, {run}: " +
                         ", ".join(f"{k}={v}" for k, v in sorted(kinds.items())))
    if not lines:
        return "\n\nAnomalies in the instrumented runs' profiles: none."
    return "\n\nAnomalies in the instrumented runs' profiles:\n" + "\n".join(lines)


def mpi_job_list(results):
    """The MPI programs' instrumented runs, one line per program: each run's job directory
    (complete or not, parts found of the ranks started) and what was wrong with it. Nothing
    when no program is an MPI program."""
    lines = []
    for r in results:
        if "mpi" not in r:
            continue
        head = f"- {r['suite']}/{r['program']} ({r['mpi']['ranks']} ranks): "
        runs = []
        for run, job in sorted(r.get("mpi_jobs", {}).items()):
            state = ("complete" if job["complete"] else "no job directory"
                     if job["complete"] is None else "INCOMPLETE")
            text = f"{run} {state}, {job['parts']}/{job['ranks']} parts"
            if job["problems"]:
                text += " (" + ", ".join(f"{k}={v}"
                                         for k, v in sorted(job["problems"].items())) + ")"
            runs.append(text)
        skipped = sorted(r["mpi"].get("unusable", {}))
        if skipped:
            runs.append("not built: " + ", ".join(skipped) + " (MPI: " +
                        r["mpi"]["unusable"][skipped[0]] + ")")
        lines.append(head + ("; ".join(runs) if runs else "no instrumented run"))
    if not lines:
        return ""
    return "\n\nMPI jobs of the instrumented runs (a job directory with a part per rank):\n" + \
        "\n".join(lines)


def row(name, s):
    def frac(a, b):
        return f"{a}/{b}" if b else "–"
    return (f"| {name} | {s['programs']} ({s['programs'] - s['skipped']}) | {s['builds']} | "
            f"{s['built']} | {s['same']} | {frac(s['instrumented'], s['files'])} | "
            f"{s['executed']} | {frac(s['region_gcc'], s['sites_checked_gcc'])} | "
            f"{frac(s['region_clang'], s['sites_checked_clang'])} |")


def write_atomically(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


# --------------------------------------------------------------------------------------------


def add_compiler_arguments(parser):
    """The real compilers of the configurations (make_configs), as options."""
    for option, default in (("--gcc", "gcc"), ("--gxx", "g++"), ("--clang", "clang-19"),
                            ("--clangxx", "clang++-19"), ("--gfortran", "gfortran"),
                            ("--flang", "flang-new-19")):
        parser.add_argument(option, default=default)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Build, run and check third-party OpenMP suites plain and with ompcc "
                    "(docs/FIDELITY.md). The manifests say how (bench/README.md).")
    parser.add_argument("manifests", nargs="*", help="manifest files (JSON)")
    parser.add_argument("--toolkit-bin",
                        help="the directory holding ompcc and ompc++ (an installed toolkit)")
    parser.add_argument("--work", help="scratch directory for copies, builds, runs and experiments")
    parser.add_argument("--from-json", nargs="+", metavar="FILE",
                        help="run nothing: merge the results of earlier --json files into one "
                             "table and JSON")
    parser.add_argument("--markdown", help="write the table here")
    parser.add_argument("--json", help="write every program's results and every failure here")
    parser.add_argument("--threads", default=",".join(map(str, DEFAULT_THREADS)),
                        help="OMP_NUM_THREADS values, comma separated (default 2,3)")
    parser.add_argument("--jobs", type=int, default=1, help="programs processed at once")
    parser.add_argument("--build-jobs", type=int, default=1, help="{jobs} in build commands")
    parser.add_argument("--only", help="only programs whose 'suite/name' matches this regex")
    parser.add_argument("--reruns", type=int, default=2,
                        help="plain reruns that tell a nondeterministic program from a "
                             "mismatch (default 2)")
    parser.add_argument("--no-strict", dest="strict", action="store_false",
                        help="do not set OMPCC_STRICT=1")
    parser.add_argument("--clean", action="store_true",
                        help="remove the work directory at the end")
    add_compiler_arguments(parser)
    parser.add_argument("--llvm-cov", default="llvm-cov-19")
    parser.add_argument("--llvm-profdata", default="llvm-profdata-19")
    parser.add_argument("--mpicc", default="mpicc",
                        help="MPI programs: the MPI C compiler wrapper (default mpicc)")
    parser.add_argument("--mpicxx", default="mpicxx")
    parser.add_argument("--mpifc", default="mpif90")
    parser.add_argument("--mpirun", default="mpirun")
    args = parser.parse_args(argv)
    try:
        args.threads = [int(t) for t in args.threads.split(",") if t]
    except ValueError:
        parser.error(f"--threads: not a comma-separated list of numbers: '{args.threads}'")
    if not args.threads or min(args.threads) < 1:
        parser.error("--threads: give at least one thread count of 1 or more")
    if args.from_json:
        if args.manifests:
            parser.error("--from-json runs nothing: give no manifests")
        return args
    if not args.manifests or not args.toolkit_bin or not args.work:
        parser.error("give manifests, --toolkit-bin and --work (or --from-json)")
    args.toolkit_bin = os.path.abspath(args.toolkit_bin)
    if not os.access(os.path.join(args.toolkit_bin, "ompcc"), os.X_OK):
        parser.error(f"--toolkit-bin: no ompcc in '{args.toolkit_bin}'")
    args.work = os.path.abspath(args.work)
    return args


def prepare_tree(suite, config, work):
    """The per-configuration copy of a suite that is built in place."""
    dest = os.path.join(work, "trees", re.sub(r"[^A-Za-z0-9_.+-]", "_", suite["name"]),
                        config.name)
    if os.path.exists(dest):
        shutil.rmtree(dest)
    shutil.copytree(suite["root"], dest, symlinks=True)
    if suite.get("setup"):
        res = run_command(suite["setup"], dest, base_env(work), suite["build_timeout"], shell=True)
        if res["rc"] != 0:
            raise ManifestError(f"suite {suite['name']}: setup failed in {dest}: "
                                f"{first_error(res['stdout'] + res['stderr'])}")


def write_reports(args, results, failures, strict_mode):
    results.sort(key=lambda r: (r["suite"], r["program"]))
    failures.sort(key=lambda f: (f["suite"], f["program"], f["class"], f.get("build", ""),
                                 f.get("threads", 0), f.get("file", ""), f.get("line", 0)))
    suites = summarise(results, args)
    table = markdown_table(suites) + anomaly_list(results) + mpi_job_list(results)
    print(table)
    if args.markdown:
        write_atomically(args.markdown, table + "\n")
    if args.json:
        document = {"strict_mode": strict_mode, "threads": args.threads, "suites": suites,
                    "programs": results, "failures": failures}
        write_atomically(args.json, json.dumps(document, indent=1, sort_keys=True) + "\n")


def merge_reports(args):
    results, failures, modes = [], [], set()
    for path in args.from_json:
        try:
            with open(path, encoding="utf-8") as f:
                document = json.load(f)
            results.extend(document["programs"])
            failures.extend(document["failures"])
            modes.add(document["strict_mode"])
        except (OSError, ValueError, KeyError) as e:
            print(f"corpus_runner: error: {path}: not a results file: {e}", file=sys.stderr)
            return 1
    write_reports(args, results, failures, " / ".join(sorted(modes)))
    return 0


def main(argv):
    args = parse_args(argv)
    if args.from_json:
        return merge_reports(args)
    try:
        loaded = [load_manifest(m) for m in args.manifests]
    except ManifestError as e:
        print(f"corpus_runner: error: {e}", file=sys.stderr)
        return 2
    os.makedirs(os.path.join(args.work, "tmp"), exist_ok=True)
    configs = make_configs(args)
    write_wrappers(configs, args.work)
    strict = args.strict and strict_supported(os.path.join(args.toolkit_bin, "ompcc"))
    # MPI programs get configurations of their own, and what the MPI wrappers can build is
    # probed once, when a selected program is an MPI program.
    mpi_configs, mpi_probes = None, {}
    if any(p.get("mpi") and not p.get("skip") and
           (not args.only or re.search(args.only, f"{suite['name']}/{p['name']}"))
           for suite, programs in loaded for p in programs):
        mpi_configs = make_configs(args, mpi=True)
        write_wrappers(mpi_configs, args.work)
        mpi_probes = probe_mpi(mpi_configs, args.work, args)
        for family, reasons in sorted(mpi_probes.items()):
            for lang, reason in sorted(reasons.items()):
                if reason:
                    print(f"corpus_runner: MPI, {family} family, {lang}: {reason}",
                          file=sys.stderr, flush=True)

    jobs = []
    for suite, programs in loaded:
        selected = [p for p in programs
                    if not args.only or re.search(args.only, f"{suite['name']}/{p['name']}")]
        if not selected:
            continue
        if suite["copy"] and any(p["mode"] == "make" for p in selected):
            for config in configs:
                try:
                    prepare_tree(suite, config, args.work)
                except ManifestError as e:
                    print(f"corpus_runner: error: {e}", file=sys.stderr)
                    return 1
        jobs.extend((suite, p) for p in selected)

    results, failures = [], []
    lock = threading.Lock()
    started = time.monotonic()

    def one(job):
        suite, program = job
        try:
            result, fails = ProgramRunner(
                args, suite, program, mpi_configs if program.get("mpi") else configs,
                args.work, mpi_probes).process()
        except ManifestError as e:
            result = {"suite": suite["name"], "program": program["name"], "skipped": str(e),
                      "builds": {}, "runs": {}, "files": {}, "sites": {}, "notes": []}
            fails = [{"suite": suite["name"], "program": program["name"],
                      "class": "manifest", "message": str(e)}]
        with lock:
            results.append(result)
            failures.extend(fails)
            classes = ", ".join(sorted({f["class"] for f in fails}))
            print(f"[{len(results)}/{len(jobs)} {time.monotonic() - started:6.0f}s] "
                  f"{suite['name']}/{program['name']}: "
                  f"{result.get('skipped') or classes or 'ok'}",
                  file=sys.stderr, flush=True)

    # Builds within a suite share its per-configuration trees, so make-based programs of one
    # suite run one after the other; single-file programs in parallel.
    by_tree = {}
    for job in jobs:
        key = job[0]["name"] if job[1]["mode"] == "make" and job[0]["copy"] else id(job)
        by_tree.setdefault(key, []).append(job)
    # ompinst-clang's servers (docs/OMPCC.md) in the work directory, stopped when the builds end.
    with private_servers(args.work), \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(lambda group: [one(j) for j in group], by_tree.values()))

    write_reports(args, results, failures,
                  "OMPCC_STRICT=1" if strict else
                  "not supported by this ompcc: fallback detected from its warnings"
                  if args.strict else "off")
    if args.clean:
        shutil.rmtree(args.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
