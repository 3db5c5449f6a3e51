// profile.json's "run" and the header of profile.txt say how the run was made: the command line,
// the OMP_*/POMP_* settings, the host, the threads, the OpenMP runtime, whether OMPT was active and
// why not, the compilers and the toolkit version; pomp-report shows the same lines.
// UNSUPPORTED: sanitize
// RUN: %gcc -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.clang
// RUN: rm -rf %t.gcc.dir %t.clang.dir %t.off.dir

// RUN: env OMP_NUM_THREADS=2 POMP_EXPERIMENT_DIR=%t.gcc.dir POMP_QUIET=1 %t.gcc 'an argument' second
// RUN: python3 -c 'import json,sys; [print(k, json.dumps(v)) for k, v in sorted(json.load(open(sys.argv[1]))["run"].items())]' %t.gcc.dir/profile.json | %FileCheck --check-prefix=JSON -DEXE=%t.gcc -DDIR=%t.gcc.dir %s
// JSON:     command_line ["[[EXE]]", "an argument", "second"]
// JSON-NEXT: compiler "GCC: {{.*}}"
// JSON-NEXT: host "{{.+}}"
// JSON-NEXT: ompt {"active": false, "reason": "libgomp has no OMPT interface"}
// JSON-NEXT: openmp_runtime "libgomp"
// JSON-NEXT: openmp_runtime_path "{{.*}}libgomp.so{{.*}}"
// JSON-NEXT: settings {"OMP_NUM_THREADS": "2", "POMP_EXPERIMENT_DIR": "[[DIR]]", "POMP_QUIET": "1"}
// JSON-NEXT: threads 2
// JSON-NEXT: toolkit_version "{{[0-9]+\.[0-9]+\.[0-9]+}}"
// The clock's record: its source, the TSC's whole-run rate against its calibration (0 for
// monotonic), no warning of a jump.
// RUN: python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["clock"]; print("clock", c["source"] in ("tsc", "monotonic"), abs(c["rate_change"]) < 0.01, repr(c["warning"]))' %t.gcc.dir/profile.json | %FileCheck --check-prefix=CLOCK %s
// CLOCK: clock True True ''
// RUN: %FileCheck --check-prefix=TXT -DEXE=%t.gcc %s < %t.gcc.dir/profile.txt
// TXT:      command: [[EXE]] 'an argument' second
// TXT-NEXT: settings: OMP_NUM_THREADS=2 POMP_EXPERIMENT_DIR={{.*}} POMP_QUIET=1
// TXT-NEXT: host: {{.+}}   OpenMP runtime: libgomp   OMPT: inactive (libgomp has no OMPT interface)   compiler: GCC: {{.*}}   pomp {{[0-9.]+}}
// RUN: %pomp-report %t.gcc.dir | %FileCheck --check-prefix=REPORT %s
// REPORT:      command: {{.*}}run_metadata.c.tmp.gcc an argument second
// REPORT-NEXT: settings: OMP_NUM_THREADS=2 POMP_EXPERIMENT_DIR={{.*}} POMP_QUIET=1
// REPORT-NEXT: host: {{.+}}   OpenMP runtime: libgomp   OMPT: inactive (libgomp has no OMPT interface)

// RUN: env OMP_NUM_THREADS=2 POMP_EXPERIMENT_DIR=%t.clang.dir POMP_QUIET=1 %t.clang
// RUN: %FileCheck --check-prefix=CLANG %s < %t.clang.dir/profile.txt
// CLANG: host: {{.+}}   OpenMP runtime: libomp   OMPT: active (tool of LLVM OMP version: {{.*}})   compiler: {{.*}}clang version 19{{.*}}
// RUN: env OMP_NUM_THREADS=2 POMP_EXPERIMENT_DIR=%t.off.dir POMP_QUIET=1 POMP_OMPT=off %t.clang
// RUN: %FileCheck --check-prefix=OFF %s < %t.off.dir/profile.txt
// OFF: host: {{.+}}   OpenMP runtime: libomp   OMPT: inactive (POMP_OMPT=off)
// RUN: rm -rf %t.gcc.dir %t.clang.dir %t.off.dir

#include "pomplib.h"

#include <omp.h>

static POMP_Handle_t Par;

int main(void) {
  POMP_Context_t Fork;
  POMP_Parallel_fork(&Par, 0, 2, 1, &Fork, "39*type=parallel*file=meta.c*slines=1,1**");
#pragma omp parallel num_threads(2) firstprivate(Fork)
  {
    POMP_Parallel_begin_forked(Par, omp_get_thread_num(), Fork);
    POMP_Parallel_end(Par, omp_get_thread_num());
  }
  POMP_Parallel_exit(Par, 0);
  return POMP_Finalize();
}
