//===- CompileBeside.cpp - gcc's compile beside ompinst -------------------===//
#include "pomp/ompcc/CompileBeside.h"

#include "pomp/handle-init/HandleInit.h"
#include "pomp/ompcc/CompilerCommand.h"
#include "pomp/ompcc/SourceChecks.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pomp::ompcc {
namespace {

using llvm::StringRef;

/// The macro the rest's last line defines and the main file checks.
constexpr const char *RestCompleteMacro = "__POMP_OMPCC_REST_COMPLETE";

/// Why the command's arguments keep the compile from going beside ("" when
/// they do not): what would show that the rest is an included file (a list
/// of headers, saved temporaries, coverage notes, macros in the debug
/// information, structured diagnostics), and -pedantic, under which gcc
/// calls the line marker an extension.
std::string whyNotForArguments(llvm::ArrayRef<Argument> Args) {
  for (const Argument &Arg : Args)
    for (const std::string &Word : Arg.Words) {
      const StringRef W = Word;
      if (W == "-H")
        return "-H lists the headers";
      if (W.starts_with("-save-temps"))
        return "-save-temps";
      if (W == "--coverage" || W == "-fprofile-arcs" || W == "-ftest-coverage")
        return "coverage notes";
      if (W.starts_with("-g") && W.ends_with("3"))
        return "macros in the debug information (" + Word + ")";
      if (W.starts_with("-fdiagnostics-format"))
        return "structured diagnostics";
      if (W == "-pedantic" || W == "-Wpedantic" || W == "-pedantic-errors" || W == "--pedantic" ||
          W == "--pedantic-errors")
        return "-pedantic (gcc calls the line marker an extension)";
      if (W == "-fdirectives-only" || W == "-traditional" || W == "-traditional-cpp")
        return Word;
    }
  return "";
}

/// Why the source's text keeps it from going beside ("" when it does not):
/// what gcc decides by the file it reads rather than by the line table
/// (`#include_next`, `#pragma GCC system_header`, `__TIMESTAMP__`), and
/// `__BASE_FILE__`, which names the main file ompcc writes.
std::string whyNotForText(StringRef Text) {
  for (const char *Word : {"include_next", "system_header", "__TIMESTAMP__", "__BASE_FILE__"})
    if (Text.contains(Word))
      return std::string("the source mentions ") + Word;
  if (Text.starts_with("\xEF\xBB\xBF"))
    return "a byte order mark";
  return "";
}

/// The lowest descriptor number ompcc has not opened: the child's copy of
/// the pipe goes there, over nothing the child would inherit (make's
/// jobserver descriptors, say).
int freeDescriptor() {
  for (int FD = 3;; ++FD)
    if (fcntl(FD, F_GETFD) == -1 && errno == EBADF)
      return FD;
}

} // namespace

CompileBeside::CompileBeside(std::string Header, std::string Block)
    : Header(std::move(Header)), Block(std::move(Block)) {}

CompileBeside::~CompileBeside() {
  closePipe();
  // finish() or abandon() waits for gcc; on any other way out it is reaped
  // here, after the closed pipe ended it.
  if (Running) {
    waitpid(Running->Pid, nullptr, 0);
    close(Running->StderrFD);
  }
}

std::unique_ptr<CompileBeside> CompileBeside::prepare(StringRef SourcePath, StringRef Text,
                                                      llvm::ArrayRef<Argument> Args,
                                                      std::string &Why) {
  Why = whyNotForArguments(Args);
  if (Why.empty())
    Why = whyNotForText(Text);
  if (!Why.empty())
    return nullptr;
  // Without an #include block gcc still starts, loads and sets up its back
  // end while ompinst runs, and the whole text goes through the pipe.
  const std::size_t End = includeBlockEnd(Text).value_or(0);
  // ompinst's header: _POMP, and a #line with the source's absolute name.
  llvm::SmallString<256> Name(SourcePath);
  llvm::sys::fs::make_absolute(Name);
  llvm::sys::path::remove_dots(Name, /*remove_dot_dot=*/false);
  const std::string Literal = handleinit::cStringLiteral(std::string(Name));
  if (Literal != "\"" + std::string(Name) + "\"") {
    Why = "a file name that a #line directive spells with escapes";
    return nullptr;
  }
  std::unique_ptr<CompileBeside> Beside(
      new CompileBeside(std::string("#ifndef _POMP\n#define _POMP ") + POMP_API_VERSION_TEXT +
                            "L\n#endif\n#line 1 " + Literal + "\n",
                        Text.take_front(End).str()));
  Beside->NameLiteral = Literal;
  int Pipe[2];
  if (pipe2(Pipe, O_CLOEXEC) != 0) {
    Why = std::string("no pipe: ") + std::strerror(errno);
    return nullptr;
  }
  Beside->ReadFD = Pipe[0];
  Beside->WriteFD = Pipe[1];
  Beside->ChildFD = freeDescriptor();
  Beside->Main = Beside->Header + Beside->Block + "#include \"" + Beside->pipeName() +
                 "\"\n#ifndef " + RestCompleteMacro +
                 "\n#error \"ompcc: the instrumented text did not reach the compile\"\n#endif\n"
                 "#undef " +
                 RestCompleteMacro + "\n";
  return Beside;
}

bool CompileBeside::start(CommandRunner &Runner, llvm::ArrayRef<std::string> Argv) {
  Running = Runner.startCapturing(Argv, ReadFD, ChildFD);
  // gcc holds the read end now; ompcc's copy would keep a pipe that gcc
  // left open for writing.
  close(ReadFD);
  ReadFD = -1;
  return Running.has_value();
}

bool CompileBeside::write(StringRef Text) {
  // gcc may be gone (an error in the block): the write then fails with
  // EPIPE, and the SIGPIPE it raises, whose handler would end ompcc, is
  // taken while blocked.
  sigset_t Pipe, Previous;
  sigemptyset(&Pipe);
  sigaddset(&Pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &Pipe, &Previous);
  bool Written = true;
  while (!Text.empty()) {
    const ssize_t N = ::write(WriteFD, Text.data(), Text.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      Written = false;
      break;
    }
    Text = Text.drop_front(static_cast<std::size_t>(N));
  }
  if (!Written) {
    const timespec Now{0, 0};
    sigtimedwait(&Pipe, nullptr, &Now);
  }
  pthread_sigmask(SIG_SETMASK, &Previous, nullptr);
  return Written;
}

void CompileBeside::closePipe() {
  for (int *FD : {&ReadFD, &WriteFD})
    if (*FD >= 0) {
      close(*FD);
      *FD = -1;
    }
}

std::optional<int> CompileBeside::finish(CommandRunner &Runner, StringRef Instrumented,
                                         std::string &Log, std::string &Why) {
  if (!Running) {
    Why = "the compile did not start";
    return std::nullopt;
  }
  if (!Instrumented.starts_with(Header) ||
      !Instrumented.drop_front(Header.size()).starts_with(Block)) {
    abandon(Runner);
    Why = "ompinst's text differs in the #include block";
    return std::nullopt;
  }
  const StringRef Rest = Instrumented.drop_front(Header.size() + Block.size());
  // The line after the block, in the main file again (flag 2: back from an
  // included file), so that gcc takes the rest as the main file's text.
  const std::string Marker =
      "# " + std::to_string(1 + llvm::count(Block, '\n')) + " " + NameLiteral + " 2\n";
  const bool Written = write(Marker) && write(Rest) &&
                       write(Rest.empty() || Rest.back() == '\n' ? "" : "\n") &&
                       write(std::string("#define ") + RestCompleteMacro + " 1\n");
  closePipe();
  const int Status = Runner.finishCapturing(*Running, Log);
  Running.reset();
  if (!Written && Status == 0) {
    // Cannot happen (gcc succeeded without the whole rest, which its check
    // forbids), but were it to, the object is not trusted.
    Why = "gcc stopped reading the instrumented text";
    return std::nullopt;
  }
  return Status;
}

void CompileBeside::abandon(CommandRunner &Runner) {
  closePipe();
  if (!Running)
    return;
  std::string Discarded;
  Runner.finishCapturing(*Running, Discarded);
  Running.reset();
}

} // namespace pomp::ompcc
