// Function context by default (issue 16): every construct of instrumented code carries the
// function it is in (CTC `function`), so profile.txt, the stderr summary and profile.json name
// it like the OMPT-only mode does (`parallel @function_context.c:N (smooth)`), without measuring
// functions. profile.txt shows paths relative to the common root; profile.json keeps them whole.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompcc --cc=%gcc -fopenmp -O1 %s -o %t/prog
// RUN: cd %t && env OMP_NUM_THREADS=2 POMP_EXPERIMENT_DIR=exp %t/prog 2> %t/err
// RUN: %FileCheck --check-prefix=TEXT %s < %t/exp/profile.txt
// RUN: %FileCheck --check-prefix=SUMMARY %s < %t/err
// RUN: %FileCheck --check-prefix=JSON %s < %t/exp/profile.json
// RUN: python3 %S/Inputs/profile_tree.py %t/exp | %FileCheck --check-prefix=TREE %s
#include <stdio.h>

static double V[256];

static void smooth(int N) {
#pragma omp parallel for schedule(static)
  for (int I = 1; I < N - 1; ++I)
    V[I] = (V[I - 1] + V[I + 1]) / 2;
}

int main(void) {
  for (int R = 0; R < 3; ++R)
    smooth(256);
  double Sum = 0;
#pragma omp parallel for reduction(+ : Sum)
  for (int I = 0; I < 256; ++I)
    Sum += V[I];
  printf("%g\n", Sum);
  return 0;
}

// TEXT:      paths: relative to {{/.*}}/ (full paths in profile.json)
// TEXT:      Regions by exclusive time
// TEXT-DAG:  {{ +}}3{{ +}}1{{ .*}} work  parallel @function_context.c:17 (smooth)
// TEXT-DAG:  {{ +}}6{{ +}}2{{ .*}} work  loop @function_context.c:17 (smooth)
// TEXT-DAG:  {{ +}}1{{ +}}1{{ .*}} work  parallel @function_context.c:26 (main)
// TEXT:      Call paths
// TEXT:      {{ +}}3{{ +}}1{{ .*}}  parallel @function_context.c:17 (smooth)
// TEXT-NEXT: {{ +}}6{{ +}}2{{ .*}}    parallel body @function_context.c:17 (smooth)

// SUMMARY: pomp: profile in exp/
// SUMMARY: s exclusive  {{.*}} @function_context.c:{{17 \(smooth\)|26 \(main\)}}

// JSON: "location": "{{/.*}}/function_context.c:17 (smooth)", "function": "smooth", "origin": "pomp", "ctc": "{{[0-9]+}}*type=parallelfor*{{.*}}*function=smooth**"

// TREE: parallel @{{/.*}}/function_context.c:17 (smooth) visits=3 threads=1
// TREE: parallel @{{/.*}}/function_context.c:26 (main) visits=1 threads=1

// It links the sanitizer build's libpomp into a program built without the sanitizer.
// UNSUPPORTED: sanitize
