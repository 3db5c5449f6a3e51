//===- core/Output.h - The experiment directory -----------------*- C++ -*-===//
///
/// \file
/// Writes a run's measurement: one new directory per run holding profile.json
/// (docs/PROFILE_FORMAT.md) and profile.txt, and a short summary on stderr.
///
/// The directory is POMP_EXPERIMENT_DIR or ./pomp-<program>-<timestamp>; an
/// existing directory is never reused: the name gets a suffix -1, -2, ...
/// claimed with mkdir(), which fails when another process took the name first
/// (or planted a link there) and creates it without write permission for
/// anyone but its owner.
/// Files are written to a temporary name and renamed, so a reader never sees a
/// half-written profile. Nothing here can change the program's output or exit
/// status: every failure is one message on stderr.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_OUTPUT_H
#define POMP_RUNTIME_CORE_OUTPUT_H

#include "core/Activation.h"
#include "core/Clock.h"
#include "core/Config.h"
#include "core/Profile.h"
#include "core/Regions.h"
#include "core/Uninstrumented.h"

#include <array>
#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::rt {

inline constexpr OptionSpec ExperimentDirOption = {
    "POMP_EXPERIMENT_DIR", OptionType::Path, "", "a directory path",
    "Where to write the measurement. Unset: ./pomp-PROGRAM-YYYYMMDD-HHMMSS. An existing "
    "directory is never reused: a suffix -1, -2, ... is added."};
inline constexpr OptionSpec QuietOption = {
    "POMP_QUIET", OptionType::Bool, "0", "0, 1",
    "1: no summary on stderr at the end of the run (errors are still reported)."};
inline constexpr OptionSpec OutputOptions[] = {ExperimentDirOption, QuietOption};

/// Read by libpomp-mpi (docs/MPI.md); declared here so that its value is
/// checked and listed with the others. Index 0 of its words is `none`.
inline constexpr OptionSpec MpiOption = {
    "POMP_MPI", OptionType::Choice, "calls", "none, calls",
    "MPI group, with libpomp-mpi (MPI programs built with ompcc and mpicc): calls records every "
    "MPI call as a region of paradigm MPI with bytes sent and received; none records none (the "
    "job still gets one experiment directory with a part per rank)."};
inline constexpr OptionSpec MpiOptions[] = {MpiOption};

/// What became of one trace of the run (POMP_TRACE=1): the profile's
/// "traces" entries and the messages on stderr (docs/TRACE_FORMAT.md, "When
/// the disk is full").
struct TraceReport {
  std::string Format; ///< "otf2" or "chrome"
  std::string File;   ///< relative to the experiment directory
  bool Complete = false;
  /// An incomplete trace's files were removed, so that nothing that looks
  /// like a valid trace stays.
  bool Removed = false;
  std::uint64_t Events = 0;  ///< events the run handed to the trace
  std::uint64_t Written = 0; ///< of those, the events in the trace's files
  std::uint64_t Threads = 0;
  std::uint64_t Flushes = 0;
  /// Why writing failed (errno); 0 when the trace is complete or was not
  /// finished for another reason.
  int Errno = 0;
  /// What failed: the file a write failed on (relative to the experiment
  /// directory) or, with Errno 0, why the trace was not finished; "" when
  /// complete.
  std::string Failure;
};

/// Facts about the run that the profile's header shows.
/// Facts about the run that a reader of the profile needs to trust or repeat
/// it (PROFILE_FORMAT.md, "run").
struct RunMetadata {
  std::vector<std::string> CommandLine;
  /// The OMP_*, KMP_*, GOMP_* and POMP_* variables set, by name.
  std::vector<std::pair<std::string, std::string>> Settings;
  std::string Host;
  /// "libomp", "libgomp", "libiomp5" or "" when no OpenMP runtime was loaded;
  /// the path of the shared object.
  std::string OpenMPRuntime;
  std::string OpenMPRuntimePath;
  bool OmptActive = false;
  /// With OMPT active: the runtime's version string; else why it was not.
  std::string OmptReason;
  /// The compilers that built the program, from its ELF `.comment` section
  /// ("" when it has none).
  std::string Compiler;
  std::string ToolkitVersion;
};

/// The command line, the settings, the host and the toolkit version, at
/// initialisation (the program may change its environment later).
RunMetadata startRunMetadata();
/// The OpenMP runtime and the state of OMPT, at finalisation.
void finishRunMetadata(RunMetadata &Meta);
/// The OMPT adapter's word on OMPT: active (Reason: the runtime's version) or
/// why not. Called at start-up, before any thread is measured.
void noteOmptState(bool Active, std::string Reason);

struct RunInfo {
  std::string Program;
  std::int64_t Pid = 0;
  std::time_t StartTime = 0;
  std::uint64_t DurationNs = 0;
  ClockReport Clock;
  std::array<POMP_Level, POMP_GROUP_COUNT> Levels{};
  bool MonitoringOn = true;
  /// The source files compiled without instrumentation, sorted.
  std::vector<UninstrumentedFile> Uninstrumented;
  /// Why the run was cut short ("stopped by SIGTERM (15)"), "" when it ended
  /// normally (core/Signals.h).
  std::string Partial;
  /// The run's traces, finished before the profile is written; empty
  /// without POMP_TRACE=1.
  std::vector<TraceReport> Traces;
  RunMetadata Meta;
  /// The rank in MPI_COMM_WORLD and its size when libpomp-mpi told the
  /// library (POMP_Note_mpi_part, docs/MPI.md); -1 and 0 otherwise.
  std::int32_t MpiRank = -1;
  std::int32_t MpiSize = 0;
};

/// What the output module reads at initialisation.
struct OutputSettings {
  std::string ExperimentDir; ///< "" for the default name
  bool Quiet = false;
  /// The directory claimed at initialisation (with a trace), "" when it is
  /// to be claimed at finalisation.
  std::string Claimed;
  /// Claiming failed at initialisation and was reported: write nothing.
  bool Unwritable = false;
};
OutputSettings readOutputSettings(const OptionSource &Options);

/// The directory a run asks for: POMP_EXPERIMENT_DIR or
/// ./pomp-<program>-<timestamp> (claimDirectory() may add a suffix).
std::string experimentDirectoryName(const RunInfo &Run, const OutputSettings &Settings);

/// Prints "pomp: <message>" on stderr with one write(), so it never
/// interleaves with the program's buffered output.
void printMessage(std::string_view Message);

/// The profile as JSON (docs/PROFILE_FORMAT.md).
std::string profileJson(const Profile &P, const RegionTable &Regions, const RunInfo &Run);
/// The profile as a table for people.
std::string profileText(const Profile &P, const RegionTable &Regions, const RunInfo &Run);

/// Creates the experiment directory (unless it was claimed at initialisation)
/// and writes both files; prints the summary of the profile and of the
/// complete traces unless quiet, and one message for all that failed to be
/// written (the profile, Run.Traces). Returns the directory, or "" when the
/// profile could not be written.
std::string writeExperiment(const Profile &P, const RegionTable &Regions, const RunInfo &Run,
                            const OutputSettings &Settings);

/// Claims a new directory: Wanted itself when it does not exist, else
/// Wanted-1, Wanted-2, ... Creates missing parents. "" and the reason on
/// failure.
std::string claimDirectory(const std::string &Wanted, std::string &Error);

/// Creates a new file Directory/<Prefix><random> for writing, exclusively
/// and never through a link (O_CREAT | O_EXCL | O_NOFOLLOW), mode 0666 less
/// the umask; sets Path. The descriptor, or -1 with errno.
int createFileExclusively(const std::string &Directory, const std::string &Prefix,
                          std::string &Path);

/// Writes Contents to Directory/Name through a temporary file with a unique
/// name (createFileExclusively()) and rename(), which replaces a link at Name
/// rather than writing through it. On failure nothing is left behind and
/// Errno says why.
bool writeFileAtomically(const std::string &Directory, const std::string &Name,
                         std::string_view Contents, std::string &Error, int &Errno);
bool writeFileAtomically(const std::string &Directory, const std::string &Name,
                         std::string_view Contents, std::string &Error);

/// Removes Path and, if it is a directory, everything in it; never follows a
/// link. False when something could not be removed.
bool removeTree(const std::string &Path);

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_OUTPUT_H
