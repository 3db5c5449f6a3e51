// Error codes of the API (docs/POMP_API.md): a garbage handle, a zero handle without a CTC string,
// a malformed CTC string, a NULL result pointer, an unbalanced end, bad levels, events after
// finalisation. Each returns its code, changes nothing else and never stops the program; the
// anomalies are counted once in the profile.
// UNSUPPORTED: sanitize
// RUN: %gcc -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: %clang -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.clang
// RUN: rm -rf %t.gcc.dir %t.clang.dir
// RUN: env POMP_EXPERIMENT_DIR=%t.gcc.dir POMP_QUIET=1 %t.gcc | %FileCheck %s
// RUN: env POMP_EXPERIMENT_DIR=%t.clang.dir POMP_QUIET=1 %t.clang | %FileCheck %s
// RUN: python3 %S/Inputs/profile_tree.py %t.gcc.dir | %FileCheck --check-prefix=TREE --match-full-lines %s
// RUN: python3 %S/Inputs/profile_tree.py %t.clang.dir | %FileCheck --check-prefix=TREE --match-full-lines %s

#include "pomplib.h"

#include <stdio.h>
#include <string.h>

#define SHOW(what, call)                                                                           \
  do {                                                                                             \
    int32_t Code = (call);                                                                         \
    printf("%s: %d %s\n", what, (int)Code, Code ? POMP_Last_error_message() : "");                 \
  } while (0)

static const char Region[] = "50*type=userregion*name=r*file=errors.c*slines=1,1**";

int main(void) {
  POMP_Handle_t H = 0;
  POMP_Context_t Ctx = 99;
  int32_t Level = -1;

  // CHECK: first event initialises: 0
  SHOW("first event initialises", POMP_User_region_begin(&H, 0, Region));
  // CHECK-NEXT: handle bound: 1
  printf("handle bound: %d\n", H == 1);
  SHOW("end", POMP_User_region_end(H, 0));
  // CHECK-NEXT: end: 0

  // CHECK-NEXT: garbage handle: 1 the handle was not given out by this library
  SHOW("garbage handle", POMP_User_region_end(12345, 0));
  // With the region open again, handles that the fast path's key compare could take for it (its
  // value plus bits that a call-path key has no room for; zero) are refused and leave it open.
  // CHECK-NEXT: reopened: 0
  SHOW("reopened", POMP_User_region_begin(&H, 0, Region));
  // CHECK-NEXT: aliasing handle: 1 the handle was not given out by this library
  SHOW("aliasing handle", POMP_User_region_end(H + ((POMP_Handle_t)1 << 56), 0));
  // CHECK-NEXT: zero handle closing it: 2
  SHOW("zero handle closing it", POMP_User_region_end(0, 0));
  // CHECK-NEXT: still open: 0
  SHOW("still open", POMP_User_region_end(H, 0));
  // CHECK-NEXT: pointer as handle: 1
  SHOW("pointer as handle", POMP_Barrier_exit((POMP_Handle_t)&H, 0));
  POMP_Handle_t Garbage = 777;
  // CHECK-NEXT: garbage first handle: 1
  SHOW("garbage first handle", POMP_Barrier_enter(&Garbage, 0, Region));
  POMP_Handle_t Zero = 0;
  // CHECK-NEXT: zero handle, NULL ctc: 2 the handle is 0 and the CTC string is NULL
  SHOW("zero handle, NULL ctc", POMP_Barrier_enter(&Zero, 0, NULL));
  // CHECK-NEXT: zero handle in a later event: 2
  SHOW("zero handle in a later event", POMP_Barrier_exit(0, 0));
  // CHECK-NEXT: malformed ctc: 3 malformed CTC string: offset
  SHOW("malformed ctc", POMP_Barrier_enter(&Zero, 0, "12*type=barrier"));
  // CHECK-NEXT: handle untouched: 0
  printf("handle untouched: %d\n", (int)Zero);
  // CHECK-NEXT: NULL context pointer: 4
  SHOW("NULL context pointer", POMP_Parallel_fork(&Zero, 0, 2, 1, NULL,
                                                  "30*type=parallel*file=errors.c**"));
  // CHECK-NEXT: unbalanced end: 5 the event closes no region open on this thread
  SHOW("unbalanced end", POMP_User_region_end(H, 0));
  // CHECK-NEXT: Get_handle NULL: 4
  SHOW("Get_handle NULL", POMP_Get_handle(NULL, Region));
  // CHECK-NEXT: Get_handle bound: 0
  SHOW("Get_handle bound", POMP_Get_handle(&H, NULL));
  // CHECK-NEXT: Get_handle garbage: 1
  SHOW("Get_handle garbage", POMP_Get_handle(&Garbage, Region));
  // CHECK-NEXT: Set_level bad group: 4
  SHOW("Set_level bad group", POMP_Set_level(POMP_GROUP_COUNT, POMP_LEVEL_NONE));
  // CHECK-NEXT: Set_level chunks for parallel: 4
  SHOW("Set_level chunks for parallel", POMP_Set_level(POMP_GROUP_PARALLEL, POMP_LEVEL_CHUNKS));
  // CHECK-NEXT: Get_level NULL: 4 the level pointer is NULL or the group unknown
  SHOW("Get_level NULL", POMP_Get_level(POMP_GROUP_LOOP, NULL));
  // CHECK-NEXT: Get_level loop: 0
  SHOW("Get_level loop", POMP_Get_level(POMP_GROUP_LOOP, &Level));
  // CHECK-NEXT: level 2
  printf("level %d\n", (int)Level);
  // CHECK-NEXT: error string 5: unbalanced event: it closes no open region
  printf("error string 5: %s\n", POMP_Error_string(POMP_ERROR_UNBALANCED));
  // CHECK-NEXT: error string 42: unknown error code
  printf("error string 42: %s\n", POMP_Error_string(42));

  // CHECK-NEXT: finalize: 0
  SHOW("finalize", POMP_Finalize());
  // CHECK-NEXT: finalize again: 0
  SHOW("finalize again", POMP_Finalize());
  // CHECK-NEXT: event after finalize: 6 the library was finalised
  SHOW("event after finalize", POMP_User_region_begin(&H, 0, Region));
  // CHECK-NEXT: fork after finalize: 6 the library was finalised
  SHOW("fork after finalize", POMP_Parallel_fork(&H, 0, 2, 1, &Ctx, NULL));
  // CHECK-NEXT: context 0
  printf("context %d\n", (int)Ctx);
  // CHECK-NEXT: init after finalize: 6
  SHOW("init after finalize", POMP_Init());
  // CHECK-NEXT: off after finalize: 6
  SHOW("off after finalize", POMP_Off());
  return 0;
}

// TREE:      threads: 1
// TREE-NEXT: user region "r" @errors.c:1 visits=2 threads=1
// TREE-NEXT: anomalies: invalid_argument=1 invalid_handle=4 malformed_ctc=1 missing_ctc=3 unmatched_close=1
