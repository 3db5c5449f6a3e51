! Fixed form: a directive Flang 19's parser rejects, continued on a `c$omp&` line, is hidden
! with its continuation and its end directive; the constructs around it are instrumented.
! RUN: %ompinst %s -o %t.f --no-line-directives 2> %t.err
! RUN: %FileCheck --check-prefix=WARN %s < %t.err
! RUN: %strip-fchecks %t.f | %FileCheck %s
! RUN: %run-equivalence --fortran --only gcc --gcc %gfortran --clang %flang --original %s --instrumented %t.f | %FileCheck --check-prefix=EVENTS %s
      PROGRAM HIDFIX
      INTEGER A, C
      C = 0
      A = 3
!$OMP PARALLEL
!$OMP SINGLE
c$omp task depend(in: a)
c$omp& depend(mutexinoutset: c)
      C = C + A
c$omp end task
!$OMP END SINGLE
!$OMP END PARALLEL
      PRINT *, C
      END

! WARN:      hidden_directives_fixed.f:13: warning: OpenMP directive 'task' is not instrumented and was hidden from the parse (Flang 19's parser rejects it: expected end of line); the output keeps it as written
! WARN-NEXT: hidden_directives_fixed.f:16: warning: OpenMP directive 'end task' is not instrumented and was hidden from the parse (it ends the directive hidden at line 13); the output keeps it as written
! WARN-NOT:  warning

! CHECK:      {{^}}      call POMP_Single_begin(pomp_h([[S:[0-9]+]]), -1){{$}}
! CHECK-NEXT: {{^}}c$omp task depend(in: a){{$}}
! CHECK-NEXT: {{^}}c$omp& depend(mutexinoutset: c){{$}}
! CHECK-NEXT: {{^}}      C = C + A{{$}}
! CHECK-NEXT: {{^}}c$omp end task{{$}}
! CHECK-NEXT: {{^}}      call POMP_Single_end(pomp_h([[S]]), -1){{$}}
! CHECK-NEXT: {{^}}!$OMP END SINGLE nowait{{$}}

! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 1
! EVENTS-NEXT: pomp-check: Parallel_end 1
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Single_enter 1
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 2
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 2
! EVENTS-NEXT: pomp-check: Parallel_end 2
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Single_enter 2
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 4
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 4
! EVENTS-NEXT: pomp-check: Parallel_end 4
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Single_enter 4
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 8
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 8
! EVENTS-NEXT: pomp-check: violations 0
