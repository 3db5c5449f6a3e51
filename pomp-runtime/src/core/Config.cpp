//===- core/Config.cpp - Run-time options from the environment ------------===//

#include "core/Config.h"

#include "adapters/ompt/OmptOptions.h"
#include "core/Activation.h"
#include "core/Clock.h"
#include "core/Lifecycle.h"
#include "core/Metrics.h"
#include "core/Output.h"
#include "trace/Trace.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <unistd.h>

namespace pomp::rt {
namespace {

std::string lowerTrimmed(std::string_view Value) {
  while (!Value.empty() && std::isspace(static_cast<unsigned char>(Value.front())))
    Value.remove_prefix(1);
  while (!Value.empty() && std::isspace(static_cast<unsigned char>(Value.back())))
    Value.remove_suffix(1);
  std::string Result(Value);
  for (char &C : Result)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return Result;
}

constexpr std::string_view TrueWords[] = {"1", "true", "yes", "on"};
constexpr std::string_view FalseWords[] = {"0", "false", "no", "off"};

/// 1 or 0 for a recognised bool word, -1 otherwise.
int parseBool(std::string_view Word) {
  for (std::string_view W : TrueWords)
    if (W == Word)
      return 1;
  for (std::string_view W : FalseWords)
    if (W == Word)
      return 0;
  return -1;
}

template <std::size_t N> OptionTable table(std::string_view Module, const OptionSpec (&Specs)[N]) {
  return {Module, Specs, N};
}

std::string_view typeName(OptionType Type) {
  switch (Type) {
  case OptionType::Bool:
    return "bool";
  case OptionType::Choice:
    return "choice";
  case OptionType::Path:
    return "path";
  case OptionType::Size:
    return "size";
  }
  return "";
}

/// The multiplier of a size suffix; 0 for an unknown suffix.
std::uint64_t sizeUnit(std::string_view Suffix) {
  constexpr std::uint64_t Kibi = 1024;
  if (Suffix.empty() || Suffix == "b")
    return 1;
  if (Suffix == "k" || Suffix == "kb" || Suffix == "kib")
    return Kibi;
  if (Suffix == "m" || Suffix == "mb" || Suffix == "mib")
    return Kibi * Kibi;
  if (Suffix == "g" || Suffix == "gb" || Suffix == "gib")
    return Kibi * Kibi * Kibi;
  return 0;
}

/// A byte count such as "256K" or "8m"; false when it is not one or overflows.
bool parseSize(std::string_view Word, std::uint64_t &Bytes) {
  std::size_t Digits = 0;
  std::uint64_t Number = 0;
  constexpr std::uint64_t Base = 10;
  for (; Digits < Word.size() && std::isdigit(static_cast<unsigned char>(Word[Digits])); ++Digits) {
    const auto Digit = static_cast<std::uint64_t>(Word[Digits] - '0');
    if (Number > (UINT64_MAX - Digit) / Base)
      return false;
    Number = Number * Base + Digit;
  }
  const std::uint64_t Unit = sizeUnit(Word.substr(Digits));
  if (Digits == 0 || Unit == 0 || Number > UINT64_MAX / Unit)
    return false;
  Bytes = Number * Unit;
  return true;
}

/// "256K", "16G": a byte count with the largest unit that divides it.
std::string formatSize(std::uint64_t Bytes) {
  constexpr std::uint64_t Kibi = 1024;
  constexpr const char *Units[] = {"", "K", "M", "G"};
  std::size_t Unit = 0;
  while (Unit + 1 < std::size(Units) && Bytes != 0 && Bytes % Kibi == 0) {
    Bytes /= Kibi;
    ++Unit;
  }
  return std::to_string(Bytes) + Units[Unit];
}

/// Levenshtein distance: insertions, deletions and substitutions.
std::size_t editDistance(std::string_view A, std::string_view B) {
  std::vector<std::size_t> Row(B.size() + 1);
  for (std::size_t J = 0; J <= B.size(); ++J)
    Row[J] = J;
  for (std::size_t I = 1; I <= A.size(); ++I) {
    std::size_t Diagonal = Row[0];
    Row[0] = I;
    for (std::size_t J = 1; J <= B.size(); ++J) {
      const std::size_t Above = Row[J];
      Row[J] = std::min({Row[J] + 1, Row[J - 1] + 1, Diagonal + (A[I - 1] != B[J - 1] ? 1 : 0)});
      Diagonal = Above;
    }
  }
  return Row[B.size()];
}

/// The variables libpomp reads, and those of this toolkit's other tools that
/// may be set in a program's environment without being libpomp's.
constexpr std::string_view VariablePrefix = "POMP_";
constexpr std::string_view OtherToolsVariables[] = {
    "POMP_CLANG_RESOURCE_DIR", ///< ompinst (docs/INSTRUMENTER.md)
};
/// An unknown variable is a typo of a known one within this many edits, or
/// one per this many characters of its name.
constexpr std::size_t MinSuggestedDistance = 2;
constexpr std::size_t SuggestedDistanceRatio = 4;

} // namespace

std::vector<OptionTable> allOptions() {
  return {
      {"activation", groupLevelOptions(), POMP_GROUP_COUNT},
      table("output", OutputOptions),
      table("clock", ClockOptions),
      table("lifecycle", LifecycleOptions),
      table("ompt", OmptOptions),
      table("trace", TraceOptions),
      table("mpi", MpiOptions),
      table("metrics", MetricsOptions),
  };
}

OptionSource::OptionSource(std::vector<std::string> Given)
    : UseEnvironment(false), Entries(std::move(Given)) {}

const char *OptionSource::raw(std::string_view Name) const {
  if (UseEnvironment)
    return std::getenv(std::string(Name).c_str());
  for (const std::string &Entry : Entries)
    if (Entry.size() > Name.size() && Entry.compare(0, Name.size(), Name) == 0 &&
        Entry[Name.size()] == '=')
      return Entry.c_str() + Name.size() + 1;
  return nullptr;
}

std::string_view OptionSource::trimmed(std::string_view Name) const {
  const char *Value = raw(Name);
  std::string_view Result = Value ? std::string_view(Value) : std::string_view();
  while (!Result.empty() && std::isspace(static_cast<unsigned char>(Result.front())))
    Result.remove_prefix(1);
  while (!Result.empty() && std::isspace(static_cast<unsigned char>(Result.back())))
    Result.remove_suffix(1);
  return Result;
}

void OptionSource::reject(const OptionSpec &Spec, std::string_view Value) const {
  std::string Message(Spec.Name);
  Message += "=\"";
  Message += Value;
  Message += "\" is not valid (accepted: ";
  Message += Spec.Accepted;
  Message += "); using ";
  Message += Spec.Default.empty() ? std::string_view("the default") : Spec.Default;
  Messages.push_back(std::move(Message));
}

bool OptionSource::readBool(const OptionSpec &Spec) const {
  const int Default = parseBool(Spec.Default);
  const std::string_view Value = trimmed(Spec.Name);
  if (Value.empty())
    return Default == 1;
  const int Parsed = parseBool(lowerTrimmed(Value));
  if (Parsed < 0) {
    reject(Spec, Value);
    return Default == 1;
  }
  return Parsed == 1;
}

std::size_t OptionSource::readChoice(const OptionSpec &Spec) const {
  const std::vector<std::string_view> Words = choiceWords(Spec);
  std::size_t Default = 0;
  for (std::size_t I = 0; I < Words.size(); ++I)
    if (Words[I] == Spec.Default)
      Default = I;
  const std::string_view Value = trimmed(Spec.Name);
  if (Value.empty())
    return Default;
  const std::string Word = lowerTrimmed(Value);
  for (std::size_t I = 0; I < Words.size(); ++I)
    if (Words[I] == Word)
      return I;
  reject(Spec, Value);
  return Default;
}

std::string OptionSource::readPath(const OptionSpec &Spec) const {
  const std::string_view Value = trimmed(Spec.Name);
  return std::string(Value.empty() ? Spec.Default : Value);
}

std::uint64_t OptionSource::readSize(const OptionSpec &Spec) const {
  std::uint64_t Default = 0;
  parseSize(lowerTrimmed(Spec.Default), Default);
  const std::string_view Value = trimmed(Spec.Name);
  if (Value.empty())
    return Default;
  std::uint64_t Bytes = 0;
  if (!parseSize(lowerTrimmed(Value), Bytes)) {
    reject(Spec, Value);
    return Default;
  }
  if (Bytes >= Spec.MinSize && Bytes <= Spec.MaxSize)
    return Bytes;
  const bool Below = Bytes < Spec.MinSize;
  const std::uint64_t Used = Below ? Spec.MinSize : Spec.MaxSize;
  std::string Message(Spec.Name);
  Message += "=\"";
  Message += Value;
  Message += Below ? "\" is below the smallest size accepted; using "
                   : "\" is above the largest size accepted; using ";
  Message += formatSize(Used);
  Messages.push_back(std::move(Message));
  return Used;
}

void OptionSource::checkUnknown() const {
  std::vector<std::string_view> Known(std::begin(OtherToolsVariables),
                                      std::end(OtherToolsVariables));
  std::vector<std::string_view> Options;
  for (const OptionTable &Table : allOptions())
    for (std::size_t I = 0; I < Table.Size; ++I)
      Options.push_back(Table.Begin[I].Name);
  Known.insert(Known.end(), Options.begin(), Options.end());
  std::vector<std::string_view> Names;
  if (UseEnvironment) {
    for (char **Entry = environ; Entry && *Entry; ++Entry)
      Names.push_back(*Entry);
  } else {
    Names.assign(Entries.begin(), Entries.end());
  }
  for (std::string_view Entry : Names) {
    const std::string_view Name = Entry.substr(0, Entry.find('='));
    if (Name.substr(0, VariablePrefix.size()) != VariablePrefix ||
        std::find(Known.begin(), Known.end(), Name) != Known.end())
      continue;
    std::string Message(Name);
    Message += " is not a libpomp variable and is ignored";
    std::string_view Closest;
    std::size_t Best = SIZE_MAX;
    for (std::string_view Option : Options)
      if (const std::size_t D = editDistance(Name, Option); D < Best) {
        Best = D;
        Closest = Option;
      }
    if (Best <= std::max<std::size_t>(MinSuggestedDistance, Name.size() / SuggestedDistanceRatio)) {
      Message += "; did you mean ";
      Message += Closest;
      Message += "?";
    } else {
      Message += " (POMP_HELP=1 lists the variables)";
    }
    Messages.push_back(std::move(Message));
  }
}

std::vector<std::string_view> choiceWords(const OptionSpec &Spec) {
  constexpr std::string_view Separator = ", ";
  std::vector<std::string_view> Words;
  std::string_view Rest = Spec.Accepted;
  while (!Rest.empty()) {
    const std::size_t End = Rest.find(Separator);
    Words.push_back(Rest.substr(0, End));
    if (End == std::string_view::npos)
      break;
    Rest.remove_prefix(End + Separator.size());
  }
  return Words;
}

std::string optionHelpText() {
  std::string Text = "libpomp options (environment variables):\n";
  for (const OptionTable &Table : allOptions())
    for (std::size_t I = 0; I < Table.Size; ++I) {
      const OptionSpec &Spec = Table.Begin[I];
      Text += "  ";
      Text += Spec.Name;
      Text += " (";
      Text += typeName(Spec.Type);
      Text += ", default: ";
      Text += Spec.Default.empty() ? std::string_view("unset") : Spec.Default;
      Text += ")\n      ";
      Text += Spec.Description;
      Text += "\n      accepted: ";
      Text += Spec.Accepted;
      Text += "\n";
    }
  return Text;
}

std::string optionMarkdownTable() {
  std::string Text = "| variable | default | accepted | description |\n|---|---|---|---|\n";
  for (const OptionTable &Table : allOptions())
    for (std::size_t I = 0; I < Table.Size; ++I) {
      const OptionSpec &Spec = Table.Begin[I];
      Text += "| `";
      Text += Spec.Name;
      Text += "` | ";
      Text += Spec.Default.empty() ? std::string_view("unset") : Spec.Default;
      Text += " | ";
      Text += Spec.Accepted;
      Text += " | ";
      Text += Spec.Description;
      Text += " |\n";
    }
  return Text;
}

} // namespace pomp::rt
