/* Included last in main.c's preamble: the overlapped compile waits for ompinst here. */
#warning "the header's own warning"
#define HEADER_LINE __LINE__
static inline int twice(int x) { return 2 * x; }
