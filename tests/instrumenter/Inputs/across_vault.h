/* An inline function whose critical section's directive comes from another header, #included
 * inside the body, as Quicksilver's ParticleVault.hh does (directive_across_files.c). This
 * header has no directive of its own. */
static inline void vault_push(int *vault, int *n, int v) {
#include "across_critical_directive.h"
  { vault[(*n)++] = v; }
}
