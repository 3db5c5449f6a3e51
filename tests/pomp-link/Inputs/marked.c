/* A compilation unit that ompcc compiled uninstrumented, as pomp-link sees it: compiled with
 * -include of the header ompcc generates (handle-init-gen uninstrumented). With -DWITH_MAIN it
 * defines main, which then calls nothing of POMP: the measurement must be started for it. */
#include <stdio.h>

#ifdef WITH_MAIN
int main(void) {
  puts("marked main");
  return 0;
}
#else
void marked_work(void);
void marked_work(void) { puts("marked works"); }
#endif
