//===- EditList.cpp - Source edits as data ---------------------------------===//
#include "EditList.h"

#include <algorithm>
#include <tuple>

namespace pomp::inst {

void EditList::insert(std::size_t Offset, InsertSide Side, unsigned Depth, std::string Text) {
  if (Text.empty())
    return;
  Insertions.push_back({Offset, Side, Depth, Insertions.size(), std::move(Text)});
}

void EditList::replace(std::size_t Begin, std::size_t End, std::string Text) {
  Replacements.push_back({Begin, End, std::move(Text)});
}

namespace {
void replaceAll(std::string &Text, std::string_view From, std::string_view To) {
  for (std::size_t At = Text.find(From); At != std::string::npos;
       At = Text.find(From, At + To.size()))
    Text.replace(At, From.size(), To);
}
} // namespace

void EditList::substitute(std::string_view From, std::string_view To) {
  for (Insertion &I : Insertions)
    replaceAll(I.Text, From, To);
  for (Replacement &R : Replacements)
    replaceAll(R.Text, From, To);
}

void EditList::forEachText(const std::function<void(std::string_view)> &Visit) const {
  for (const Insertion &I : Insertions)
    Visit(I.Text);
  for (const Replacement &R : Replacements)
    Visit(R.Text);
}

std::size_t EditList::firstOffset(std::size_t BufferSize) const {
  std::size_t First = BufferSize;
  for (const Insertion &I : Insertions)
    First = std::min(First, I.Offset);
  for (const Replacement &R : Replacements)
    First = std::min(First, R.Begin);
  return First;
}

namespace {
/// Sort key: offset, then closers before openers, then closers inner-first
/// and openers outer-first, then the order the handlers asked for.
auto insertionKey(std::size_t Offset, InsertSide Side, unsigned Depth, std::size_t Sequence) {
  const long long DepthKey =
      Side == InsertSide::Close ? -static_cast<long long>(Depth) : static_cast<long long>(Depth);
  return std::make_tuple(Offset, static_cast<int>(Side), DepthKey, Sequence);
}
} // namespace

bool EditList::apply(std::string_view Original, const LineDirectiveFn &LineDirective,
                     std::string &Out) const {
  std::vector<const Insertion *> SortedInsertions;
  SortedInsertions.reserve(Insertions.size());
  for (const Insertion &I : Insertions) {
    if (I.Offset > Original.size())
      return false;
    SortedInsertions.push_back(&I);
  }
  std::sort(SortedInsertions.begin(), SortedInsertions.end(),
            [](const Insertion *A, const Insertion *B) {
              return insertionKey(A->Offset, A->Side, A->Depth, A->Sequence) <
                     insertionKey(B->Offset, B->Side, B->Depth, B->Sequence);
            });
  std::vector<const Replacement *> SortedReplacements;
  for (const Replacement &R : Replacements) {
    if (R.Begin > R.End || R.End > Original.size())
      return false;
    SortedReplacements.push_back(&R);
  }
  std::sort(SortedReplacements.begin(), SortedReplacements.end(),
            [](const Replacement *A, const Replacement *B) { return A->Begin < B->Begin; });
  for (std::size_t I = 1; I < SortedReplacements.size(); ++I)
    if (SortedReplacements[I]->Begin < SortedReplacements[I - 1]->End)
      return false;
  for (const Insertion *I : SortedInsertions)
    for (const Replacement *R : SortedReplacements)
      if (I->Offset > R->Begin && I->Offset < R->End)
        return false;

  Out.clear();
  Out.reserve(Original.size() + Original.size() / 2);
  std::size_t Copied = 0;
  auto NextInsertion = SortedInsertions.begin();
  auto NextReplacement = SortedReplacements.begin();
  while (true) {
    const std::size_t InsertAt =
        NextInsertion != SortedInsertions.end() ? (*NextInsertion)->Offset : Original.size() + 1;
    const std::size_t ReplaceAt = NextReplacement != SortedReplacements.end()
                                      ? (*NextReplacement)->Begin
                                      : Original.size() + 1;
    const std::size_t At = std::min(InsertAt, ReplaceAt);
    if (At > Original.size())
      break;
    Out.append(Original.substr(Copied, At - Copied));
    Copied = At;
    if (InsertAt == At) {
      // Everything inserted at this offset forms one block of text.
      std::string Block;
      for (; NextInsertion != SortedInsertions.end() && (*NextInsertion)->Offset == At;
           ++NextInsertion)
        Block += (*NextInsertion)->Text;
      Out += Block;
      if (Block.find('\n') != std::string::npos) {
        const std::string Directive = LineDirective(At);
        if (!Directive.empty()) {
          if (Out.back() != '\n')
            Out += '\n';
          Out += Directive;
          Out += '\n';
        }
      }
      continue;
    }
    Out += (*NextReplacement)->Text;
    Copied = (*NextReplacement)->End;
    ++NextReplacement;
  }
  Out.append(Original.substr(Copied));
  return true;
}

} // namespace pomp::inst
