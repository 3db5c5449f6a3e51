//===- core/Symbolizer.h - Code addresses to function, file and line -*- C++ -*-===//
///
/// \file
/// Turns the return addresses OMPT reports (`codeptr_ra`) into the function,
/// source file and line of the call, so that a region of an uninstrumented
/// program gets a name a person can read. It runs once, at finalisation, for
/// the few hundred distinct addresses a program has; nothing here is on the
/// hot path.
///
/// Where the names come from, best first:
///   1. the DWARF debug information of the module (elfutils' libdw): the
///      innermost function at the address, inlined ones included, and the line
///      table's file and line;
///   2. the module's symbol table (libdw again): the function only;
///   3. without libdw, dladdr(): the function (exported symbols only) and the
///      module.
/// An address in no module (0, garbage, a library unloaded since) gives an
/// empty CodeLocation; nothing here throws or reads the memory at the address.
///
/// libdw is opened with dlopen("libdw.so.1") when a Symbolizer is made, not
/// linked: libpomp.so keeps no dependency beyond the C and C++ runtimes, a
/// program linked with the static libpomp.a needs no extra library, and a
/// system without libdw still gets function names. The header
/// <elfutils/libdwfl.h> (libdw-dev) is only needed to build.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_SYMBOLIZER_H
#define POMP_RUNTIME_CORE_SYMBOLIZER_H

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace pomp::rt {

/// Where a code address is in the program's source. Empty strings and line 0
/// for what is not known.
struct CodeLocation {
  /// The function, demangled ("ns::f(int)", "main"); for inlined code the
  /// inlined function, so that it agrees with File and Line.
  std::string Function;
  /// The DWARF inline chain: the functions Function was inlined into at this
  /// address, innermost first, the one whose code it is last; empty when the
  /// address is in Function's own code (or without debug information).
  std::vector<std::string> InlinedInto;
  /// The source file as the line table names it (absolute when the compiler
  /// recorded its directory); "" without debug information.
  std::string File;
  unsigned Line = 0;
  /// The executable or shared library holding the address, as the process
  /// mapped it.
  std::string Module;

  bool empty() const { return Function.empty() && File.empty() && Module.empty(); }
};

/// Resolves code addresses of the calling process, with a cache. The modules
/// are those loaded when the Symbolizer is made. Not thread-safe: one thread
/// uses it, at finalisation.
class Symbolizer {
public:
  /// What addresses are resolved with: libdw when it can be loaded, else
  /// dladdr() (the default); or dladdr() alone, as on a system without libdw.
  enum class Mode { PreferLibdw, DladdrOnly };

  explicit Symbolizer(Mode M = Mode::PreferLibdw);
  ~Symbolizer();
  Symbolizer(const Symbolizer &) = delete;
  Symbolizer &operator=(const Symbolizer &) = delete;

  /// The location of the call that returns to ReturnAddress (the instruction
  /// before it is looked up, so that a call at the end of a function or of a
  /// line is attributed to its own function and line).
  const CodeLocation &resolveReturnAddress(std::uintptr_t ReturnAddress);

  /// True when libdw was loaded and reported the process's modules: files and
  /// lines are available wherever there is debug information.
  bool usesDebugInfo() const;

private:
  class DebugInfo;
  std::unique_ptr<DebugInfo> Debug; ///< null without libdw
  std::unordered_map<std::uintptr_t, CodeLocation> Cache;
};

/// The locations of the calls returning to ReturnAddresses, in their order.
std::vector<CodeLocation> symbolize(const std::vector<std::uintptr_t> &ReturnAddresses);

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_SYMBOLIZER_H
