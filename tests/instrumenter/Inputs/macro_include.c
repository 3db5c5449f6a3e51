/* Includes a header with constructs through a macro (headers.test). */
#define HEADER "parallel_header.h"
#include HEADER
int main(void) { return header_work(4) == 4 ? 0 : 1; }
