/* The date of the compile: a PCH would keep its first compile's. */
static const char built_on[] = __DATE__;
