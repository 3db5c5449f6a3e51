//===- trace/Otf2Library.h - libotf2, loaded when a trace is asked for -*- C++ -*-===//
///
/// \file
/// libpomp does not link OTF2: programs that only profile (and every program
/// linking libpomp.a) need nothing new, and a machine without OTF2 still
/// profiles. POMP_TRACE=1 loads the library with dlopen() at initialisation
/// and resolves the functions the trace writer calls; each is listed once
/// below, with its type taken from OTF2's own header.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_TRACE_OTF2LIBRARY_H
#define POMP_RUNTIME_TRACE_OTF2LIBRARY_H

#include <otf2/otf2.h>

#include <string>

namespace pomp::rt {

/// X(function): the OTF2 functions the trace writer calls.
#define POMP_OTF2_FUNCTIONS(X)                                                                     \
  X(OTF2_Error_RegisterCallback)                                                                   \
  X(OTF2_Error_GetDescription)                                                                     \
  X(OTF2_Archive_Open)                                                                             \
  X(OTF2_Archive_Close)                                                                            \
  X(OTF2_Archive_SetFlushCallbacks)                                                                \
  X(OTF2_Archive_SetMemoryCallbacks)                                                               \
  X(OTF2_Archive_SetLockingCallbacks)                                                              \
  X(OTF2_Archive_SetSerialCollectiveCallbacks)                                                     \
  X(OTF2_Archive_SetCollectiveCallbacks)                                                           \
  X(OTF2_Archive_SetCreator)                                                                       \
  X(OTF2_Archive_SetDescription)                                                                   \
  X(OTF2_Archive_SetProperty)                                                                      \
  X(OTF2_Archive_OpenEvtFiles)                                                                     \
  X(OTF2_Archive_CloseEvtFiles)                                                                    \
  X(OTF2_Archive_OpenDefFiles)                                                                     \
  X(OTF2_Archive_CloseDefFiles)                                                                    \
  X(OTF2_Archive_GetEvtWriter)                                                                     \
  X(OTF2_Archive_CloseEvtWriter)                                                                   \
  X(OTF2_Archive_GetDefWriter)                                                                     \
  X(OTF2_Archive_CloseDefWriter)                                                                   \
  X(OTF2_Archive_GetGlobalDefWriter)                                                               \
  X(OTF2_IdMap_Create)                                                                             \
  X(OTF2_IdMap_AddIdPair)                                                                          \
  X(OTF2_IdMap_Free)                                                                               \
  X(OTF2_DefWriter_WriteMappingTable)                                                              \
  X(OTF2_DefWriter_WriteClockOffset)                                                               \
  X(OTF2_EvtWriter_Enter)                                                                          \
  X(OTF2_EvtWriter_Leave)                                                                          \
  X(OTF2_EvtWriter_ThreadFork)                                                                     \
  X(OTF2_EvtWriter_ThreadJoin)                                                                     \
  X(OTF2_EvtWriter_ThreadTeamBegin)                                                                \
  X(OTF2_EvtWriter_ThreadTeamEnd)                                                                  \
  X(OTF2_EvtWriter_ThreadAcquireLock)                                                              \
  X(OTF2_EvtWriter_ThreadReleaseLock)                                                              \
  X(OTF2_EvtWriter_ThreadTaskCreate)                                                               \
  X(OTF2_EvtWriter_ThreadTaskSwitch)                                                               \
  X(OTF2_EvtWriter_ThreadTaskComplete)                                                             \
  X(OTF2_GlobalDefWriter_WriteGroup)                                                               \
  X(OTF2_GlobalDefWriter_WriteComm)                                                                \
  X(OTF2_EvtWriter_GetNumberOfEvents)                                                              \
  X(OTF2_GlobalDefWriter_WriteClockProperties)                                                     \
  X(OTF2_GlobalDefWriter_WriteParadigm)                                                            \
  X(OTF2_GlobalDefWriter_WriteString)                                                              \
  X(OTF2_GlobalDefWriter_WriteSystemTreeNode)                                                      \
  X(OTF2_GlobalDefWriter_WriteLocationGroup)                                                       \
  X(OTF2_GlobalDefWriter_WriteLocation)                                                            \
  X(OTF2_GlobalDefWriter_WriteLocationProperty)                                                    \
  X(OTF2_GlobalDefWriter_WriteRegion)

/// The resolved functions; a member per function, named after it without the
/// OTF2_ prefix would hide where it comes from, so the full name is kept.
struct Otf2Library {
#define POMP_OTF2_MEMBER(Fn) decltype(&::Fn) Fn = nullptr;
  POMP_OTF2_FUNCTIONS(POMP_OTF2_MEMBER)
#undef POMP_OTF2_MEMBER

  /// Loads libotf2 once per process (later calls return the first result).
  /// nullptr and the reason when it is missing or lacks a function.
  static const Otf2Library *load(std::string &Error);
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_TRACE_OTF2LIBRARY_H
