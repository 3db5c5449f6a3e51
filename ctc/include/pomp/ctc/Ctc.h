//===- pomp/ctc/Ctc.h - Compile-time context strings ------------*- C++ -*-===//
///
/// \file
/// Writing and reading the compile-time context (CTC) strings of the POMP
/// paper, section 3.2, as ../shared/SPEC.md decides where the paper is open:
///
///   <length>*key=value*key=value**
///
/// <length> counts the characters from the first '*' to the last '*', both
/// included (the shortest string is "2**"). Readers also accept the count
/// without the two outer stars used by the paper's Appendix A example.
/// Inside a value '*' is written "\*" and '\' is written "\\".
///
/// The instrumenter writes these strings and the runtime reads them; both use
/// this one library. It depends on the C++ standard library only, so that
/// libpomp does not pull in LLVM.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_CTC_CTC_H
#define POMP_CTC_CTC_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace pomp::ctc {

/// Largest CTC string the reader accepts, in bytes. Real strings are a few
/// hundred bytes; the bound keeps a corrupt length field or a non-terminated
/// buffer from making the reader allocate or scan without limit.
inline constexpr std::size_t MaxCtcLength = 64 * 1024;

/// One `key=value` field, value unescaped.
struct Field {
  std::string Key;
  std::string Value;
  friend bool operator==(const Field &A, const Field &B) {
    return A.Key == B.Key && A.Value == B.Value;
  }
};

/// Why a string could not be read: the byte offset into the input where the
/// problem was found and a sentence saying what is wrong there.
struct ParseError {
  std::size_t Offset = 0;
  std::string Reason;
  /// "offset N: reason", for messages.
  std::string message() const;
};

/// A value or the error that prevented it.
template <typename T> class Expected {
public:
  Expected(T Value) : Storage(std::move(Value)) {}
  Expected(ParseError Error) : Storage(std::move(Error)) {}
  explicit operator bool() const { return Storage.index() == 0; }
  T &operator*() { return std::get<0>(Storage); }
  const T &operator*() const { return std::get<0>(Storage); }
  T *operator->() { return &std::get<0>(Storage); }
  const T *operator->() const { return &std::get<0>(Storage); }
  const ParseError &error() const { return std::get<1>(Storage); }

private:
  std::variant<T, ParseError> Storage;
};

/// Splits a CTC string into its fields, in order, checking the whole structure:
/// length prefix, field syntax, escapes, terminator, nothing after it.
Expected<std::vector<Field>> parseFields(std::string_view Ctc);

/// Writes fields as a CTC string with the inclusive length prefix, escaping
/// values. Keys must be non-empty and made of [A-Za-z0-9_] (asserted).
std::string writeFields(const std::vector<Field> &Fields);

/// Escapes '*' and '\' of a value (no length, no stars around it).
std::string escapeValue(std::string_view Value);

/// The construct or region a descriptor describes. The spelling of each kind in
/// the `type` field is the directive's name with spaces removed (SPEC.md).
enum class RegionKind : std::uint8_t {
#define POMP_CTC_REGION_KIND(Enumerator, Spelling) Enumerator,
#include "pomp/ctc/RegionKinds.def"
  Unknown ///< a `type` this reader does not know (kept in RegionDescriptor::Type)
};

/// The `type` spelling of a kind ("parallelfor" for ParallelFor); "" for Unknown.
std::string_view regionKindSpelling(RegionKind Kind);
/// The kind of a `type` spelling; also accepts the paper's "preregion".
RegionKind regionKindFromSpelling(std::string_view Spelling);

/// First and last source line of a directive or of the end of a construct.
struct LineRange {
  unsigned First = 0;
  unsigned Last = 0;
  friend bool operator==(const LineRange &A, const LineRange &B) {
    return A.First == B.First && A.Last == B.Last;
  }
};

/// Everything the CTC string of one construct says (paper section 3.2 table).
/// Round-trips: parseDescriptor(writeDescriptor(D)) == D.
struct RegionDescriptor {
  /// The `type` spelling as written; Kind is derived from it.
  std::string Type;
  RegionKind Kind = RegionKind::Unknown;
  std::string File;
  std::optional<LineRange> StartLines; ///< `slines`
  std::optional<LineRange> EndLines;   ///< `elines`
  std::string Name;                    ///< critical name, user region, function
  std::string Group;                   ///< class, namespace or module of a function
  std::string Schedule;                ///< `schedule=<kind>` of a loop, "" if none
  /// `function`: the qualified name of the function the construct is in
  /// ("Grid::solve"), known at instrumentation time, so that a profile names
  /// each construct's function without measuring functions; "" when unknown
  /// (and for a function region, whose own name is `name`).
  std::string Function;

  /// Clause facts, written as `hasX=1` and omitted when false.
  bool HasFirstprivate = false;
  bool HasLastprivate = false;
  bool HasReduction = false;
  bool HasNowait = false;
  bool HasCopyin = false;
  bool HasCopyprivate = false;
  bool HasOrdered = false;
  bool HasIf = false;
  bool HasNumThreads = false;
  bool HasUntied = false;
  bool HasCollapse = false;
  bool HasDepend = false;
  /// `directiveFree=1`: the construct's structured block holds no OpenMP
  /// directive (written for untied tasks). Such a task has no task scheduling
  /// point of its own, so a compiler that splits untied tasks into parts at
  /// those points (Clang) runs its block in one part, and the measurement
  /// need not move its regions between threads (docs/OMPT.md).
  bool DirectiveFree = false;
  /// `afterConstruct=1`: the construct comes right after another instrumented
  /// construct, first in a block that a begin event opens, or first in a
  /// loop that repeats it after the body's last construct, with only brief
  /// code (no call) between that event (an exit or a begin) and this
  /// construct's first (an enter), so the enter may take the other event's time
  /// instead of reading the clock again (docs/RUNTIME.md, "Call paths and
  /// nesting").
  bool AfterConstruct = false;

  /// Fields with keys this library does not know, kept in their order so that
  /// newer writers work with older readers.
  std::vector<Field> ExtraFields;

  friend bool operator==(const RegionDescriptor &A, const RegionDescriptor &B);
  friend bool operator!=(const RegionDescriptor &A, const RegionDescriptor &B) { return !(A == B); }
};

/// Writes a descriptor as a CTC string: known keys in a fixed order, then the
/// extra fields in their order.
std::string writeDescriptor(const RegionDescriptor &Descriptor);

/// Reads a CTC string into a descriptor. Structure errors as parseFields;
/// besides, a known key with a bad value (a line range that is not two
/// numbers "first,last" with first <= last, a flag that is not 0 or 1) or a
/// key given twice is an error at that field's offset.
Expected<RegionDescriptor> parseDescriptor(std::string_view Ctc);

} // namespace pomp::ctc

#endif // POMP_CTC_CTC_H
