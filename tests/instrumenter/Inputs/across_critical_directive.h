/* Only a directive: its block follows the #include (Inputs/across_vault.h). */
#pragma omp critical
