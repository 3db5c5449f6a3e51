#!/usr/bin/env python3
"""Compile real code through each of ompcc's build paths and compare with the plainest one.

ompcc reaches the same object by several paths: inside clang-19 the instrumentation runs first or
beside the compile (the overlapped compile), ompinst's parse and the compile load precompiled
preambles from the preamble cache (the second compile of a preamble precompiles them, later ones
load them), ompcc's own cache replays a compile, the ompinst server serves the parse. Each must
give what the plainest path gives: the same exit status, the same messages, the same object byte
for byte and the same dependency file (docs/FIDELITY.md). This takes translation units from
compile_commands.json files (CMake's CMAKE_EXPORT_COMPILE_COMMANDS, `bear -- make`), compiles
each with the reference path (every one of those off) and then with each path asked for, and
reports what differs.

    bench/build_paths.py compile_commands.json... [--bin build/bin] [--compiler clang|gcc]
        [--paths overlap,preamble,beside,cache,server,default] [--path NAME:VAR=VALUE[,VAR=VALUE]...]
        [--flags="-g -O2"] [--only REGEX] [--jobs 2] [--work DIR] [--json FILE] [--markdown FILE]

Paths (each a fresh private cache; a path of several compiles compares every one):
  overlap   the instrumentation beside the compile (OMPINST_OVERLAP=always): inside clang-19 the
            overlapped compile, with gcc the compile of the #include block while ompinst runs
  preamble  the preamble cache on, three compiles: the first notes the preambles, the second
            precompiles them, the third loads them
  beside    the same, overlapped: the second compile precompiles the preambles beside its rest
            (OMPINST_PRECOMPILE=beside; clang-19 only)
  cache     ompcc's cache on, two compiles: the second replays the first
  server    the ompinst server on, two compiles (with gcc: the server parses); the run's servers
            share a directory of its own and are stopped at its end
  default   everything as a user gets it (but always overlapped), three compiles
--path adds one of your own: NAME:VAR=VALUE,... on top of the reference's environment.

An object with debug information may differ between two compiles of the same path (clang-19
orders a task's captured variables by heap addresses, FIDELITY.md): when an object differs, the
reference is compiled twice more, and an object equal to any reference counts as the same; the
report says when the references disagreed. Exit status: 0 when every compile matched, 1 when one
did not, 2 for bad arguments.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from ompinst_servers import private_servers

COMPILERS = {"clang": ("clang-19", "clang++-19"), "gcc": ("gcc", "g++")}
CXX_SUFFIXES = (".cc", ".cpp", ".cxx", ".C", ".c++")
# Flags of the recorded command that name outputs: the compiles here write their own.
DROP_WITH_VALUE = {"-o", "-MF", "-MT", "-MQ"}
DROP_ALONE = {"-c", "-MD", "-MMD", "-MP", "-M", "-MM"}

# name: (environment on top of the reference's, compiles, compilers it applies to)
PATHS = {
    "overlap": ({"OMPINST_OVERLAP": "always"}, 1, ("clang", "gcc")),
    "preamble": ({"OMPINST_PREAMBLE": "1", "OMPINST_PREAMBLE_DIR": "{cache}/preamble"}, 3,
                 ("clang", "gcc")),
    "beside": ({"OMPINST_OVERLAP": "always", "OMPINST_PREAMBLE": "1",
                "OMPINST_PRECOMPILE": "beside", "OMPINST_PREAMBLE_DIR": "{cache}/preamble"}, 3,
               ("clang",)),
    "cache": ({"OMPCC_CACHE": "1", "OMPCC_CACHE_DIR": "{cache}/ompcc"}, 2, ("clang", "gcc")),
    "server": ({"OMPCC_SERVER": "1", "OMPCC_SERVER_DIR": "{server}"}, 2, ("clang", "gcc")),
    "default": ({"OMPINST_OVERLAP": "always", "OMPINST_PREAMBLE": "1",
                 "OMPINST_PREAMBLE_DIR": "{cache}/preamble", "OMPCC_CACHE": "1",
                 "OMPCC_CACHE_DIR": "{cache}/ompcc", "OMPCC_SERVER": "1",
                 "OMPCC_SERVER_DIR": "{server}"}, 3, ("clang", "gcc")),
}


def units(files, only):
    """(directory, source, flags, is_cxx) of every entry of the compile_commands.json files."""
    found = []
    for path in files:
        with open(path) as f:
            entries = json.load(f)
        for entry in entries:
            words = entry.get("arguments") or shlex.split(entry["command"])
            directory = entry["directory"]
            source = entry["file"]
            if only and not re.search(only, os.path.join(directory, source)):
                continue
            flags, skip = [], False
            for word in words[1:]:
                if skip:
                    skip = False
                elif word in DROP_WITH_VALUE:
                    skip = True
                elif word in DROP_ALONE or word == source or (
                        word.startswith(("-MF", "-MT", "-MQ")) and len(word) > 3):
                    continue
                else:
                    flags.append(word)
            is_cxx = source.endswith(CXX_SUFFIXES) or "++" in os.path.basename(words[0])
            found.append((directory, source, flags, is_cxx))
    return found


class Unit:
    """One translation unit compiled through the reference path and the paths asked for."""

    def __init__(self, args, index, directory, source, flags, is_cxx):
        self.args, self.directory, self.source, self.is_cxx = args, directory, source, is_cxx
        self.flags = flags + ([] if "-fopenmp" in flags else ["-fopenmp"]) + args.flags
        self.work = os.path.join(args.work, "%04d" % index)
        self.name = os.path.normpath(os.path.join(directory, source))
        os.makedirs(os.path.join(self.work, "tmp"))

    def environment(self, extra):
        cc, cxx = COMPILERS[self.args.compiler]
        env = dict(os.environ, OMPCC_CC=cc, OMPCC_CXX=cxx, OMPCC_STRICT="1",
                   TMPDIR=os.path.join(self.work, "tmp"), OMPCC_CACHE="0", OMPCC_SERVER="0",
                   OMPINST_PREAMBLE="0", OMPINST_OVERLAP="0")
        for name, value in extra.items():
            env[name] = value.format(cache=os.path.join(self.work, "cache"),
                                     server=self.args.servers)
        return env

    def compile(self, tag, extra):
        """Compiles once; returns (exit status, messages, object bytes, dependency file)."""
        driver = os.path.join(self.args.bin, "ompc++" if self.is_cxx else "ompcc")
        obj, deps = os.path.join(self.work, tag + ".o"), os.path.join(self.work, tag + ".d")
        proc = subprocess.run([driver] + self.flags + ["-c", self.source, "-o", obj, "-MD", "-MF",
                                                       deps], cwd=self.directory,
                              env=self.environment(extra), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
        result = [proc.returncode, proc.stderr, None, None]
        if os.path.exists(obj):
            with open(obj, "rb") as f:
                result[2] = f.read()
        if os.path.exists(deps):
            with open(deps, "rb") as f:
                # The target is the object's name, which differs by tag, and the lines are
                # wrapped after it: the words are compared.
                result[3] = f.read().replace(b"\\\n", b" ").replace(obj.encode(), b"OBJECT",
                                                                     1).split()
        return result

    def run(self):
        try:
            return self.compare()
        except OSError as error:
            # A driver that cannot be run (a toolkit rebuilt under the run): said, not a crash.
            return {"unit": self.name, "error": str(error), "paths": {}}

    def compare(self):
        reference = [self.compile("reference", {})]
        report = {"unit": self.name, "reference_status": reference[0][0], "paths": {}}
        for name in self.args.paths:
            extra, compiles, _ = PATHS[name]
            differences = []
            for n in range(1, compiles + 1):
                got = self.compile("%s%d" % (name, n), extra)
                what = [part for part, i in (("status", 0), ("messages", 1), ("dependencies", 3))
                        if got[i] != reference[0][i]]
                if got[2] not in [r[2] for r in reference] and len(reference) == 1:
                    reference += [self.compile("reference%d" % k, {}) for k in (2, 3)]
                    if len({r[2] for r in reference}) > 1:
                        report["references_disagree"] = True
                if got[2] not in [r[2] for r in reference]:
                    what.append("object")
                if what:
                    differences.append({"compile": n, "differs": what,
                                        "messages": got[1].decode(errors="replace")[-2000:]})
            report["paths"][name] = differences
        report["reference_messages"] = reference[0][1].decode(errors="replace")[-2000:]
        shutil.rmtree(self.work, ignore_errors=True)
        return report


def table(reports, paths):
    lines = ["| path | units | the same | status | messages | object | dependencies |",
             "|---|---|---|---|---|---|---|"]
    for name in paths:
        counts = {"status": 0, "messages": 0, "object": 0, "dependencies": 0}
        same = 0
        for report in reports:
            differs = {d for entry in report["paths"].get(name, []) for d in entry["differs"]}
            same += not differs and "error" not in report
            for part in differs:
                counts[part] += 1
        lines.append("| %s | %d | %d | %d | %d | %d | %d |" % (
            name, len(reports), same, counts["status"], counts["messages"], counts["object"],
            counts["dependencies"]))
    disagree = sum(1 for r in reports if r.get("references_disagree"))
    lines.append("")
    lines.append("References that differed between compiles (debug information): %d." % disagree)
    for report in reports:
        if "error" in report:
            lines.append("- %s: not compared: %s" % (report["unit"], report["error"]))
    for report in reports:
        for name in paths:
            for entry in report["paths"].get(name, []):
                lines.append("- %s: %s, compile %d: %s" % (report["unit"], name, entry["compile"],
                                                           ", ".join(entry["differs"])))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("compile_commands", nargs="+")
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "build",
                                                      "bin"))
    parser.add_argument("--compiler", choices=sorted(COMPILERS), default="clang")
    parser.add_argument("--paths", default="overlap,preamble,beside,cache,server,default")
    parser.add_argument("--path", action="append", default=[],
                        help="NAME:VAR=VALUE[,VAR=VALUE]...: a path of your own, one compile")
    parser.add_argument("--flags", default="",
                        help="more flags for every compile: --flags='-g -O2' (with =: they begin "
                        "with -)")
    parser.add_argument("--only", help="only units whose path matches this regex")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--work", help="scratch directory (default: a temporary one, removed)")
    parser.add_argument("--json")
    parser.add_argument("--markdown")
    args = parser.parse_args()
    args.flags = shlex.split(args.flags)
    args.bin = os.path.abspath(args.bin)
    if not os.access(os.path.join(args.bin, "ompcc"), os.X_OK):
        parser.error("no ompcc in %s (--bin)" % args.bin)
    for spec in args.path:
        name, _, settings = spec.partition(":")
        pairs = [s.partition("=") for s in settings.split(",") if s]
        if not name or not pairs or any(not p[0] or not p[1] for p in pairs):
            parser.error("--path %r: want NAME:VAR=VALUE[,VAR=VALUE]..." % spec)
        PATHS[name] = ({p[0]: p[2] for p in pairs}, 1, tuple(COMPILERS))
    args.paths = [p for p in args.paths.split(",") if p] + [s.partition(":")[0] for s in args.path]
    unknown = [p for p in args.paths if p not in PATHS]
    if unknown:
        parser.error("unknown path %s (known: %s)" % (", ".join(unknown), ", ".join(PATHS)))
    args.paths = [p for p in args.paths if args.compiler in PATHS[p][2]]
    try:
        found = units(args.compile_commands, args.only)
    except (OSError, ValueError, KeyError) as error:
        parser.error("cannot read the compile commands: %s" % error)
    if not found:
        parser.error("no translation unit")

    own_work = args.work is None
    args.work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="build_paths."))
    os.makedirs(args.work, exist_ok=True)
    try:
        with private_servers(args.work) as args.servers, \
                concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            jobs = [pool.submit(Unit(args, i, *unit).run) for i, unit in enumerate(found)]
            for done, job in enumerate(concurrent.futures.as_completed(jobs), 1):
                print("%d/%d %s" % (done, len(jobs), job.result()["unit"]), file=sys.stderr)
            reports = [job.result() for job in jobs]
    finally:
        if own_work:
            shutil.rmtree(args.work, ignore_errors=True)
    text = table(reports, args.paths)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(reports, f, indent=1)
    sys.stdout.write(text)
    same = all("error" not in r and not r["paths"][p] for r in reports for p in args.paths)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
