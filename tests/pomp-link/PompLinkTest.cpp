//===- PompLinkTest.cpp - pomp-link's library -----------------------------===//
///
/// \file
/// The parts of pomp-link that need no compiled inputs: the command line,
/// the choice and order of init functions, the atomic output, the errors for
/// inputs that are not link inputs. Reading real objects, archives, bitcode
/// and shared libraries is tested by the lit tests of this folder, which
/// build them (ompcc's reader of plain objects: tests/ompcc/prelink.test).
/// Suite names start with "pompLink" (`ctest -R pompLink`).
///
//===----------------------------------------------------------------------===//

#include "pomp/link/PompLink.h"
#include "pomp/link/ElfObjectScanner.h"
#include "pomp/link/InitFunctionScanner.h"
#include "pomp/link/InitTableObject.h"
#include "pomp/link/SharedLibraryInit.h"

#include "pomp/handle-init/HandleInit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::link {
namespace {

/// The usage error of Args, or "" when they parse.
std::string usageError(std::vector<std::string_view> Args) {
  llvm::Expected<Options> Opts = parseArguments(Args);
  return Opts ? std::string() : llvm::toString(Opts.takeError());
}

std::string initFunction(const char *Path) {
  return handleinit::initFunctionName(handleinit::makeFileId(Path, ""));
}

/// One member of a GNU ar archive: the 60-byte header (fixed-width fields
/// padded with spaces), then the contents, padded to an even size.
std::string arMember(const std::string &Name, const std::string &Contents) {
  auto Field = [](std::string Value, std::size_t Width) {
    Value.resize(Width, ' ');
    return Value;
  };
  constexpr std::size_t NameWidth = 16, DateWidth = 12, IdWidth = 6, ModeWidth = 8, SizeWidth = 10;
  std::string Member = Field(Name, NameWidth) + Field("0", DateWidth) + Field("0", IdWidth) +
                       Field("0", IdWidth) + Field("644", ModeWidth) +
                       Field(std::to_string(Contents.size()), SizeWidth) + "`\n" + Contents;
  if (Member.size() % 2 != 0)
    Member += '\n';
  return Member;
}

ScannedUnit unit(std::string Name, UnitKind Kind, std::vector<std::string> Functions) {
  ScannedUnit U;
  U.Name = std::move(Name);
  U.Kind = Kind;
  U.InitFunctions = std::move(Functions);
  return U;
}

/// A fresh directory per test, removed afterwards.
class pompLinkFiles : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pomp-link-test", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<128> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  void write(llvm::StringRef Name, llvm::StringRef Contents) const {
    std::error_code EC;
    llvm::raw_fd_ostream OS(path(Name), EC);
    ASSERT_FALSE(EC) << EC.message();
    OS << Contents;
  }
  std::string read(llvm::StringRef Name) const {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
        llvm::MemoryBuffer::getFile(path(Name));
    return Buffer ? (*Buffer)->getBuffer().str() : "<unreadable>";
  }
  /// The names in the directory, to see that no temporary file is left.
  std::vector<std::string> entries() const {
    std::vector<std::string> Names;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
      Names.push_back(llvm::sys::path::filename(It->path()).str());
    std::sort(Names.begin(), Names.end());
    return Names;
  }

  llvm::SmallString<128> Dir;
};

//===--- Command line ------------------------------------------------------===//

TEST(pompLinkOptions, SourceToFile) {
  llvm::Expected<Options> Opts = parseArguments({"-o", "init.c", "a.o", "lib.a"});
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  EXPECT_EQ(Opts->Output, "init.c");
  EXPECT_EQ(Opts->Inputs, (std::vector<std::string>{"a.o", "lib.a"}));
  EXPECT_FALSE(Opts->Compile);
  EXPECT_FALSE(Opts->PrintSource);
  EXPECT_FALSE(Opts->Verbose);
}

TEST(pompLinkOptions, AllOptions) {
  llvm::Expected<Options> Opts =
      parseArguments({"-v", "--print-source", "--compile", "--cc=gcc", "--cc-arg=-m32",
                      "--cc-arg=-fPIC", "-oinit.o", "a.o", "--", "-weird.o"});
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  EXPECT_TRUE(Opts->Verbose);
  EXPECT_TRUE(Opts->PrintSource);
  EXPECT_TRUE(Opts->Compile);
  EXPECT_EQ(Opts->Compiler, "gcc");
  EXPECT_EQ(Opts->CompilerArgs, (std::vector<std::string>{"-m32", "-fPIC"}));
  EXPECT_EQ(Opts->Output, "init.o");
  EXPECT_EQ(Opts->Inputs, (std::vector<std::string>{"a.o", "-weird.o"}));
}

TEST(pompLinkOptions, CompilerDefaultsToCc) {
  llvm::Expected<Options> Opts = parseArguments({"--compile", "-o", "x.o", "a.o"});
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  EXPECT_EQ(Opts->Compiler, DefaultCompiler);
}

TEST(pompLinkOptions, HelpNeedsNothingElse) {
  llvm::Expected<Options> Opts = parseArguments({"--help"});
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  EXPECT_TRUE(Opts->Help);
}

TEST(pompLinkOptions, UsageErrors) {
  EXPECT_EQ(usageError({"--bogus", "-o", "x.c", "a.o"}), "unknown option '--bogus'");
  EXPECT_EQ(usageError({"-o", "x.c", "-"}), "unknown option '-'");
  EXPECT_EQ(usageError({"-o", "x.c"}), "no input files");
  EXPECT_EQ(usageError({"a.o"}), "nothing to write: give -o <file> or --print-source");
  EXPECT_EQ(usageError({"a.o", "-o"}), "-o needs a file name");
  EXPECT_EQ(usageError({"-o", "x.c", "-o", "y.c", "a.o"}), "-o given twice");
  EXPECT_NE(usageError({"-o", "-", "a.o"}).find("--print-source"), std::string::npos);
  EXPECT_EQ(usageError({"--compile", "--print-source", "a.o"}), "--compile needs -o <object file>");
  EXPECT_EQ(usageError({"--cc=gcc", "-o", "x.c", "a.o"}),
            "--cc and --cc-arg only apply with --compile");
  EXPECT_EQ(usageError({"--compile", "--cc=", "-o", "x.o", "a.o"}), "--cc= needs a compiler");
}

TEST(pompLinkOptions, SharedLibrary) {
  llvm::Expected<Options> Opts = parseArguments({"--shared-library", "-o", "init.c", "a.o"});
  ASSERT_TRUE(static_cast<bool>(Opts)) << llvm::toString(Opts.takeError());
  EXPECT_TRUE(Opts->SharedLibrary);
  EXPECT_FALSE(parseArguments({"-o", "init.c", "a.o"})->SharedLibrary);
}

TEST(pompLinkOptions, UsageNamesEveryOption) {
  std::string Usage;
  llvm::raw_string_ostream OS(Usage);
  printUsage(OS);
  OS.flush();
  for (const char *Option : {"-o <file>", "--print-source", "--compile", "--cc=<compiler>",
                             "--cc-arg=<arg>", "--shared-library", "-v", "--help", "Exit status"})
    EXPECT_NE(Usage.find(Option), std::string::npos) << Option;
}

//===--- Choosing the init functions to call -------------------------------===//

TEST(pompLinkSelect, SortedByNameFromObjectsAndBitcode) {
  const std::string A = initFunction("/a.c");
  const std::string B = initFunction("/b.c");
  const std::string C = initFunction("/c.c");
  llvm::Expected<std::vector<std::string>> Selected = selectInitFunctions(
      {unit("c.o", UnitKind::Object, {C}), unit("lib.a(b.bc)", UnitKind::Bitcode, {B, A})});
  ASSERT_TRUE(static_cast<bool>(Selected)) << llvm::toString(Selected.takeError());
  std::vector<std::string> Expected = {A, B, C};
  std::sort(Expected.begin(), Expected.end());
  EXPECT_EQ(*Selected, Expected);
}

TEST(pompLinkSelect, SharedLibrariesAndSkippedUnitsAreNotCalled) {
  const std::string A = initFunction("/a.c");
  const std::string S = initFunction("/s.c");
  llvm::Expected<std::vector<std::string>> Selected = selectInitFunctions(
      {unit("a.o", UnitKind::Object, {A}), unit("libs.so", UnitKind::SharedLibrary, {S}),
       // A shared library that also defines A is no duplicate: it is not called.
       unit("libt.so", UnitKind::SharedLibrary, {A}), unit("x.a(doc)", UnitKind::Skipped, {})});
  ASSERT_TRUE(static_cast<bool>(Selected)) << llvm::toString(Selected.takeError());
  EXPECT_EQ(*Selected, std::vector<std::string>{A});
}

TEST(pompLinkSelect, NothingFound) {
  llvm::Expected<std::vector<std::string>> Selected =
      selectInitFunctions({unit("a.o", UnitKind::Object, {})});
  ASSERT_TRUE(static_cast<bool>(Selected)) << llvm::toString(Selected.takeError());
  EXPECT_TRUE(Selected->empty());
}

TEST(pompLinkSelect, DuplicateNamesEveryDefinition) {
  const std::string A = initFunction("/a.c");
  const std::string B = initFunction("/b.c");
  llvm::Expected<std::vector<std::string>> Selected = selectInitFunctions(
      {unit("a.o", UnitKind::Object, {A}), unit("lib.a(a.o)", UnitKind::Object, {A, B}),
       unit("a.bc", UnitKind::Bitcode, {A}), unit("b.o", UnitKind::Object, {B})});
  ASSERT_FALSE(static_cast<bool>(Selected));
  std::vector<std::string> Messages;
  llvm::handleAllErrors(Selected.takeError(), [&](const llvm::ErrorInfoBase &Info) {
    Messages.push_back(Info.message());
  });
  std::vector<std::string> Expected = {
      A + " is defined in more than one input: a.o, lib.a(a.o), a.bc",
      B + " is defined in more than one input: lib.a(a.o), b.o"};
  std::sort(Expected.begin(), Expected.end());
  EXPECT_EQ(Messages, Expected);
}

//===--- Inputs that are not link inputs -----------------------------------===//

TEST_F(pompLinkFiles, MissingAndTextInputsAreErrorsNamingTheFile) {
  write("notes.txt", "just text\n");
  write("empty.o", "");
  std::string Diagnostics;
  llvm::raw_string_ostream OS(Diagnostics);
  llvm::Expected<std::string> Source = generateProgramInit(
      {path("missing.o"), path("notes.txt"), path("empty.o")}, /*Verbose=*/false, OS);
  ASSERT_FALSE(static_cast<bool>(Source));
  std::vector<std::string> Messages;
  llvm::handleAllErrors(Source.takeError(), [&](const llvm::ErrorInfoBase &Info) {
    Messages.push_back(Info.message());
  });
  ASSERT_EQ(Messages.size(), 3u);
  EXPECT_EQ(Messages[0].rfind(path("missing.o") + ": ", 0), 0u) << Messages[0];
  const std::string NotALinkInput =
      ": not an object file, archive, shared library or LLVM bitcode file";
  EXPECT_EQ(Messages[1], path("notes.txt") + NotALinkInput);
  EXPECT_EQ(Messages[2], path("empty.o") + NotALinkInput);
}

TEST_F(pompLinkFiles, DirectoryInputIsAnError) {
  InitFunctionScanner Scanner;
  llvm::Error E = Scanner.scanFile(Dir);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ(llvm::toString(std::move(E)).rfind(std::string(Dir) + ": ", 0), 0u);
}

TEST_F(pompLinkFiles, ArchiveMemberThatIsNoObjectIsSkippedWithAWarning) {
  // An ar archive whose only member is text: linkers never extract it.
  write("doc.a", "!<arch>\n" + arMember("README/", "hello\n"));
  InitFunctionScanner Scanner;
  ASSERT_FALSE(static_cast<bool>(Scanner.scanFile(path("doc.a"))));
  ASSERT_EQ(Scanner.units().size(), 1u);
  EXPECT_EQ(Scanner.units()[0].Name, path("doc.a") + "(README)");
  EXPECT_EQ(Scanner.units()[0].Kind, UnitKind::Skipped);
  EXPECT_TRUE(Scanner.units()[0].NoteIsWarning);
}

TEST_F(pompLinkFiles, SameFileTwiceIsReadOnce) {
  write("doc.a", "!<arch>\n");
  InitFunctionScanner Scanner;
  ASSERT_FALSE(static_cast<bool>(Scanner.scanFile(path("doc.a"))));
  ASSERT_FALSE(static_cast<bool>(Scanner.scanFile((Dir + "/./doc.a").str())));
  ASSERT_EQ(Scanner.units().size(), 1u);
  EXPECT_EQ(Scanner.units()[0].Kind, UnitKind::Skipped);
  EXPECT_FALSE(Scanner.units()[0].NoteIsWarning);
}

//===--- Output ------------------------------------------------------------===//

//===--- ompcc's reader of plain objects (ElfObjectScanner) ---------------===//

TEST_F(pompLinkFiles, ElfReaderReadsAnObjectAsTheObjectLibraryDoes) {
  // pomp-link's own table object is a relocatable x86_64 ELF object with a
  // symbol table: both readers see one object without init functions.
  const std::optional<InitTableTarget> Target = elfInitTableTarget(llvm::ELF::EM_X86_64, true);
  ASSERT_TRUE(Target.has_value());
  write("table.o", initTableObject(*Target, {initFunction("a.c")}));
  ElfObjectScanner Elf;
  InitFunctionScanner Object;
  ASSERT_FALSE(static_cast<bool>(Elf.scanFile(path("table.o"))));
  ASSERT_FALSE(static_cast<bool>(Object.scanFile(path("table.o"))));
  EXPECT_TRUE(Elf.unsupportedReason().empty());
  ASSERT_EQ(Elf.units().size(), 1u);
  ASSERT_EQ(Object.units().size(), 1u);
  const ScannedUnit &A = Elf.units()[0], &B = Object.units()[0];
  EXPECT_EQ(A.Kind, UnitKind::Object);
  EXPECT_EQ(A.Kind, B.Kind);
  EXPECT_EQ(A.InitFunctions, B.InitFunctions);
  EXPECT_EQ(A.DefinesMain, B.DefinesMain);
  EXPECT_EQ(A.Elf, B.Elf);
  EXPECT_EQ(A.AddressBytes, B.AddressBytes);
  ASSERT_TRUE(A.TableTarget && B.TableTarget);
  EXPECT_EQ(A.TableTarget->Machine, B.TableTarget->Machine);
}

TEST_F(pompLinkFiles, ElfReaderRefusesWhatPompLinkMustRead) {
  write("lib.a", "!<arch>\n");
  write("bc.o", "BC\xC0\xDE and more");
  write("notes.txt", "hello\n");
  write("cut.o", std::string(llvm::ELF::ElfMagic) + "\x02\x01\x01");
  for (const char *Name : {"lib.a", "bc.o", "notes.txt", "cut.o"}) {
    ElfObjectScanner Scanner;
    EXPECT_TRUE(static_cast<bool>(Scanner.scanFile(path(Name)))) << Name;
    EXPECT_EQ(Scanner.unsupportedReason().rfind(path(Name) + " ", 0), 0u)
        << Scanner.unsupportedReason();
    EXPECT_TRUE(Scanner.units().empty());
  }
  ElfObjectScanner Scanner;
  llvm::consumeError(Scanner.scanFile(path("lib.a")));
  EXPECT_EQ(Scanner.unsupportedReason(), path("lib.a") + " is an archive");
}

TEST_F(pompLinkFiles, PreLinkInProcessWritesAndPrintsNothingWhenItFallsBack) {
  const std::optional<InitTableTarget> Target = elfInitTableTarget(llvm::ELF::EM_X86_64, true);
  ASSERT_TRUE(Target.has_value());
  write("table.o", initTableObject(*Target, {}));
  write("lib.a", "!<arch>\n");
  std::string Out, Err, Reason;
  llvm::raw_string_ostream OutStream(Out), ErrStream(Err);
  const std::vector<std::string> Args = {"-v",           "--object",      "-o",
                                         path("init.o"), path("table.o"), path("lib.a")};
  EXPECT_FALSE(runPompLinkOnObjects(Args, OutStream, ErrStream, Reason).has_value());
  EXPECT_EQ(Reason, path("lib.a") + " is an archive");
  EXPECT_EQ(Out, "");
  EXPECT_EQ(Err, "");
  EXPECT_FALSE(llvm::sys::fs::exists(path("init.o")));
  // Plain objects: pomp-link's exit status and messages.
  const std::vector<std::string> Plain = {"--object", "-o", path("init.o"), path("table.o")};
  std::optional<int> Status = runPompLinkOnObjects(Plain, OutStream, ErrStream, Reason);
  ASSERT_TRUE(Status.has_value());
  EXPECT_EQ(*Status, ExitSuccess);
  EXPECT_EQ(Err, "pomp-link: warning: no POMP init function found in the inputs; the generated "
                 "POMP_Init_Handles() calls none\n");
  EXPECT_EQ(read("init.o"), initTableObject(*Target, {}));
}

TEST_F(pompLinkFiles, WriteCreatesAndReplaces) {
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(path("init.c"), "first\n")));
  EXPECT_EQ(read("init.c"), "first\n");
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(path("init.c"), "second\n")));
  EXPECT_EQ(read("init.c"), "second\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"init.c"});
}

TEST_F(pompLinkFiles, FailedWriteLeavesNothingBehind) {
  llvm::Error E = writeFileAtomically(path("no-such-dir/init.c"), "text\n");
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_EQ(llvm::toString(std::move(E)).rfind("cannot write " + path("no-such-dir/init.c"), 0),
            0u);
  EXPECT_TRUE(entries().empty());
}

TEST_F(pompLinkFiles, FailedReplaceLeavesTheOldOutput) {
  // A directory cannot be replaced by a file: the rename fails, the old
  // output stays, the temporary file is gone.
  ASSERT_FALSE(llvm::sys::fs::create_directory(path("out.c")));
  write("out.c/keep", "old\n");
  EXPECT_TRUE(llvm::errorToBool(writeFileAtomically(path("out.c"), "new\n")));
  EXPECT_EQ(read("out.c/keep"), "old\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.c"});
}

TEST_F(pompLinkFiles, MissingCompilerIsAnError) {
  llvm::Error E = compileToObject("void f(void);\n", path("no-such-compiler"), {}, path("x.o"));
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("no-such-compiler"), std::string::npos);
  EXPECT_TRUE(entries().empty());
}

//===--- The constructor of a shared library --------------------------------===//

TEST(pompLinkSharedLibrary, ConstructorCallsEachInitFunctionThroughAWeakReference) {
  const std::string A = initFunction("/a.c");
  const std::string B = initFunction("/b.c");
  const std::string Source = sharedLibraryInit({A, B});
  for (const std::string &Function : {A, B}) {
    EXPECT_NE(Source.find("#pragma weak " + Function + "\n"), std::string::npos) << Source;
    EXPECT_NE(Source.find("  if (" + Function + ")\n    " + Function + "();\n"), std::string::npos)
        << Source;
  }
  EXPECT_NE(Source.find("static void pomp_init_shared_library(void) "
                        "__attribute__((constructor));"),
            std::string::npos);
  // The program's POMP_Init_Handles() must stay the only one.
  EXPECT_EQ(Source.find(handleinit::ProgramInitFunction), std::string::npos);
  EXPECT_LT(Source.find(A), Source.find(B));
}

TEST(pompLinkSharedLibrary, NoInitFunctionGivesAnEmptyConstructor) {
  const std::string Source = sharedLibraryInit({});
  EXPECT_NE(Source.find("static void pomp_init_shared_library(void) {\n}\n"), std::string::npos)
      << Source;
}

} // namespace
} // namespace pomp::link
