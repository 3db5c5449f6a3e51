/* The user code of file a, after the prologue: it sees its three handles. */
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
void report_a(void);
#ifdef __cplusplus
}
#endif

void report_a(void) {
  printf("a: %lu %lu %lu\n", (unsigned long)pomp_handle_1, (unsigned long)pomp_handle_2,
         (unsigned long)pomp_handle_3);
}
