/* Binds every handle of the program, then lets each instrumented file show its handles. Bindings
 * printed before "main" were made when the files were loaded. */
#include <stdio.h>

void POMP_Init_Handles(void);
void report_a(void);
void report_b(void);

int main(void) {
  printf("main\n");
  POMP_Init_Handles();
  report_a();
  report_b();
  return 0;
}
