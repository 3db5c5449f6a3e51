! --functions in fixed form: the calls start in column 7, a moved label stays in columns 1-5
! (`99 return` reached by a goto becomes `99 continue` before Function_end), a labelled end
! statement that a goto reaches likewise; the return of a labelled one-line IF that ends an F77 DO
! loop becomes a jump to the Function_end before the end statement (labelled 99999, unused).
! RUN: %ompinst %s -o %t.f --no-line-directives --functions 2> %t.err
! RUN: %FileCheck --allow-empty --check-prefix=WARN %s < %t.err
! RUN: %strip-fchecks %t.f | %FileCheck %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f | %FileCheck --check-prefix=EVENTS %s
      program fixed
      implicit none
      integer k, n
      external search
      integer search
      k = 0
      call step(k)
      call step(k)
      n = search(5)
      print *, k, n
      end

      subroutine step(k)
      integer k
      k = k + 1
      if (k .gt. 1) goto 99
c$omp parallel
c$omp atomic
      k = k + 1
c$omp end parallel
      k = k + 10
   99 return
      end

      integer function search(m)
      integer m, i
      search = 0
      do 10 i = 1, 100
         if (i .eq. m) goto 20
   10 if (i .gt. 50) return
   20 search = i
      if (search .gt. 0) goto 30
      search = -1
   30 end

! WARN-NOT: warning
! CHECK-LABEL: subroutine step(k)
! CHECK:       {{^      }}call POMP_Function_begin(pomp_h([[S:[0-9]+]]), -1, '
! CHECK:       {{^      }}if (k .gt. 1) goto 99
! CHECK:       {{^      }}k = k + 10
! CHECK-NEXT:  {{^   99 continue$}}
! CHECK-NEXT:  {{^      }}call POMP_Function_end(pomp_h([[S]]), -1)
! CHECK-NEXT:  {{^        }}return
! CHECK-NEXT:  {{^      }}call POMP_Function_end(pomp_h([[S]]), -1)
! CHECK-NEXT:  {{^      end$}}
! CHECK-LABEL: integer function search(m)
! CHECK:       call POMP_Function_begin(pomp_h([[F:[0-9]+]]), -1, '{{.*}}name=search*
! CHECK:       {{^   10 if \(i .gt. 50\) goto 99999$}}
! CHECK:       {{^   30 continue$}}
! CHECK-NEXT:  {{^99999 call POMP_Function_end\(pomp_h\(}}[[F]]), -1)
! CHECK-NEXT:  {{^      end$}}

! EVENTS-LABEL: threads 1
! EVENTS:       pomp-check: Function_begin 3
! EVENTS-NEXT:  pomp-check: Function_end 3
! EVENTS:       pomp-check: violations 0
! EVENTS-LABEL: threads 4
! EVENTS:       pomp-check: Function_begin 3
! EVENTS-NEXT:  pomp-check: Function_end 3
! EVENTS:       pomp-check: violations 0
