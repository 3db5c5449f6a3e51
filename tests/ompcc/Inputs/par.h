#define PAR_WEIGHT 2
int par_sum(int n);
