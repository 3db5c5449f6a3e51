//===- OmpccTest.cpp - ompcc's library ------------------------------------===//
///
/// \file
/// The decisions ompcc makes without running anything: how a command line is
/// read, which commands pass through, how a dependency file is rewritten,
/// which sources need ompinst. Suite names start with "ompcc"
/// (`ctest -R ompcc`).
///
//===----------------------------------------------------------------------===//

#include "pomp/ompcc/CompilerCommand.h"
#include "pomp/ompcc/DependencyFile.h"
#include "pomp/ompcc/Driver.h"
#include "pomp/ompcc/LineStream.h"
#include "pomp/ompcc/Process.h"
#include "pomp/ompcc/SourceChecks.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fcntl.h>
#include <optional>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace pomp::ompcc {
namespace {

/// What a non-blocking read of the pipe finds now ("" when nothing was written).
std::string readAvailable(int FileDescriptor) {
  std::string Text;
  char Buffer[256];
  ssize_t Got;
  while ((Got = ::read(FileDescriptor, Buffer, sizeof Buffer)) > 0)
    Text.append(Buffer, static_cast<size_t>(Got));
  return Text;
}

// The pieces of a message reach the file descriptor as whole lines, each in one write: parallel
// builds' ompcc processes share a terminal (ccache.test saw "ompc++: ompccmain.cpp: ...").
TEST(LineStream, WritesWholeLinesOnly) {
  int Pipe[2];
  ASSERT_EQ(::pipe(Pipe), 0);
  ASSERT_EQ(::fcntl(Pipe[0], F_SETFL, O_NONBLOCK), 0);
  {
    LineStream Out(Pipe[1]);
    Out << "ompcc: "
        << "main.cpp"
        << ": ";
    EXPECT_EQ(readAvailable(Pipe[0]), "") << "an incomplete line is held back";
    Out << "instrumented\nompcc: kept " << 2;
    EXPECT_EQ(readAvailable(Pipe[0]), "ompcc: main.cpp: instrumented\n");
    Out << "\nfirst\nsecond\nthird";
    EXPECT_EQ(readAvailable(Pipe[0]), "ompcc: kept 2\nfirst\nsecond\n");
    EXPECT_EQ(Out.tell(), 62u);
  }
  EXPECT_EQ(readAvailable(Pipe[0]), "third") << "the rest at the end";
  ::close(Pipe[0]);
  ::close(Pipe[1]);
}

CompilerCommand parse(std::vector<std::string> Args, bool Cxx = false) {
  return parseCompilerCommand(Args, Cxx);
}

/// The argument whose first word is Word.
const Argument &find(const CompilerCommand &Command, const std::string &Word) {
  for (const Argument &Arg : Command.Args)
    if (Arg.Words.front() == Word)
      return Arg;
  ADD_FAILURE() << "no argument " << Word;
  return Command.Args.front();
}

TEST(ompccCommand, ClassifiesInputsByExtension) {
  const CompilerCommand C =
      parse({"-c", "a.c", "b.cpp", "c.S", "d.o", "libe.a", "f.so.1", "g.i", "h.cc"});
  EXPECT_EQ(find(C, "a.c").Lang, Language::C);
  EXPECT_EQ(find(C, "b.cpp").Lang, Language::CXX);
  EXPECT_EQ(find(C, "c.S").Lang, Language::OtherCompilable);
  EXPECT_EQ(find(C, "d.o").Lang, Language::LinkerInput);
  EXPECT_EQ(find(C, "libe.a").Lang, Language::LinkerInput);
  EXPECT_EQ(find(C, "f.so.1").Lang, Language::LinkerInput);
  EXPECT_EQ(find(C, "g.i").Lang, Language::OtherCompilable);
  EXPECT_EQ(find(C, "h.cc").Lang, Language::CXX);
  EXPECT_TRUE(C.CompileOnly);
  EXPECT_EQ(C.inputs().size(), 8u);
}

TEST(ompccCommand, FortranSourcesAreFortranInBothForms) {
  const CompilerCommand C = parse(
      {"-c", "a.f90", "b.F90", "c.f", "d.F", "e.for", "f.f08", "g.f95", "h.f03", "i.FOR", "j.ftn"});
  for (const std::size_t Index : C.inputs())
    EXPECT_EQ(C.Args[Index].Lang, Language::Fortran) << C.Args[Index].Value;
  // A language chosen with -x is compiled as it is.
  EXPECT_EQ(find(parse({"-c", "-x", "f95", "k"}), "k").Lang, Language::OtherCompilable);
}

TEST(ompccCommand, FortranModuleDirectoriesAreNoInputs) {
  const CompilerCommand C =
      parse({"-c", "a.f90", "-J", "mods", "-module-dir", "fmods", "-Jjoined", "-cpp"});
  EXPECT_EQ(C.inputs().size(), 1u);
  EXPECT_EQ(find(C, "-J").Value, "mods");
  EXPECT_EQ(find(C, "-module-dir").Value, "fmods");
  EXPECT_EQ(find(C, "-Jjoined").Value, "joined");
  // The source form and preprocessing reach the instrumenter's parse.
  EXPECT_TRUE(find(C, "-cpp").ForParse);
  EXPECT_TRUE(
      find(parse({"-c", "a.f", "-ffixed-line-length-132"}), "-ffixed-line-length-132").ForParse);
}

TEST(ompccCommand, DotCIsCxxForTheCxxDriver) {
  EXPECT_EQ(find(parse({"-c", "a.c"}, /*Cxx=*/true), "a.c").Lang, Language::CXX);
}

TEST(ompccCommand, LanguageSelectionAppliesToLaterInputs) {
  const CompilerCommand C =
      parse({"-x", "c++", "a.c", "-xc", "b", "-x", "none", "c.c", "-x", "assembler", "d.s"});
  EXPECT_EQ(find(C, "a.c").Lang, Language::CXX);
  EXPECT_EQ(find(C, "a.c").ExplicitLanguage, "c++");
  EXPECT_EQ(find(C, "b").Lang, Language::C);
  EXPECT_EQ(find(C, "c.c").Lang, Language::C);
  EXPECT_TRUE(find(C, "c.c").ExplicitLanguage.empty());
  EXPECT_EQ(find(C, "d.s").Lang, Language::OtherCompilable);
}

TEST(ompccCommand, SeparateValuesAreNotInputs) {
  const CompilerCommand C = parse(
      {"-o",  "out", "-I",      "inc", "-D",        "X=1",      "-include", "pre.h", "-isystem",
       "sys", "-MF", "dep.d",   "-MT", "target",    "-Xlinker", "-zdefs",   "-L",    "lib",
       "-l",  "m",   "-iquote", "q",   "--sysroot", "/",        "-e",       "entry", "main.c"});
  ASSERT_EQ(C.inputs().size(), 1u);
  EXPECT_EQ(C.Args[C.inputs().front()].Value, "main.c");
  EXPECT_EQ(C.Output, std::optional<std::string>("out"));
  EXPECT_EQ(C.DependencyFile, std::optional<std::string>("dep.d"));
  EXPECT_EQ(find(C, "-I").Value, "inc");
  EXPECT_EQ(find(C, "-D").Value, "X=1");
}

TEST(ompccCommand, JoinedValues) {
  const CompilerCommand C = parse({"-oout.o", "-Iinc", "-DX", "-lm", "-Llib", "-MFdep.d",
                                   "-isystemsys", "--sysroot=/r", "-c", "a.c"});
  EXPECT_EQ(C.Output, std::optional<std::string>("out.o"));
  EXPECT_EQ(find(C, "-Iinc").Value, "inc");
  EXPECT_EQ(find(C, "-lm").Value, "m");
  EXPECT_EQ(find(C, "-Llib").Value, "lib");
  EXPECT_EQ(find(C, "-isystemsys").Value, "sys");
  EXPECT_EQ(find(C, "--sysroot=/r").Value, "/r");
  EXPECT_EQ(C.DependencyFile, std::optional<std::string>("dep.d"));
}

TEST(ompccCommand, ParseGetsOnlyWhatChangesTheParse) {
  const CompilerCommand C =
      parse({"-DX", "-Iinc", "-std=c11", "-O2", "-m64", "-pthread", "-fPIC", "-include", "p.h",
             "-Wall", "-Werror", "-g", "-fno-tree-vectorize", "-mfoo-gcc-only", "-pedantic",
             "-fopenmp", "-MD", "-c", "a.c"});
  for (const char *Word :
       {"-DX", "-Iinc", "-std=c11", "-O2", "-m64", "-pthread", "-fPIC", "-include"})
    EXPECT_TRUE(find(C, Word).ForParse) << Word;
  for (const char *Word : {"-Wall", "-Werror", "-g", "-fno-tree-vectorize", "-mfoo-gcc-only",
                           "-pedantic", "-fopenmp", "-MD", "-c"})
    EXPECT_FALSE(find(C, Word).ForParse) << Word;
  EXPECT_TRUE(C.HasOpenMP);
  EXPECT_TRUE(C.DependencyFileRequested);
}

TEST(ompccCommand, OptionKinds) {
  const CompilerCommand C =
      parse({"-shared", "-Wl,-soname,x", "-lfoo", "-Wp,-MD,dep.d", "-MMD", "-S", "a.c"});
  EXPECT_EQ(find(C, "-shared").Kind, ArgKind::LinkOnly);
  EXPECT_EQ(find(C, "-Wl,-soname,x").Kind, ArgKind::LinkOnly);
  EXPECT_EQ(find(C, "-lfoo").Kind, ArgKind::LinkOnly);
  EXPECT_EQ(find(C, "-Wp,-MD,dep.d").Kind, ArgKind::Dependency);
  EXPECT_EQ(C.PreprocessorDependencyFile, std::optional<std::string>("dep.d"));
  EXPECT_TRUE(C.Shared);
  EXPECT_TRUE(C.CompileOnly);
  EXPECT_TRUE(C.AssemblyOnly);
}

TEST(ompccCommand, OptionsThatLookLikeOthers) {
  // -undef is not -u ndef, -emit-llvm not -e mit-llvm, -isysroot not -isystem.
  const CompilerCommand C = parse({"-undef", "-emit-llvm", "-isysroot", "/sdk", "-c", "a.c"});
  EXPECT_EQ(find(C, "-undef").Kind, ArgKind::Preprocessor);
  EXPECT_EQ(find(C, "-emit-llvm").Kind, ArgKind::Other);
  EXPECT_EQ(find(C, "-isysroot").Value, "/sdk");
  EXPECT_EQ(C.inputs().size(), 1u);
}

TEST(ompccCommand, PassThrough) {
  EXPECT_EQ(parse({"--version"}).Pass, PassThrough::NoObject);
  EXPECT_EQ(parse({"-v"}).Pass, PassThrough::NoInput);
  EXPECT_EQ(parse({"-print-prog-name=ld"}).Pass, PassThrough::NoObject);
  EXPECT_EQ(parse({"-dumpmachine"}).Pass, PassThrough::NoObject);
  EXPECT_EQ(parse({"-E", "a.c"}).Pass, PassThrough::NoObject);
  EXPECT_EQ(parse({"-M", "a.c"}).Pass, PassThrough::NoObject);
  EXPECT_EQ(parse({"-fsyntax-only", "a.c"}).Pass, PassThrough::NoObject);
  EXPECT_EQ(parse({"-x", "c", "-c", "-"}).Pass, PassThrough::UnsupportedInput);
  EXPECT_EQ(parse({"-c", "a.c", "b.c", "-o", "x.o"}).Pass, PassThrough::AmbiguousOutput);
  EXPECT_EQ(parse({"-c", "a.c", "-MD", "-MF", "a.d"}).Pass, PassThrough::No);
  EXPECT_EQ(parse({"a.c", "b.c", "-o", "prog"}).Pass, PassThrough::No);
  // -dumpbase takes a value and asks nothing.
  EXPECT_EQ(parse({"-dumpbase", "x", "-c", "a.c"}).Pass, PassThrough::No);
}

TEST(ompccCommand, ResponseFiles) {
  llvm::SmallString<128> Base, Directory;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Base);
  llvm::sys::path::append(Base, "ompcc-rsp-test");
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory(Base, Directory));
  llvm::SmallString<128> Outer(Directory), Inner(Directory);
  llvm::sys::path::append(Outer, "outer.rsp");
  llvm::sys::path::append(Inner, "inner.rsp");
  {
    std::error_code EC;
    llvm::raw_fd_ostream(Inner, EC) << "-DQ=\"a b\" 'c d.c'\n";
    llvm::raw_fd_ostream(Outer, EC) << "-c\n@" << Inner << "\n";
  }
  llvm::Expected<std::vector<std::string>> Expanded =
      expandResponseFiles({"-O2", "@" + std::string(Outer), "@missing.rsp"});
  ASSERT_TRUE(static_cast<bool>(Expanded)) << llvm::toString(Expanded.takeError());
  EXPECT_EQ(*Expanded, (std::vector<std::string>{"-O2", "-c", "-DQ=a b", "c d.c", "@missing.rsp"}));
  llvm::sys::fs::remove_directories(Directory);
}

TEST(ompccDriver, ExtractsItsOwnOptions) {
  std::vector<std::string> Args = {
      "--keep", "-v", "--cc=gcc -m64", "--ompinst-arg=--functions", "--ompc++", "-c", "a.c"};
  DriverOptions Opts;
  extractDriverOptions(Args, Opts);
  EXPECT_EQ(Args, (std::vector<std::string>{"-v", "-c", "a.c"}));
  EXPECT_TRUE(Opts.Keep);
  EXPECT_TRUE(Opts.Verbose);
  EXPECT_TRUE(Opts.Cxx);
  EXPECT_EQ(Opts.Compiler, std::optional<std::string>("gcc -m64"));
  EXPECT_EQ(Opts.OmpinstArgs, std::vector<std::string>{"--functions"});
}

TEST(ompccDriver, NameChoosesTheLanguage) {
  EXPECT_TRUE(isCxxDriverName("/opt/pomp/bin/ompc++"));
  EXPECT_TRUE(isCxxDriverName("ompcxx"));
  EXPECT_FALSE(isCxxDriverName("/opt/pomp/bin/ompcc"));
  for (const char *Name : {"/opt/pomp/bin/ompfc", "ompf90", "ompf77", "ompf95", "ompfort"})
    EXPECT_TRUE(isFortranDriverName(Name)) << Name;
  EXPECT_FALSE(isFortranDriverName("ompcc"));
  EXPECT_FALSE(isFortranDriverName("ompfcx"));
}

TEST(ompccSourceChecks, FortranNeedsInstrumentation) {
  EXPECT_TRUE(mayNeedFortranInstrumentation("!$OMP PARALLEL\n"));
  EXPECT_TRUE(mayNeedFortranInstrumentation("C$OMP BARRIER\n"));
  EXPECT_TRUE(mayNeedFortranInstrumentation("!$pomp inst init\n"));
  EXPECT_TRUE(mayNeedFortranInstrumentation("  n = OMP_GET_NUM_THREADS()\n"));
  EXPECT_TRUE(mayNeedFortranInstrumentation("PROGRAM MAIN\nEND\n"));
  EXPECT_TRUE(mayNeedFortranInstrumentation("      INCLUDE 'omp.h'\n"));
  EXPECT_FALSE(mayNeedFortranInstrumentation(
      "subroutine compute(x)\n  real :: x\n  x = 2 * x\nend subroutine\n"));
}

TEST(ompccDependencyFile, EscapesLikeTheCompilers) {
  EXPECT_EQ(escapeForMake("a b#c$d.c"), "a\\ b\\#c$$d.c");
}

TEST(ompccDependencyFile, ReplacesWholeNamesOnly) {
  const std::string Text = "x.o: /tmp/ompcc-1/3/x.c /tmp/ompcc-1/3/x.c.h \\\n"
                           "  inc/y.h /tmp/ompcc-1/3/x.c\n";
  EXPECT_EQ(replaceDependencyName(Text, "/tmp/ompcc-1/3/x.c", "src/x.c"),
            "x.o: src/x.c /tmp/ompcc-1/3/x.c.h \\\n  inc/y.h src/x.c\n");
  EXPECT_EQ(replaceDependencyName("x.o: /t/x.c\\\n y.h\n", "/t/x.c", "my dir/x.c"),
            "x.o: my\\ dir/x.c\\\n y.h\n");
}

TEST(ompccDependencyFile, RemovesANameWithItsLine) {
  EXPECT_EQ(removeDependencyName("x.o: x.c /t/mark.h \\\n  y.h\n", "/t/mark.h"),
            "x.o: x.c \\\n  y.h\n");
  EXPECT_EQ(removeDependencyName("x.o: x.c \\\n /t/mark.h \\\n  y.h\n", "/t/mark.h"),
            "x.o: x.c \\\n  y.h\n");
  // The rule's last name (a failed compile's file): the rule ends before it.
  EXPECT_EQ(removeDependencyName("x.o: x.c /usr/include/a.h \\\n /t/mark.h\n", "/t/mark.h"),
            "x.o: x.c /usr/include/a.h\n");
  // -MP's phony target goes too.
  EXPECT_EQ(
      removeDependencyName("x.o: x.c \\\n /t/mark.h y.h\n\n/t/mark.h:\n\ny.h:\n", "/t/mark.h"),
      "x.o: x.c \\\n y.h\n\n\ny.h:\n");
}

TEST(ompccDependencyFile, DefaultName) {
  EXPECT_EQ(defaultDependencyFile("src/x.c", ""), "x.d");
  EXPECT_EQ(defaultDependencyFile("src/x.c", "obj/x.o"), "obj/x.d");
  EXPECT_EQ(defaultDependencyFile("src/x.c", "prog"), "prog.d");
}

TEST(ompccSourceChecks, WhatMayNeedInstrumentation) {
  EXPECT_TRUE(mayNeedInstrumentation("#pragma omp parallel\n"));
  EXPECT_TRUE(mayNeedInstrumentation("#  pragma   omp\tfor\n"));
  EXPECT_TRUE(mayNeedInstrumentation("#pragma pomp inst begin(x)\n"));
  EXPECT_TRUE(mayNeedInstrumentation("x = omp_get_thread_num();"));
  EXPECT_TRUE(mayNeedInstrumentation("int main(void) { return 0; }"));
  EXPECT_TRUE(mayNeedInstrumentation("#define P _Pragma(\"x\")"));
  EXPECT_FALSE(mayNeedInstrumentation("int compute(int component) { return component; }"));
  EXPECT_FALSE(mayNeedInstrumentation("int domain_omp(int mainly) { return mainly; }"));
  EXPECT_FALSE(mayNeedInstrumentation("double x = 1e5omp;"));
}

TEST(ompccSourceChecks, IncludeBlockEnd) {
  // The end of the last #include line among the leading directives,
  // comments and blank lines.
  const std::string Plain = "// x.c\n#include <stdio.h>\n\n#include \"x.h\"\nint x;\n";
  EXPECT_EQ(includeBlockEnd(Plain), Plain.find("int x"));
  const std::string Block = "/* a\n b */\n#include <a.h>\r\n#define N 3\nint y;";
  EXPECT_EQ(includeBlockEnd(Block), Block.find("#define"));
  // An #include inside #if counts only through a later one outside it.
  const std::string Guarded = "#ifdef _OPENMP\n#include <omp.h>\n#endif\n#include <b.h>\nint z;";
  EXPECT_EQ(includeBlockEnd(Guarded), Guarded.find("int z"));
  EXPECT_EQ(includeBlockEnd("#ifdef _OPENMP\n#include <omp.h>\n#endif\nint z;"), std::nullopt);
  // Nothing after the first declaration, a pragma that mentions omp, a
  // continued line, a comment left open on a directive's line.
  EXPECT_EQ(includeBlockEnd("int a;\n#include <a.h>\n"), std::nullopt);
  const std::string Pragma = "#include <a.h>\n#pragma omp declare target\n#include <b.h>\n";
  EXPECT_EQ(includeBlockEnd(Pragma), Pragma.find("#pragma"));
  const std::string Once = "#pragma once\n#include <a.h>\nint a;";
  EXPECT_EQ(includeBlockEnd(Once), Once.find("int a"));
  EXPECT_EQ(includeBlockEnd("#include <a.h>\n#define X \\\n  1\n#include <b.h>\n"),
            std::string("#include <a.h>\n").size());
  EXPECT_EQ(includeBlockEnd("#include <a.h> /* open\n*/\n"), std::nullopt);
  EXPECT_EQ(includeBlockEnd("#endif\n#include <a.h>\n"), std::nullopt);
  // The last line needs its line break.
  EXPECT_EQ(includeBlockEnd("#include <a.h>"), std::nullopt);
}

TEST(ompccSourceChecks, OpenMPAttributes) {
  EXPECT_TRUE(mentionsOpenMPAttributes("[[omp::directive(parallel)]]"));
  EXPECT_TRUE(mentionsOpenMPAttributes("[[ omp :: sequence(directive(for))]]"));
  EXPECT_TRUE(mentionsOpenMPAttributes("[[using omp: directive(single)]]"));
  EXPECT_FALSE(mentionsOpenMPAttributes("#pragma omp parallel\n"));
  EXPECT_FALSE(mentionsOpenMPAttributes("x = omp_get_thread_num(); y = std::max(a, b);"));
  EXPECT_FALSE(mentionsOpenMPAttributes("ns_omp::f(); pomp::g();"));
}

TEST(ompccSourceChecks, BuildSystemProbes) {
  EXPECT_TRUE(isBuildSystemProbe({"conftest.c", "conftest"}, "/src/build"));
  EXPECT_TRUE(isBuildSystemProbe({"conftest.o"}, "/src/build"));
  EXPECT_TRUE(isBuildSystemProbe({"/usr/share/cmake/Modules/CMakeCCompilerABI.c"},
                                 "/b/CMakeFiles/CMakeScratch/TryCompile-x1"));
  EXPECT_TRUE(isBuildSystemProbe({"CMakeCCompilerId.c"}, "/b/CMakeFiles/3.25.1/CompilerIdC"));
  EXPECT_TRUE(isBuildSystemProbe({"CMakeFiles/cmTC_1a2b3.dir/src.c.o", "cmTC_1a2b3"}, "/x"));
  EXPECT_TRUE(isBuildSystemProbe({"testfile.c"}, "/b/meson-private/tmp1"));
  EXPECT_FALSE(isBuildSystemProbe({"src/main.c", "CMakeFiles/app.dir/main.c.o"}, "/b"));
  EXPECT_FALSE(isBuildSystemProbe({"conftest_data.c"}, "/b"));
}

TEST(ompccProcess, ShellQuote) {
  EXPECT_EQ(shellQuote({"gcc", "-DX=\"a b\"", "it's", "", "a.c"}),
            "gcc '-DX=\"a b\"' 'it'\\''s' '' a.c");
}

/// A compiler's messages are captured in memory, stdout left alone, the
/// status returned; nothing is created in the temporary directory.
TEST(ompccProcess, RunCapturingKeepsStderrInMemory) {
  std::string Out;
  llvm::raw_string_ostream Diagnostics(Out);
  CommandRunner Runner("ompcc", /*Verbose=*/false, Diagnostics, /*Scratch=*/nullptr);
  std::string Stderr = "left from before";
  EXPECT_EQ(Runner.runCapturing({"/bin/sh", "-c", "echo one >&2; echo two >&2; exit 3"}, Stderr),
            3);
  EXPECT_EQ(Stderr, "one\ntwo\n");
  // More than one read's worth.
  EXPECT_EQ(
      Runner.runCapturing({"/bin/sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x >&2"}, Stderr),
      0);
  EXPECT_EQ(Stderr, std::string(100000, 'x'));
  EXPECT_EQ(Runner.runCapturing({"sh", "-c", "true"}, Stderr), 0);
  EXPECT_EQ(Stderr, "");
  EXPECT_EQ(Out, "");
  EXPECT_EQ(Runner.runCapturing({"/nonexistent/cc"}, Stderr), 1);
  EXPECT_NE(Out.find("ompcc: error: cannot run '/nonexistent/cc': No such file or directory"),
            std::string::npos)
      << Out;
}

/// TMPDIR set to a fresh directory for one test, and the directory removed
/// with everything in it afterwards.
class ScratchTmpdir {
public:
  ScratchTmpdir() {
    llvm::SmallString<128> Base;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Base);
    llvm::sys::path::append(Base, "ompcc-unit");
    llvm::SmallString<128> Created;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory(Base, Created));
    Path = std::string(Created);
    const char *Old = std::getenv("TMPDIR");
    Previous = Old ? std::optional<std::string>(Old) : std::nullopt;
    ::setenv("TMPDIR", Path.c_str(), 1);
  }
  ~ScratchTmpdir() {
    if (Previous)
      ::setenv("TMPDIR", Previous->c_str(), 1);
    else
      ::unsetenv("TMPDIR");
    llvm::sys::fs::remove_directories(Path, /*IgnoreErrors=*/true);
  }
  std::string operator/(const std::string &Name) const { return Path + "/" + Name; }

private:
  std::string Path;
  std::optional<std::string> Previous;
};

/// The stable name of a command's directory (ccache hits on it), owned
/// exclusively: locked while in use, never another user's, never open to
/// others, never through a link.
TEST(ompccProcess, StableTemporaryDirectories) {
  const ScratchTmpdir Tmp;
  const auto create = [](const char *Key) {
    llvm::Expected<TempDirectory> Temp = TempDirectory::create("ompcc", llvm::StringRef(Key));
    EXPECT_TRUE(bool(Temp));
    return std::move(*Temp);
  };
  {
    const TempDirectory Temp = create("k1");
    EXPECT_EQ(Temp.path(), Tmp / "ompcc-k1");
    struct stat Info {};
    ASSERT_EQ(::lstat(Temp.path().c_str(), &Info), 0);
    EXPECT_EQ(Info.st_mode & 0777, 0700u);
  }
  EXPECT_FALSE(llvm::sys::fs::exists(Tmp / "ompcc-k1"));

  // Made when first needed: planned() names paths without making it.
  {
    const TempDirectory Temp = create("k0");
    EXPECT_EQ(Temp.planned("1/x.c"), Tmp / "ompcc-k0/1/x.c");
    EXPECT_FALSE(Temp.made());
    EXPECT_FALSE(llvm::sys::fs::exists(Tmp / "ompcc-k0"));
  }
  EXPECT_FALSE(llvm::sys::fs::exists(Tmp / "ompcc-k0"));

  // In use by a concurrent command (its lock): the next name.
  ASSERT_EQ(::mkdir((Tmp / "ompcc-k2").c_str(), 0700), 0);
  const int Held = ::open((Tmp / "ompcc-k2").c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_EQ(::flock(Held, LOCK_EX | LOCK_NB), 0);
  {
    const TempDirectory Temp = create("k2");
    EXPECT_EQ(Temp.planned("x"), Tmp / "ompcc-k2/x");
    EXPECT_EQ(Temp.path(), Tmp / "ompcc-k2-1");
    // Once made, the names are the made directory's.
    EXPECT_EQ(Temp.planned("x"), Tmp / "ompcc-k2-1/x");
  }
  ::close(Held);

  // Left by a killed command: emptied and used.
  ASSERT_EQ(::mkdir((Tmp / "ompcc-k3").c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((Tmp / "ompcc-k3/1.headers").c_str(), 0700), 0);
  {
    const TempDirectory Temp = create("k3");
    EXPECT_EQ(Temp.path(), Tmp / "ompcc-k3");
    EXPECT_FALSE(llvm::sys::fs::exists(Tmp / "ompcc-k3/1.headers"));
  }

  // A planted link, a directory others may write to: not used, not touched.
  ASSERT_EQ(::mkdir((Tmp / "target").c_str(), 0700), 0);
  ASSERT_EQ(::symlink((Tmp / "target").c_str(), (Tmp / "ompcc-k4").c_str()), 0);
  ASSERT_EQ(::mkdir((Tmp / "target/keep").c_str(), 0700), 0);
  EXPECT_EQ(create("k4").path(), Tmp / "ompcc-k4-1");
  EXPECT_TRUE(llvm::sys::fs::exists(Tmp / "target/keep"));
  ASSERT_EQ(::mkdir((Tmp / "ompcc-k5").c_str(), 0700), 0);
  ASSERT_EQ(::chmod((Tmp / "ompcc-k5").c_str(), 0777), 0);
  EXPECT_EQ(create("k5").path(), Tmp / "ompcc-k5-1");
}

} // namespace
} // namespace pomp::ompcc
