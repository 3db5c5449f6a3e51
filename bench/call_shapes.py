#!/usr/bin/env python3
"""What the shape of the POMP event calls costs the compile of an instrumented file (issue 15,
docs/PERFORMANCE.md, "session 10, the event calls"): variants of ompinst's output with the calls
rewritten, each compiled under callgrind, in M instructions. For the count only: most variants
change what the program does (they drop arguments or merge events into routines that exist
nowhere); every variant declares the routines it calls, so it compiles.

  bench/call_shapes.py INSTRUMENTED.c[c] --cc clang++-19 [--flags "-O2 -std=c++17"]
                       [--include pomp-runtime/include] [--variants today,handle,...] [--keep DIR]
  bench/call_shapes.py INSTRUMENTED.c[c] --variant V      (print one variant's text)

INSTRUMENTED is ompinst's output written by the toolkit before session 10 (its forks pass
&pomp_ctx_N; `ompcc --keep` gives it). A variant is a '+'-joined list of these shapes:
  today       the calls as they are
  handle      every event call with its handle argument only (the join question keeps its context)
  none        no argument at all
  notid       the thread ids gone
  noconst     thread ids, Loop_enter's chunk size, first iteration and increment gone
  noconstctc  noconst and the CTC strings gone
  addr        later events take the handle's address instead of its value
  ctxret      Parallel_fork returns the context instead of storing it through &pomp_ctx_N
  ctxtmp      the context stored through a temporary's address, then copied
  merge       adjacent events merged into one call per group, arguments concatenated
  pm          the event routines declared __attribute__((preserve_most)) (clang only)
The compiler runs under `valgrind --tool=callgrind --trace-children=yes`; the sum over its
processes is printed. Run from any directory; temporary files go to a directory of its own, which
is removed unless --keep names one.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The routines whose calls are rewritten; the others (Init, Finalize, Get_handle) stay.
CONTROL = ("Init", "Finalize", "Get_handle")
JOIN = "Join_barrier_needed"
DROPPED_CONSTANTS = {"thread_id", "chunk_size", "init_iter", "incr"}
DECLARATION = re.compile(r'(?:extern "C" )?int32_t POMP_(\w+)\((.*?)\) POMP_NOTHROW;\n')
# A call whose arguments nest parentheses two deep at most: ((int64_t)(n) - 1).
CALL = r"(POMP_(\w+)\(((?:[^;()]|\((?:[^;()]|\([^;()]*\))*\))*)\))"


def parse_signatures(text):
    """{routine: [(type, name), ...]} from the file's declarations."""
    signatures = {}
    for match in DECLARATION.finditer(text):
        params = [] if match.group(2) == "void" else [p.strip() for p in match.group(2).split(",")]
        parsed = []
        for param in params:
            kind, name = param.rsplit(" ", 1)
            if name.endswith("[]"):
                kind = "const char *"
            elif name.startswith("*"):
                kind += " *"
            parsed.append((kind.strip(), re.sub(r"[\[\]*]", "", name)))
        signatures[match.group(1)] = parsed
    return signatures


def split_arguments(text):
    out, depth, current = [], 0, ""
    for char in text:
        depth += char in "(["
        depth -= char in ")]"
        if char == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        out.append(current.strip())
    return out


class Variant:
    """One rewrite of the file's event calls."""

    def __init__(self, text, shapes):
        self.shapes = shapes
        self.signatures = parse_signatures(text)
        self.events = [n for n in self.signatures if n not in CONTROL]
        self.link = 'extern "C" ' if 'extern "C" int32_t POMP_' in text else ""
        last = text.find("\n", text.find("POMP_Join_barrier_needed(POMP_Context_t")) + 1
        self.head = DECLARATION.sub("", text[:last])
        self.body = text[last:]

    def is_event(self, name):
        return name in self.events or "__" in name

    def calls(self, text):
        """(start, end, name, arguments) of each call of a routine the file declares."""
        found = []
        for match in re.finditer(r"POMP_(\w+)\(", text):
            name = match.group(1)
            line = text.rfind("\n", 0, match.start())
            if text[line + 1:line + 11] in ('extern "C"', "int32_t PO"):
                continue
            if name not in self.signatures:
                continue
            depth, end = 1, match.end()
            while depth:
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                end += 1
            found.append((match.start(), end, name, split_arguments(text[match.end():end - 1])))
        return found

    def merged(self, first, second):
        (_, _, name1, args1), (_, _, name2, args2) = self.calls(first)[0], self.calls(second)[0]
        name = name1 + "__" + name2
        self.signatures.setdefault(name, self.signatures[name1] + self.signatures[name2])
        return name, args1 + args2

    def merge(self, text):
        """Adjacent events of one construct as one call, until nothing changes."""
        rules = [
            (re.compile(CALL + r";(\s*\{\s*)" + CALL + ";"), "block"),
            (re.compile(CALL + r";(\s*)" + CALL + ";"), "adjacent"),
            (re.compile(CALL + r"; if \(\(pomp_join_(\d+) = " + CALL + r"\)\)"), "join-stored"),
            (re.compile(CALL + r"; if \(" + CALL + r"\)"), "join"),
            (re.compile(CALL + r";\s*\} \} if \(pomp_join_\d+\) \{ " + CALL + r"; \}"), "end"),
        ]
        changed = True
        while changed:
            changed = False
            for rule, kind in rules:
                def rewrite(m):
                    nonlocal changed
                    if kind == "join-stored":
                        first, second = m.group(1), m.group(5)
                    elif kind in ("join", "end"):
                        first, second = m.group(1), m.group(4)
                    else:
                        first, second = m.group(1), m.group(5)
                    if not self.calls(first) or not self.calls(second):
                        return m.group(0)
                    name1, name2 = self.calls(first)[0][2], self.calls(second)[0][2]
                    if not self.is_event(name1) or not (self.is_event(name2) or name2 == JOIN):
                        return m.group(0)
                    if kind.startswith("join") != (name2 == JOIN):
                        return m.group(0)
                    if kind in ("block", "adjacent") and (
                            name2.startswith("Parallel_fork") or name1.endswith("Parallel_end")
                            or name1.endswith("Loop_exit") and (name2.startswith("Loop_enter") or
                                                                 name2.startswith("Implicit"))):
                        return m.group(0)
                    name, args = self.merged(first, second)
                    changed = True
                    call = "POMP_%s(%s)" % (name, ", ".join(args))
                    if kind == "join-stored":
                        return "if ((pomp_join_%s = %s))" % (m.group(4), call)
                    if kind == "join":
                        return "if (%s)" % call
                    if kind == "end":
                        return call + "; } } "
                    if kind == "block":
                        return m.group(4) + call + ";"
                    return call + ";" + m.group(4)
                text = rule.sub(rewrite, text)
        return text

    def kept(self, name):
        """The indices of the parameters a call of name keeps."""
        params = self.signatures[name]
        if "none" in self.shapes:
            return [0] if name == JOIN else []
        if "handle" in self.shapes:
            return [0]
        drop = set()
        if "notid" in self.shapes:
            drop |= {"thread_id"}
        if "noconst" in self.shapes or "noconstctc" in self.shapes:
            drop |= DROPPED_CONSTANTS
        if "noconstctc" in self.shapes:
            drop |= {"ctc"}
        return [i for i, (_, param) in enumerate(params) if param not in drop]

    def text(self):
        body = self.body
        if "ctxret" in self.shapes or "ctxtmp" in self.shapes:
            fork = (r"POMP_Context_t (pomp_ctx_\d+); POMP_Parallel_fork\(([^;]*), &pomp_ctx_\d+, "
                    r"(pomp_ctc_\d+)\);")
            if "ctxret" in self.shapes:
                body = re.sub(fork, r"POMP_Context_t \1 = POMP_Parallel_fork(\2, \3);", body)
                self.signatures["Parallel_fork"] = [
                    p for p in self.signatures["Parallel_fork"] if p[1] != "fork_context"]
            else:
                body = re.sub(fork, r"POMP_Context_t \1; { POMP_Context_t pomp_c; "
                              r"POMP_Parallel_fork(\2, &pomp_c, \3); \1 = pomp_c; }", body)
        if "addr" in self.shapes:
            for name in self.events:
                if name != JOIN:
                    self.signatures[name] = [
                        (kind + " *" if param == "handle" and "*" not in kind else kind, param)
                        for kind, param in self.signatures[name]]
            later = r"(POMP_(?!Get_handle|Init|Join)\w+\((?:[^;]*, )?)(pomp_handle_\d+)"
            for _ in range(3):
                body = re.sub(later, r"\1&\2", body)
        if "merge" in self.shapes:
            body = self.merge(body)
        out, last = [], 0
        for start, end, name, args in self.calls(body):
            if not self.is_event(name):
                continue
            out += [body[last:start], "POMP_%s(%s)" % (name, ", ".join(args[i] for i in
                                                                      self.kept(name)))]
            last = end
        body = "".join(out) + body[last:]
        attribute = " __attribute__((preserve_most))" if "pm" in self.shapes else ""
        declarations = ""
        for name in sorted(set(c[2] for c in self.calls(body)) | set(CONTROL)):
            if name not in self.signatures:
                continue
            event = self.is_event(name)
            indices = self.kept(name) if event else range(len(self.signatures[name]))
            params = ", ".join("%s p%d" % (self.signatures[name][i][0], i) for i in indices)
            result = "POMP_Context_t" if name == "Parallel_fork" and "ctxret" in self.shapes \
                else "int32_t"
            declarations += "%s%s POMP_%s(%s) POMP_NOTHROW%s;\n" % (
                self.link, result, name, params or "void", attribute if event else "")
        self.counts = collections.Counter(c[2] for c in self.calls(body))
        return self.head + declarations + body


def callgrind(argv, directory):
    """The instructions of argv and its children, in M."""
    out = os.path.join(directory, "cg")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                    "--callgrind-out-file=" + os.path.join(out, "cg.%p")] + argv,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    total = 0
    for name in os.listdir(out):
        with open(os.path.join(out, name)) as f:
            for line in f:
                if line.startswith("totals:"):
                    total += int(line.split()[1])
                    break
    return total / 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("instrumented")
    parser.add_argument("--variant", help="print this variant's text and stop")
    parser.add_argument("--variants", default="today,handle,none,notid,noconst,noconstctc,addr,"
                        "ctxret,ctxtmp,merge,merge+noconst,merge+notid+ctxret")
    parser.add_argument("--cc", default="clang++-19")
    parser.add_argument("--flags", default="-O2")
    parser.add_argument("--include", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "pomp-runtime", "include"))
    parser.add_argument("--keep", help="keep the variants and objects in this directory")
    args = parser.parse_args()
    text = open(args.instrumented).read()
    if args.variant:
        sys.stdout.write(Variant(text, args.variant.split("+")).text())
        return
    suffix = os.path.splitext(args.instrumented)[1]
    directory = args.keep or tempfile.mkdtemp(prefix="call-shapes-")
    os.makedirs(directory, exist_ok=True)
    try:
        for name in args.variants.split(","):
            variant = Variant(text, name.split("+"))
            source = os.path.join(directory, name + suffix)
            with open(source, "w") as f:
                f.write(variant.text())
            count = callgrind([args.cc, "-fopenmp"] + args.flags.split() +
                              ["-isystem", args.include, "-c", source, "-o", source + ".o"],
                              directory)
            print("%-28s %9.1f M  %d calls" % (name, count, sum(variant.counts.values())),
                  flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
