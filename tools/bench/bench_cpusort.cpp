// corank-bench cpusort: the CPU sorts alone, in memory, on random keys: the
// parallel radix sort (radix_sort.hpp) of 64-bit words and of (key, position)
// entries, each against std::sort of the same data on one thread and the
// parallel comparison sort it replaced (pieces by std::sort, then a k-way
// merge; std::sort only up to 2*10^8 elements). Prints one line per sort and
// repeat, "SORT N THREADS SECONDS"; each repeat reuses the arrays, so only the
// first pays for faulting in fresh memory.
//
//   corank-bench cpusort [--n 100000000] [--threads T] [--reps 3] [--kind words|entries1|entries2]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <span>
#include <thread>
#include <vector>

#include "corank/io/huge_vector.hpp"
#include "corank/key_entry.hpp"
#include "corank/kway_merge.hpp"
#include "corank/parallel.hpp"
#include "corank/radix_sort.hpp"

namespace {

using Clock = std::chrono::steady_clock;
// std::sort on one thread is left out above this many elements.
constexpr std::uint64_t kSerialMax = 200'000'000;

template <class F>
double timed(F&& f) {
  const auto t0 = Clock::now();
  f();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void fill(std::uint64_t* w, std::uint64_t n, unsigned threads) {
  corank::parallel_for(threads, [&](unsigned t) {
    std::mt19937_64 rng(t + 1);
    for (std::uint64_t i = n * t / threads; i < n * (t + 1) / threads; ++i) w[i] = rng();
  });
}

template <unsigned W>
void fill(corank::KeyEntry<W>* e, std::uint64_t n, unsigned threads) {
  corank::parallel_for(threads, [&](unsigned t) {
    std::mt19937_64 rng(t + 1);
    for (std::uint64_t i = n * t / threads; i < n * (t + 1) / threads; ++i) {
      for (unsigned k = 0; k < W; ++k) e[i].key[k] = k + 1 < W ? rng() : rng() & 0xffff000000000000ULL;
      e[i].pos = i;
    }
  });
}

// The sort radix_sort replaced: a piece a thread by std::sort, then a k-way merge.
template <class T>
void pieces_and_merge(T* data, T* scratch, std::uint64_t n, unsigned threads) {
  std::vector<std::span<const T>> pieces(threads);
  corank::parallel_for(threads, [&](unsigned t) {
    const std::uint64_t b = n * t / threads, e = n * (t + 1) / threads;
    std::copy(data + b, data + e, scratch + b);
    std::sort(scratch + b, scratch + e);
    pieces[t] = std::span<const T>(scratch + b, e - b);
  });
  corank::merge_kway_parallel(std::span<const std::span<const T>>(pieces), data, threads);
}

template <class T>
void run(const char* kind, std::uint64_t n, unsigned threads, int reps) {
  corank::io::HugeVector<T> data(n), scratch(n);
  auto report = [&](const char* what, double s, unsigned t) {
    std::printf("%s/%s %llu %u %.3f\n", what, kind, static_cast<unsigned long long>(n), t, s);
    std::fflush(stdout);
  };
  for (int r = 0; r < reps; ++r) {
    fill(data.data(), n, threads);
    report("radix", timed([&] { corank::radix_sort(data.data(), scratch.data(), n, threads); }), threads);
    if (!std::is_sorted(data.data(), data.data() + n)) {
      std::fprintf(stderr, "corank-bench cpusort: radix sort left the data out of order\n");
      std::exit(1);
    }
    fill(data.data(), n, threads);
    report("pieces+merge", timed([&] { pieces_and_merge(data.data(), scratch.data(), n, threads); }), threads);
    if (n > kSerialMax) continue;  // minutes on one thread
    fill(data.data(), n, threads);
    report("std::sort", timed([&] { std::sort(data.data(), data.data() + n); }), 1);
  }
}

}  // namespace

int bench_cpusort(int argc, char** argv) {
  std::uint64_t n = 100'000'000;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  int reps = 3;
  std::string kind = "words";
  CLI::App app{"corank-bench cpusort: the CPU radix sort against std::sort and the parallel comparison sort, "
               "in memory, on random keys"};
  app.add_option("--n", n, "elements to sort")->capture_default_str();
  app.add_option("--threads", threads, "threads")->capture_default_str();
  app.add_option("--reps", reps, "repeats")->capture_default_str();
  app.add_option("--kind", kind, "words (u64), entries1 (1 key word + position), entries2 (2 key words + position)")
      ->check(CLI::IsMember({"words", "entries1", "entries2"}))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (kind == "words") run<std::uint64_t>("words", n, threads, reps);
  if (kind == "entries1") run<corank::KeyEntry<1>>("entries1", n, threads, reps);
  if (kind == "entries2") run<corank::KeyEntry<2>>("entries2", n, threads, reps);
  return 0;
}
