//===- core/Config.h - Run-time options from the environment ----*- C++ -*-===//
///
/// \file
/// Every option of libpomp is an environment variable described by an
/// OptionSpec: name, type, default, accepted values and a sentence. Each module
/// declares its specs next to the code that reads them (Activation.h,
/// Output.h, Clock.h, Lifecycle.h, trace/Trace.h); allOptions() in Config.cpp lists those
/// module tables once, and both the parser here and the help text (POMP_HELP=1,
/// the pomp-options tool, docs/RUNTIME.md) come from that list.
///
/// An invalid value never stops the program: it gives one message naming the
/// variable and the accepted values, and the default is used; a size out of
/// its range gives one message naming the size used instead. Every value is
/// read without its leading and trailing white space, and a value that is
/// empty then is the same as an unset variable. A POMP_* variable that no
/// option has (a typo, POMP_TRCE) gives one message naming the closest known
/// variable.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_CONFIG_H
#define POMP_RUNTIME_CORE_CONFIG_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::rt {

/// How an option's value is read.
enum class OptionType {
  Bool,   ///< 0/1, true/false, yes/no, on/off (case-insensitive)
  Choice, ///< one of the words in Accepted (case-insensitive)
  Path,   ///< any non-empty string
  Size,   ///< a byte count, optionally with K, M or G (binary: 1K = 1024)
};

/// One environment variable of the library.
struct OptionSpec {
  std::string_view Name;
  OptionType Type;
  std::string_view Default; ///< "" for "unset"
  /// Accepted words of a Choice, separated by ", "; for the other types a
  /// description of the values for the help text.
  std::string_view Accepted;
  std::string_view Description;
  /// The range of a Size; a value outside is reported and the nearest limit
  /// used.
  std::uint64_t MinSize = 0;
  std::uint64_t MaxSize = UINT64_MAX;
};

/// A group of options declared together by one module.
struct OptionTable {
  std::string_view Module;
  const OptionSpec *Begin;
  std::size_t Size;
};

/// Every option table of the library, in the order the help text shows them.
std::vector<OptionTable> allOptions();

/// Where option values come from: the process environment, or a fixed list of
/// name=value pairs (unit tests).
class OptionSource {
public:
  /// Reads the process environment.
  OptionSource() = default;
  /// Reads only these "NAME=value" entries.
  explicit OptionSource(std::vector<std::string> Entries);

  /// The raw value of a variable, or nullptr when it is not set.
  const char *raw(std::string_view Name) const;
  /// The value without leading and trailing white space; "" when unset.
  std::string_view trimmed(std::string_view Name) const;

  /// The option's value as a bool; an invalid value is reported and the
  /// default used.
  bool readBool(const OptionSpec &Spec) const;
  /// The option's value as the index of one of its Accepted words; an invalid
  /// value is reported and the default used.
  std::size_t readChoice(const OptionSpec &Spec) const;
  /// The option's value as a string ("" when unset and no default).
  std::string readPath(const OptionSpec &Spec) const;
  /// The option's value in bytes; an invalid value is reported and the
  /// default used.
  std::uint64_t readSize(const OptionSpec &Spec) const;

  /// Reports every POMP_* variable of the source that is neither an option
  /// (allOptions()) nor another tool's (ompinst's), naming the closest known
  /// one by edit distance.
  void checkUnknown() const;

  /// The messages about invalid values, one per variable, in the order read.
  const std::vector<std::string> &messages() const { return Messages; }

private:
  void reject(const OptionSpec &Spec, std::string_view Value) const;

  bool UseEnvironment = true;
  std::vector<std::string> Entries;
  mutable std::vector<std::string> Messages;
};

/// The accepted words of a Choice option, split at ", ".
std::vector<std::string_view> choiceWords(const OptionSpec &Spec);

/// The help text: one block per option (POMP_HELP=1 prints it).
std::string optionHelpText();

/// The options as a Markdown table, as docs/RUNTIME.md holds it.
std::string optionMarkdownTable();

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_CONFIG_H
