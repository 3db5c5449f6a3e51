/* Only a directive: its loop follows the #include (directive_across_files.c). */
#pragma omp parallel for reduction(+ : sum)
