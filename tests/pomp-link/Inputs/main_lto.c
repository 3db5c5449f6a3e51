/* A program linked with -flto: it needs epsilon (a bitcode object), zeta (a bitcode member of an
 * archive) and alpha (a native object). */
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
void epsilon_work(void);
void zeta_work(void);

int main(void) {
  POMP_Init_Handles();
  alpha_work();
  epsilon_work();
  zeta_work();
  puts("main done");
  return 0;
}
