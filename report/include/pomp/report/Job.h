//===- pomp/report/Job.h - One MPI job's parts as one profile ---*- C++ -*-===//
///
/// \file
/// The job view of pomp-report (docs/MPI.md): a directory that libpomp-mpi
/// wrote for an MPI job holds `job.json` and a part `rank-<N>` per rank, each
/// an ordinary experiment directory with the rank's profile and its MPI
/// totals (`mpi.json`). The job view reads every part, lines up the rows of
/// the ranks by their title (region ids differ between ranks) and shows each
/// row over ranks and threads. A part without a profile is a missing rank,
/// named, never silently left out.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_JOB_H
#define POMP_REPORT_JOB_H

#include "pomp/report/Profile.h"
#include "pomp/report/Rows.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace pomp::report {

/// One MPI routine's totals on one rank (the part's mpi.json).
struct MpiCallTotals {
  std::string Name;
  std::uint64_t Calls = 0;
  std::uint64_t BytesSent = 0;
  std::uint64_t BytesReceived = 0;
};

/// One rank's part of the job.
struct RankPart {
  int Rank = 0;
  bool Present = false; ///< the part has a readable profile.json
  std::string Missing;  ///< why not, when not present
  std::string Partial;  ///< the profile's partial_reason, "" when complete
  Profile P;
  std::vector<Row> Rows; ///< the rank's flat rows
  std::vector<MpiCallTotals> Mpi;
};

/// A job directory, read.
struct Job {
  std::string Directory;
  std::string Program;
  int Size = 0;
  bool Complete = false; ///< rank 0 passed MPI_Finalize
  std::string MpiLibrary;
  std::vector<RankPart> Parts; ///< by rank, 0..Size-1
  std::vector<int> missingRanks() const;
};

/// One rank's share of a job row.
struct RankShare {
  int Rank = 0;
  std::uint64_t Visits = 0;
  std::uint64_t InclusiveNs = 0;
  std::uint64_t ExclusiveNs = 0;
  std::size_t Threads = 0;
  double ThreadImbalance = 0.0; ///< within the rank, as the rank's own row
};

/// One row of the job table: a region (title) over every rank that has it.
struct JobRow {
  std::string Title;
  NodeKind Kind = NodeKind::Work;
  std::uint64_t Visits = 0;
  std::uint64_t InclusiveNs = 0;
  std::uint64_t ExclusiveNs = 0;
  std::vector<RankShare> PerRank; ///< present ranks that visited it, by rank
  /// Per-rank exclusive time over the present ranks (a rank that never
  /// visited counts 0): smallest, mean, largest, and the rank with the
  /// largest.
  std::uint64_t MinNs = 0, MaxNs = 0;
  double MeanNs = 0.0;
  int MaxRank = 0;
  /// (max - mean) / max of the ranks' inclusive times (0 with one rank).
  double RankImbalance = 0.0;
  /// The largest imbalance of the threads within one rank, and that rank.
  double ThreadImbalance = 0.0;
  int ThreadImbalanceRank = 0;
};

/// Whether Path is a job directory (it holds job.json).
bool isJobDirectory(const std::string &Path);

/// Reads job.json and every part; false with Error when job.json itself is
/// unreadable. Missing or broken parts are recorded in the parts.
bool loadJob(const std::string &Directory, Job &Out, std::string &Error);

/// The job's rows, sorted by the largest per-rank exclusive time.
std::vector<JobRow> jobRows(const Job &J, const Selection &S);

/// The MPI totals of the job per routine: calls and bytes summed over ranks.
std::vector<MpiCallTotals> jobMpiTotals(const Job &J);

void writeJobTable(std::ostream &Out, const Job &J, const std::vector<JobRow> &Rows);
void writeJobJson(std::ostream &Out, const Job &J, const std::vector<JobRow> &Rows);
/// The job's page: its own section of Html.cpp.
std::string renderJobHtml(const Job &J, const std::vector<JobRow> &Rows);

} // namespace pomp::report

#endif // POMP_REPORT_JOB_H
