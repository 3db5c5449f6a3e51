/* A program linked with -flto: it needs epsilon (a bitcode object), zeta (a bitcode member of an
 * archive) and alpha (a native object). */
#include <stdio.h>

void POMP_Init_Handles(void);
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
