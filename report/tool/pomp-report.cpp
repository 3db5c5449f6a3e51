//===- pomp-report.cpp - Show a libpomp experiment ------------------------===//
///
/// \file
/// `pomp-report [options] <experiment-dir>` shows the profile libpomp wrote:
/// a table of regions or call paths, as text, JSON or one HTML page with a
/// timeline of the trace. `pomp-report --help` says how; the work is in the
/// pomp_report library.
///
//===----------------------------------------------------------------------===//
#include "pomp/report/Tool.h"

#include <iostream>
#include <string>
#include <vector>

int main(int Argc, char **Argv) {
  const std::vector<std::string> Args(Argv + 1, Argv + Argc);
  pomp::report::Options Options;
  std::string Error;
  if (!pomp::report::parseArguments(Args, Options, Error)) {
    std::cerr << "pomp-report: error: " << Error
              << "\nusage: pomp-report [options] <experiment-dir> (pomp-report --help explains)\n";
    return pomp::report::ExitUsage;
  }
  return pomp::report::runReport(Options, std::cout, std::cerr);
}
