/* A program that loads the shared library with dlopen; it may itself be uninstrumented. */
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  void *library = dlopen(argc > 1 ? argv[1] : "", RTLD_NOW);
  if (!library) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  int (*threads)(void) = (int (*)(void))dlsym(library, "shlib_threads");
  printf("loaded, library %d\n", threads && threads() > 0);
  return 0;
}
