! Every construct's CTC string names the procedure it is in, without --functions (as in C,
! docs/INSTRUMENTER.md, "Function context"): module procedures as mod::proc, internal ones as
! host::inner, the main program by its name, an external procedure by its own; the OpenMP lock
! routines' wrappers too. Function regions themselves are not added.
! RUN: %ompinst %s -o %t.f90 --no-line-directives
! The CTC strings of the handle initialisation, continuation lines joined, in order:
! RUN: %strip-fchecks %t.f90 | sed -e ':a' -e '/&$/N; s/&\n *&//; ta' | grep -o "POMP_Get_handle(.*" | sed -e 's/file=[^*]*\*slines=[0-9,]*\*elines=[0-9,]*\*//' | %FileCheck %s
! RUN: %strip-fchecks %t.f90 | %FileCheck --check-prefix=NOFUNC %s
! NOFUNC-NOT: POMP_Function_begin
! Built by ompfc and run: the profile's rows name their procedures.
! RUN: rm -rf %t.dir && mkdir -p %t.dir/scratch
! RUN: cd %t.dir && env TMPDIR=%t.dir/scratch %ompfc --cc=%gfortran -fopenmp %s -o %t.dir/g
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.dir/ge %t.dir/g > /dev/null
! RUN: python3 %S/../../runtime/Inputs/profile_tree.py %t.dir/ge | %FileCheck --check-prefix=PROFILE %s
! RUN: rm -rf %t.dir
module field
  implicit none
contains
  subroutine smooth(a, n)
    integer, intent(in) :: n
    real, intent(inout) :: a(n)
    integer :: i
    !$omp parallel do
    do i = 2, n - 1
      a(i) = 0.5 * a(i)
    end do
    !$omp end parallel do
  end subroutine smooth
end module field

subroutine tally(total)
  use omp_lib
  implicit none
  integer, intent(inout) :: total
  integer(omp_lock_kind) :: lock
  call omp_init_lock(lock)
  !$omp parallel
  call add_one()
  !$omp end parallel
  call omp_destroy_lock(lock)
contains
  subroutine add_one()
    call omp_set_lock(lock)
    total = total + 1
    call omp_unset_lock(lock)
    !$omp barrier
  end subroutine add_one
end subroutine tally

program driver
  use field
  implicit none
  real :: a(8)
  integer :: total
  a = 1.0
  total = 0
  call smooth(a, 8)
  call tally(total)
  !$omp parallel
  !$omp single
  print *, total
  !$omp end single
  !$omp end parallel
end program driver

! CHECK:      type=paralleldo*function=field::smooth**')
! CHECK-NEXT: type=do*function=field::smooth**')
! CHECK-NEXT: type=implicitbarrier*function=field::smooth**')
! CHECK-NEXT: type=parallel*function=tally**')
! CHECK-NEXT: type=implicitbarrier*function=tally**')
! CHECK-NEXT: type=barrier*function=tally::add_one**')
! CHECK-NEXT: type=parallel*function=driver**')
! CHECK-NEXT: type=implicitbarrier*function=driver**')
! CHECK-NEXT: type=single*afterConstruct=1*function=driver**')
! CHECK-NEXT: type=implicitbarrier*function=driver**')
! CHECK-NEXT: type=apicall*name=omp_init_lock*function=tally**')
! CHECK-NEXT: type=apicall*name=omp_destroy_lock*function=tally**')
! CHECK-NEXT: type=apicall*name=omp_set_lock*function=tally::add_one**')
! CHECK-NEXT: type=apicall*name=omp_unset_lock*function=tally::add_one**')
! CHECK-NOT:  function=
! PROFILE: threads: 2
! PROFILE-DAG: parallel @{{.*}}function_context.f90:23 (field::smooth) visits=1 threads=1
! PROFILE-DAG: parallel body @{{.*}}function_context.f90:23 (field::smooth) visits=2 threads=2
! PROFILE-DAG: loop @{{.*}}function_context.f90:23 (field::smooth) visits=2 threads=2
! PROFILE-DAG: implicit barrier @{{.*}}function_context.f90:23 (field::smooth) visits=2 threads=2
! PROFILE-DAG: parallel @{{.*}}function_context.f90:37 (tally) visits=1 threads=1
! PROFILE-DAG: parallel body @{{.*}}function_context.f90:37 (tally) visits=2 threads=2
! PROFILE-DAG: implicit barrier @{{.*}}function_context.f90:37 (tally) visits=2 threads=2
! PROFILE-DAG: barrier @{{.*}}function_context.f90:46 (tally::add_one) visits=2 threads=2
! PROFILE-DAG: set lock "omp_set_lock" @{{.*}}function_context.f90:43 (tally::add_one) visits=2 threads=2
! PROFILE-DAG: unset lock event "omp_unset_lock" @{{.*}}function_context.f90:45 (tally::add_one) visits=2 threads=2
! PROFILE-DAG: parallel @{{.*}}function_context.f90:59 (driver) visits=1 threads=1
! PROFILE-DAG: parallel body @{{.*}}function_context.f90:59 (driver) visits=2 threads=2
! PROFILE-DAG: implicit barrier @{{.*}}function_context.f90:59 (driver) visits=2 threads=2
! PROFILE-DAG: single @{{.*}}function_context.f90:60 (driver) visits=2 threads=2
! PROFILE-DAG: single body @{{.*}}function_context.f90:60 (driver) visits=1 threads=1
! PROFILE-DAG: implicit barrier @{{.*}}function_context.f90:60 (driver) visits=2 threads=2
! PROFILE-DAG: init lock event "omp_init_lock" @{{.*}}function_context.f90:36 (tally) visits=1 threads=1
! PROFILE-DAG: destroy lock event "omp_destroy_lock" @{{.*}}function_context.f90:40 (tally) visits=1 threads=1
! PROFILE: anomalies: none
! ompfc links the sanitizer build's libpomp, which gfortran's program does not load.
! UNSUPPORTED: sanitize
