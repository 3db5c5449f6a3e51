// POMP_METRICS with counters this machine cannot give (issue 16): an unknown event name and, where
// the CPU has no performance counters (containers, VMs), PAPI_TOT_CYC are each named in one message
// with PAPI's reason and recorded in profile.json; the program's output and exit status are those
// of a run without POMP_METRICS. An invalid value is reported as other options' are.
// REQUIRES: papi
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gcc -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/prog
// RUN: cd %t && env POMP_QUIET=1 POMP_EXPERIMENT_DIR=plain %t/prog > %t/plain.out; echo "status $?" >> %t/plain.out
// RUN: cd %t && env POMP_QUIET=1 POMP_EXPERIMENT_DIR=exp POMP_METRICS=NO_SUCH_EVENT,perf::PAGE-FAULTS %t/prog > %t/metrics.out 2> %t/err; echo "status $?" >> %t/metrics.out
// RUN: diff %t/plain.out %t/metrics.out
// RUN: %FileCheck --check-prefix=ERR %s < %t/err
// RUN: python3 %S/Inputs/metrics_check.py %t/exp perf::PAGE-FAULTS 1 | %FileCheck --check-prefix=JSON %s
// RUN: cd %t && env POMP_QUIET=1 POMP_EXPERIMENT_DIR=bad POMP_METRICS='perf::PAGE-FAULTS,,x' %t/prog > %t/bad.out 2> %t/bad.err; echo "status $?" >> %t/bad.out
// RUN: diff %t/plain.out %t/bad.out
// RUN: %FileCheck --check-prefix=BAD %s < %t/bad.err
// RUN: python3 %S/Inputs/metrics_check.py %t/bad perf::PAGE-FAULTS 1 | %FileCheck --check-prefix=BADJSON %s
// RUN: rm -rf %t

#include "pomplib.h"

#include <stdio.h>

int main(void) {
  static POMP_Handle_t H;
  POMP_User_region_begin(&H, 0, "54*type=userregion*name=work*file=unavail.c*slines=1,1**");
  puts("output unchanged");
  POMP_User_region_end(H, 0);
  return 3;
}

// ERR:      pomp: POMP_METRICS: NO_SUCH_EVENT is not recorded: {{.+}}
// ERR-NOT:  pomp:

// JSON:      requested: NO_SUCH_EVENT perf::PAGE-FAULTS
// JSON-NEXT: recorded: perf::PAGE-FAULTS
// JSON-NEXT: unavailable: NO_SUCH_EVENT ({{.+}})
// JSON-NEXT: /work threads=1

// BAD:      pomp: invalid value of POMP_METRICS: an empty event name; {{.*}}no counters recorded
// BAD-NOT:  pomp:

// BADJSON:      requested:
// BADJSON-NEXT: recorded:
// BADJSON-NEXT: /work
