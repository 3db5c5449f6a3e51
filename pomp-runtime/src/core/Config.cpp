//===- core/Config.cpp - Run-time options from the environment ------------===//

#include "core/Config.h"

#include "adapters/ompt/OmptOptions.h"
#include "core/Activation.h"
#include "core/Clock.h"
#include "core/Lifecycle.h"
#include "core/Output.h"
#include "trace/Trace.h"

#include <cctype>
#include <cstdlib>
#include <iterator>

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

} // namespace

std::vector<OptionTable> allOptions() {
  return {
      {"activation", groupLevelOptions(), POMP_GROUP_COUNT},
      table("output", OutputOptions),
      table("clock", ClockOptions),
      table("lifecycle", LifecycleOptions),
      table("ompt", OmptOptions),
      table("trace", TraceOptions),
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
  const char *Value = raw(Spec.Name);
  if (!Value || !*Value)
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
  const char *Value = raw(Spec.Name);
  if (!Value || !*Value)
    return Default;
  const std::string Word = lowerTrimmed(Value);
  for (std::size_t I = 0; I < Words.size(); ++I)
    if (Words[I] == Word)
      return I;
  reject(Spec, Value);
  return Default;
}

std::string OptionSource::readPath(const OptionSpec &Spec) const {
  const char *Value = raw(Spec.Name);
  return Value && *Value ? std::string(Value) : std::string(Spec.Default);
}

std::uint64_t OptionSource::readSize(const OptionSpec &Spec) const {
  std::uint64_t Default = 0;
  parseSize(lowerTrimmed(Spec.Default), Default);
  const char *Value = raw(Spec.Name);
  if (!Value || !*Value)
    return Default;
  std::uint64_t Bytes = 0;
  if (!parseSize(lowerTrimmed(Value), Bytes)) {
    reject(Spec, Value);
    return Default;
  }
  return Bytes;
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
