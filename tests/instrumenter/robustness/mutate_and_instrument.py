#!/usr/bin/env python3
"""Robustness of ompinst against mutated sources.

Takes seed sources (C and C++ files with OpenMP constructs), makes mutants of
them with a fixed random seed (1-3 mutations each: a token deleted, duplicated
or swapped with its neighbour, tokens of `#pragma omp` lines and braces,
parentheses and semicolons picked more often than others; or, less often, a
`#pragma omp` line duplicated or the braces of a block deleted), runs ompinst
on each mutant with a timeout and checks that it

  (a) does not crash: exit status 0 or 1, no signal, no "PLEASE submit a bug
      report", failed assertion, stack dump or sanitizer report on stderr;
  (b) does not hang: it finishes within --timeout seconds;
  (c) on exit status 0 writes an output file that compiles with gcc (g++ for
      C++) and with clang-19 against the POMP headers, whenever the mutant
      itself compiles with clang-19 and gcc (mutants one of them rejects are
      skipped and counted);
  (d) on exit status 1 writes no output file (and leaves no temporary file
      behind) and says why with an "error:" diagnostic.

Prints one summary line,

    mutants: 150, ok-instrumented: 40, rejected-with-error: 100, skipped: 10
    (clang rejects: 2, gcc rejects: 8), clang crashes: 0, failures: 0

and for each failure the reason, the mutations made, the command and the path
of the mutant, which is kept. Exits 1 on any failure.

A crash on a mutant that clang-19 -fsyntax-only crashes on as well is a bug of
Clang's parser, not of the instrumenter: it is listed as a "clang crash" and is
a failure only with --strict-clang-crashes.

Each mutant depends only on --seed and its number, so `--only N` (with the
same seeds, --seed and --count) reproduces mutant N alone.
"""
import argparse
import concurrent.futures
import difflib
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

SOURCE_SUFFIXES = (".c", ".cpp", ".cc", ".cxx")

# A crude C/C++ tokenizer: enough to find token boundaries, not to parse.
TOKEN_RE = re.compile(
    r"""
    (?P<ws>[ \t\r\n\f\v]+|\\\n)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>(?:u8|u|U|L|R)?"(?:[^"\\\n]|\\.)*"|(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)*')
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.'])*)
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<punct>\.\.\.|<<=|>>=|->\*|<=>|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#|\.\*
              |[][{}()<>;:,.?!~=+\-*/%&|^\#])
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)

# Lines of `#pragma omp` (and `#pragma pomp`), with their continuation lines.
PRAGMA_LINE_RE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+p?omp\b(?:[^\n]*\\\n)*[^\n]*", re.MULTILINE)
OMP_PRAGMA_LINE_RE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+omp\b(?:[^\n]*\\\n)*[^\n]*\n?",
                                re.MULTILINE)

STRICT_C89 = {"-std=c89", "-std=c90", "-ansi", "-std=iso9899:1990"}

STRUCTURE_TOKENS = {"{", "}", ";", "(", ")"}
PRAGMA_WEIGHT = 6
STRUCTURE_WEIGHT = 3

# What a crash of a Clang tool or a sanitizer report looks like on stderr.
CRASH_PATTERNS = [
    re.compile(r"PLEASE submit a bug report"),
    re.compile(r"Stack dump"),
    re.compile(r"Assertion\b.*failed"),
    re.compile(r"LLVM ERROR"),
    re.compile(r"UNREACHABLE executed"),
    re.compile(r"ERROR: (?:Address|Leak|Memory|Thread|UndefinedBehavior)Sanitizer"),
    re.compile(r"^\S+:\d+:\d+: runtime error: ", re.MULTILINE),
]

# What the clang driver says when its frontend crashes.
CLANG_CRASH = re.compile(r"PLEASE submit a bug report|frontend command failed due to signal|"
                         r"frontend command failed with exit code 13[49]")

# Instrumentation options a mutant is run with (the first one most often).
OPTION_SETS = [
    [],
    [],
    [],
    ["--no-line-directives"],
    ["--functions"],
    ["--level=loop=chunks"],
    ["--level=loop=iterbeginend,user=event"],
    ["--level=parallel=enterexit,workshare=enterexit,sync=enterexit,task=enterexit"],
]


class Token:
    __slots__ = ("text", "kind", "in_pragma")

    def __init__(self, text, kind, in_pragma):
        self.text = text
        self.kind = kind
        self.in_pragma = in_pragma


def tokenize(source):
    spans = [m.span() for m in PRAGMA_LINE_RE.finditer(source)]
    tokens = []
    span = 0
    for m in TOKEN_RE.finditer(source):
        start = m.start()
        while span < len(spans) and spans[span][1] <= start:
            span += 1
        in_pragma = span < len(spans) and spans[span][0] <= start < spans[span][1]
        tokens.append(Token(m.group(), m.lastgroup, in_pragma))
    return tokens


def weight(token):
    if token.in_pragma:
        return PRAGMA_WEIGHT
    if token.text in STRUCTURE_TOKENS:
        return STRUCTURE_WEIGHT
    return 1


def line_of(tokens, index):
    return 1 + sum(t.text.count("\n") for t in tokens[:index])


def mutate_tokens(rng, tokens):
    """Applies one token mutation in place; returns its description."""
    candidates = [i for i, t in enumerate(tokens) if t.kind not in ("ws", "comment")]
    if not candidates:
        return None
    index = rng.choices(candidates, weights=[weight(tokens[i]) for i in candidates])[0]
    token = tokens[index]
    where = "line %d" % line_of(tokens, index)
    what = rng.choice(["delete", "duplicate", "swap"])
    if what == "delete":
        # Keep the tokens around it apart: `a b` must not become `ab`.
        tokens[index] = Token(" ", "ws", token.in_pragma)
        return "deleted %r at %s" % (token.text, where)
    if what == "duplicate":
        tokens.insert(index + 1, Token(" ", "ws", token.in_pragma))
        tokens.insert(index + 2, Token(token.text, token.kind, token.in_pragma))
        return "duplicated %r at %s" % (token.text, where)
    later = candidates.index(index) + 1
    if later >= len(candidates):
        return None
    other = candidates[later]
    # Swap the texts only: whitespace and newlines stay where they are.
    tokens[index], tokens[other] = (
        Token(tokens[other].text, tokens[other].kind, token.in_pragma),
        Token(token.text, token.kind, tokens[other].in_pragma),
    )
    return "swapped %r and %r at %s" % (token.text, tokens[index].text, where)


def duplicate_pragma_line(rng, source):
    lines = list(OMP_PRAGMA_LINE_RE.finditer(source))
    if not lines:
        return source, None
    m = rng.choice(lines)
    text = m.group()
    if not text.endswith("\n"):
        text += "\n"
    line = source.count("\n", 0, m.start()) + 1
    return source[:m.start()] + text + source[m.start():], "duplicated the pragma line %d" % line


def delete_brace_pair(rng, tokens):
    """Deletes a `{` and its matching `}`: a structured block loses its braces."""
    opening = [i for i, t in enumerate(tokens) if t.text == "{"]
    if not opening:
        return None
    first = rng.choice(opening)
    depth = 0
    for last in range(first, len(tokens)):
        if tokens[last].text == "{":
            depth += 1
        elif tokens[last].text == "}":
            depth -= 1
            if depth == 0:
                where = "lines %d-%d" % (line_of(tokens, first), line_of(tokens, last))
                tokens[first] = Token(" ", "ws", False)
                tokens[last] = Token(" ", "ws", False)
                return "deleted the braces of %s" % where
    return None


def make_mutant(seed_text, rng):
    """Returns the mutant's text and the list of mutations made."""
    text = seed_text
    done = []
    for _ in range(rng.choice([1, 1, 1, 1, 1, 2, 2, 2, 3, 3])):
        # Mostly token mutations; the two structural ones give more mutants that still compile,
        # which exercise the instrumentation rather than the parser's error recovery.
        kind = rng.random()
        if kind < 0.15:
            text, what = duplicate_pragma_line(rng, text)
        else:
            tokens = tokenize(text)
            what = (delete_brace_pair if kind < 0.3 else mutate_tokens)(rng, tokens)
            text = "".join(t.text for t in tokens)
        if what:
            done.append(what)
    return text, done


def seed_flags(path, text):
    """Compiler flags the seed's own RUN lines give ompinst after `--`, if any."""
    for line in text.splitlines():
        if "%ompinst" in line and " -- " in line:
            flags = line.split(" -- ", 1)[1].split("|")[0].split("2>")[0]
            return flags.split()
    return ["-std=c++17"] if path.endswith(SOURCE_SUFFIXES[1:]) else []


def run(cmd, timeout):
    """(status, stderr, timed out); status is negative for a signal."""
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, errors="replace", timeout=timeout)
        return proc.returncode, proc.stderr, False
    except subprocess.TimeoutExpired as e:
        err = e.stderr or ""
        if isinstance(err, bytes):
            err = err.decode("utf-8", "replace")
        return None, err, True


def first_error(stderr):
    for line in stderr.splitlines():
        if "error" in line:
            return line.strip()
    lines = stderr.strip().splitlines()
    return lines[0] if lines else "(no output)"


class Result:
    def __init__(self, number, seed, outcome, reason="", details=""):
        self.number = number
        self.seed = seed
        # ok, rejected, rejected-valid, skipped-gcc, accepted-invalid, clang-crash, failure
        self.outcome = outcome
        self.reason = reason
        self.details = details
        self.mutations = []
        self.path = ""
        self.command = ""


def check_mutant(args, number, seed_path, seed_text, workdir):
    rng = random.Random("%d:%d" % (args.seed, number))
    text, mutations = make_mutant(seed_text, rng)
    options = rng.choice(OPTION_SETS)
    cxx = seed_path.endswith(SOURCE_SUFFIXES[1:])
    flags = seed_flags(seed_path, seed_text) + ["-I", os.path.dirname(os.path.abspath(seed_path))]

    mutant_dir = os.path.join(workdir, "mutant-%03d" % number)
    os.makedirs(mutant_dir)
    mutant = os.path.join(mutant_dir, os.path.basename(seed_path))
    with open(mutant, "w") as f:
        f.write(text)
    stem, ext = os.path.splitext(mutant)
    output = stem + ".inst" + ext

    command = [args.ompinst, mutant, "-o", output] + options + ["--"] + flags
    result = Result(number, seed_path, "ok")
    result.mutations = mutations
    result.path = mutant
    result.command = " ".join(command)

    def failure(reason, details=""):
        result.outcome = "failure"
        result.reason = reason
        result.details = details
        return result

    compilers = [("gcc", args.gxx if cxx else args.gcc),
                 ("clang-19", args.clangxx if cxx else args.clang)]

    def crash(reason):
        # A crash of Clang's own parser on this input (a known upstream bug) is not the
        # instrumenter's: counted and shown, a failure only with --strict-clang-crashes.
        if not args.strict_clang_crashes:
            code, cerr, _ = run([compilers[1][1], "-fopenmp", "-fsyntax-only"] + flags + [mutant],
                                args.timeout)
            if code != 0 and CLANG_CRASH.search(cerr):
                result.outcome = "clang-crash"
                result.reason = "clang-19 -fsyntax-only crashes too: " + reason
                result.details = err
                return result
        return failure(reason, err)

    status, err, timed_out = run(command, args.timeout)
    leftovers = [name for name in os.listdir(mutant_dir) if ".tmp-" in name]
    if timed_out:
        return failure("ompinst hangs: no exit within %s s" % args.timeout, err)
    if status < 0:
        return crash("ompinst killed by signal %d" % -status)
    if status > 1:
        return crash("ompinst exits with %d" % status)
    for pattern in CRASH_PATTERNS:
        if pattern.search(err):
            return crash("ompinst crashes (stderr matches %r)" % pattern.pattern)
    if leftovers:
        return failure("ompinst leaves temporary files: %s" % ", ".join(leftovers), err)

    if status == 1:
        if os.path.exists(output):
            return failure("ompinst exits with 1 but writes %s" % output, err)
        if "error:" not in err:
            return failure("ompinst exits with 1 without an error: diagnostic", err)
        result.outcome = "rejected"
        result.reason = first_error(err)
        if args.classify_rejected:
            code, cerr, _ = run([compilers[1][1], "-fopenmp", "-fsyntax-only"] + flags + [mutant],
                                args.timeout)
            if code == 0:
                result.outcome = "rejected-valid"
        return result

    if not os.path.exists(output):
        return failure("ompinst exits with 0 but writes no %s" % output, err)
    # The mutant must be valid OpenMP code for both compilers, or the output need not be.
    for name, compiler in reversed(compilers):
        code, cerr, timed_out = run([compiler, "-fopenmp", "-fsyntax-only"] + flags + [mutant],
                                    args.timeout)
        if timed_out or code != 0:
            result.outcome = "accepted-invalid" if name == "clang-19" else "skipped-gcc"
            result.reason = "%s rejects the mutant: %s" % (name, first_error(cerr))
            return result
    if STRICT_C89.intersection(flags):
        # Clang 19's own omp.h, which the output includes, is not C89 (static inline).
        compilers = compilers[:1]
    for name, compiler in compilers:
        code, cerr, timed_out = run([compiler, "-fopenmp", "-fsyntax-only", "-I", args.pomp_include]
                                    + flags + [output], args.timeout)
        if timed_out or code != 0:
            return failure("the output does not compile with %s: %s" % (name, first_error(cerr)),
                           cerr)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seeds", nargs="+", help="seed source files or directories of them")
    parser.add_argument("--exclude", action="append", default=[],
                        help="base name of a seed file to leave out (repeatable)")
    parser.add_argument("--ompinst", required=True)
    parser.add_argument("--gcc", required=True)
    parser.add_argument("--gxx", required=True)
    parser.add_argument("--clang", required=True)
    parser.add_argument("--clangxx", required=True)
    parser.add_argument("--pomp-include", required=True)
    parser.add_argument("--seed", type=int, default=20260)
    parser.add_argument("--count", type=int, default=150, help="number of mutants")
    parser.add_argument("--timeout", type=float, default=20, help="seconds per ompinst run")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--only", type=int, action="append", help="check only mutant N")
    parser.add_argument("--workdir", help="make the mutants in a new directory in here (default: "
                                          "the system's temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep every mutant and output")
    parser.add_argument("--classify-rejected", action="store_true",
                        help="count rejected mutants clang-19 accepts (slower)")
    parser.add_argument("--strict-clang-crashes", action="store_true",
                        help="count a crash as a failure even when clang-19 crashes on the "
                             "mutant too")
    parser.add_argument("--verbose", "-v", action="store_true", help="one line per mutant")
    args = parser.parse_args()

    seeds = []
    for entry in args.seeds:
        paths = [entry] if os.path.isfile(entry) else glob.glob(os.path.join(entry, "*"))
        seeds += [p for p in paths if p.endswith(SOURCE_SUFFIXES)
                  and os.path.basename(p) not in args.exclude]
    seeds = sorted(set(os.path.abspath(p) for p in seeds))
    if not seeds:
        sys.exit("mutate_and_instrument: no seed sources")
    texts = {}
    for path in seeds:
        with open(path, errors="replace") as f:
            texts[path] = f.read()

    if args.workdir:
        os.makedirs(args.workdir, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="ompinst-mutants-", dir=args.workdir)
    numbers = args.only or list(range(args.count))
    started = time.time()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = []
        for number in numbers:
            seed_path = seeds[number % len(seeds)]
            futures.append(pool.submit(check_mutant, args, number, seed_path, texts[seed_path],
                                       workdir))
        for future in futures:
            results.append(future.result())
    elapsed = time.time() - started

    counts = {}
    for r in results:
        counts[r.outcome] = counts.get(r.outcome, 0) + 1
        if args.verbose:
            print("mutant %d (%s; %s): %s %s" % (r.number, os.path.basename(r.seed),
                                                 "; ".join(r.mutations), r.outcome, r.reason))
        if r.outcome not in ("failure", "clang-crash") and not args.keep:
            shutil.rmtree(os.path.dirname(r.path), ignore_errors=True)

    failures = [r for r in results if r.outcome == "failure"]
    for r in failures:
        print("FAILURE mutant %d of %s: %s" % (r.number, r.seed, r.reason))
        print("  mutations: %s" % "; ".join(r.mutations))
        print("  mutant:    %s" % r.path)
        print("  command:   %s" % r.command)
        with open(r.seed, errors="replace") as f, open(r.path, errors="replace") as g:
            diff = list(difflib.unified_diff(f.read().splitlines(), g.read().splitlines(),
                                             "seed", "mutant", n=1, lineterm=""))
        for line in diff[:30]:
            print("  > " + line)
        details = r.details.strip().splitlines()
        for line in details[:20]:
            print("  | " + line)
        if len(details) > 20:
            print("  | ... (%d more lines)" % (len(details) - 20))
    skipped = counts.get("skipped-gcc", 0) + counts.get("accepted-invalid", 0)
    rejected = counts.get("rejected", 0) + counts.get("rejected-valid", 0)
    for r in results:
        if r.outcome == "clang-crash":
            print("CLANG CRASH (not counted as a failure) mutant %d of %s: %s"
                  % (r.number, r.seed, r.reason))
            print("  mutations: %s" % "; ".join(r.mutations))
            print("  mutant:    %s" % r.path)
            print("  command:   %s" % r.command)
    print("mutants: %d, ok-instrumented: %d, rejected-with-error: %d, skipped: %d "
          "(clang rejects: %d, gcc rejects: %d), clang crashes: %d, failures: %d"
          % (len(results), counts.get("ok", 0), rejected, skipped,
             counts.get("accepted-invalid", 0), counts.get("skipped-gcc", 0),
             counts.get("clang-crash", 0), len(failures)))
    if args.classify_rejected:
        print("rejected although clang-19 accepts the mutant: %d" % counts.get("rejected-valid", 0))
    print("seeds: %d, seed: %d, time: %.1f s" % (len(seeds), args.seed, elapsed))
    if failures or args.keep or counts.get("clang-crash"):
        print("mutants kept in " + workdir)
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
