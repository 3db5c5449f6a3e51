//===- pomp/ompcc/DependencyFile.h - Make dependencies of a compile -*- C++ -*-===//
///
/// \file
/// The compiler writes the dependency file (-MD, -MMD, -MF) of an
/// instrumented compile; its system headers are right, but its main source
/// is the temporary instrumented file, and the project's headers that hold
/// OpenMP constructs were read as their instrumented copies. ompcc rewrites
/// those names into the originals', as make must see them. A file compiled
/// uninstrumented names the temporary header that marks it, which ompcc
/// takes out.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_OMPCC_DEPENDENCYFILE_H
#define POMP_OMPCC_DEPENDENCYFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace pomp::ompcc {

/// A file name as gcc and clang write it into a dependency file: space and
/// '#' preceded by a backslash, '$' doubled.
std::string escapeForMake(llvm::StringRef Path);

/// Text with every occurrence of the escaped From replaced by the escaped
/// To. Only whole names are replaced: the character before a match must
/// start a name (line start, space, ':' after the target) and the one after
/// it end one.
std::string replaceDependencyName(llvm::StringRef Text, llvm::StringRef From, llvm::StringRef To);

/// A file the compiler read under another name than make must see.
struct DependencyRename {
  std::string From;
  std::string To;
};

/// Rewrites the dependency file at Path in place (atomically), naming each
/// rename's To where the compiler named its From.
llvm::Error rewriteDependencyFile(llvm::StringRef Path,
                                  const std::vector<DependencyRename> &Renames);

/// Text without the name Name (a whole name, as replaceDependencyName
/// matches it): the blank before it goes too, and so do -MP's phony target
/// for it and a line left with nothing but its continuation.
std::string removeDependencyName(llvm::StringRef Text, llvm::StringRef Name);

/// Rewrites the dependency file at Path in place (atomically) without the
/// name Name: the header that marks an uninstrumented compile is a temporary
/// file, which make must never look for.
llvm::Error removeFromDependencyFile(llvm::StringRef Path, llvm::StringRef Name);

/// Where gcc and clang write the dependency file of a compile with -MD or
/// -MMD and without -MF: the output with its extension replaced by ".d", or
/// without -o the source's base name with ".d", in the current directory.
std::string defaultDependencyFile(llvm::StringRef Source, llvm::StringRef Output);

} // namespace pomp::ompcc

#endif // POMP_OMPCC_DEPENDENCYFILE_H
