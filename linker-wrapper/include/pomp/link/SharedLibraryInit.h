//===- pomp/link/SharedLibraryInit.h - Handles of a shared library -*- C++ -*-===//
///
/// \file
/// A shared library is built and loaded on its own, so the program's
/// POMP_Init_Handles() cannot know its units (docs/HANDLE_INIT.md). Instead
/// its own pre-link (`pomp-link --shared-library`, run by ompcc for every
/// `-shared` link) generates a constructor that binds the handles of its
/// units when the library is loaded, by the program or by dlopen.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_LINK_SHAREDLIBRARYINIT_H
#define POMP_LINK_SHAREDLIBRARYINIT_H

#include <string>
#include <vector>

namespace pomp::link {

/// The name of the generated constructor. It is static, so every shared
/// library has its own and none of them is exported.
inline constexpr const char *SharedLibraryConstructor = "pomp_init_shared_library";

/// The C source (also valid C++, C89 with GNU attributes) of a static
/// constructor calling InitFunctions, each through a weak reference as in
/// POMP_Init_Handles(): an archive member linked into the library only when
/// needed keeps its init function out, and its call is skipped. Binding
/// before POMP_Init() is legal: POMP_Get_handle binds in every phase before
/// finalisation (pomp-runtime/src/core/Lifecycle.h).
std::string sharedLibraryInit(const std::vector<std::string> &InitFunctions);

} // namespace pomp::link

#endif // POMP_LINK_SHAREDLIBRARYINIT_H
