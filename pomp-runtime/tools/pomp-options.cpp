//===- pomp-options.cpp - Prints libpomp's options ------------------------===//
///
/// \file
/// `pomp-options` prints the environment variables libpomp reads, with their
/// defaults and accepted values; `pomp-options --markdown` prints the table
/// docs/RUNTIME.md holds, so that the documentation is checked against the
/// library's own option list.
///
//===----------------------------------------------------------------------===//

#include "core/Config.h"

#include <cstdio>
#include <cstring>
#include <string>

int main(int Argc, char **Argv) {
  const bool Markdown = Argc == 2 && std::strcmp(Argv[1], "--markdown") == 0;
  if (Argc > 2 || (Argc == 2 && !Markdown)) {
    std::fprintf(stderr, "usage: pomp-options [--markdown]\n");
    return 2;
  }
  const std::string Text = Markdown ? pomp::rt::optionMarkdownTable() : pomp::rt::optionHelpText();
  std::fputs(Text.c_str(), stdout);
  return 0;
}
