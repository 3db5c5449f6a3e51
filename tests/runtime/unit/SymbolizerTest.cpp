//===- SymbolizerTest.cpp - Return addresses to function, file and line ---===//
//
// Built with -g whatever the build type (tests/runtime/unit/CMakeLists.txt);
// SymbolizerNoDebug.cpp, built with -g0, holds a caller without debug
// information.
//
//===----------------------------------------------------------------------===//

#include "core/Symbolizer.h"

#ifdef POMP_TEST_SYMBOLIZER_LIBRARIES
#include "SymbolizerLibrary.h"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <arpa/inet.h>
#include <dlfcn.h>
#include <link.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace pomp::rt::test {

/// The return address of the call of this function: what OMPT reports as
/// codeptr_ra. Defined here, called from SymbolizerNoDebug.cpp too.
__attribute__((noinline)) std::uintptr_t recordReturnAddress() {
  return reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
}

/// Defined in SymbolizerNoDebug.cpp, built without debug information.
std::uintptr_t callerWithoutDebugInfo();

namespace {

/// Keeps Value alive in a register after the call, so that the call is not a
/// tail call (whose return address would be in the caller's caller).
inline void keep(std::uintptr_t Value) { asm volatile("" : : "r"(Value) : "memory"); }

/// A return address and the source line of its call.
struct CallSite {
  std::uintptr_t Address = 0;
  unsigned Line = 0;
};

__attribute__((noinline)) CallSite knownCaller() {
  CallSite Site;
  Site.Line = __LINE__ + 1;
  Site.Address = recordReturnAddress();
  keep(Site.Address);
  return Site;
}

/// Inlined into its caller: the name must still be its own, as the line is.
__attribute__((always_inline)) inline CallSite inlinedCaller() {
  CallSite Site;
  Site.Line = __LINE__ + 1;
  Site.Address = recordReturnAddress();
  keep(Site.Address);
  return Site;
}

__attribute__((noinline)) CallSite callsInlinedCaller() {
  CallSite Site = inlinedCaller();
  keep(Site.Address);
  return Site;
}

/// glibc's C library on Linux.
constexpr const char *LibcSoname = "libc.so.6";

std::string baseName(const std::string &Path) {
  const std::size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

std::string thisExecutable() {
  char Path[PATH_MAX];
  const ssize_t Size = ::readlink("/proc/self/exe", Path, sizeof Path - 1);
  return Size > 0 ? std::string(Path, static_cast<std::size_t>(Size)) : std::string();
}

bool contains(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

TEST(SymbolizerTest, LoadsLibdw) {
  // libdw1 is installed wherever the toolkit builds (dev.sh installs libdw-dev); without it every
  // test below still passes, but files and lines would be missing.
  EXPECT_TRUE(Symbolizer().usesDebugInfo());
}

TEST(SymbolizerTest, ResolvesFileLineAndCallerWithDebugInfo) {
  const CallSite Site = knownCaller();
  const std::vector<CodeLocation> Locations = symbolize({Site.Address});
  ASSERT_EQ(Locations.size(), 1u);
  const CodeLocation &Location = Locations[0];
  EXPECT_EQ(baseName(Location.File), baseName(__FILE__));
  EXPECT_EQ(Location.Line, Site.Line);
  EXPECT_TRUE(contains(Location.Function, "knownCaller")) << Location.Function;
  EXPECT_EQ(Location.Module, thisExecutable());
}

TEST(SymbolizerTest, NamesTheInlinedFunctionOfTheLine) {
  const CallSite Site = callsInlinedCaller();
  const CodeLocation Location = symbolize({Site.Address}).at(0);
  EXPECT_EQ(baseName(Location.File), baseName(__FILE__));
  EXPECT_EQ(Location.Line, Site.Line);
  EXPECT_TRUE(contains(Location.Function, "inlinedCaller"))
      << Location.Function << " at 0x" << std::hex << Site.Address - 1;
}

TEST(SymbolizerTest, CodeWithoutDebugInfoGetsItsFunctionFromTheSymbolTable) {
  const CodeLocation Location = symbolize({callerWithoutDebugInfo()}).at(0);
  EXPECT_TRUE(contains(Location.Function, "callerWithoutDebugInfo")) << Location.Function;
  EXPECT_EQ(Location.File, "");
  EXPECT_EQ(Location.Line, 0u);
  EXPECT_EQ(Location.Module, thisExecutable());
}

std::uintptr_t LibcReturnAddress = 0;

int compareAndRecordCaller(const void *A, const void *B) {
  LibcReturnAddress = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  return *static_cast<const int *>(A) - *static_cast<const int *>(B);
}

TEST(SymbolizerTest, AddressInAStrippedLibraryGivesItsModule) {
  // qsort calls the comparator from inside the C library, which Debian ships
  // stripped to its dynamic symbols: a function name or none, never a crash.
  int Values[] = {3, 1, 2};
  std::qsort(Values, std::size(Values), sizeof Values[0], compareAndRecordCaller);
  ASSERT_NE(LibcReturnAddress, 0u);
  const CodeLocation Location = symbolize({LibcReturnAddress}).at(0);
  EXPECT_TRUE(contains(Location.Module, "libc.so")) << Location.Module;
  std::printf("libc return address: function '%s', file '%s'\n", Location.Function.c_str(),
              Location.File.c_str());
}

#ifdef POMP_TEST_SYMBOLIZER_LIBRARIES
TEST(SymbolizerTest, FindsSeparateDebugInfoThroughTheDebugLink) {
  const LibraryCallSite Site = splitDebugCaller(recordReturnAddress);
  const CodeLocation Location = symbolize({Site.Address}).at(0);
  EXPECT_EQ(Location.Function, "splitDebugCaller");
  EXPECT_EQ(baseName(Location.File), "SymbolizerLibrary.cpp");
  EXPECT_EQ(Location.Line, Site.Line);
  EXPECT_TRUE(contains(Location.Module, "symbolizer_split_debug")) << Location.Module;
}

TEST(SymbolizerTest, IgnoresALinkedDebugFileWhoseCrcDiffers) {
  // The file the link names is another library's debug information: read, it
  // would give that library's lines for this one's code.
  const LibraryCallSite Site = staleDebugCaller(recordReturnAddress);
  const CodeLocation Location = symbolize({Site.Address}).at(0);
  EXPECT_EQ(Location.Function, "staleDebugCaller");
  EXPECT_EQ(Location.File, "");
  EXPECT_EQ(Location.Line, 0u);
}

/// Whether a module whose path contains Part is loaded in this process.
bool moduleLoaded(const char *Part) {
  return dl_iterate_phdr(
             [](dl_phdr_info *Info, std::size_t, void *Data) {
               return Info->dlpi_name &&
                              std::string(Info->dlpi_name).find(static_cast<const char *>(Data)) !=
                                  std::string::npos
                          ? 1
                          : 0;
             },
             const_cast<char *>(Part)) != 0;
}

TEST(SymbolizerTest, NeverAsksADebuginfodServer) {
  // A server that accepts connections and never answers: libdw's standard
  // search, which ends with debuginfod, would connect when nothing on disk
  // holds a module's debug information (and wait DEBUGINFOD_TIMEOUT).
  const int Server = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  ASSERT_GE(Server, 0);
  sockaddr_in Address{};
  Address.sin_family = AF_INET;
  Address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t Length = sizeof Address;
  ASSERT_EQ(::bind(Server, reinterpret_cast<sockaddr *>(&Address), sizeof Address), 0);
  ASSERT_EQ(::listen(Server, 8), 0);
  ASSERT_EQ(::getsockname(Server, reinterpret_cast<sockaddr *>(&Address), &Length), 0);
  const std::string Url = "http://127.0.0.1:" + std::to_string(ntohs(Address.sin_port));
  ::setenv("DEBUGINFOD_URLS", Url.c_str(), 1);
  ::setenv("DEBUGINFOD_TIMEOUT", "2", 1);
  const LibraryCallSite Site = noDebugCaller(recordReturnAddress);
  const CodeLocation Location = symbolize({Site.Address}).at(0);
  ::unsetenv("DEBUGINFOD_URLS");
  ::unsetenv("DEBUGINFOD_TIMEOUT");
  EXPECT_EQ(Location.Function, "noDebugCaller");
  EXPECT_EQ(Location.File, "");
  const int Connection = ::accept(Server, nullptr, nullptr);
  EXPECT_LT(Connection, 0) << "the symbolizer connected to " << Url;
  if (Connection >= 0)
    ::close(Connection);
  ::close(Server);
  EXPECT_FALSE(moduleLoaded("libdebuginfod"));
}
#endif

TEST(SymbolizerTest, AddressesOutsideCodeGiveEmptyResults) {
  const auto Heap = std::make_unique<int>(0);
  const int Stack = 0;
  const std::vector<std::uintptr_t> Addresses = {
      0,
      1,
      0xdeadbeef,
      std::numeric_limits<std::uintptr_t>::max(),
      reinterpret_cast<std::uintptr_t>(Heap.get()),
      reinterpret_cast<std::uintptr_t>(&Stack),
  };
  for (const Symbolizer::Mode M : {Symbolizer::Mode::PreferLibdw, Symbolizer::Mode::DladdrOnly}) {
    Symbolizer Resolver(M);
    for (const std::uintptr_t Address : Addresses) {
      const CodeLocation &Location = Resolver.resolveReturnAddress(Address);
      EXPECT_TRUE(Location.empty())
          << std::hex << Address << ": " << Location.Function << " " << Location.Module;
      EXPECT_EQ(Location.Line, 0u);
    }
  }
}

TEST(SymbolizerTest, WithoutLibdwDladdrGivesTheModule) {
  Symbolizer Resolver(Symbolizer::Mode::DladdrOnly);
  EXPECT_FALSE(Resolver.usesDebugInfo());
  const CodeLocation Own = Resolver.resolveReturnAddress(knownCaller().Address);
  EXPECT_FALSE(Own.Module.empty());
  EXPECT_EQ(Own.File, "");
  EXPECT_EQ(Own.Line, 0u);
  // qsort itself is exported: dladdr names it. It is looked up in the C library itself, since a
  // sanitizer's interceptor would answer for the program.
  void *Libc = dlopen(LibcSoname, RTLD_LAZY | RTLD_NOLOAD);
  ASSERT_NE(Libc, nullptr);
  void *QsortAddress = dlsym(Libc, "qsort");
  dlclose(Libc);
  ASSERT_NE(QsortAddress, nullptr);
  const CodeLocation Qsort =
      Resolver.resolveReturnAddress(reinterpret_cast<std::uintptr_t>(QsortAddress) + 1);
  EXPECT_TRUE(contains(Qsort.Module, "libc.so")) << Qsort.Module;
  EXPECT_EQ(Qsort.Function, "qsort");
}

TEST(SymbolizerTest, KeepsOrderAndRepeats) {
  const CallSite Site = knownCaller();
  EXPECT_TRUE(symbolize({}).empty());
  const std::vector<CodeLocation> Locations = symbolize({Site.Address, 0, Site.Address});
  ASSERT_EQ(Locations.size(), 3u);
  EXPECT_EQ(Locations[0].Line, Site.Line);
  EXPECT_TRUE(Locations[1].empty());
  EXPECT_EQ(Locations[2].Line, Site.Line);
}

/// As many distinct call sites as a program has OpenMP constructs, give or
/// take: each instantiation is a function of its own.
constexpr unsigned TimedAddresses = 100;

template <unsigned N> __attribute__((noinline)) std::uintptr_t distinctCallSite() {
  const std::uintptr_t Address = recordReturnAddress();
  keep(Address + N);
  return Address;
}

template <unsigned... N>
std::vector<std::uintptr_t> distinctCallSites(std::integer_sequence<unsigned, N...>) {
  return {distinctCallSite<N>()...};
}

/// Milliseconds symbolize() takes for Addresses, the median of a few rounds
/// (libdw opened and the process's modules reported every time, as at
/// finalisation); checks that every address was resolved.
double medianMilliseconds(const std::vector<std::uintptr_t> &Addresses) {
  constexpr int Rounds = 5;
  std::vector<double> Milliseconds;
  for (int Round = 0; Round < Rounds; ++Round) {
    const auto Start = std::chrono::steady_clock::now();
    const std::vector<CodeLocation> Locations = symbolize(Addresses);
    const std::chrono::duration<double, std::milli> Elapsed =
        std::chrono::steady_clock::now() - Start;
    Milliseconds.push_back(Elapsed.count());
    for (const CodeLocation &Location : Locations) {
      EXPECT_EQ(baseName(Location.File), baseName(__FILE__));
      EXPECT_TRUE(contains(Location.Function, "distinctCallSite")) << Location.Function;
    }
  }
  std::sort(Milliseconds.begin(), Milliseconds.end());
  return Milliseconds[Rounds / 2];
}

TEST(SymbolizerTest, TimeToSymbolizeAHundredAddresses) {
  const std::vector<std::uintptr_t> Addresses =
      distinctCallSites(std::make_integer_sequence<unsigned, TimedAddresses>());
  const double One = medianMilliseconds({Addresses.front()});
  const double All = medianMilliseconds(Addresses);
  std::printf("symbolize(), median of 5, libdw session included: 1 address %.2f ms, %u addresses "
              "%.2f ms\n",
              One, TimedAddresses, All);
}

} // namespace
} // namespace pomp::rt::test
