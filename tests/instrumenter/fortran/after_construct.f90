! A construct whose directive is the next line (not blank, not a comment) after an instrumented
! construct whose code ends with an exit event, or after a directive whose block code ends with a
! begin event, gets the key afterConstruct in its CTC string when its own code starts with its
! enter event: libpomp's enter takes that exit's or begin's time (docs/INSTRUMENTER.md,
! "Constructs one after another"). A statement, a directive line left alone or a master
! construct (it ends with its end) between the two, or an if value evaluated first, and the key
! is not written. The halves of a split construct are not marked. A counted DO loop that starts
! so, whose bounds are names and literals and whose block is one construct that starts with its
! enter and ends with its exit, repeats it with only the loop's increment and test between: the
! construct and the statement after the loop get the key ("Constructs in a loop").
! RUN: %ompinst %s -o %t.f90 --no-line-directives
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! Each CTC string is written twice: at the event call and in the handle initialisation.
! RUN: %strip-fchecks %t.f90 | grep -c 'afterConstruct=1' | %FileCheck --check-prefix=COUNT %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
program after_construct
  use omp_lib
  implicit none
  integer :: total, i, n, k
  total = 0
  n = 3
  !$omp parallel shared(total) private(k)
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
  !$omp atomic
  total = total + 20
  !$omp end critical
  k = 0
  ! After a statement.
  !$omp barrier
  !$omp end parallel
  !$omp parallel shared(total) private(i, k)
  !$omp single
  do i = 1, n
    !$omp task shared(total)
    !$omp atomic
    total = total + 300
    !$omp end task
  end do
  !$omp taskwait
  do i = 1, n + 1
    !$omp task shared(total)
    !$omp atomic
    total = total + 1000
    !$omp end task
  end do
  !$omp taskwait
  do i = 1, n
    k = i
    !$omp task shared(total)
    !$omp atomic
    total = total + 2000
    !$omp end task
  end do
  !$omp end single
  !$omp end parallel
  !$omp parallel do reduction(+:total)
  do i = 1, 4
    total = total + 100
  end do
  !$omp end parallel do
  print *, 'total', total
end program after_construct

! CHECK-DAG: '{{[0-9]+}}*type=single*file={{[^*]*}}after_construct.f90*slines=24,24*elines=42,42*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.f90*slines=26,26*elines=29,29*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.f90*slines=32,32*elines=35,35*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.f90*slines=37,37*elines=40,40*hasIf=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=taskwait*file={{[^*]*}}after_construct.f90*slines=41,41*elines=41,41*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=do*file={{[^*]*}}after_construct.f90*slines=44,44*elines=49,49*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=master*file={{[^*]*}}after_construct.f90*slines=50,50*elines=53,53*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=critical*file={{[^*]*}}after_construct.f90*slines=55,55*elines=58,58*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=barrier*file={{[^*]*}}after_construct.f90*slines=61,61*elines=61,61*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=parallel*file={{[^*]*}}after_construct.f90*slines=63,63*elines=87,87*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.f90*slines=66,66*elines=69,69*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=taskwait*file={{[^*]*}}after_construct.f90*slines=71,71*elines=71,71*afterConstruct=1*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.f90*slines=73,73*elines=76,76*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=taskwait*file={{[^*]*}}after_construct.f90*slines=78,78*elines=78,78*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.f90*slines=81,81*elines=84,84*function=after_construct**'
! CHECK-DAG: '{{[0-9]+}}*type=paralleldo*file={{[^*]*}}after_construct.f90*slines=88,88*elines=92,92*hasReduction=1*function=after_construct**'

! COUNT: 18

! EVENTS-LABEL: threads 2
! EVENTS: Task_create_enter 13
! EVENTS: violations 0
