/* No parallel construct, no entry point: compiled as it is. */
int plain_twice(int x) { return 2 * x; }
