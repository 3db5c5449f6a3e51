// POMP_Off/POMP_On and level changes while regions are open (paper section 3.6, open issue): a
// region entered while its events were on is closed by its own end, even after POMP_Off or a level
// change; events while off are not recorded; the end of a region entered while off is ignored
// (success, counted). The profile never holds an unbalanced region.
// UNSUPPORTED: sanitize
// RUN: %gcc -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: rm -rf %t.dir
// RUN: env POMP_EXPERIMENT_DIR=%t.dir POMP_QUIET=1 %t.gcc | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t.dir | %FileCheck --match-full-lines %s

#include "pomplib.h"

#include <stdio.h>

static POMP_Handle_t A, B, C, D, E, L, Bar;

int main(void) {
  int Failures = 0;
  POMP_Init();
  Failures += POMP_User_region_begin(&A, 0, "49*type=userregion*name=a*file=onoff.c*slines=1,1**") != 0;
  Failures += POMP_Off() != 0;
  Failures += POMP_User_region_begin(&B, 0, "49*type=userregion*name=b*file=onoff.c*slines=2,2**") != 0;
  Failures += POMP_User_region_end(B, 0) != 0;
  Failures += POMP_Barrier_enter(&Bar, 0, "39*type=barrier*file=onoff.c*slines=3,3**") != 0;
  Failures += POMP_Barrier_exit(Bar, 0) != 0;
  // Closes a, which was entered while on.
  Failures += POMP_User_region_end(A, 0) != 0;
  Failures += POMP_User_region_begin(&C, 0, "49*type=userregion*name=c*file=onoff.c*slines=4,4**") != 0;
  Failures += POMP_On() != 0;
  // c was entered while off: its end is ignored.
  Failures += POMP_User_region_end(C, 0) != 0;
  Failures += POMP_User_region_begin(&D, 0, "49*type=userregion*name=d*file=onoff.c*slines=5,5**") != 0;
  Failures += POMP_User_region_end(D, 0) != 0;
  // A level switched off between enter and exit, and back.
  Failures += POMP_Set_level(POMP_GROUP_USER, POMP_LEVEL_NONE) != 0;
  Failures += POMP_User_region_begin(&E, 0, "49*type=userregion*name=e*file=onoff.c*slines=6,6**") != 0;
  Failures += POMP_Set_level(POMP_GROUP_USER, POMP_LEVEL_BEGINEND) != 0;
  Failures += POMP_User_region_end(E, 0) != 0;
  Failures += POMP_Loop_enter(&L, 0, -1, 0, 9, 1, "35*type=for*file=onoff.c*slines=7,7**") != 0;
  Failures += POMP_Set_level(POMP_GROUP_LOOP, POMP_LEVEL_NONE) != 0;
  Failures += POMP_Loop_exit(L, 0) != 0;
  printf("failures %d\n", Failures);
  return POMP_Finalize();
}

// OUT: failures 0

// CHECK:      threads: 1
// CHECK-NEXT: user region "a" @onoff.c:1 visits=1 threads=1
// CHECK-NEXT: user region "d" @onoff.c:5 visits=1 threads=1
// CHECK-NEXT: loop @onoff.c:7 visits=1 threads=1
// CHECK-NEXT: anomalies: skipped_after_switch=2
