// Links planted where libpomp writes (issue 13, item 7). The experiment directory's name is
// predictable: a link there, to another directory or dangling, is a name that exists, so the run
// takes the next free name and nothing is written through the link. The directory it creates lets
// nobody else add files (no link can be planted inside it), and its files get 0666 less the umask.
// With a Chrome trace the spill and temporary files have unique names as well.
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t/victim && echo victim > %t/victim/profile.json
// RUN: %gcc -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/prog
// RUN: ln -s %t/victim %t/exp && ln -s %t/nowhere %t/dangling
// RUN: env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/exp %t/prog
// RUN: env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/dangling POMP_TRACE=1 POMP_TRACE_FORMAT=chrome POMP_TRACE_BUFFER=256K %t/prog
// RUN: cat %t/victim/profile.json | %FileCheck --check-prefix=VICTIM %s
// RUN: ls %t/victim | %FileCheck --check-prefix=VICTIM-DIR %s
// RUN: not test -e %t/nowhere
// RUN: python3 %S/Inputs/profile_tree.py %t/exp-1 | %FileCheck --check-prefix=TREE %s
// RUN: python3 %S/Inputs/profile_tree.py %t/dangling-1 | %FileCheck --check-prefix=TREE %s
// RUN: ls -a %t/dangling-1 | %FileCheck --check-prefix=FILES %s
// RUN: sh -c 'umask 002 && env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/modes %t/prog'
// RUN: stat -c '%%a %%n' %t/modes %t/modes/profile.json %t/modes/profile.txt | %FileCheck --check-prefix=MODES %s
// RUN: rm -rf %t

#include "pomplib.h"

int main(void) {
  static POMP_Handle_t H;
  // Enough events to fill a 256K Chrome trace buffer a few times (a spill file).
  for (int I = 0; I < 40000; ++I) {
    POMP_User_region_begin(&H, 0, "52*type=userregion*name=work*file=plant.c*slines=1,1**");
    POMP_User_region_end(H, 0);
  }
  return 0;
}

// VICTIM: victim
// VICTIM-DIR: profile.json
// VICTIM-DIR-NOT: {{.}}

// TREE: user region "work" @plant.c:1 visits=40000 threads=1

// FILES:      .
// FILES-NEXT: ..
// FILES-NEXT: profile.json
// FILES-NEXT: profile.txt
// FILES-NEXT: trace.json
// FILES-NOT:  {{.}}

// MODES:      755 {{.*}}/modes
// MODES-NEXT: 664 {{.*}}/modes/profile.json
// MODES-NEXT: 664 {{.*}}/modes/profile.txt
