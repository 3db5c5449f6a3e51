//===- Events.h - The POMP events the instrumenter emits --------*- C++ -*-===//
///
/// \file
/// The event enum lives in the language-neutral construct model
/// (instrumenter/model), which both front ends share.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_EVENTS_H
#define POMP_INSTRUMENTER_EVENTS_H

#include "pomp/model/Events.h"

#endif // POMP_INSTRUMENTER_EVENTS_H
