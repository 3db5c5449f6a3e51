// SIGTERM and SIGINT (issue 13, item 8): a program stopped by one of them keeps what was measured.
// libpomp writes the profile, marked partial (profile.json "partial", "partial_reason"; a PARTIAL
// line in profile.txt), and the program still ends killed by the signal, with the exit status it
// would have without the tool (128 + the signal in a shell). A handler the program installed
// itself is respected: it runs, and the profile is written by the exit hook, complete.
// UNSUPPORTED: sanitize
// DEFINE: %{dflt} = python3 -c "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])"
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gcc -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/gcc
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/clang
// RUN: sh -c 'env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/term %t/gcc term; echo "status $?"' | %FileCheck --check-prefix=TERM %s
// A shell ignores SIGINT for its background jobs, and the ignoring is inherited: dflt runs the
// program with SIGINT at its default action, as in a terminal.
// RUN: sh -c '%{dflt} env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/int %t/clang int; echo "status $?"' | %FileCheck --check-prefix=INT %s
// RUN: sh -c 'env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/trace POMP_TRACE=1 %t/gcc term; echo "status $?"' | %FileCheck --check-prefix=TERM %s
// RUN: sh -c '%{dflt} env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/user %t/gcc user; echo "status $?"' | %FileCheck --check-prefix=USER %s
// RUN: sh -c '%{dflt} env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/twice %t/gcc twice; echo "status $?"' | %FileCheck --check-prefix=TWICE %s
// RUN: python3 %S/Inputs/profile_tree.py %t/term | %FileCheck --check-prefix=TREE %s
// RUN: python3 %S/Inputs/profile_tree.py %t/int | %FileCheck --check-prefix=TREE %s
// RUN: python3 %S/Inputs/profile_tree.py %t/trace | %FileCheck --check-prefix=TREE %s
// RUN: python3 %S/Inputs/profile_tree.py %t/user | %FileCheck --check-prefix=USERTREE %s
// RUN: python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print(p["partial"], p["partial_reason"])' %t/term/profile.json | %FileCheck --check-prefix=JSON-TERM %s
// RUN: python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print(p["partial"], p["partial_reason"])' %t/int/profile.json | %FileCheck --check-prefix=JSON-INT %s
// RUN: python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print(p["partial"], repr(p["partial_reason"]))' %t/user/profile.json | %FileCheck --check-prefix=JSON-USER %s
// RUN: %FileCheck --check-prefix=TXT %s < %t/term/profile.txt
// RUN: test -f %t/trace/trace/traces.otf2
// RUN: rm -rf %t

#include "pomplib.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void userHandler(int Signal) {
  static const char Message[] = "user handler\n";
  (void)Signal;
  if (write(STDOUT_FILENO, Message, sizeof Message - 1) < 0)
    _exit(2);
  exit(7);
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "term";
  if (strcmp(Mode, "user") == 0)
    signal(SIGINT, userHandler);
  static POMP_Handle_t Work, Open;
  int Sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : Sum)
  for (int I = 0; I < 5; ++I) {
    POMP_User_region_begin(&Work, 0, "50*type=userregion*name=work*file=sig.c*slines=1,1**");
    Sum += I;
    POMP_User_region_end(Work, 0);
  }
  printf("sum %d\n", Sum);
  fflush(stdout);
  POMP_User_region_begin(&Open, 0, "50*type=userregion*name=open*file=sig.c*slines=2,2**");
  const int Signal = strcmp(Mode, "term") == 0 ? SIGTERM : SIGINT;
  kill(getpid(), Signal);
  if (strcmp(Mode, "twice") == 0)
    kill(getpid(), Signal);
  // The handler returns at once; the program goes on until the signal's default action ends it.
  for (;;)
    pause();
}

// TERM: sum 20
// TERM-NEXT: status 143
// INT: sum 20
// INT-NEXT: status 130
// USER: sum 20
// USER-NEXT: user handler
// USER-NEXT: status 7
// TWICE: sum 20
// TWICE-NEXT: status 130

// TREE:      user region "work" @sig.c:1 visits=10 threads=2
// TREE: user region "open" @sig.c:2 visits=1 threads=1
// TREE: anomalies: open_at_finalize=1
// USERTREE:      user region "work" @sig.c:1 visits=10 threads=2
// USERTREE: user region "open" @sig.c:2 visits=1 threads=1

// JSON-TERM: True stopped by SIGTERM (15)
// JSON-INT: True stopped by SIGINT (2)
// JSON-USER: False ''

// TXT: PARTIAL: the run was stopped by SIGTERM (15); this is what was measured until then
