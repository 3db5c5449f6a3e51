! A construct whose directive is the next line (not blank, not a comment) after an instrumented
! construct whose code ends with an exit event, or after a directive whose block code ends with a
! begin event, gets the key afterConstruct in its CTC string when its own code starts with its
! enter event: libpomp's enter takes that exit's or begin's time (docs/INSTRUMENTER.md,
! "Constructs one after another"). A statement, a directive line left alone or a master
! construct (it ends with its end) between the two, or an if value evaluated first, and the key
! is not written. The halves of a split construct are not marked.
! RUN: %ompinst %s -o %t.f90 --no-line-directives
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! Each CTC string is written twice: at the event call and in the handle initialisation.
! RUN: %strip-fchecks %t.f90 | grep -c 'afterConstruct=1' | %FileCheck --check-prefix=COUNT %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
program after_construct
  use omp_lib
  implicit none
  integer :: total, i
  total = 0
  !$omp parallel shared(total)
  ! First in the parallel's block, after its begin.
  !$omp single
  ! First in the single's block.
  !$omp task shared(total)
  !$omp atomic
  total = total + 1
  !$omp end task

  ! After a task, a comment and a blank line between.
  !$omp task shared(total)
  !$omp atomic
  total = total + 2
  !$omp end task
  ! The if value is evaluated before the enter.
  !$omp task shared(total) if(total >= 0)
  !$omp atomic
  total = total + 3
  !$omp end task
  !$omp taskwait
  !$omp end single
  ! After the single's exit.
  !$omp do
  do i = 1, 4
    !$omp atomic
    total = total + i
  end do
  !$omp end do
  !$omp master
  !$omp atomic
  total = total + 10
  !$omp end master
  ! After a master construct, which ends with its end on one thread only.
  !$omp critical
  total = total + 20
  !$omp end critical
  total = total + 0
  ! After a statement.
  !$omp barrier
  !$omp end parallel
  !$omp parallel do reduction(+:total)
  do i = 1, 4
    total = total + 100
  end do
  !$omp end parallel do
  print *, 'total', total
end program after_construct

! CHECK-DAG: '{{[0-9]+}}*type=single*file={{[^*]*}}after_construct.f90*slines=20,20*elines=38,38*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.f90*slines=22,22*elines=25,25*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.f90*slines=28,28*elines=31,31*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.f90*slines=33,33*elines=36,36*hasIf=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=taskwait*file={{[^*]*}}after_construct.f90*slines=37,37*elines=37,37*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=do*file={{[^*]*}}after_construct.f90*slines=40,40*elines=45,45*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=master*file={{[^*]*}}after_construct.f90*slines=46,46*elines=49,49*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=critical*file={{[^*]*}}after_construct.f90*slines=51,51*elines=53,53*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=barrier*file={{[^*]*}}after_construct.f90*slines=56,56*elines=56,56*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=paralleldo*file={{[^*]*}}after_construct.f90*slines=58,58*elines=62,62*hasReduction=1*function=after_construct**'

! COUNT: 10

! EVENTS-LABEL: threads 2
! EVENTS: Task_create_enter 3
! EVENTS: violations 0
