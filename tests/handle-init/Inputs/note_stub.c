/* Stands in for libpomp's POMP_Note_uninstrumented: prints what the constructor passes. */
#include <stdio.h>

int POMP_Note_uninstrumented(const char *file, const char *reason);

int POMP_Note_uninstrumented(const char *file, const char *reason) {
  printf("note [%s] [%s]\n", file, reason);
  return 0;
}
