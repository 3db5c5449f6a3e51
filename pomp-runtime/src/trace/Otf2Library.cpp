//===- trace/Otf2Library.cpp - libotf2, loaded when a trace is asked for --===//

#include "trace/Otf2Library.h"

#include <dlfcn.h>
#include <mutex>

namespace pomp::rt {
namespace {

/// The sonames tried in order: Debian's OTF2 3.x, then any development link.
constexpr const char *LibraryNames[] = {"libopen-trace-format2.so.10", "libotf2.so.10",
                                        "libopen-trace-format2.so", "libotf2.so"};

/// Resolves every function; false and the missing name on failure.
bool resolve(void *Handle, Otf2Library &Lib, std::string &Error) {
#define POMP_OTF2_RESOLVE(Fn)                                                                      \
  Lib.Fn = reinterpret_cast<decltype(&::Fn)>(::dlsym(Handle, #Fn));                                \
  if (!Lib.Fn) {                                                                                   \
    Error = "the OTF2 library has no " #Fn;                                                        \
    return false;                                                                                  \
  }
  POMP_OTF2_FUNCTIONS(POMP_OTF2_RESOLVE)
#undef POMP_OTF2_RESOLVE
  return true;
}

} // namespace

const Otf2Library *Otf2Library::load(std::string &Error) {
  static std::once_flag Once;
  static Otf2Library Lib;
  static const Otf2Library *Loaded = nullptr;
  static std::string LoadError;
  std::call_once(Once, [] {
    void *Handle = nullptr;
    for (const char *Name : LibraryNames)
      if ((Handle = ::dlopen(Name, RTLD_NOW | RTLD_LOCAL)) != nullptr)
        break;
    if (!Handle) {
      LoadError = std::string("cannot load the OTF2 library (libopen-trace-format2.so.10 of the "
                              "Debian package libopen-trace-format2-10): ") +
                  ::dlerror();
      return;
    }
    // The library stays loaded: its archive lives until the process ends.
    if (resolve(Handle, Lib, LoadError))
      Loaded = &Lib;
  });
  Error = LoadError;
  return Loaded;
}

} // namespace pomp::rt
