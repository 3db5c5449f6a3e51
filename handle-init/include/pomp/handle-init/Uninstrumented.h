//===- pomp/handle-init/Uninstrumented.h - The mark of a fallback -*- C++ -*-===//
///
/// \file
/// The contract between ompcc, pomp-link and libpomp for a source file that
/// ompcc compiled without instrumentation (ompinst failed on it, or its
/// instrumented form did not compile), so that no later step can miss it:
///
/// - ompcc compiles such a file with `-include <uninstrumentedHeader()>`,
///   which adds a record "pomp-uninstrumented-1\0<file>\0<reason>\0" in the
///   section `.pomp_uninstrumented` and a static constructor that passes
///   file and reason to libpomp's POMP_Note_uninstrumented() through a weak
///   reference (a link without libpomp still works);
/// - pomp-link reads the records of a link's objects, archives and shared
///   libraries (parseUninstrumentedRecords) for its summary line;
/// - libpomp lists the files in the profile.
///
/// The header is valid C89..C23 and C++98..C++20 and changes neither what the
/// program computes nor the warnings it is compiled with.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_HANDLE_INIT_UNINSTRUMENTED_H
#define POMP_HANDLE_INIT_UNINSTRUMENTED_H

#include <string>
#include <string_view>
#include <vector>

namespace pomp::handleinit {

/// The ELF section holding the records of uninstrumented files.
inline constexpr std::string_view UninstrumentedSection = ".pomp_uninstrumented";
/// The first field of every record, with the format's version.
inline constexpr std::string_view UninstrumentedTag = "pomp-uninstrumented-1";
/// The prefix of the (file-static) symbol that holds a record; bitcode
/// objects are recognised by it.
inline constexpr std::string_view UninstrumentedSymbolPrefix = "POMP_Uninstrumented_";
/// The libpomp routine the constructor calls.
inline constexpr std::string_view NoteUninstrumentedFunction = "POMP_Note_uninstrumented";

/// One file compiled without instrumentation.
struct UninstrumentedRecord {
  /// The source file, absolute.
  std::string File;
  /// Why: the first error line of ompinst or of the instrumented compile.
  std::string Reason;
};

/// The text of the header a fallback compile gets with -include. File is the
/// absolute path of the source, Reason one line; NUL bytes are dropped from
/// both.
std::string uninstrumentedHeader(std::string_view File, std::string_view Reason);

/// The records in the contents of one or more `.pomp_uninstrumented`
/// sections as a linker concatenates them (padding NUL bytes between records
/// are skipped). Sets Malformed when the bytes hold something else; the
/// records before it are returned.
std::vector<UninstrumentedRecord> parseUninstrumentedRecords(std::string_view Contents,
                                                             bool &Malformed);

} // namespace pomp::handleinit

#endif // POMP_HANDLE_INIT_UNINSTRUMENTED_H
