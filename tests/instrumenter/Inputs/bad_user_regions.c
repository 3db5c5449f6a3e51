/* User regions that do not match (pomp_pragma_errors.test). */
int main(void) {
  int x = 0;
#pragma pomp inst begin(a)
#pragma pomp inst end(b)
  x++;
#pragma pomp inst end(z)
  return x;
}
