/* A program of native objects: it needs alpha (an object), beta (a member of a thin archive),
 * gamma (a member of an archive that also holds delta, which the program does not need) and sigma
 * (a shared library). */
#include <stdio.h>

void POMP_Init_Handles(void);

/* With -DMAIN_INIT main's file is instrumented too (it defines an init function, as ompinst's
 * output does), so that the handle initialisation needs no constructor to start the measurement
 * (object.test). */
#ifdef MAIN_INIT
void POMP_Init_main_c_9999999999999999(void);
void POMP_Init_main_c_9999999999999999(void) { puts("init main"); }
#endif
void alpha_work(void);
void beta_work(void);
void gamma_work(void);
void sigma_work(void);

int main(void) {
  POMP_Init_Handles();
  alpha_work();
  beta_work();
  gamma_work();
  sigma_work();
  puts("main done");
  return 0;
}
