! The target family on the host, as C's target.c: Target_data_enter/exit around `target data`
! (whose body is host code and is instrumented), Target_enter/exit around `target` and its
! combined forms with nothing inside (device code), Target_data_event after `target enter data`,
! `target update` and `target exit data`. The device number is the device clause's when reading it
! again is harmless, else -1. Runs on the host device, with gfortran only: flang-new-19 links
! target code against libomptarget, which this toolkit does not install (and has no device clause
! on target yet).
! RUN: %ompinst %s -o %t.f90 --no-line-directives 2> %t.err
! RUN: %FileCheck --allow-empty --check-prefix=WARN %s < %t.err
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! RUN: %run-equivalence --fortran --only gcc --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
program target
  implicit none
  integer :: a(100), i, s, dev
  do i = 1, 100
    a(i) = i
  end do
  s = 0
  dev = 0
  !$omp target data map(to: a)
  !$omp target map(tofrom: s)
  do i = 1, 100
    s = s + a(i)
  end do
  !$omp end target
  !$omp parallel do reduction(+:s)
  do i = 1, 10
    s = s + 1
  end do
  !$omp end target data
  !$omp target enter data map(to: a) device(dev)
  !$omp target update to(a)
  !$omp target exit data map(release: a)
  !$omp target parallel do map(tofrom: a)
  do i = 1, 100
    a(i) = a(i) + 1
  end do
  !$omp end target parallel do
  print *, 'sum', s, a(1), a(100)
end program target

! WARN-NOT: warning

! CHECK:      call POMP_Target_data_enter(pomp_h([[D:[0-9]+]]), -1, -1, '{{[0-9]+}}*type=targetdata*
! CHECK-NEXT: !$omp target data map(to: a)
! CHECK-NEXT: call POMP_Target_enter(pomp_h([[T:[0-9]+]]), -1, -1, '{{[0-9]+}}*type=target*
! CHECK-NEXT: !$omp target map(tofrom: s)
! CHECK-NEXT: do i = 1, 100
! CHECK-NEXT: s = s + a(i)
! CHECK-NEXT: end do
! CHECK-NEXT: !$omp end target
! CHECK-NEXT: call POMP_Target_exit(pomp_h([[T]]), -1)
! CHECK-NEXT: call POMP_Parallel_fork(
! CHECK:      !$omp end target data
! CHECK-NEXT: call POMP_Target_data_exit(pomp_h([[D]]), -1)
! CHECK-NEXT: !$omp target enter data map(to: a) device(dev)
! CHECK-NEXT: call POMP_Target_data_event(pomp_h({{[0-9]+}}), -1, int(dev, 4), '{{[0-9]+}}*type=targetenterdata*
! CHECK-NEXT: !$omp target update to(a)
! CHECK-NEXT: call POMP_Target_data_event(pomp_h({{[0-9]+}}), -1, -1, '{{[0-9]+}}*type=targetupdate*
! CHECK-NEXT: !$omp target exit data map(release: a)
! CHECK-NEXT: call POMP_Target_data_event(pomp_h({{[0-9]+}}), -1, -1, '{{[0-9]+}}*type=targetexitdata*
! CHECK-NEXT: call POMP_Target_enter({{.*}}type=targetparalleldo*
! CHECK-NEXT: !$omp target parallel do map(tofrom: a)
! CHECK-NEXT: do i = 1, 100
! CHECK-NEXT: a(i) = a(i) + 1
! CHECK-NEXT: end do
! CHECK-NEXT: !$omp end target parallel do
! CHECK-NEXT: call POMP_Target_exit(

! EVENTS-LABEL: threads 2
! EVENTS:       pomp-check: Target_enter 2
! EVENTS-NEXT:  pomp-check: Target_exit 2
! EVENTS-NEXT:  pomp-check: Target_data_enter 1
! EVENTS-NEXT:  pomp-check: Target_data_exit 1
! EVENTS-NEXT:  pomp-check: Target_data_event 3
! EVENTS-NEXT:  pomp-check: violations 0
