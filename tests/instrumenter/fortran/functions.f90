! --functions in free form: Function_begin first in the execution part of every subroutine and
! function (module, internal, external), Function_end before every return (alone, after a label
! that a goto reaches, in a one-line IF whose condition is evaluated once, after another
! statement on its line), before stop, and before the end statement (or `contains`). Pure and
! elemental procedures, interface bodies and statement functions are left alone, the first two
! with a warning. --function-filter selects by qualified name (`mod::proc`, `host::inner`).
! RUN: %ompinst %s -o %t.f90 --no-line-directives --functions 2> %t.err
! RUN: %FileCheck --check-prefix=WARN %s < %t.err
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
! RUN: %ompinst %s -o %t.filtered.f90 --no-line-directives --function-filter='^KERNELS::' 2>&1 | %FileCheck --allow-empty --check-prefix=FILTERED-WARN %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --threads 2 --original %s --instrumented %t.filtered.f90 | %FileCheck --check-prefix=FILTERED %s
! RUN: %ompinst %s -o %t.event.f90 --no-line-directives --functions --level=user=event 2>/dev/null
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --threads 2 --original %s --instrumented %t.event.f90 | %FileCheck --check-prefix=EVENT %s
! RUN: not %ompinst %s -o %t.bad.f90 --function-filter='(' 2>&1 | %FileCheck --check-prefix=BAD-FILTER %s
! BAD-FILTER: error: invalid function filter '('
module kernels
  implicit none
  interface
    subroutine external_one(x)
      integer, intent(inout) :: x
    end subroutine external_one
  end interface
contains
  subroutine accumulate(n, s)
    integer, intent(in) :: n
    integer, intent(inout) :: s
    integer :: i
    if (n < 0) return
    !$omp parallel do reduction(+:s)
    do i = 1, n
      s = s + i
    end do
    if (s > 100000) then
      return
    end if
    s = s + 1; if (s > 50000) return
  end subroutine accumulate
  pure integer function square(x)
    integer, intent(in) :: x
    square = x * x
  end function square
  elemental integer function cube(x)
    integer, intent(in) :: x
    cube = x * x * x
  end function cube
  impure elemental integer function plus_one(x)
    integer, intent(in) :: x
    plus_one = x + 1
  end function plus_one
  integer function twice(x) result(r)
    integer, intent(in) :: x
    r = 2 * x
  end function twice
  subroutine in_team(total)
    integer, intent(inout) :: total
    !$omp atomic
    total = total + 1
  end subroutine in_team
end module kernels

subroutine external_one(x)
  implicit none
  integer, intent(inout) :: x
  integer :: half, y
  half(y) = y / 2
  x = half(x) + 1
end subroutine external_one

subroutine outer(k)
  implicit none
  integer :: k
  k = k + 1
  call inner()
  if (k > 2) goto 10
  k = k + 1
10 return
contains
  subroutine inner()
    k = k * 2
    if (bump() > 3) return
    k = k + 100
  end subroutine inner
  integer function bump()
    k = k + 1
    bump = k
  end function bump
end subroutine outer

subroutine finish(s)
  implicit none
  integer :: s
  if (s < 0) error stop 2
  !$omp parallel
  if (s < -1) stop 3
  !$omp end parallel
  print *, 'final', s
  stop
end subroutine finish

program main
  use kernels
  implicit none
  integer :: s, k, total, v(3)
  s = 0
  call accumulate(10, s)
  call accumulate(-1, s)
  k = 1
  call outer(k)
  call external_one(k)
  total = 0
  !$omp parallel
  call in_team(total)
  !$omp end parallel
  v = plus_one([1, 2, 3])
  print *, s, square(3), cube(2), twice(4), k, v, total > 0
  call finish(s)
end program main

! WARN-NOT:  warning
! WARN:      functions.f90:39: warning: procedure 'kernels::square' is not instrumented (--functions): it is pure (a pure procedure may call no impure one)
! WARN-NEXT: functions.f90:43: warning: procedure 'kernels::cube' is not instrumented (--functions): it is elemental, so pure (a pure procedure may call no impure one)
! WARN-NOT:  warning

! CHECK-LABEL: subroutine accumulate(n, s)
! CHECK:       call POMP_Function_begin(pomp_h([[A:[0-9]+]]), -1, '{{[0-9]+}}*type=function*name=accumulate*group=kernels*file={{.*}}functions.f90*slines=25,25*elines=38,38**')
! CHECK-NEXT:  if (n < 0) call POMP_Function_end(pomp_h([[A]]), -1)
! CHECK-NEXT:  if (n < 0) return
! CHECK:       if (s > 100000) then
! CHECK-NEXT:  call POMP_Function_end(pomp_h([[A]]), -1)
! CHECK-NEXT:  return
! CHECK:       s = s + 1; if (s > 50000) call POMP_Function_end(pomp_h([[A]]), -1); if (s > 50000) return
! CHECK-NEXT:  call POMP_Function_end(pomp_h([[A]]), -1)
! CHECK-NEXT:  end subroutine accumulate
! CHECK-LABEL: pure integer function square(x)
! CHECK-NEXT:  integer, intent(in) :: x
! CHECK-NEXT:  square = x * x
! CHECK-LABEL: impure elemental integer function plus_one(x)
! CHECK:       call POMP_Function_begin({{.*}}name=plus_one*group=kernels*
! CHECK-LABEL: subroutine external_one(x)
! CHECK:       half(y) = y / 2
! CHECK:       call POMP_Function_begin({{.*}}name=external_one*file=
! CHECK-LABEL: subroutine outer(k)
! CHECK:       call POMP_Function_begin(pomp_h([[O:[0-9]+]]), -1, '{{.*}}name=outer*file=
! CHECK:       if (k > 2) goto 10
! CHECK-NEXT:  k = k + 1
! CHECK-NEXT:  10 continue
! CHECK-NEXT:  call POMP_Function_end(pomp_h([[O]]), -1)
! CHECK-NEXT:  {{^   }}return
! CHECK-NEXT:  call POMP_Function_end(pomp_h([[O]]), -1)
! CHECK-NEXT:  contains
! CHECK:       logical pomp_fret_[[I:[0-9]+]]
! CHECK:       call POMP_Function_begin(pomp_h([[I]]), -1, '{{.*}}name=inner*group=outer*
! CHECK:       pomp_fret_[[I]] = bump() > 3
! CHECK-NEXT:  if (pomp_fret_[[I]]) call POMP_Function_end(pomp_h([[I]]), -1)
! CHECK-NEXT:  if (pomp_fret_[[I]]) return
! CHECK-LABEL: subroutine finish(s)
! CHECK:       if (s < 0) call POMP_Function_end(pomp_h([[F:[0-9]+]]), -1)
! CHECK-NEXT:  if (s < 0) error stop 2
! CHECK:       !$omp parallel
! CHECK-NOT:   Function_end
! CHECK:       if (s < -1) stop 3
! CHECK:       print *, 'final', s
! CHECK-NEXT:  call POMP_Function_end(pomp_h([[F]]), -1)
! CHECK-NEXT:  stop
! CHECK-NEXT:  call POMP_Function_end(pomp_h([[F]]), -1)
! CHECK-NEXT:  end subroutine finish

! EVENTS-LABEL: threads 1
! EVENTS:       pomp-check: Function_begin 12
! EVENTS-NEXT:  pomp-check: Function_end 12
! EVENTS:       pomp-check: violations 0
! EVENTS-LABEL: threads 2
! EVENTS:       pomp-check: Function_begin 13
! EVENTS-NEXT:  pomp-check: Function_end 13
! EVENTS:       pomp-check: violations 0
! EVENTS-LABEL: threads 4
! EVENTS:       pomp-check: Function_begin 15
! EVENTS-NEXT:  pomp-check: Function_end 15
! EVENTS:       pomp-check: violations 0

! FILTERED-WARN-NOT: external_one
! FILTERED-WARN:     warning: procedure 'kernels::square' is not instrumented
! FILTERED-LABEL: threads 2
! FILTERED:       pomp-check: Function_begin 8
! FILTERED-NEXT:  pomp-check: Function_end 8
! FILTERED:       pomp-check: violations 0

! EVENT-LABEL: threads 2
! EVENT-NOT:   Function_begin
! EVENT:       pomp-check: Function_event 13
! EVENT:       pomp-check: violations 0
! --function-exclude (which implies --functions) leaves out the procedures it matches, any case.
! RUN: %ompinst %s -o %t.excluded.f90 --no-line-directives --function-exclude='::ACCUMULATE$' 2>/dev/null
! RUN: %strip-fchecks %t.excluded.f90 | %FileCheck --check-prefix=EXCLUDED %s
! EXCLUDED-LABEL: subroutine accumulate(n, s)
! EXCLUDED-NOT:   POMP_Function_begin
! EXCLUDED:       end subroutine accumulate
! EXCLUDED:       call POMP_Function_begin({{.*}}name=plus_one*group=kernels*
! RUN: not %ompinst %s -o %t.bad.f90 --function-exclude='[' 2>&1 | %FileCheck --check-prefix=BAD-EXCLUDE %s
! BAD-EXCLUDE: error: invalid function exclude pattern '['
