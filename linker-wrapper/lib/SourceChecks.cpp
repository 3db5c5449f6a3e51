//===- SourceChecks.cpp - What needs instrumenting ------------------------===//
#include "pomp/ompcc/SourceChecks.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <vector>

namespace pomp::ompcc {
namespace {

using llvm::StringRef;

bool isIdentifierStart(char C) { return llvm::isAlpha(C) || C == '_'; }
bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// Whether a path component marks a directory where a build system runs its
/// probes.
bool isProbeComponent(StringRef Component) {
  return Component == "CMakeScratch" || Component == "CMakeTmp" ||
         Component.starts_with("CompilerId") || Component.starts_with("cmTC_") ||
         Component == "meson-private";
}

bool isProbePath(StringRef Path) {
  if (llvm::sys::path::stem(Path) == "conftest")
    return true;
  for (auto It = llvm::sys::path::begin(Path), End = llvm::sys::path::end(Path); It != End; ++It) {
    if (!isProbeComponent(*It))
      continue;
    // CMake's own directories sit below CMakeFiles; cmTC_ and
    // meson-private names are specific enough on their own.
    if (It->starts_with("cmTC_") || *It == "meson-private" || Path.contains("CMakeFiles"))
      return true;
  }
  return false;
}

/// The header names of the `#include "x"` and `#include <x>` lines of Text
/// (computed includes are not followed).
std::vector<StringRef> includedNames(StringRef Text) {
  std::vector<StringRef> Names;
  llvm::SmallVector<StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.ltrim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      continue;
    Line = Line.ltrim();
    if (Line.empty() || (Line.front() != '"' && Line.front() != '<'))
      continue;
    const char Close = Line.front() == '"' ? '"' : '>';
    const std::size_t End = Line.find(Close, 1);
    if (End != StringRef::npos)
      Names.push_back(Line.slice(1, End));
  }
  return Names;
}

/// Whether a project header that Text includes (directly or through
/// others) satisfies Holds.
bool includesHeaderThat(StringRef IncluderDirectory, StringRef Text,
                        llvm::ArrayRef<std::string> IncludeDirectories, llvm::StringSet<> &Seen,
                        llvm::function_ref<bool(StringRef)> Holds) {
  for (StringRef Name : includedNames(Text)) {
    std::vector<std::string> Candidates;
    if (llvm::sys::path::is_absolute(Name)) {
      Candidates.push_back(Name.str());
    } else {
      llvm::SmallString<256> Next(IncluderDirectory);
      llvm::sys::path::append(Next, Name);
      Candidates.push_back(std::string(Next));
      for (const std::string &Directory : IncludeDirectories) {
        llvm::SmallString<256> Candidate(Directory);
        llvm::sys::path::append(Candidate, Name);
        Candidates.push_back(std::string(Candidate));
      }
    }
    for (const std::string &Candidate : Candidates) {
      if (!llvm::sys::fs::is_regular_file(Candidate))
        continue;
      if (!Seen.insert(Candidate).second)
        break;
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Header =
          llvm::MemoryBuffer::getFile(Candidate, /*IsText=*/true);
      if (!Header)
        break;
      const StringRef HeaderText = (*Header)->getBuffer();
      if (Holds(HeaderText) || includesHeaderThat(llvm::sys::path::parent_path(Candidate),
                                                  HeaderText, IncludeDirectories, Seen, Holds))
        return true;
      break;
    }
  }
  return false;
}

/// includesHeaderThat for the source at SourcePath.
bool sourceIncludesHeaderThat(StringRef SourcePath, StringRef Text,
                              llvm::ArrayRef<std::string> IncludeDirectories,
                              llvm::function_ref<bool(StringRef)> Holds) {
  llvm::StringSet<> Seen;
  const StringRef Directory = llvm::sys::path::parent_path(SourcePath);
  return includesHeaderThat(Directory.empty() ? "." : Directory, Text, IncludeDirectories, Seen,
                            Holds);
}

} // namespace

bool mayNeedFortranInstrumentation(StringRef Text) {
  return Text.contains('$') || Text.contains_insensitive("omp_") ||
         Text.contains_insensitive("program") || Text.contains_insensitive("include");
}

bool mayNeedInstrumentationWithHeaders(StringRef SourcePath, StringRef Text,
                                       llvm::ArrayRef<std::string> IncludeDirectories) {
  // main in a header is no reason; its constructs and API calls are.
  return mayNeedInstrumentation(Text) ||
         sourceIncludesHeaderThat(SourcePath, Text, IncludeDirectories, [](StringRef Header) {
           return Header.contains("omp") && mayNeedInstrumentation(Header);
         });
}

bool mentionsOpenMPAttributes(StringRef Text) {
  for (std::size_t At = Text.find("omp"); At != StringRef::npos; At = Text.find("omp", At + 3)) {
    if ((At > 0 && isIdentifierChar(Text[At - 1])) ||
        (At + 3 < Text.size() && isIdentifierChar(Text[At + 3])))
      continue;
    const StringRef After = Text.drop_front(At + 3).ltrim();
    if (After.starts_with("::"))
      return true;
    const StringRef Before = Text.take_front(At).rtrim();
    if (Before.ends_with("using") && After.starts_with(":"))
      return true;
  }
  return false;
}

bool mentionsOpenMPAttributesWithHeaders(StringRef SourcePath, StringRef Text,
                                         llvm::ArrayRef<std::string> IncludeDirectories) {
  return mentionsOpenMPAttributes(Text) ||
         sourceIncludesHeaderThat(SourcePath, Text, IncludeDirectories, mentionsOpenMPAttributes);
}

bool mayNeedInstrumentation(StringRef Text) {
  for (std::size_t I = 0; I < Text.size();) {
    if (!isIdentifierStart(Text[I]) || (I > 0 && isIdentifierChar(Text[I - 1]))) {
      ++I;
      continue;
    }
    std::size_t End = I + 1;
    while (End < Text.size() && isIdentifierChar(Text[End]))
      ++End;
    const StringRef Identifier = Text.slice(I, End);
    if (Identifier == "omp" || Identifier == "pomp" || Identifier == "_Pragma" ||
        Identifier == "main" || Identifier.starts_with("omp_"))
      return true;
    I = End;
  }
  return false;
}

std::optional<std::size_t> includeBlockEnd(StringRef Text) {
  std::optional<std::size_t> Last;
  int Depth = 0;
  std::size_t I = 0;
  while (I < Text.size()) {
    const char C = Text[I];
    if (C == ' ' || C == '\t' || C == '\f' || C == '\v' || C == '\r' || C == '\n') {
      ++I;
      continue;
    }
    const StringRef Here = Text.drop_front(I);
    const std::size_t Break = Text.find('\n', I);
    const std::size_t LineEnd = Break == StringRef::npos ? Text.size() : Break + 1;
    const StringRef Line = Text.slice(I, LineEnd).rtrim("\r\n");
    // A backslash before the line break continues the line: a comment or
    // directive that goes on is not read.
    if (Line.ends_with("\\"))
      return Last;
    if (Here.starts_with("//")) {
      I = LineEnd;
      continue;
    }
    if (Here.starts_with("/*")) {
      const std::size_t Close = Text.find("*/", I + 2);
      if (Close == StringRef::npos)
        return Last;
      I = Close + 2;
      continue;
    }
    if (C != '#')
      return Last;
    // A directive: its name, and its line whole (a comment opened on it
    // must close there).
    const StringRef Name = Line.drop_front().ltrim(" \t").take_while(isIdentifierChar);
    if (const std::size_t Open = Line.find("/*");
        Open != StringRef::npos && Line.find("*/", Open + 2) == StringRef::npos)
      return Last;
    if (Name == "if" || Name == "ifdef" || Name == "ifndef") {
      ++Depth;
    } else if (Name == "endif") {
      if (--Depth < 0)
        return Last;
    } else if (Name == "pragma" && Line.contains("omp")) {
      return Last;
    } else if (Depth == 0 && (Name == "include" || Name == "import")) {
      if (Break == StringRef::npos)
        return Last;
      Last = LineEnd;
    }
    I = LineEnd;
  }
  return Last;
}

bool isBuildSystemProbe(llvm::ArrayRef<std::string> Paths, StringRef WorkingDirectory) {
  if (isProbePath(WorkingDirectory))
    return true;
  for (const std::string &Path : Paths)
    if (isProbePath(Path))
      return true;
  return false;
}

} // namespace pomp::ompcc
