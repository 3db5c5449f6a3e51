//===- DependencyFile.cpp - Make dependencies of a compile ----------------===//
#include "pomp/ompcc/DependencyFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace pomp::ompcc {
namespace {

using llvm::StringRef;

/// Characters that may surround a name in a dependency file.
bool isNameBoundary(char C) { return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == ':'; }

} // namespace

std::string escapeForMake(StringRef Path) {
  std::string Out;
  for (const char C : Path) {
    if (C == ' ' || C == '#')
      Out += '\\';
    else if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

std::string replaceDependencyName(StringRef Text, StringRef From, StringRef To) {
  const std::string EscapedFrom = escapeForMake(From);
  const std::string EscapedTo = escapeForMake(To);
  std::string Out;
  std::size_t Position = 0;
  while (Position < Text.size()) {
    const std::size_t Found = Text.find(EscapedFrom, Position);
    if (Found == StringRef::npos)
      break;
    const std::size_t End = Found + EscapedFrom.size();
    const bool StartsName = Found == 0 || isNameBoundary(Text[Found - 1]);
    // A name ends at a boundary, at the end, or before a line continuation.
    const bool EndsName = End == Text.size() || isNameBoundary(Text[End]) ||
                          (Text[End] == '\\' && End + 1 < Text.size() &&
                           (Text[End + 1] == '\n' || Text[End + 1] == '\r'));
    Out += Text.slice(Position, Found);
    Out += StartsName && EndsName ? StringRef(EscapedTo) : Text.slice(Found, End);
    Position = End;
  }
  Out += Text.drop_front(std::min(Position, Text.size()));
  return Out;
}

std::string removeDependencyName(StringRef Text, StringRef Name) {
  // The name is replaced by a NUL (no dependency file holds one), then every
  // line is rebuilt without it.
  const std::string Marked = replaceDependencyName(Text, Name, StringRef("\0", 1));
  llvm::SmallVector<StringRef, 32> Lines;
  StringRef(Marked).split(Lines, '\n');
  std::string Out;
  for (std::size_t I = 0; I < Lines.size(); ++I) {
    const StringRef Line = Lines[I];
    if (!Line.contains('\0')) {
      Out += Line;
    } else {
      // -MP's phony target for the name ("name:") goes with its line.
      if (Line.trim() == StringRef("\0:", 2))
        continue;
      std::string Kept;
      for (std::size_t C = 0; C < Line.size(); ++C) {
        if (Line[C] != '\0') {
          Kept += Line[C];
          continue;
        }
        // The name and the blank before it.
        if (!Kept.empty() && (Kept.back() == ' ' || Kept.back() == '\t'))
          Kept.pop_back();
      }
      const StringRef Rest = StringRef(Kept).trim();
      // A line left with only its continuation adds nothing.
      if (Rest == "\\")
        continue;
      if (Rest.empty()) {
        // The rule's last name went (a failed compile's file names the
        // header last): the line before ends the rule, without its
        // continuation.
        if (StringRef(Out).ends_with("\\\n")) {
          Out.resize(StringRef(Out).drop_back(2).rtrim(" \t").size());
          Out += '\n';
        }
        continue;
      }
      Out += Kept;
    }
    if (I + 1 != Lines.size())
      Out += '\n';
  }
  return Out;
}

namespace {

/// Replaces the dependency file at Path by Text, atomically.
llvm::Error replaceDependencyFile(StringRef Path, StringRef Text) {
  // Next to the file, so that the rename is atomic: a parallel make never
  // reads half a dependency file.
  llvm::SmallString<128> TempPath;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, TempPath))
    return llvm::createStringError(EC, "cannot rewrite the dependency file '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Text;
    Out.close();
    if (Out.has_error()) {
      const std::error_code EC = Out.error();
      Out.clear_error();
      llvm::sys::fs::remove(TempPath);
      return llvm::createStringError(EC, "cannot rewrite the dependency file '%s': %s",
                                     Path.str().c_str(), EC.message().c_str());
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(TempPath, Path)) {
    llvm::sys::fs::remove(TempPath);
    return llvm::createStringError(EC, "cannot rewrite the dependency file '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  }
  return llvm::Error::success();
}

llvm::Expected<std::string> readDependencyFile(StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read the dependency file '%s': %s",
                                   Path.str().c_str(), Buffer.getError().message().c_str());
  return (*Buffer)->getBuffer().str();
}

} // namespace

llvm::Error rewriteDependencyFile(StringRef Path, const std::vector<DependencyRename> &Renames) {
  llvm::Expected<std::string> Text = readDependencyFile(Path);
  if (!Text)
    return Text.takeError();
  std::string Rewritten = std::move(*Text);
  for (const DependencyRename &Rename : Renames)
    Rewritten = replaceDependencyName(Rewritten, Rename.From, Rename.To);
  return replaceDependencyFile(Path, Rewritten);
}

llvm::Error removeFromDependencyFile(StringRef Path, StringRef Name) {
  llvm::Expected<std::string> Text = readDependencyFile(Path);
  if (!Text)
    return Text.takeError();
  return replaceDependencyFile(Path, removeDependencyName(*Text, Name));
}

std::string defaultDependencyFile(StringRef Source, StringRef Output) {
  llvm::SmallString<128> Name;
  if (!Output.empty()) {
    Name = Output;
    llvm::sys::path::replace_extension(Name, "d");
  } else {
    Name = llvm::sys::path::stem(Source);
    Name += ".d";
  }
  return std::string(Name);
}

} // namespace pomp::ompcc
