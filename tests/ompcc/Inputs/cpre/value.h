#ifndef VALUE_H
#define VALUE_H
#define VALUE 3
static inline int twice(int x) { return 2 * x; }
#endif
