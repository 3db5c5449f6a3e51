#ifndef LEVEL_H
#define LEVEL_H
/* As glibc's <features.h> does with _POSIX_C_SOURCE under _DEFAULT_SOURCE: the header redefines a
   macro of the command line. */
#undef LEVEL
#define LEVEL 2
#endif
