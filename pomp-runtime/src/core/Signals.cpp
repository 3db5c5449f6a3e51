//===- core/Signals.cpp - Writing the measurement when a signal stops the run --===//

#include "core/Signals.h"

#include "core/Lifecycle.h"
#include "core/Output.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>

namespace pomp::rt {
namespace {

/// The signals that stop a program from outside and leave its state intact.
constexpr int HandledSignals[] = {SIGTERM, SIGINT};

/// The signal being handled, 0 before any.
std::atomic<int> Pending{0};
/// Which signals libpomp handles (the program left them at SIG_DFL).
std::atomic<bool> Installed[NSIG];
sem_t Wake;
std::atomic<bool> WatcherRunning{false};

/// Ends the process with Signal's default action, from any thread.
[[noreturn]] void dieBy(int Signal) {
  std::signal(Signal, SIG_DFL);
  sigset_t Only;
  sigemptyset(&Only);
  sigaddset(&Only, Signal);
  pthread_sigmask(SIG_UNBLOCK, &Only, nullptr);
  std::raise(Signal);
  // Not reached unless the signal's default action does not terminate.
  constexpr int SignalExitBase = 128;
  ::_exit(SignalExitBase + Signal);
}

extern "C" void onStopSignal(int Signal) {
  const int SavedErrno = errno;
  int Expected = 0;
  if (!WatcherRunning.load(std::memory_order_acquire) ||
      !Pending.compare_exchange_strong(Expected, Signal))
    dieBy(Signal);
  ::sem_post(&Wake);
  errno = SavedErrno;
}

void *watch(void *) {
  while (::sem_wait(&Wake) != 0) {
  }
  const int Signal = Pending.load(std::memory_order_acquire);
  Runtime::finalize();
  dieBy(Signal);
}

/// Starts the watcher with every signal blocked: it must never be the thread
/// that runs a handler.
void startWatcher() {
  WatcherRunning.store(false, std::memory_order_release);
  if (::sem_init(&Wake, 0, 0) != 0)
    return;
  sigset_t All, Saved;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Saved);
  pthread_attr_t Attributes;
  pthread_attr_init(&Attributes);
  pthread_attr_setdetachstate(&Attributes, PTHREAD_CREATE_DETACHED);
  constexpr std::size_t WatcherStack = 256 * 1024;
  pthread_attr_setstacksize(&Attributes, WatcherStack);
  pthread_t Thread;
  const bool Started = ::pthread_create(&Thread, &Attributes, watch, nullptr) == 0;
  pthread_attr_destroy(&Attributes);
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
  if (Started)
    WatcherRunning.store(true, std::memory_order_release);
}

bool anyInstalled() {
  for (int Signal : HandledSignals)
    if (Installed[Signal].load(std::memory_order_relaxed))
      return true;
  return false;
}

} // namespace

void installSignalHandlers() {
  for (int Signal : HandledSignals) {
    struct sigaction Current;
    if (::sigaction(Signal, nullptr, &Current) != 0 || Current.sa_handler != SIG_DFL ||
        (Current.sa_flags & SA_SIGINFO) != 0)
      continue;
    struct sigaction Ours;
    std::memset(&Ours, 0, sizeof Ours);
    Ours.sa_handler = onStopSignal;
    sigemptyset(&Ours.sa_mask);
    Ours.sa_flags = SA_RESTART;
    if (::sigaction(Signal, &Ours, nullptr) == 0)
      Installed[Signal].store(true, std::memory_order_relaxed);
  }
  if (anyInstalled())
    startWatcher();
}

void restartSignalWatcherInChild() {
  Pending.store(0, std::memory_order_relaxed);
  if (anyInstalled())
    startWatcher();
}

std::string partialReason() {
  const int Signal = Pending.load(std::memory_order_acquire);
  if (Signal == 0)
    return {};
  const char *Name = Signal == SIGTERM ? "SIGTERM" : Signal == SIGINT ? "SIGINT" : "a signal";
  return std::string("stopped by ") + Name + " (" + std::to_string(Signal) + ")";
}

} // namespace pomp::rt
