//===- pomp/ompcc/CompileBeside.h - gcc's compile beside ompinst -*- C++ -*-===//
///
/// \file
/// With gcc as the real compiler, a file's first compile waited for ompinst:
/// the instrumentation's parse, then gcc's start and its parse of the
/// headers, one after the other (issue 15: the samples' first build 1.45 ×
/// plain, ompinst's part some 60 ms of a 200 ms compile of jacobi.c). The
/// instrumented text is the source with a fixed header (`_POMP` and a
/// `#line`) and edits after its `#include` block, so gcc can read that block
/// while ompinst runs.
///
/// gcc reads a main file whole before it preprocesses it, but an included
/// file only when it gets to it. So gcc compiles a main file of ompcc's own:
/// the instrumented text's header and the source's `#include` block, then an
/// `#include` of a pipe (`/dev/fd/N`), which gcc reaches after the headers
/// and reads until ompcc closes it. ompcc writes the rest of ompinst's text
/// into the pipe, behind a line marker `# <line> "<source>" 2` that returns
/// gcc to the main file: what follows is the main file's to gcc (its
/// warnings, `__INCLUDE_LEVEL__`, the line table), as in the compile of the
/// instrumented file. The main file ends with a check that the whole rest
/// arrived (a macro its last line defines): a pipe closed early (ompcc
/// killed, the rest withheld) ends gcc with an error, never with an object
/// of a part of the file.
///
/// A source without an `#include` block is compiled beside with an empty
/// one: the whole text after the header goes through the pipe, and what runs
/// beside ompinst is gcc's start-up (the driver, cc1's libraries, its back
/// end's set-up).
///
/// Anything unexpected (ompinst fails, its text differs in the block, the
/// compile fails) withholds or ends the compile beside, and ompcc compiles
/// as without it: the result is always the instrumented file's.
/// docs/OMPCC.md, "With gcc".
///
//===----------------------------------------------------------------------===//
#ifndef POMP_OMPCC_COMPILEBESIDE_H
#define POMP_OMPCC_COMPILEBESIDE_H

#include "pomp/ompcc/Process.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace pomp::ompcc {

struct Argument;

/// One compile beside the instrumentation: the main file's text, the pipe,
/// and gcc while it runs.
class CompileBeside {
public:
  /// Prepares the compile of the source at SourcePath (its text Text; the
  /// command's arguments Args); nullopt and Why when it cannot be compiled
  /// beside (the reasons in docs/OMPCC.md).
  static std::unique_ptr<CompileBeside> prepare(llvm::StringRef SourcePath, llvm::StringRef Text,
                                                llvm::ArrayRef<Argument> Args, std::string &Why);
  CompileBeside(const CompileBeside &) = delete;
  CompileBeside &operator=(const CompileBeside &) = delete;
  ~CompileBeside();

  /// What gcc compiles as its main file: the header, the block, the
  /// `#include` of the pipe and the check.
  const std::string &mainText() const { return Main; }
  /// Starts Argv (which compiles the file holding mainText()); false when it
  /// cannot be started.
  bool start(CommandRunner &Runner, llvm::ArrayRef<std::string> Argv);
  /// Gives gcc the rest of Instrumented (ompinst's text) and waits for it:
  /// its exit status and messages (Log); nullopt and Why when the text
  /// does not share the block (gcc is then ended without an object).
  std::optional<int> finish(CommandRunner &Runner, llvm::StringRef Instrumented, std::string &Log,
                            std::string &Why);
  /// Ends gcc without an object (the pipe closed empty), and waits for it.
  void abandon(CommandRunner &Runner);
  /// Whether the main file holds an `#include` block (without one, gcc's
  /// start-up is what runs beside ompinst).
  bool hasBlock() const { return !Block.empty(); }
  /// The name gcc reads the pipe by, as its dependency file lists it.
  std::string pipeName() const { return "/dev/fd/" + std::to_string(ChildFD); }

  /// The dependency file gcc writes here (a private one, which replaces the
  /// command's only after a compile that counts); empty when none.
  std::string DependencyFile;

private:
  CompileBeside(std::string Header, std::string Block);
  /// Writes Text into the pipe; false when gcc stopped reading.
  bool write(llvm::StringRef Text);
  void closePipe();

  /// The instrumented text's header and the source's `#include` block.
  std::string Header;
  std::string Block;
  /// The presumed name of the header's `#line`, as a C string literal.
  std::string NameLiteral;
  std::string Main;
  /// The descriptor number the child reads the pipe from.
  int ChildFD = -1;
  int ReadFD = -1;
  int WriteFD = -1;
  std::optional<BackgroundCommand> Running;
};

} // namespace pomp::ompcc

#endif // POMP_OMPCC_COMPILEBESIDE_H
