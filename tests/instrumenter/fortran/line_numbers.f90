! Inserted lines are followed by a `# <line> "<file>"` marker: gfortran's and flang's messages
! (and debug info) name the original lines.
! RUN: %ompinst %s -o %t.f90
! RUN: %FileCheck --check-prefix=MARKERS %s < %t.f90
! RUN: not %gfortran -fopenmp -fimplicit-none -fsyntax-only %t.f90 2>&1 | %FileCheck --check-prefix=GFORTRAN %s
! RUN: not %flang -fopenmp -fimplicit-none -fsyntax-only %t.f90 2>&1 | %FileCheck --check-prefix=FLANG %s
program p
  integer :: i
  i = 1
!$omp parallel
  i = undefined_y + 1
!$omp end parallel
end program
! MARKERS:      call POMP_Init()
! MARKERS-NEXT: # 9 "{{.*}}line_numbers.f90"
! MARKERS:      # 10 "{{.*}}line_numbers.f90"
! MARKERS-NEXT: !$omp parallel firstprivate(pomp_ctx_1)
! MARKERS-NEXT: call POMP_Parallel_begin_forked
! MARKERS-NEXT: # 11 "{{.*}}line_numbers.f90"
! GFORTRAN: line_numbers.f90:11:
! FLANG: line_numbers.f90:11:{{[0-9]+}}: error: No explicit type declared for 'undefined_y'
