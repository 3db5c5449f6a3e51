// cxx_features.cpp - OpenMP in idiomatic C++17.
//
// Exercises: a class template whose member functions contain parallel for over a range-based
// for loop on a std::vector (OpenMP 5.0) with and without reduction(+); a generic lambda that
// contains a parallel for; firstprivate and private of a class type, whose constructors and
// destructor count themselves with atomic updates; declare reduction of a user-defined type
// with an initializer; single with copyprivate of a std::vector; std:: algorithms for set-up
// and checking.
//
// Prints sums of scaled vectors of two element types, a count from the lambda, the merged
// statistics of the user-defined reduction, the object bookkeeping of the (first)private class
// (only thread-count-independent facts), whether the copyprivate broadcast reached every
// thread, and "check: OK".

#include <omp.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <numeric>
#include <vector>

template <typename T> class Field {
public:
  explicit Field(std::size_t n) : values_(n) { std::iota(values_.begin(), values_.end(), T(1)); }

  void scale(T factor) {
#pragma omp parallel for
    for (T &v : values_)
      v *= factor;
  }

  T total() const {
    T sum{};
#pragma omp parallel for reduction(+ : sum)
    for (const T &v : values_)
      sum += v;
    return sum;
  }

  const std::vector<T> &values() const { return values_; }

private:
  std::vector<T> values_;
};

// Counts its constructions and destructions so the data-sharing clauses can be observed.
class Tracked {
public:
  inline static int constructed = 0, copied = 0, destroyed = 0;

  Tracked() : value_(0) { bump(constructed); }
  explicit Tracked(int v) : value_(v) { bump(constructed); }
  Tracked(const Tracked &other) : value_(other.value_) { bump(copied); }
  Tracked &operator=(const Tracked &) = default;
  ~Tracked() { bump(destroyed); }

  int value() const { return value_; }

private:
  static void bump(int &counter) {
#pragma omp atomic update
    counter++;
  }
  int value_;
};

struct Stats {
  long count = 0, sum = 0;
  int min = INT_MAX, max = INT_MIN;

  void add(int x) {
    count++;
    sum += x;
    min = std::min(min, x);
    max = std::max(max, x);
  }
  void merge(const Stats &other) {
    count += other.count;
    sum += other.sum;
    min = std::min(min, other.min);
    max = std::max(max, other.max);
  }
};

#pragma omp declare reduction(merge : Stats : omp_out.merge(omp_in)) initializer(omp_priv = Stats())

int main() {
  bool ok = true;

  Field<int> ints(1000);
  Field<long> longs(2000);
  ints.scale(3);
  longs.scale(-2);
  std::printf("Field<int> total %d, Field<long> total %ld\n", ints.total(), longs.total());
  ok = ok && ints.total() == std::accumulate(ints.values().begin(), ints.values().end(), 0) &&
       ints.total() == 3 * 1000 * 1001 / 2 && longs.total() == -2L * 2000 * 2001 / 2;

  auto count_parallel = [](const auto &items, auto predicate) {
    long n = 0;
#pragma omp parallel for reduction(+ : n)
    for (std::size_t i = 0; i < items.size(); i++)
      if (predicate(items[i]))
        n++;
    return n;
  };
  const auto &v = ints.values();
  long multiples_of_7 = count_parallel(v, [](int x) { return x % 7 == 0; });
  std::printf("multiples of 7: %ld\n", multiples_of_7);
  ok = ok && multiples_of_7 == std::count_if(v.begin(), v.end(), [](int x) { return x % 7 == 0; });

  std::vector<int> samples(5000);
  for (std::size_t i = 0; i < samples.size(); i++)
    samples[i] = static_cast<int>((i * 7919) % 10007) - 5000;
  Stats stats;
#pragma omp parallel for reduction(merge : stats)
  for (std::size_t i = 0; i < samples.size(); i++)
    stats.add(samples[i]);
  std::printf("stats: count %ld, sum %ld, min %d, max %d\n", stats.count, stats.sum, stats.min,
              stats.max);
  auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  ok = ok && stats.count == 5000 && *lo == stats.min && *hi == stats.max &&
       stats.sum == std::accumulate(samples.begin(), samples.end(), 0L);

  int threads = 0, copies_ok = 1;
  {
    Tracked original(42), scratch;
#pragma omp parallel firstprivate(original) private(scratch)
    {
#pragma omp single
      threads = omp_get_num_threads();
      if (original.value() != 42 || scratch.value() != 0)
        copies_ok = 0;
    }
    // One copy-constructed and one default-constructed object per thread, all destroyed again.
    ok = ok && Tracked::copied == threads && Tracked::constructed == 2 + threads;
    std::printf("Tracked: firstprivate copies saw 42: %s, alive after the region: %d",
                copies_ok ? "yes" : "no",
                Tracked::constructed + Tracked::copied - Tracked::destroyed);
  }
  std::printf(", after their scope: %d\n",
              Tracked::constructed + Tracked::copied - Tracked::destroyed);
  ok = ok && copies_ok && Tracked::constructed + Tracked::copied == Tracked::destroyed;

  std::vector<int> broadcast;
#pragma omp parallel firstprivate(broadcast)
  {
#pragma omp single copyprivate(broadcast)
    {
      broadcast.resize(100);
      std::iota(broadcast.begin(), broadcast.end(), 1);
      std::reverse(broadcast.begin(), broadcast.end());
    }
    if (!std::is_sorted(broadcast.rbegin(), broadcast.rend()) || broadcast.size() != 100)
      copies_ok = 0;
  }
  std::printf("copyprivate vector reached every thread: %s\n", copies_ok ? "yes" : "no");
  ok = ok && copies_ok;

  std::printf("check: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
