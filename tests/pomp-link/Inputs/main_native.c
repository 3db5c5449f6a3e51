/* A program of native objects: it needs alpha (an object), beta (a member of a thin archive),
 * gamma (a member of an archive that also holds delta, which the program does not need) and sigma
 * (a shared library). */
#include <stdio.h>

void POMP_Init_Handles(void);
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
