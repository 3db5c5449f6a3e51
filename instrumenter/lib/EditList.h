//===- EditList.h - Source edits as data ------------------------*- C++ -*-===//
///
/// \file
/// Construct handlers describe their edits as data (insert text at an offset,
/// replace a range); EditList::apply is the one place that turns them into the
/// output text. It orders insertions that share an offset by nesting depth and
/// restores line numbers with `#line` wherever inserted text added lines.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_EDITLIST_H
#define POMP_INSTRUMENTER_EDITLIST_H

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::inst {

/// Where inserted text goes relative to other insertions at the same offset.
/// Code that closes a construct (exit, end) comes before code that opens one
/// (enter, begin); among closers inner constructs go first, among openers
/// outer constructs go first, so nested instrumentation nests properly.
/// First (the file's prologue) precedes everything at its offset, Last (the
/// second half of a split pragma) follows everything.
enum class InsertSide { First, Close, Open, Last };

/// The edits of one file, by byte offset into the original buffer.
class EditList {
public:
  /// Inserts Text at Offset. Depth is the nesting depth of the construct
  /// (outermost 0).
  void insert(std::size_t Offset, InsertSide Side, unsigned Depth, std::string Text);

  /// Replaces the bytes [Begin, End) of the original. Replacements must not
  /// overlap each other; insertions inside a replaced range are an error.
  void replace(std::size_t Begin, std::size_t End, std::string Text);

  bool empty() const { return Insertions.empty() && Replacements.empty(); }

  /// Replaces every From in the text of the edits (never in the original
  /// text) by To: names that are only known once every edit of the file
  /// was made (a header's tag).
  void substitute(std::string_view From, std::string_view To);

  /// Calls Visit with the text of every edit (never the original text).
  void forEachText(const std::function<void(std::string_view)> &Visit) const;

  /// The smallest offset any edit touches; the buffer size when there is none.
  std::size_t firstOffset(std::size_t BufferSize) const;

  /// Returns the presumed "#line" directive that makes the text following
  /// Offset keep its original line, or "" when line directives are off.
  using LineDirectiveFn = std::function<std::string(std::size_t Offset)>;

  /// Applies every edit to Original. Whenever the text inserted at an offset
  /// contains a newline, a line directive from LineDirective follows it on a
  /// line of its own, so everything after keeps its original line number.
  /// Returns false (and leaves Out unspecified) if edits overlap.
  bool apply(std::string_view Original, const LineDirectiveFn &LineDirective,
             std::string &Out) const;

private:
  struct Insertion {
    std::size_t Offset;
    InsertSide Side;
    unsigned Depth;
    std::size_t Sequence; ///< insertion order, the last tie-breaker
    std::string Text;
  };
  struct Replacement {
    std::size_t Begin;
    std::size_t End;
    std::string Text;
  };
  std::vector<Insertion> Insertions;
  std::vector<Replacement> Replacements;
};

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_EDITLIST_H
