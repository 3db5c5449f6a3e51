// POMP_Init() calls POMP_Init_Handles() (paper Appendix B). The program's definition, which
// pomp-link generates, overrides libpomp's weak empty default: by the linker with libpomp.a and by
// symbol interposition with libpomp.so. Without a definition the default is used and handles are
// bound by their first events.
// UNSUPPORTED: sanitize
// RUN: %gcc -O1 -Wall -Wextra -Werror -DDEFINE_INIT_HANDLES -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.shared
// RUN: %clang -O1 -Wall -Wextra -Werror -DDEFINE_INIT_HANDLES -I%pomp_include %s %pomp_lib/libpomp.a -lstdc++ -lm -o %t.static
// RUN: %gcc -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.default-shared
// RUN: %gcc -O1 -Wall -Wextra -Werror -I%pomp_include %s %pomp_lib/libpomp.a -lstdc++ -lm -o %t.default-static
// RUN: env POMP_EXPERIMENT_DIR=%t.dir1 POMP_QUIET=1 %t.shared | %FileCheck --check-prefix=DEFINED %s
// RUN: env POMP_EXPERIMENT_DIR=%t.dir2 POMP_QUIET=1 %t.static | %FileCheck --check-prefix=DEFINED %s
// RUN: env POMP_EXPERIMENT_DIR=%t.dir3 POMP_QUIET=1 %t.default-shared | %FileCheck --check-prefix=DEFAULT %s
// RUN: env POMP_EXPERIMENT_DIR=%t.dir4 POMP_QUIET=1 %t.default-static | %FileCheck --check-prefix=DEFAULT %s
// RUN: rm -rf %t.dir1 %t.dir2 %t.dir3 %t.dir4

#include "pomplib.h"

#include <stdio.h>

static POMP_Handle_t Handle;
static const char Ctc[] = "51*type=userregion*name=init*file=init.c*slines=1,1**";

#ifdef DEFINE_INIT_HANDLES
void POMP_Init_Handles(void) {
  printf("POMP_Init_Handles of the program\n");
  POMP_Get_handle(&Handle, Ctc);
}
#endif

int main(void) {
  POMP_Init();
  printf("after POMP_Init: handle %s\n", Handle ? "bound" : "zero");
  POMP_User_region_begin(&Handle, 0, Ctc);
  POMP_User_region_end(Handle, 0);
  printf("after the first event: handle %s\n", Handle ? "bound" : "zero");
  return POMP_Finalize();
}

// DEFINED: POMP_Init_Handles of the program
// DEFINED-NEXT: after POMP_Init: handle bound
// DEFINED-NEXT: after the first event: handle bound

// DEFAULT: after POMP_Init: handle zero
// DEFAULT-NEXT: after the first event: handle bound
