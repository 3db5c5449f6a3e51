//===- adapters/ompt/OmptOptions.h - Options of the OMPT adapter -*- C++ -*-===//
///
/// \file
/// The environment variable that switches the OMPT adapter, declared here so
/// that the option list (core/Config.cpp) and the adapter share one spec.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_ADAPTERS_OMPT_OMPTOPTIONS_H
#define POMP_RUNTIME_ADAPTERS_OMPT_OMPTOPTIONS_H

#include "core/Config.h"

namespace pomp::rt {

/// POMP_OMPT: whether libpomp registers as the OpenMP runtime's OMPT tool.
inline constexpr OptionSpec OmptOption = {
    "POMP_OMPT", OptionType::Choice, "on", "on, off",
    "on: with an OMPT-capable OpenMP runtime (LLVM libomp) libpomp is also its OMPT tool and "
    "merges the runtime's events with the POMP events of instrumented code; off: POMP events "
    "only. OMP_TOOL=disabled also keeps the runtime from loading any tool."};
inline constexpr OptionSpec OmptOptions[] = {OmptOption};

} // namespace pomp::rt

#endif // POMP_RUNTIME_ADAPTERS_OMPT_OMPTOPTIONS_H
