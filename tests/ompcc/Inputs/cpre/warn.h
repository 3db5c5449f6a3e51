/* A header the compile warns about (-Wall): unused variable. */
static inline int seven(void) {
  int spare;
  return 7;
}
