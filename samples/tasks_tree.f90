! tasks_tree.f90: task parallelism in Fortran: a recursive Fibonacci with a task per call above a
! cutoff (shared results, firstprivate argument, taskwait, an atomic count of the tasks), and a
! taskgroup whose two tasks compute two Fibonacci numbers. Integer results: the same with any
! thread count. (flang 19 loses what tasks on other threads write into a dummy or main-program
! array, so every task here writes a local variable of its parent.)
module task_fib
  implicit none
  integer, parameter :: cutoff = 15
  integer :: tasks_created = 0
contains
  recursive function fib(n) result(r)
    integer, intent(in) :: n
    integer(kind=8) :: r, a, b
    if (n < 2) then
      r = n
      return
    end if
    if (n < cutoff) then
      r = fib(n - 1) + fib(n - 2)
      return
    end if
    !$omp atomic
    tasks_created = tasks_created + 2
    !$omp task shared(a) firstprivate(n)
    a = fib(n - 1)
    !$omp end task
    !$omp task shared(b) firstprivate(n)
    b = fib(n - 2)
    !$omp end task
    !$omp taskwait
    r = a + b
  end function fib

  ! Two Fibonacci numbers in a taskgroup: a task each.
  function two_fibs(m, n) result(r)
    integer, intent(in) :: m, n
    integer(kind=8) :: r, a, b
    !$omp taskgroup
    !$omp task shared(a) firstprivate(m)
    a = fib(m)
    !$omp end task
    !$omp task shared(b) firstprivate(n)
    b = fib(n)
    !$omp end task
    !$omp end taskgroup
    r = a + b
  end function two_fibs

  recursive function serial_fib(n) result(r)
    integer, intent(in) :: n
    integer(kind=8) :: r
    if (n < 2) then
      r = n
    else
      r = serial_fib(n - 1) + serial_fib(n - 2)
    end if
  end function serial_fib
end module task_fib

program tasks_tree
  use task_fib
  implicit none
  integer, parameter :: n = 25
  integer(kind=8) :: r, pair
  !$omp parallel
  !$omp single
  r = fib(n)
  pair = two_fibs(20, 22)
  !$omp end single
  !$omp end parallel
  print '(a,i0,a,i0)', 'fib(', n, ') = ', r
  print '(a,i0)', 'fib(20) + fib(22) = ', pair
  print '(a,i0)', 'tasks created ', tasks_created
  if (r == serial_fib(n) .and. pair == serial_fib(20) + serial_fib(22)) then
    print '(a)', 'check: OK'
  else
    print '(a)', 'check: FAILED'
    stop 1
  end if
end program tasks_tree
