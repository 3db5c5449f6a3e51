/* One instrumented compilation unit as pomp-link sees it, named by the compile command:
 *   -DUNIT=alpha -DUNIT_ID=alpha_c_1111111111111111
 * defines POMP_Init_<UNIT_ID>(), which prints "init <UNIT>", and <UNIT>_work(), which prints
 * "<UNIT> works" (so that a program can need the unit, and an archive member gets linked). */
#include <stdio.h>

#define PASTE(a, b) a##b
#define EXPAND_PASTE(a, b) PASTE(a, b)
#define STRINGIFY(x) #x
#define EXPAND_STRINGIFY(x) STRINGIFY(x)

#define INIT_FUNCTION EXPAND_PASTE(POMP_Init_, UNIT_ID)
#define WORK_FUNCTION EXPAND_PASTE(UNIT, _work)

void INIT_FUNCTION(void);
void WORK_FUNCTION(void);

void INIT_FUNCTION(void) { puts("init " EXPAND_STRINGIFY(UNIT)); }
void WORK_FUNCTION(void) { puts(EXPAND_STRINGIFY(UNIT) " works"); }
