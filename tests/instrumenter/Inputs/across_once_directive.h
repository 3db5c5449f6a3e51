/* Only a directive, but #pragma once: pasted in place of its #include it would warn and be
 * ignored, so it is not pasted (directive_across_files.c). */
#pragma once
#pragma omp parallel for reduction(+ : twice)
