/* An implicit int in a header of the preamble (default_error_warnings.c). */
static scale = 3;
