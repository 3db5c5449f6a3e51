#ifndef VALUE_H
#define VALUE_H
#define VALUE 3
static inline int twice(int x) { return 2 * x; }
/* The header as the compile names it (`./value.h` from `-c main.c`). */
static inline const char *header_name(void) { return __builtin_FILE(); }
#endif
