C     pomp_lib.h in fixed form: user regions with implicit interfaces,
C     monitoring switched off and on, a constant of the API.
      PROGRAM USERF
      INCLUDE 'pomp_lib.h'
      INTEGER*8 H1, H2
      CHARACTER*(*) C1, C2
      PARAMETER (C1 =
     & '58*type=userregion*name=outer*file=user_fixed.f*slines=9,9**')
      PARAMETER (C2 =
     & '60*type=userregion*name=inner*file=user_fixed.f*slines=10,10**')
      INTEGER I
      DATA H1, H2 /0, 0/
      CALL POMP_INIT()
      DO 10 I = 1, 3
        IF (I .EQ. 2) CALL POMP_OFF()
        CALL POMP_USER_REGION_BEGIN(H1, 0, C1)
        CALL POMP_USER_REGION_BEGIN(H2, 0, C2)
        CALL POMP_USER_REGION_END(H2, 0)
        CALL POMP_USER_REGION_END(H1, 0)
        IF (I .EQ. 2) CALL POMP_ON()
   10 CONTINUE
      WRITE (*, '(A,I0)') 'user group ', POMP_GROUP_USER
      CALL POMP_FINALIZE()
      END
