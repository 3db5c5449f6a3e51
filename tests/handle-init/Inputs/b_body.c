/* The user code of file b, after the prologue: it sees its three handles. The test appends a last
 * line without a newline to it. */
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
void report_b(void);
#ifdef __cplusplus
}
#endif

void report_b(void) {
  printf("b: %lu %lu %lu\n", (unsigned long)pomp_handle_1, (unsigned long)pomp_handle_2,
         (unsigned long)pomp_handle_3);
}
