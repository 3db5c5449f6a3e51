//===- RegistryTest.cpp - Every executable directive has a handler ---------===//
///
/// \file
/// Walks every executable OpenMP directive kind LLVM knows and checks that
/// ompinst has a handler for it or leaves it alone on purpose (the list of
/// docs/INSTRUMENTER.md), so a kind a newer Clang adds cannot go unmeasured
/// without a word.
///
//===----------------------------------------------------------------------===//
#include "handlers/Handlers.h"

#include "llvm/Frontend/OpenMP/OMP.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using llvm::omp::Directive;

/// Fortran-only spellings (do, workshare, end ...): Clang never produces them.
bool isFortranOnly(Directive Kind) {
  const std::string Name = llvm::omp::getOpenMPDirectiveName(Kind).str();
  const std::string Padded = " " + Name + " ";
  return Padded.find(" do ") != std::string::npos ||
         Padded.find(" workshare ") != std::string::npos || Name.rfind("end ", 0) == 0;
}

/// Directives left alone on purpose, as docs/INSTRUMENTER.md lists them.
const std::set<Directive> &leftAlone() {
  static const std::set<Directive> Kinds = {Directive::OMPD_tile,     Directive::OMPD_unroll,
                                            Directive::OMPD_reverse,  Directive::OMPD_interchange,
                                            Directive::OMPD_depobj,   Directive::OMPD_interop,
                                            Directive::OMPD_dispatch, Directive::OMPD_allocators};
  return Kinds;
}

TEST(Registry, EveryExecutableDirectiveIsHandledOrLeftAloneOnPurpose) {
  for (std::size_t I = 0; I < llvm::omp::Directive_enumSize; ++I) {
    const auto Kind = static_cast<Directive>(I);
    if (llvm::omp::getDirectiveCategory(Kind) != llvm::omp::Category::Executable ||
        isFortranOnly(Kind))
      continue;
    const bool Handled = pomp::inst::handlerFor(Kind) != nullptr;
    EXPECT_TRUE(Handled || leftAlone().count(Kind))
        << "'" << llvm::omp::getOpenMPDirectiveName(Kind).str()
        << "' has no handler: add one to handlers/Registry.cpp or to the list of "
           "docs/INSTRUMENTER.md and this test";
  }
}

TEST(Registry, DirectivesLeftAloneGetAWarningUnlessNothingIsLost) {
  EXPECT_EQ(pomp::inst::notInstrumentedReason(Directive::OMPD_parallel), nullptr);
  EXPECT_EQ(pomp::inst::notInstrumentedReason(Directive::OMPD_section), nullptr);
  EXPECT_EQ(pomp::inst::notInstrumentedReason(Directive::OMPD_tile), nullptr);
  EXPECT_NE(pomp::inst::notInstrumentedReason(Directive::OMPD_depobj), nullptr);
  EXPECT_NE(pomp::inst::notInstrumentedReason(Directive::OMPD_dispatch), nullptr);
}

} // namespace
