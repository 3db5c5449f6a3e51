/* Symbols that look like per-file init functions but are not, or are not defined here, or not as
 * global functions: pomp-link lists and calls none of them. (No pomplib.h: the signatures do not
 * matter, only the symbols.) */

/* POMP API routines that share the prefix, and the program-level function itself. */
int POMP_Init_lock_event(void);
int POMP_Init_nest_lock_event(void);
void POMP_Init_Handles(void);
int POMP_Init_lock_event(void) { return 0; }
int POMP_Init_nest_lock_event(void) { return 0; }
void POMP_Init_Handles(void) {}

/* Only referenced here, defined elsewhere. */
void POMP_Init_undefined_c_9999999999999999(void);

/* Local to this file. */
static void POMP_Init_static_c_aaaaaaaaaaaaaaaa(void) {}

/* Data, not a function. */
int POMP_Init_data_c_bbbbbbbbbbbbbbbb = 1;

/* Not an id makeFileId writes (uppercase hash). */
void POMP_Init_upper_c_ABCDEF0123456789(void);
void POMP_Init_upper_c_ABCDEF0123456789(void) {}

void decoys_use(void);
void decoys_use(void) {
  POMP_Init_undefined_c_9999999999999999();
  POMP_Init_static_c_aaaaaaaaaaaaaaaa();
}
