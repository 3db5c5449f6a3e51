/* Each #pragma pomp below is malformed in its own way (pomp_pragma_errors.test). */
int main(void) {
  int x = 0;
#pragma pomp frobnicate
#pragma pomp userregion start x
#pragma pomp inst parallel loud
  return x;
}
