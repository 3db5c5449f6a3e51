// POMP_Note_mpi_part, libpomp-mpi's call into libpomp (docs/MPI.md), without MPI: the profile goes
// into the part the caller made and records rank and size, a rank other than 0 prints no summary,
// bad arguments are refused, and with a trace (whose directory was claimed at initialisation) the
// part is refused with the reason and the measurement stays where it was.
// UNSUPPORTED: sanitize
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d/job/rank-1 %t.d/job/rank-0
// RUN: env POMP_EXPERIMENT_DIR=%t.d/unused %t %t.d/job/rank-1 1 4 > %t.d/out1 2> %t.d/err1
// RUN: %FileCheck --check-prefix=OUT %s < %t.d/out1
// RUN: %FileCheck --check-prefix=QUIET --allow-empty %s < %t.d/err1
// RUN: test ! -e %t.d/unused
// RUN: %FileCheck --check-prefix=JSON1 %s < %t.d/job/rank-1/profile.json
// RUN: %FileCheck --check-prefix=TXT1 %s < %t.d/job/rank-1/profile.txt
// RUN: %t %t.d/job/rank-0 0 4 2>&1 > /dev/null | %FileCheck --check-prefix=SUMMARY0 %s
// RUN: cd %t.d && env POMP_TRACE=1 POMP_EXPERIMENT_DIR=%t.d/traced %t %t.d/job/rank-0 0 4 2> /dev/null | %FileCheck --check-prefix=TRACED %s
// RUN: test -f %t.d/traced/profile.json

// OUT: null directory: 4
// OUT-NEXT: rank 4 of 4: 4
// OUT-NEXT: part: 0
// QUIET-NOT: pomp:
// JSON1: "mpi": {"rank": 1, "size": 4}
// TXT1: MPI: rank 1 of 4
// SUMMARY0: pomp: profile in {{.*}}job/rank-0/
// TRACED: part: 4 the measurement's directory was claimed at initialisation (POMP_TRACE=1): {{.*}}traced

#include "pomplib.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  static POMP_Handle_t Region;
  POMP_Init();
  printf("null directory: %d\n", (int)POMP_Note_mpi_part(NULL, 0, 1));
  printf("rank 4 of 4: %d\n", (int)POMP_Note_mpi_part(argv[1], 4, 4));
  const int32_t Part = POMP_Note_mpi_part(argv[1], atoi(argv[2]), atoi(argv[3]));
  printf("part: %d%s%s\n", (int)Part, Part ? " " : "", Part ? POMP_Last_error_message() : "");
  POMP_User_region_begin(&Region, 0, "28*type=userregion*name=work**");
  POMP_User_region_end(Region, 0);
  POMP_Finalize();
  return 0;
}
