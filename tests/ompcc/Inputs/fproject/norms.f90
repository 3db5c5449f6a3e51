! A module with an OpenMP reduction: its procedure is norms::sum_norm.
module norms
  implicit none
contains
  function sum_norm(v) result(s)
    real(kind=8), intent(in) :: v(:)
    real(kind=8) :: s
    integer :: i
    s = 0
    !$omp parallel do reduction(+:s)
    do i = 1, size(v)
      s = s + abs(v(i))
    end do
    !$omp end parallel do
  end function sum_norm
end module norms
