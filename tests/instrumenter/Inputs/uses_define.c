/* Needs the -D and -I of its compile command (compile_commands.test). */
#include "config.h"
#include <stdio.h>
int main(void) {
#pragma omp parallel num_threads(TEAM_SIZE)
  printf("%d\n", GREETING);
  return 0;
}
