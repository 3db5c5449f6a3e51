// Options the library cannot use are reported once, at initialisation (issue 13, item 10): an
// unknown POMP_* variable with the closest known one, a size out of range with the size used,
// and white space around a value is ignored by every variable alike.
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gcc -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/prog
// RUN: cd %t && env POMP_TRCE=1 POMP_QUIET=' 1 ' POMP_EXPERIMENT_DIR=' exp ' POMP_TRACE=' yes' POMP_TRACE_FORMAT='chrome ' POMP_TRACE_BUFFER=10 %t/prog 2> %t/err
// RUN: %FileCheck %s < %t/err
// RUN: test -f %t/exp/profile.json && test -f %t/exp/trace.json
// RUN: rm -rf %t

#include "pomplib.h"

int main(void) {
  static POMP_Handle_t H;
  POMP_User_region_begin(&H, 0, "50*type=userregion*name=work*file=opt.c*slines=1,1**");
  POMP_User_region_end(H, 0);
  return 0;
}

// CHECK:      pomp: POMP_TRACE_BUFFER="10" is below the smallest size accepted; using 256K
// CHECK-NEXT: pomp: POMP_TRCE is not a libpomp variable and is ignored; did you mean POMP_TRACE?
// CHECK-NOT:  pomp:
