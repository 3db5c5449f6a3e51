/* headers.test: the second translation unit that includes count.h. */
#include "count.h"
int from_b(void) { return count_threads() + count_threads(); }
