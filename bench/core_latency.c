/* core_latency.c - what changes when this VM changes speed (docs/PERFORMANCE.md, "session 10").
 *
 *   core_latency [samples]
 *
 * Prints, per sample, one line of the costs that tell the VM's two speeds apart: a dependent
 * integer multiply-add (the core's speed), a pointer chase through 256 KiB (a cache hit
 * below L3) and through 8 MiB, and the round trip of a cache line between two threads pinned to
 * CPUs 0 and 1 (a cross-core transfer each way). Run it next to a benchmark to see which of them
 * its slow rounds share.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum {
  AluSteps = 50000000,
  ChaseWarmup = 1000000,
  ChaseSteps = 5000000,
  /* One pointer per cache line. */
  ChaseStride = 64 / sizeof(void *),
  Trips = 100000,
};

static volatile uint64_t Sink;
static _Alignas(64) atomic_int Ball;

static double nowNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1e9 + T.tv_nsec;
}

/* Pins the calling thread to one CPU; the machine needs two. */
static int pin(int Cpu) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  CPU_SET(Cpu, &Set);
  return pthread_setaffinity_np(pthread_self(), sizeof Set, &Set);
}

static double aluNs(void) {
  uint64_t X = 1;
  const double Start = nowNs();
  for (long I = 0; I < AluSteps; ++I) {
    X = X * 6364136223846793005ull + 1442695040888963407ull;
    /* Keeps the compiler from combining steps: one multiply-add waits for the last. */
    __asm__ volatile("" : "+r"(X));
  }
  Sink = X;
  return (nowNs() - Start) / AluSteps;
}

/* A random cycle through one pointer per cache line of Bytes: each step waits for the last. */
static double chaseNs(size_t Bytes) {
  const size_t Slots = Bytes / sizeof(void *), Lines = Slots / ChaseStride;
  void **Buffer = malloc(Slots * sizeof(void *));
  size_t *Order = malloc(Lines * sizeof(size_t));
  if (!Buffer || !Order) {
    fprintf(stderr, "core_latency: out of memory\n");
    exit(1);
  }
  for (size_t I = 0; I < Lines; ++I)
    Order[I] = I * ChaseStride;
  srand(1);
  for (size_t I = Lines - 1; I > 0; --I) {
    const size_t J = (size_t)rand() % (I + 1), T = Order[I];
    Order[I] = Order[J];
    Order[J] = T;
  }
  for (size_t I = 0; I < Lines; ++I)
    Buffer[Order[I]] = &Buffer[Order[(I + 1) % Lines]];
  void **P = &Buffer[Order[0]];
  for (long I = 0; I < ChaseWarmup; ++I)
    P = *P;
  const double Start = nowNs();
  for (long I = 0; I < ChaseSteps; ++I)
    P = *P;
  const double Result = (nowNs() - Start) / ChaseSteps;
  Sink = (uintptr_t)P;
  free(Buffer);
  free(Order);
  return Result;
}

static void *pong(void *Unused) {
  (void)Unused;
  pin(1);
  for (int I = 0; I < Trips; ++I) {
    while (atomic_load_explicit(&Ball, memory_order_acquire) != 1)
      ;
    atomic_store_explicit(&Ball, 0, memory_order_release);
  }
  return NULL;
}

static double pingPongNs(void) {
  pthread_t Other;
  if (pthread_create(&Other, NULL, pong, NULL) != 0) {
    fprintf(stderr, "core_latency: cannot start a thread\n");
    exit(1);
  }
  const double Start = nowNs();
  for (int I = 0; I < Trips; ++I) {
    atomic_store_explicit(&Ball, 1, memory_order_release);
    while (atomic_load_explicit(&Ball, memory_order_acquire) != 0)
      ;
  }
  const double Result = (nowNs() - Start) / Trips;
  pthread_join(Other, NULL);
  return Result;
}

int main(int Argc, char **Argv) {
  const int Samples = Argc > 1 ? atoi(Argv[1]) : 1;
  if (Samples < 1) {
    fprintf(stderr, "core_latency: the number of samples must be a positive integer\n");
    return 2;
  }
  if (pin(0) != 0) {
    fprintf(stderr, "core_latency: cannot pin to CPU 0\n");
    return 1;
  }
  for (int S = 0; S < Samples; ++S)
    printf("alu_ns %.3f chase_256k_ns %.2f chase_8m_ns %.1f pingpong_ns %.1f\n", aluNs(),
           chaseNs((size_t)256 << 10), chaseNs((size_t)8 << 20), pingPongNs());
  return 0;
}
