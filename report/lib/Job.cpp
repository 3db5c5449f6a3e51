//===- Job.cpp - One MPI job's parts as one profile -----------------------===//

#include "pomp/report/Job.h"

#include "pomp/report/Loader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sys/stat.h>

namespace pomp::report {
namespace {

using nlohmann::json;

constexpr double NsPerSecond = 1e9;

bool readJson(const std::string &Path, json &Out, std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = "cannot open '" + Path + "'";
    return false;
  }
  try {
    Out = json::parse(In);
  } catch (const json::exception &E) {
    Error = "'" + Path + "' is not valid JSON: " + E.what();
    return false;
  }
  return true;
}

bool fileExists(const std::string &Path) {
  struct stat Info {};
  return ::stat(Path.c_str(), &Info) == 0;
}

/// (max - mean) / max, 0 with fewer than two values or no time.
double spread(const std::vector<std::uint64_t> &Values) {
  if (Values.size() < 2)
    return 0.0;
  const std::uint64_t Max = *std::max_element(Values.begin(), Values.end());
  if (Max == 0)
    return 0.0;
  double Sum = 0.0;
  for (const std::uint64_t V : Values)
    Sum += static_cast<double>(V);
  const double Mean = Sum / static_cast<double>(Values.size());
  return (static_cast<double>(Max) - Mean) / static_cast<double>(Max);
}

void readPart(const std::string &Directory, RankPart &Part) {
  const std::string Dir = Directory + "/rank-" + std::to_string(Part.Rank);
  if (!fileExists(Dir)) {
    Part.Missing = "no part " + Dir + " (the rank did not reach MPI_Init's end)";
    return;
  }
  if (!fileExists(Dir + "/profile.json")) {
    Part.Missing = "no profile in " + Dir + " (the rank died before it wrote one)";
    return;
  }
  std::string Error;
  if (!loadProfile(Dir, Part.P, Error)) {
    Part.Missing = Error;
    return;
  }
  Part.Present = true;
  Part.Rows = flatRows(Part.P);
  json Head;
  if (readJson(Dir + "/profile.json", Head, Error) && Head.value("partial", false))
    Part.Partial = Head.value("partial_reason", std::string("partial"));
  json Mpi;
  if (fileExists(Dir + "/mpi.json") && readJson(Dir + "/mpi.json", Mpi, Error) &&
      Mpi.contains("calls") && Mpi["calls"].is_array())
    for (const json &C : Mpi["calls"])
      Part.Mpi.push_back({C.value("name", std::string()), C.value("calls", std::uint64_t{0}),
                          C.value("bytes_sent", std::uint64_t{0}),
                          C.value("bytes_received", std::uint64_t{0})});
}

std::string seconds(double Ns) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof Buffer, "%.6f", Ns / NsPerSecond);
  return Buffer;
}

std::string percent(double Fraction) {
  char Buffer[16];
  std::snprintf(Buffer, sizeof Buffer, "%.1f%%", Fraction * 100.0);
  return Buffer;
}

std::string htmlEscape(const std::string &S) {
  std::string Out;
  for (const char C : S) {
    switch (C) {
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '&':
      Out += "&amp;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

} // namespace

std::vector<int> Job::missingRanks() const {
  std::vector<int> Missing;
  for (const RankPart &P : Parts)
    if (!P.Present)
      Missing.push_back(P.Rank);
  return Missing;
}

bool isJobDirectory(const std::string &Path) { return fileExists(Path + "/job.json"); }

bool loadJob(const std::string &Directory, Job &Out, std::string &Error) {
  json J;
  if (!readJson(Directory + "/job.json", J, Error))
    return false;
  if (J.value("schema", std::string()) != "pomp-job" || !J.contains("size") ||
      !J["size"].is_number_integer() || J["size"].get<int>() <= 0) {
    Error = "'" + Directory + "/job.json' is not a pomp-job file with a positive size";
    return false;
  }
  Job Result;
  Result.Directory = Directory;
  Result.Program = J.value("program", std::string());
  Result.Size = J["size"].get<int>();
  Result.Complete = J.value("complete", false);
  Result.MpiLibrary = J.value("mpi_library", std::string());
  for (int R = 0; R < Result.Size; ++R) {
    RankPart Part;
    Part.Rank = R;
    readPart(Directory, Part);
    Result.Parts.push_back(std::move(Part));
  }
  Out = std::move(Result);
  return true;
}

std::vector<JobRow> jobRows(const Job &J, const Selection &S) {
  std::map<std::string, JobRow> ByTitle;
  std::vector<int> Present;
  for (const RankPart &Part : J.Parts) {
    if (!Part.Present)
      continue;
    Present.push_back(Part.Rank);
    for (const Row &R : Part.Rows) {
      JobRow &Row = ByTitle[R.Title];
      Row.Title = R.Title;
      Row.Kind = R.Kind;
      Row.Visits += R.Visits;
      Row.InclusiveNs += R.InclusiveNs;
      Row.ExclusiveNs += R.ExclusiveNs;
      Row.PerRank.push_back(
          {Part.Rank, R.Visits, R.InclusiveNs, R.ExclusiveNs, R.Threads, R.Imbalance});
    }
  }
  std::vector<JobRow> Rows;
  for (auto &[Title, Row] : ByTitle) {
    if (S.Filter && !std::regex_search(Title, *S.Filter))
      continue;
    std::map<int, const RankShare *> ByRank;
    for (const RankShare &Share : Row.PerRank)
      ByRank[Share.Rank] = &Share;
    std::vector<std::uint64_t> Exclusive, Inclusive;
    bool First = true;
    for (const int Rank : Present) {
      const auto It = ByRank.find(Rank);
      const std::uint64_t Excl = It == ByRank.end() ? 0 : It->second->ExclusiveNs;
      Exclusive.push_back(Excl);
      Inclusive.push_back(It == ByRank.end() ? 0 : It->second->InclusiveNs);
      if (First || Excl < Row.MinNs)
        Row.MinNs = Excl;
      if (First || Excl > Row.MaxNs) {
        Row.MaxNs = Excl;
        Row.MaxRank = Rank;
      }
      First = false;
    }
    double Sum = 0.0;
    for (const std::uint64_t V : Exclusive)
      Sum += static_cast<double>(V);
    Row.MeanNs = Present.empty() ? 0.0 : Sum / static_cast<double>(Present.size());
    Row.RankImbalance = spread(Inclusive);
    for (const RankShare &Share : Row.PerRank)
      if (Share.ThreadImbalance > Row.ThreadImbalance) {
        Row.ThreadImbalance = Share.ThreadImbalance;
        Row.ThreadImbalanceRank = Share.Rank;
      }
    Rows.push_back(std::move(Row));
  }
  // Ties (and the name key) by title, so that the order never depends on the
  // map's or the sort's internals.
  auto Key = [&](const JobRow &R) -> double {
    switch (S.Sort) {
    case SortKey::Inclusive:
      return static_cast<double>(R.InclusiveNs);
    case SortKey::Visits:
      return static_cast<double>(R.Visits);
    case SortKey::Imbalance:
      return R.RankImbalance;
    case SortKey::Name:
      return 0.0;
    case SortKey::Exclusive:
    case SortKey::Wait:
      break;
    }
    return static_cast<double>(R.MaxNs);
  };
  std::sort(Rows.begin(), Rows.end(), [&](const JobRow &A, const JobRow &B) {
    const double KA = Key(A), KB = Key(B);
    return KA != KB ? KA > KB : A.Title < B.Title;
  });
  if (S.Top != 0 && Rows.size() > S.Top)
    Rows.resize(S.Top);
  return Rows;
}

std::vector<MpiCallTotals> jobMpiTotals(const Job &J) {
  std::vector<MpiCallTotals> Totals;
  for (const RankPart &Part : J.Parts)
    for (const MpiCallTotals &C : Part.Mpi) {
      auto It = std::find_if(Totals.begin(), Totals.end(),
                             [&](const MpiCallTotals &T) { return T.Name == C.Name; });
      if (It == Totals.end()) {
        Totals.push_back({C.Name, 0, 0, 0});
        It = Totals.end() - 1;
      }
      It->Calls += C.Calls;
      It->BytesSent += C.BytesSent;
      It->BytesReceived += C.BytesReceived;
    }
  return Totals;
}

void writeJobTable(std::ostream &Out, const Job &J, const std::vector<JobRow> &Rows) {
  int Present = 0;
  for (const RankPart &P : J.Parts)
    Present += P.Present ? 1 : 0;
  Out << "POMP job profile of " << J.Program << ": " << J.Size << " ranks, " << Present
      << " parts read (" << J.Directory << ")\n";
  if (!J.Complete)
    Out << "INCOMPLETE: the job did not pass MPI_Finalize\n";
  for (const RankPart &P : J.Parts) {
    if (!P.Present)
      Out << "MISSING: rank " << P.Rank << ": " << P.Missing << "\n";
    else if (!P.Partial.empty())
      Out << "PARTIAL: rank " << P.Rank << ": " << P.Partial << "\n";
  }
  Out << "\nRegions over ranks: per-rank exclusive time min/mean/max, the rank with the max;\n"
         "imbalance across ranks is (max - mean) / max of the ranks' inclusive times, within\n"
         "ranks the largest threads' imbalance of one rank.\n";
  char Line[512];
  std::snprintf(Line, sizeof Line, "%12s %12s %12s %8s %12s %10s %14s %14s  %s\n", "min[s]",
                "mean[s]", "max[s]", "max@rank", "visits", "ranks", "imb.ranks", "imb.threads",
                "region");
  Out << Line;
  for (const JobRow &R : Rows) {
    const std::string Within =
        percent(R.ThreadImbalance) + "@" + std::to_string(R.ThreadImbalanceRank);
    std::snprintf(Line, sizeof Line, "%12s %12s %12s %8d %12llu %10zu %14s %14s  %s\n",
                  seconds(static_cast<double>(R.MinNs)).c_str(), seconds(R.MeanNs).c_str(),
                  seconds(static_cast<double>(R.MaxNs)).c_str(), R.MaxRank,
                  static_cast<unsigned long long>(R.Visits), R.PerRank.size(),
                  percent(R.RankImbalance).c_str(), Within.c_str(), R.Title.c_str());
    Out << Line;
  }
  const std::vector<MpiCallTotals> Mpi = jobMpiTotals(J);
  if (!Mpi.empty()) {
    Out << "\nMPI calls, summed over ranks:\n";
    std::snprintf(Line, sizeof Line, "%12s %16s %16s  %s\n", "calls", "bytes sent",
                  "bytes received", "routine");
    Out << Line;
    for (const MpiCallTotals &C : Mpi) {
      std::snprintf(Line, sizeof Line, "%12llu %16llu %16llu  %s\n",
                    static_cast<unsigned long long>(C.Calls),
                    static_cast<unsigned long long>(C.BytesSent),
                    static_cast<unsigned long long>(C.BytesReceived), C.Name.c_str());
      Out << Line;
    }
  }
}

void writeJobJson(std::ostream &Out, const Job &J, const std::vector<JobRow> &Rows) {
  json Doc;
  Doc["schema"] = "pomp-report-job";
  Doc["version"] = 1;
  Doc["program"] = J.Program;
  Doc["size"] = J.Size;
  Doc["complete"] = J.Complete;
  Doc["missing_ranks"] = J.missingRanks();
  json Partial = json::array();
  for (const RankPart &P : J.Parts)
    if (P.Present && !P.Partial.empty())
      Partial.push_back({{"rank", P.Rank}, {"reason", P.Partial}});
  Doc["partial_ranks"] = Partial;
  json Array = json::array();
  for (const JobRow &R : Rows) {
    json Ranks = json::array();
    for (const RankShare &S : R.PerRank)
      Ranks.push_back({{"rank", S.Rank},
                       {"visits", S.Visits},
                       {"inclusive_ns", S.InclusiveNs},
                       {"exclusive_ns", S.ExclusiveNs},
                       {"threads", S.Threads},
                       {"thread_imbalance", S.ThreadImbalance}});
    Array.push_back({{"region", R.Title},
                     {"kind", kindName(R.Kind)},
                     {"visits", R.Visits},
                     {"inclusive_ns", R.InclusiveNs},
                     {"exclusive_ns", R.ExclusiveNs},
                     {"rank_min_ns", R.MinNs},
                     {"rank_mean_ns", R.MeanNs},
                     {"rank_max_ns", R.MaxNs},
                     {"max_rank", R.MaxRank},
                     {"rank_imbalance", R.RankImbalance},
                     {"thread_imbalance", R.ThreadImbalance},
                     {"thread_imbalance_rank", R.ThreadImbalanceRank},
                     {"per_rank", Ranks}});
  }
  Doc["rows"] = Array;
  json Mpi = json::array();
  for (const MpiCallTotals &C : jobMpiTotals(J))
    Mpi.push_back({{"name", C.Name},
                   {"calls", C.Calls},
                   {"bytes_sent", C.BytesSent},
                   {"bytes_received", C.BytesReceived}});
  Doc["mpi"] = Mpi;
  Out << Doc.dump(1) << "\n";
}

// The job's page: its own function, apart from Html.cpp's page of one
// experiment, so that the two change independently.
std::string renderJobHtml(const Job &J, const std::vector<JobRow> &Rows) {
  std::string H;
  H += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  H += "<meta name=\"generator\" content=\"pomp-report\">\n";
  H += "<title>POMP job report: " + htmlEscape(J.Program) + "</title>\n";
  H += "<style>body{font:14px/1.4 system-ui,sans-serif;margin:1.5em}"
       "table{border-collapse:collapse;font-variant-numeric:tabular-nums}"
       "th,td{padding:2px 8px;border-bottom:1px solid #e4e4e4}th{background:#f3f3f3}"
       "td.num{text-align:right}div.warning{border:2px solid #c60;background:#fff4e5;"
       "padding:.3em .8em}</style>\n</head>\n<body>\n";
  H += "<h1>POMP job report of " + htmlEscape(J.Program) + "</h1>\n";
  H += "<p>" + std::to_string(J.Size) + " ranks; job directory " + htmlEscape(J.Directory) + "; " +
       htmlEscape(J.MpiLibrary) + "</p>\n";
  if (!J.Complete)
    H += "<div class=\"warning\" id=\"incomplete\">The job did not pass MPI_Finalize.</div>\n";
  for (const RankPart &P : J.Parts) {
    if (!P.Present)
      H += "<div class=\"warning\" class=\"missing\">Missing rank " + std::to_string(P.Rank) +
           ": " + htmlEscape(P.Missing) + "</div>\n";
    else if (!P.Partial.empty())
      H += "<div class=\"warning\" class=\"partial\">Partial rank " + std::to_string(P.Rank) +
           ": " + htmlEscape(P.Partial) + "</div>\n";
  }
  H += "<h2>Regions over ranks</h2>\n<table id=\"job\">\n<thead><tr><th>region</th><th>min "
       "[s]</th><th>mean [s]</th><th>max [s]</th><th>max at rank</th><th>visits</th>"
       "<th>ranks</th><th>imbalance across ranks</th><th>imbalance within ranks</th></tr>"
       "</thead>\n<tbody>\n";
  for (const JobRow &R : Rows)
    H += "<tr><td>" + htmlEscape(R.Title) + "</td><td class=\"num\">" +
         seconds(static_cast<double>(R.MinNs)) + "</td><td class=\"num\">" + seconds(R.MeanNs) +
         "</td><td class=\"num\">" + seconds(static_cast<double>(R.MaxNs)) +
         "</td><td class=\"num\">" + std::to_string(R.MaxRank) + "</td><td class=\"num\">" +
         std::to_string(R.Visits) + "</td><td class=\"num\">" + std::to_string(R.PerRank.size()) +
         "</td><td class=\"num\">" + percent(R.RankImbalance) + "</td><td class=\"num\">" +
         percent(R.ThreadImbalance) + " (rank " + std::to_string(R.ThreadImbalanceRank) +
         ")</td></tr>\n";
  H += "</tbody></table>\n";
  const std::vector<MpiCallTotals> Mpi = jobMpiTotals(J);
  if (!Mpi.empty()) {
    H += "<h2>MPI calls</h2>\n<table id=\"mpi\">\n<thead><tr><th>routine</th><th>calls</th>"
         "<th>bytes sent</th><th>bytes received</th></tr></thead>\n<tbody>\n";
    for (const MpiCallTotals &C : Mpi)
      H += "<tr><td>" + htmlEscape(C.Name) + "</td><td class=\"num\">" + std::to_string(C.Calls) +
           "</td><td class=\"num\">" + std::to_string(C.BytesSent) + "</td><td class=\"num\">" +
           std::to_string(C.BytesReceived) + "</td></tr>\n";
    H += "</tbody></table>\n";
  }
  H += "</body>\n</html>\n";
  return H;
}

} // namespace pomp::report
