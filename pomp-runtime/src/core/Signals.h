//===- core/Signals.h - Writing the measurement when a signal stops the run -*- C++ -*-===//
///
/// \file
/// SIGTERM (a batch job's time limit) and SIGINT (Ctrl-C) end a program
/// without its exit hooks, which would lose the whole measurement. When the
/// program leaves a signal at its default action, libpomp handles it: the
/// handler only wakes a watcher thread (sem_post is async-signal-safe); the
/// watcher finalises the library, which writes what was gathered, marked
/// partial, and then raises the signal again with its default action, so the
/// program ends exactly as it would have without the tool (killed by the
/// signal). A second signal while the watcher writes ends the program at once.
///
/// A handler the program installed before the library initialised is left
/// alone (the program decides; its exit runs the exit hook); one it installs
/// later replaces libpomp's.
///
/// SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT are not handled: they come from
/// a broken program state (a corrupt heap, a thread stopped inside malloc or
/// inside the library holding a lock) in which writing the profile may hang
/// or crash again, so nothing is written (docs/RUNTIME.md, "Signals").
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_SIGNALS_H
#define POMP_RUNTIME_CORE_SIGNALS_H

#include <string>

namespace pomp::rt {

/// Installs the handlers for the signals whose action is the default, and
/// starts the watcher thread when there is one. Called once, at
/// initialisation.
void installSignalHandlers();

/// In a child created by fork(): starts the child's own watcher thread.
void restartSignalWatcherInChild();

/// Why the measurement is partial ("stopped by signal SIGTERM (15)"), or ""
/// when the program ended normally.
std::string partialReason();

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_SIGNALS_H
