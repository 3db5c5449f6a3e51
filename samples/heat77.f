C     heat77.f: FORTRAN 77 in fixed form: explicit heat diffusion on
C     a rod, with its arrays in a COMMON block. One PARALLEL region
C     around all time steps, labelled DO loops shared out with C$OMP DO
C     (the END DO after the loop's CONTINUE), a named CRITICAL section,
C     MASTER and !$ conditional lines, continuation lines in column 6.
C     Checked against a serial run.
      PROGRAM HEAT77
      INTEGER N, NSTEP
      PARAMETER (N = 200, NSTEP = 50)
      DOUBLE PRECISION T(0:N+1), TNEW(0:N+1), S(0:N+1), SNEW(0:N+1)
      COMMON /FIELD/ T, TNEW
      INTEGER I, K, NCRIT, NTHR
!$    INTEGER OMP_GET_NUM_THREADS
!$    EXTERNAL OMP_GET_NUM_THREADS
      NCRIT = 0
      NTHR = 1
      DO 5 I = 0, N + 1
        T(I) = 0.0D0
        S(I) = 0.0D0
    5 CONTINUE
      T(N/2) = 1000.0D0
      S(N/2) = 1000.0D0
C$OMP PARALLEL PRIVATE(I, K)
      DO 20 K = 1, NSTEP
C$OMP DO
      DO 10 I = 1, N
        TNEW(I) = T(I) + 0.25D0 * (T(I-1) - 2.0D0 * T(I)
     &            + T(I+1))
   10 CONTINUE
C$OMP END DO
C$OMP DO
      DO 15 I = 1, N
        T(I) = TNEW(I)
   15 CONTINUE
C$OMP END DO
   20 CONTINUE
C$OMP CRITICAL (TALLY)
      NCRIT = NCRIT + 1
C$OMP END CRITICAL (TALLY)
C$OMP MASTER
!$    NTHR = OMP_GET_NUM_THREADS()
C$OMP END MASTER
C$OMP END PARALLEL
      DO 40 K = 1, NSTEP
        DO 30 I = 1, N
          SNEW(I) = S(I) + 0.25D0 * (S(I-1) - 2.0D0 * S(I) + S(I+1))
   30   CONTINUE
        DO 35 I = 1, N
          S(I) = SNEW(I)
   35   CONTINUE
   40 CONTINUE
      WRITE (*, '(A,I0,A,I0)') 'rod ', N, ' steps ', NSTEP
      WRITE (*, '(A,F14.8)') 'centre ', T(N/2)
      WRITE (*, '(A,F14.8)') 'neighbour ', T(N/2+5)
      IF (NCRIT .EQ. NTHR) THEN
        WRITE (*, '(A)') 'critical: one entry per thread'
      ELSE
        WRITE (*, '(A)') 'critical: WRONG'
      END IF
      DO 50 I = 0, N + 1
        IF (T(I) .NE. S(I)) THEN
          WRITE (*, '(A)') 'check: FAILED'
          STOP 1
        END IF
   50 CONTINUE
      WRITE (*, '(A)') 'check: OK'
      END
