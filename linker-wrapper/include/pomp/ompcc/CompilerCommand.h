//===- pomp/ompcc/CompilerCommand.h - A gcc-style command line -----*- C++ -*-===//
///
/// \file
/// What ompcc needs to know about a gcc/clang command line: which words are
/// input files (and in which language), which are options and of which kind,
/// and what the command does (compile, link, preprocess, ask a question).
/// Parsing is deliberately conservative: an option it does not know is kept
/// as it is for the real compiler and never given to the instrumenter's
/// parse, so an unusual flag can cost instrumentation but never a build.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_OMPCC_COMPILERCOMMAND_H
#define POMP_OMPCC_COMPILERCOMMAND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace pomp::ompcc {

/// The language of an input file, from `-x` or its extension, as gcc
/// decides it.
enum class Language {
  /// C source: instrumented.
  C,
  /// C++ source: instrumented.
  CXX,
  /// Fortran source, free or fixed form (.f90 .F90 .f95 .f03 .f08 .f .F .for
  /// .ftn ...): instrumented by ompinst's Fortran front end, which takes the
  /// language from the suffix (docs/FORTRAN.md).
  Fortran,
  /// Preprocessed C or C++ (.i, .ii), assembly (.s, .S, .sx), a header
  /// (precompiled header), a language ompinst does not handle or a language
  /// chosen with -x: compiled as it is.
  OtherCompilable,
  /// Everything else goes to the linker: objects, archives, shared
  /// libraries, linker scripts.
  LinkerInput,
};

/// What an option (or input) is for; decides which of ompcc's commands get
/// it.
enum class ArgKind {
  /// An input file.
  Input,
  /// `-o <file>`.
  Output,
  /// `-x <language>`: position-dependent, replaced by ompcc per input.
  LanguageSelect,
  /// -D -U -I -isystem -include ...: preprocessing, also given to ompinst.
  Preprocessor,
  /// -MD -MMD -MF -MT -MQ -MP -MG, -Wp,-MD,<file>: the dependency file.
  Dependency,
  /// -l -L -Wl, -shared -static ...: only the link needs them.
  LinkOnly,
  /// -c -S: stop before linking.
  StopBeforeLink,
  /// Everything else: given to every compile and to the link.
  Other,
};

/// One option or input of the command line, with its value word(s).
struct Argument {
  ArgKind Kind = ArgKind::Other;
  /// The words as written: one ("-DX", "-c", "a.c") or two ("-o", "a.o").
  std::vector<std::string> Words;
  /// The option's value ("a.o" for "-o a.o", the path of an input); empty
  /// for options without one.
  std::string Value;
  /// Inputs: their language.
  Language Lang = Language::LinkerInput;
  /// Inputs: whether a `-x` chose the language (then the compile of the
  /// input must repeat it).
  std::string ExplicitLanguage;
  /// Whether the instrumenter's parse gets this option: the flags that
  /// change what the preprocessor and the parser see and that Clang
  /// understands (defines, include paths, -std, target, -O for
  /// __OPTIMIZE__, ...). gcc-only flags and warnings stay out.
  bool ForParse = false;
};

/// Why a command goes to the real compiler unchanged.
enum class PassThrough {
  /// It is instrumented (or it links).
  No,
  /// No input file: --version, -v, -print-*, -dumpmachine, ...
  NoInput,
  /// -E, -M, -MM, -fsyntax-only, -###, --help: no object is produced.
  NoObject,
  /// An input ompcc cannot handle: standard input ("-"), a language given
  /// with -x that is neither C, C++ nor one compiled as it is.
  UnsupportedInput,
  /// -o with several inputs and -c or -S: the compiler reports the error.
  AmbiguousOutput,
};

/// A parsed gcc-style command line (response files already expanded).
struct CompilerCommand {
  std::vector<Argument> Args;
  /// -c or -S: compile only; else the command links.
  bool CompileOnly = false;
  /// -S: stop after generating assembly.
  bool AssemblyOnly = false;
  /// -shared, -static, -r: the kind of link.
  bool Shared = false;
  bool Static = false;
  bool Relocatable = false;
  /// -o's value, if given.
  std::optional<std::string> Output;
  PassThrough Pass = PassThrough::No;
  /// Dependency file options: -MD or -MMD, and -MF's value.
  bool DependencyFileRequested = false;
  std::optional<std::string> DependencyFile;
  /// -Wp,-MD,<file> or -Wp,-MMD,<file>: a dependency file the preprocessor
  /// writes itself.
  std::optional<std::string> PreprocessorDependencyFile;
  /// -fopenmp (or -fopenmp=<runtime>) is given.
  bool HasOpenMP = false;
  /// -fdiagnostics-color or -f(no-)color-diagnostics is given.
  bool HasColorChoice = false;

  /// Indices into Args of the inputs, in order.
  std::vector<std::size_t> inputs() const;
  /// Whether any input is compiled (a source, assembly, preprocessed file).
  bool hasCompilableInput() const;
};

/// Parses Args (without the program name). CxxDriver: the command was given
/// to ompc++, where, as with g++ and clang++, a .c file is C++.
CompilerCommand parseCompilerCommand(llvm::ArrayRef<std::string> Args, bool CxxDriver);

/// The language of a file from its extension, as gcc decides it without -x.
Language languageFromExtension(llvm::StringRef Path, bool CxxDriver);

/// The language of `-x <name>` (nullopt for "none", which restores the
/// extension's rule). Unknown names give Language::LinkerInput, which makes
/// the command pass through.
std::optional<Language> languageFromName(llvm::StringRef Name);

/// Replaces every `@file` argument by the words of the response file,
/// recursively, tokenised as gcc does (quotes and backslashes). A missing
/// file stays as the literal word, as gcc keeps it.
llvm::Expected<std::vector<std::string>> expandResponseFiles(llvm::ArrayRef<std::string> Args);

} // namespace pomp::ompcc

#endif // POMP_OMPCC_COMPILERCOMMAND_H
