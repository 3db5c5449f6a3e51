//===- CompilerCommand.cpp - A gcc-style command line ---------------------===//
///
/// \file
/// The option tables say, for each option ompcc must recognise, whether it
/// takes a value (and how it is spelled), which commands need it and whether
/// the instrumenter's parse gets it. Only options that change what ompcc
/// does, or that would be mistaken for inputs when their value is a separate
/// word, need to be listed: everything else is kept, in place, for the real
/// compiler.
///
//===----------------------------------------------------------------------===//

#include "pomp/ompcc/CompilerCommand.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

namespace pomp::ompcc {
namespace {

using llvm::StringRef;

/// How an option's value is written.
enum class ValueForm {
  /// No value.
  None,
  /// `-o file` or `-ofile`.
  JoinedOrSeparate,
  /// `-e entry` only (the joined spelling would clash with other options).
  Separate,
  /// `--sysroot dir` or `--sysroot=dir`.
  SeparateOrEquals,
};

/// One row of the option table.
struct OptionSpec {
  StringRef Name;
  ArgKind Kind;
  ValueForm Form;
  /// Whether the instrumenter's parse gets the option.
  bool ForParse;
  /// For options without value: whether Name is a prefix (-std=..., -O2).
  bool Prefix = false;
};

constexpr bool Parse = true;
constexpr bool NoParse = false;
constexpr bool IsPrefix = true;

/// Options with a value. Longer names come before shorter ones they start
/// with (-isysroot before -isystem is not needed, but -iwithprefixbefore
/// before -iwithprefix is), so the first match is the right one.
const OptionSpec ValueOptions[] = {
    {"-o", ArgKind::Output, ValueForm::JoinedOrSeparate, NoParse},
    {"-x", ArgKind::LanguageSelect, ValueForm::JoinedOrSeparate, NoParse},
    {"-D", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-U", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-I", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-include", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-imacros", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-isystem", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-isysroot", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-idirafter", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-iquote", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-iprefix", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-iwithprefixbefore", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-iwithprefix", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, Parse},
    {"-imultilib", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, NoParse},
    {"-iframework", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, NoParse},
    {"-ivfsoverlay", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, NoParse},
    {"-Xpreprocessor", ArgKind::Preprocessor, ValueForm::Separate, NoParse},
    {"-A", ArgKind::Preprocessor, ValueForm::JoinedOrSeparate, NoParse},
    {"-MF", ArgKind::Dependency, ValueForm::JoinedOrSeparate, NoParse},
    {"-MT", ArgKind::Dependency, ValueForm::JoinedOrSeparate, NoParse},
    {"-MQ", ArgKind::Dependency, ValueForm::JoinedOrSeparate, NoParse},
    {"-L", ArgKind::LinkOnly, ValueForm::JoinedOrSeparate, NoParse},
    {"-l", ArgKind::LinkOnly, ValueForm::JoinedOrSeparate, NoParse},
    {"-Xlinker", ArgKind::LinkOnly, ValueForm::Separate, NoParse},
    {"-u", ArgKind::LinkOnly, ValueForm::Separate, NoParse},
    {"-T", ArgKind::LinkOnly, ValueForm::Separate, NoParse},
    {"-z", ArgKind::LinkOnly, ValueForm::Separate, NoParse},
    {"-e", ArgKind::LinkOnly, ValueForm::Separate, NoParse},
    {"--sysroot", ArgKind::Other, ValueForm::SeparateOrEquals, Parse},
    {"--target", ArgKind::Other, ValueForm::SeparateOrEquals, Parse},
    {"-target", ArgKind::Other, ValueForm::Separate, Parse},
    {"--gcc-toolchain", ArgKind::Other, ValueForm::SeparateOrEquals, NoParse},
    {"-specs", ArgKind::Other, ValueForm::SeparateOrEquals, NoParse},
    {"-B", ArgKind::Other, ValueForm::JoinedOrSeparate, NoParse},
    {"-Xassembler", ArgKind::Other, ValueForm::Separate, NoParse},
    {"-Xclang", ArgKind::Other, ValueForm::Separate, NoParse},
    {"-mllvm", ArgKind::Other, ValueForm::Separate, NoParse},
    {"-aux-info", ArgKind::Other, ValueForm::Separate, NoParse},
    {"--param", ArgKind::Other, ValueForm::SeparateOrEquals, NoParse},
    {"-dumpdir", ArgKind::Other, ValueForm::Separate, NoParse},
    {"-dumpbase", ArgKind::Other, ValueForm::Separate, NoParse},
    {"-dumpbase-ext", ArgKind::Other, ValueForm::Separate, NoParse},
    {"-wrapper", ArgKind::Other, ValueForm::Separate, NoParse},
    {"-resource-dir", ArgKind::Other, ValueForm::SeparateOrEquals, NoParse},
    {"-arch", ArgKind::Other, ValueForm::Separate, NoParse},
    {"-MJ", ArgKind::Other, ValueForm::JoinedOrSeparate, NoParse},
    // Fortran: where the compiler writes .mod files (gfortran -J, flang
    // -module-dir) and where flang finds the intrinsic ones.
    {"-J", ArgKind::Other, ValueForm::JoinedOrSeparate, NoParse},
    {"-module-dir", ArgKind::Other, ValueForm::Separate, NoParse},
    {"-fintrinsic-modules-path", ArgKind::Other, ValueForm::Separate, NoParse},
};

/// Options without a value that ompcc must classify. Unlisted ones are
/// ArgKind::Other and stay out of the parse.
const OptionSpec FlagOptions[] = {
    {"-c", ArgKind::StopBeforeLink, ValueForm::None, NoParse},
    {"-S", ArgKind::StopBeforeLink, ValueForm::None, NoParse},
    {"-MD", ArgKind::Dependency, ValueForm::None, NoParse},
    {"-MMD", ArgKind::Dependency, ValueForm::None, NoParse},
    {"-MP", ArgKind::Dependency, ValueForm::None, NoParse},
    {"-MG", ArgKind::Dependency, ValueForm::None, NoParse},
    {"-nostdinc", ArgKind::Preprocessor, ValueForm::None, Parse},
    {"-nostdinc++", ArgKind::Preprocessor, ValueForm::None, Parse},
    {"-nostdlibinc", ArgKind::Preprocessor, ValueForm::None, Parse},
    {"-undef", ArgKind::Preprocessor, ValueForm::None, Parse},
    {"-trigraphs", ArgKind::Preprocessor, ValueForm::None, Parse},
    {"-Wp,", ArgKind::Preprocessor, ValueForm::None, NoParse, IsPrefix},
    {"-Wl,", ArgKind::LinkOnly, ValueForm::None, NoParse, IsPrefix},
    {"-shared", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-static", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-static-pie", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-static-lib", ArgKind::LinkOnly, ValueForm::None, NoParse, IsPrefix},
    {"-shared-libgcc", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-pie", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-no-pie", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-rdynamic", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-s", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-r", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-symbolic", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-nostdlib", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-nostdlib++", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-nodefaultlibs", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-nostartfiles", ArgKind::LinkOnly, ValueForm::None, NoParse},
    {"-fuse-ld=", ArgKind::LinkOnly, ValueForm::None, NoParse, IsPrefix},
    {"--ld-path=", ArgKind::LinkOnly, ValueForm::None, NoParse, IsPrefix},
    {"-rtlib=", ArgKind::LinkOnly, ValueForm::None, NoParse, IsPrefix},
    {"--rtlib=", ArgKind::LinkOnly, ValueForm::None, NoParse, IsPrefix},
    {"-unwindlib=", ArgKind::LinkOnly, ValueForm::None, NoParse, IsPrefix},
    {"--unwindlib=", ArgKind::LinkOnly, ValueForm::None, NoParse, IsPrefix},
    // Language and target: what the parser must see to read the file as the
    // compiler does (macros such as __STRICT_ANSI__, __x86_64__, __OPTIMIZE__,
    // __PIC__, _REENTRANT, __AVX2__ come from these).
    {"-std=", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"--std=", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"-ansi", ArgKind::Other, ValueForm::None, Parse},
    {"-stdlib=", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"-m32", ArgKind::Other, ValueForm::None, Parse},
    {"-m64", ArgKind::Other, ValueForm::None, Parse},
    {"-mx32", ArgKind::Other, ValueForm::None, Parse},
    {"-march=", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"-msse", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"-mno-sse", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"-mavx", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"-mno-avx", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"-mfma", ArgKind::Other, ValueForm::None, Parse},
    {"-mf16c", ArgKind::Other, ValueForm::None, Parse},
    {"-mpopcnt", ArgKind::Other, ValueForm::None, Parse},
    {"-mbmi", ArgKind::Other, ValueForm::None, Parse},
    {"-mbmi2", ArgKind::Other, ValueForm::None, Parse},
    {"-mlzcnt", ArgKind::Other, ValueForm::None, Parse},
    {"-maes", ArgKind::Other, ValueForm::None, Parse},
    {"-mpclmul", ArgKind::Other, ValueForm::None, Parse},
    {"-pthread", ArgKind::Other, ValueForm::None, Parse},
    {"-O", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"-ffast-math", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-fast-math", ArgKind::Other, ValueForm::None, Parse},
    {"-ffinite-math-only", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-finite-math-only", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-math-errno", ArgKind::Other, ValueForm::None, Parse},
    {"-fsigned-char", ArgKind::Other, ValueForm::None, Parse},
    {"-funsigned-char", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-signed-char", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-unsigned-char", ArgKind::Other, ValueForm::None, Parse},
    {"-fexceptions", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-exceptions", ArgKind::Other, ValueForm::None, Parse},
    {"-frtti", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-rtti", ArgKind::Other, ValueForm::None, Parse},
    {"-fPIC", ArgKind::Other, ValueForm::None, Parse},
    {"-fpic", ArgKind::Other, ValueForm::None, Parse},
    {"-fPIE", ArgKind::Other, ValueForm::None, Parse},
    {"-fpie", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-pic", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-pie", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-PIC", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-PIE", ArgKind::Other, ValueForm::None, Parse},
    {"-fopenmp-simd", ArgKind::Other, ValueForm::None, Parse},
    {"-fopenmp-version=", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"-fms-extensions", ArgKind::Other, ValueForm::None, Parse},
    {"-fgnu89-inline", ArgKind::Other, ValueForm::None, Parse},
    {"-fshort-wchar", ArgKind::Other, ValueForm::None, Parse},
    {"-fshort-enums", ArgKind::Other, ValueForm::None, Parse},
    {"-fchar8_t", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-char8_t", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-operator-names", ArgKind::Other, ValueForm::None, Parse},
    {"-fgnu-keywords", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-gnu-keywords", ArgKind::Other, ValueForm::None, Parse},
    {"-fsized-deallocation", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-sized-deallocation", ArgKind::Other, ValueForm::None, Parse},
    {"-faligned-new", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-aligned-new", ArgKind::Other, ValueForm::None, Parse},
    {"-ffreestanding", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-builtin", ArgKind::Other, ValueForm::None, Parse},
    {"-fdollars-in-identifiers", ArgKind::Other, ValueForm::None, Parse},
    {"-fno-dollars-in-identifiers", ArgKind::Other, ValueForm::None, Parse},
    // Fortran's source form and preprocessing: the Fortran front end of the
    // instrumenter must read the file as the compiler does.
    {"-cpp", ArgKind::Preprocessor, ValueForm::None, Parse},
    {"-nocpp", ArgKind::Preprocessor, ValueForm::None, Parse},
    {"-ffixed-form", ArgKind::Other, ValueForm::None, Parse},
    {"-ffree-form", ArgKind::Other, ValueForm::None, Parse},
    {"-ffixed-line-length-", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"-ffree-line-length-", ArgKind::Other, ValueForm::None, Parse, IsPrefix},
    {"-fdefault-integer-8", ArgKind::Other, ValueForm::None, Parse},
    {"-fdefault-real-8", ArgKind::Other, ValueForm::None, Parse},
    {"-fdefault-double-8", ArgKind::Other, ValueForm::None, Parse},
    {"-fbackslash", ArgKind::Other, ValueForm::None, Parse},
};

/// Options after which nothing is compiled or linked: the command only
/// preprocesses, checks, or answers a question.
const StringRef NoObjectOptions[] = {
    "-E",           "-M",         "-MM",           "-fsyntax-only", "-###",
    "--help",       "--version",  "--target-help", "-dumpversion",  "-dumpfullversion",
    "-dumpmachine", "-dumpspecs",
};

/// Option prefixes of the same kind: -print-search-dirs, --print-file-name=.
const StringRef NoObjectPrefixes[] = {"-print-", "--print-", "--help="};

bool matches(const OptionSpec &Spec, StringRef Word) {
  return Spec.Prefix ? Word.starts_with(Spec.Name) : Word == Spec.Name;
}

bool isColorOption(StringRef Word) {
  return Word.starts_with("-fdiagnostics-color") || Word == "-fno-diagnostics-color" ||
         Word == "-fcolor-diagnostics" || Word == "-fno-color-diagnostics";
}

bool isOpenMPOption(StringRef Word) { return Word == "-fopenmp" || Word.starts_with("-fopenmp="); }

/// -Wp,-MD,<file> and -Wp,-MMD,<file>: the dependency file options of old
/// Makefiles (and of Linux's kbuild), which the preprocessor gets directly.
std::optional<std::string> preprocessorDependencyFile(StringRef Word) {
  for (StringRef Prefix : {"-Wp,-MD,", "-Wp,-MMD,"})
    if (Word.starts_with(Prefix) && Word.size() > Prefix.size())
      return Word.drop_front(Prefix.size()).str();
  return std::nullopt;
}

} // namespace

Language languageFromExtension(StringRef Path, bool CxxDriver) {
  const StringRef Extension = llvm::sys::path::extension(Path);
  if (Extension == ".c")
    return CxxDriver ? Language::CXX : Language::C;
  return llvm::StringSwitch<Language>(Extension)
      .Cases(".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C", Language::CXX)
      .Cases(".i", ".ii", ".s", ".S", ".sx", Language::OtherCompilable)
      .Cases(".h", ".hh", ".hpp", ".hxx", ".H", ".h++", ".tcc", Language::OtherCompilable)
      .Cases(".m", ".mi", ".mm", ".M", ".mii", Language::OtherCompilable)
      .Cases(".f", ".for", ".ftn", ".f90", ".f95", ".f03", ".f08", Language::Fortran)
      .Cases(".F", ".FOR", ".FTN", ".F90", ".F95", ".F03", ".F08", ".fpp", Language::Fortran)
      .Default(Language::LinkerInput);
}

std::optional<Language> languageFromName(StringRef Name) {
  if (Name == "none")
    return std::nullopt;
  if (Name == "c")
    return Language::C;
  if (Name == "c++")
    return Language::CXX;
  // Headers, preprocessed sources, assembly, other languages: the real
  // compiler compiles them (or rejects an unknown name itself).
  return Language::OtherCompilable;
}

std::vector<std::size_t> CompilerCommand::inputs() const {
  std::vector<std::size_t> Indices;
  for (std::size_t I = 0; I < Args.size(); ++I)
    if (Args[I].Kind == ArgKind::Input)
      Indices.push_back(I);
  return Indices;
}

bool CompilerCommand::hasCompilableInput() const {
  return llvm::any_of(Args, [](const Argument &Arg) {
    return Arg.Kind == ArgKind::Input && Arg.Lang != Language::LinkerInput;
  });
}

CompilerCommand parseCompilerCommand(llvm::ArrayRef<std::string> Words, bool CxxDriver) {
  CompilerCommand Command;
  // The language -x selected for the inputs that follow; empty: by extension.
  std::string SelectedLanguage;
  bool NoObject = false;
  bool StdinInput = false;
  for (std::size_t I = 0; I < Words.size(); ++I) {
    const StringRef Word = Words[I];
    Argument Arg;
    Arg.Words.push_back(Word.str());

    if (Word == "-" || !Word.starts_with("-")) {
      Arg.Kind = ArgKind::Input;
      Arg.Value = Word.str();
      if (Word == "-")
        StdinInput = true;
      if (SelectedLanguage.empty()) {
        Arg.Lang = languageFromExtension(Word, CxxDriver);
      } else {
        Arg.Lang = languageFromName(SelectedLanguage).value_or(Language::LinkerInput);
        Arg.ExplicitLanguage = SelectedLanguage;
      }
      Command.Args.push_back(std::move(Arg));
      continue;
    }

    if (llvm::is_contained(NoObjectOptions, Word) ||
        llvm::any_of(NoObjectPrefixes, [&](StringRef P) { return Word.starts_with(P); }))
      NoObject = true;
    if (isColorOption(Word))
      Command.HasColorChoice = true;
    if (isOpenMPOption(Word))
      Command.HasOpenMP = true;

    const OptionSpec *Spec = nullptr;
    for (const OptionSpec &Candidate : ValueOptions) {
      const bool Exact = Word == Candidate.Name;
      const bool Joined =
          Candidate.Form == ValueForm::JoinedOrSeparate && Word.starts_with(Candidate.Name);
      const bool Equals = Candidate.Form == ValueForm::SeparateOrEquals &&
                          Word.starts_with(Candidate.Name) &&
                          Word.drop_front(Candidate.Name.size()).starts_with("=");
      if (!Exact && !Joined && !Equals)
        continue;
      Spec = &Candidate;
      if (Exact) {
        // A missing value is the compiler's error to report.
        if (I + 1 < Words.size()) {
          Arg.Value = Words[++I];
          Arg.Words.push_back(Arg.Value);
        }
      } else {
        Arg.Value = Word.drop_front(Candidate.Name.size() + (Equals ? 1 : 0)).str();
      }
      break;
    }
    if (!Spec)
      for (const OptionSpec &Candidate : FlagOptions)
        if (matches(Candidate, Word)) {
          Spec = &Candidate;
          break;
        }

    if (Spec) {
      Arg.Kind = Spec->Kind;
      Arg.ForParse = Spec->ForParse;
    }
    // -Wp,-MD,<file> is a dependency option, not a general preprocessor one.
    if (std::optional<std::string> File = preprocessorDependencyFile(Word)) {
      Arg.Kind = ArgKind::Dependency;
      Command.PreprocessorDependencyFile = std::move(File);
    }

    switch (Arg.Kind) {
    case ArgKind::Output:
      Command.Output = Arg.Value;
      break;
    case ArgKind::LanguageSelect:
      SelectedLanguage = Arg.Value == "none" ? std::string() : Arg.Value;
      break;
    case ArgKind::StopBeforeLink:
      Command.CompileOnly = true;
      if (Word == "-S")
        Command.AssemblyOnly = true;
      break;
    case ArgKind::Dependency:
      if (Word == "-MD" || Word == "-MMD")
        Command.DependencyFileRequested = true;
      else if (Word.starts_with("-MF"))
        Command.DependencyFile = Arg.Value;
      break;
    case ArgKind::LinkOnly:
      if (Word == "-shared")
        Command.Shared = true;
      else if (Word == "-static")
        Command.Static = true;
      else if (Word == "-r")
        Command.Relocatable = true;
      break;
    default:
      break;
    }
    Command.Args.push_back(std::move(Arg));
  }

  std::size_t Compilable = 0;
  bool AnyInput = false;
  for (const Argument &Arg : Command.Args) {
    if (Arg.Kind != ArgKind::Input)
      continue;
    AnyInput = true;
    if (Arg.Lang != Language::LinkerInput)
      ++Compilable;
  }
  if (NoObject)
    Command.Pass = PassThrough::NoObject;
  else if (!AnyInput)
    Command.Pass = PassThrough::NoInput;
  else if (StdinInput)
    Command.Pass = PassThrough::UnsupportedInput;
  else if (Command.CompileOnly && Command.Output && Compilable > 1)
    Command.Pass = PassThrough::AmbiguousOutput;
  return Command;
}

llvm::Expected<std::vector<std::string>> expandResponseFiles(llvm::ArrayRef<std::string> Args) {
  if (llvm::none_of(Args, [](const std::string &Arg) { return StringRef(Arg).starts_with("@"); }))
    return std::vector<std::string>(Args.begin(), Args.end());
  llvm::BumpPtrAllocator Allocator;
  llvm::SmallVector<const char *, 64> Argv;
  for (const std::string &Arg : Args)
    Argv.push_back(Arg.c_str());
  // gcc reads nested response files relative to the current directory, and
  // leaves "@name" as it is when no such file exists.
  llvm::cl::ExpansionContext Expansion(Allocator, llvm::cl::TokenizeGNUCommandLine);
  if (llvm::Error E = Expansion.expandResponseFiles(Argv))
    return E;
  return std::vector<std::string>(Argv.begin(), Argv.end());
}

} // namespace pomp::ompcc
