//===- Levels.cpp - Groups and levels of paper section 3.8 -----------------===//
/// The default levels of ompinst; the names of groups and levels live in the
/// shared model (model/lib/Levels.cpp), which the Fortran front end reads too.
#include "pomp/instrumenter/Instrumenter.h"

namespace pomp::inst {

GroupLevels defaultGroupLevels() {
  GroupLevels Levels{};
  Levels[POMP_GROUP_PARALLEL] = POMP_LEVEL_BEGINEND;
  Levels[POMP_GROUP_LOOP] = POMP_LEVEL_ENTEREXIT;
  Levels[POMP_GROUP_WORKSHARE] = POMP_LEVEL_BEGINEND;
  Levels[POMP_GROUP_SYNC] = POMP_LEVEL_BEGINEND;
  Levels[POMP_GROUP_TASK] = POMP_LEVEL_BEGINEND;
  Levels[POMP_GROUP_TARGET] = POMP_LEVEL_ENTEREXIT;
  Levels[POMP_GROUP_USER] = POMP_LEVEL_BEGINEND;
  Levels[POMP_GROUP_RUNTIME] = POMP_LEVEL_ENTEREXIT;
  return Levels;
}

} // namespace pomp::inst
