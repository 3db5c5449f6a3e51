//===- DirectiveHeaders.h - Headers that hold only a directive ---*- C++ -*-===//
///
/// \file
/// Quicksilver brings some of its directives into a function (of the main
/// file, or an inline function of a header) through a header that holds the
/// directive and nothing the construct needs besides:
///
///   #include "mc_omp_parallel_for_schedule_static.hh"   // #pragma omp parallel for
///   for (int i = 0; i < n; i++) ...
///
/// No one file's edits can surround such a construct. Where the header can
/// be pasted in place of its #include without a change of meaning, the first
/// parse asks for the including file again with the header's text in place
/// of the #include line (FileResult::Rewritten), and the second parse
/// instruments the construct as that file's own.
/// `#line` directives around the pasted text keep every line's presumed file
/// and number, so that `__LINE__`, diagnostics and the CTC strings name the
/// header's lines as before; an empty stand-in #included in the header's
/// place keeps it in the compile's dependency file.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_DIRECTIVEHEADERS_H
#define POMP_INSTRUMENTER_DIRECTIVEHEADERS_H

#include "pomp/instrumenter/Instrumenter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <string>
#include <vector>

namespace pomp::inst {

/// The file that holds the construct's statement, when it is not the file
/// of its directive (a header #included inside a function body that holds
/// only the directive); an invalid FileID otherwise.
clang::FileID statementElsewhere(const clang::OMPExecutableDirective &D,
                                 const clang::SourceManager &SM);

/// The pasted texts, and the files that stand in for the pasted headers.
struct PastedHeaders {
  /// By absolute name, as FileResult::Rewritten: the files that #include
  /// the directive of a construct whose statement they hold, with the header
  /// pasted in place of each such #include line where it can be (the header
  /// includes nothing itself and has no `#pragma once`, the #include is a
  /// line of its own), and the stand-ins' (empty) texts.
  std::map<std::string, std::string> Files;
  /// The empty files, below HeaderDirectory, that each pasted text
  /// #includes first, for the dependency files (FileResult::StandIns).
  std::vector<HeaderCopy> StandIns;
};

/// The pasted texts of the translation unit: the including file is the main
/// file or a project header, which the second parse instruments through its
/// copy. Nothing without a HeaderDirectory. Walks the traversal scope.
PastedHeaders pasteDirectiveHeaders(clang::ASTContext &Context, const std::string &HeaderDirectory);

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_DIRECTIVEHEADERS_H
