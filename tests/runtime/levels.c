// Run-time activation from the environment (paper section 3.8): a group at level none records
// nothing, a loop at chunks records chunks, and an invalid value gives one message naming the
// variable and the accepted values, and the default is used.
// UNSUPPORTED: sanitize
// RUN: %gcc -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: rm -rf %t.default %t.set %t.bad
// RUN: env POMP_EXPERIMENT_DIR=%t.default POMP_QUIET=1 %t.gcc
// RUN: python3 %S/Inputs/profile_tree.py %t.default | %FileCheck --check-prefix=DEFAULT --match-full-lines %s
// RUN: env POMP_EXPERIMENT_DIR=%t.set POMP_QUIET=1 POMP_USER=none POMP_LOOP=Chunks %t.gcc
// RUN: python3 %S/Inputs/profile_tree.py %t.set | %FileCheck --check-prefix=SET --match-full-lines %s
// RUN: env POMP_EXPERIMENT_DIR=%t.bad POMP_QUIET=1 POMP_LOOP=beginend POMP_QUIET=1 %t.gcc 2> %t.err
// RUN: %FileCheck --check-prefix=MESSAGE %s < %t.err
// RUN: python3 %S/Inputs/profile_tree.py %t.bad | %FileCheck --check-prefix=DEFAULT --match-full-lines %s

#include "pomplib.h"

static POMP_Handle_t User, Loop;

int main(void) {
  POMP_User_region_begin(&User, 0, "50*type=userregion*name=u*file=levels.c*slines=1,1**");
  POMP_Loop_enter(&Loop, 0, 2, 0, 3, 1, "36*type=for*file=levels.c*slines=2,2**");
  for (int Chunk = 0; Chunk < 2; ++Chunk) {
    POMP_Loop_chunk_begin(Loop, 0, 2 * Chunk, 2 * Chunk + 1);
    POMP_Loop_chunk_end(Loop, 0);
  }
  POMP_Loop_exit(Loop, 0);
  POMP_User_region_end(User, 0);
  return 0;
}

// DEFAULT:      user region "u" @levels.c:1 visits=1 threads=1
// DEFAULT-NEXT:   loop @levels.c:2 visits=1 threads=1
// DEFAULT-NEXT: anomalies: none

// SET:      loop @levels.c:2 visits=1 threads=1
// SET-NEXT:   loop chunk @levels.c:2 visits=2 threads=1
// SET-NEXT: anomalies: none

// MESSAGE: pomp: POMP_LOOP="beginend" is not valid (accepted: none, enterexit, chunks, iterevent, iterbeginend); using enterexit
// MESSAGE-NOT: pomp:
