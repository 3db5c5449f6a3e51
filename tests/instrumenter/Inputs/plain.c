/* Valid C and C++ (compile_commands.test). */
int main(void) {
  int x = 0;
#pragma omp parallel
  x = 1;
  return x - 1;
}
