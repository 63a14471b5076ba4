#include "corank/text/gpu_record_sort.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "corank/parallel.hpp"
#include "corank/text/tied_records.hpp"

namespace corank::text {

namespace {

constexpr unsigned kWords = GpuPrefixSort::kWords;
static_assert(sizeof(Prefix::w) == kWords * sizeof(std::uint64_t));

// Splits [0, n) into up to `threads` parts of at least `min_each` and runs f(lo, hi) on each.
template <class F>
void parallel_ranges(std::uint64_t n, unsigned threads, std::uint64_t min_each, F&& f) {
  const auto parts = static_cast<unsigned>(std::clamp<std::uint64_t>(n / min_each, 1, threads));
  parallel_for(parts, [&](unsigned p) { f(n * p / parts, n * (p + 1) / parts); });
}

}  // namespace

unsigned differing_prefix_bits(const io::HugeVector<RecordEntry>& records, unsigned threads) {
  const std::uint64_t n = records.size();
  if (n < 2) return 0;
  const RecordEntry* r = records.data();
  const auto parts = static_cast<unsigned>(std::clamp<std::uint64_t>(n / 65536, 1, threads));
  std::vector<std::array<std::uint64_t, kWords>> found(parts);
  parallel_for(parts, [&](unsigned p) {
    std::array<std::uint64_t, kWords> d{};
    for (std::uint64_t i = n * p / parts, end = n * (p + 1) / parts; i < end; ++i)
      for (unsigned w = 0; w < kWords; ++w) d[w] |= r[i].prefix.w[w] ^ r[0].prefix.w[w];
    found[p] = d;
  });
  std::array<std::uint64_t, kWords> d{};
  for (const auto& f : found)
    for (unsigned w = 0; w < kWords; ++w) d[w] |= f[w];
  for (unsigned w = 0; w < kWords; ++w)
    if (d[w]) return 64 * (kWords - w) - static_cast<unsigned>(std::countl_zero(d[w]));
  return 0;
}

void gpu_sort_records(GpuPrefixSort& gpu, io::HugeVector<RecordEntry>& records, io::HugeVector<RecordEntry>& scratch,
                      const EntryLess& less, unsigned threads) {
  const std::uint64_t n = records.size();
  const std::uint64_t slice = std::max<std::uint64_t>(1, gpu.max_records());
  const unsigned key_bits = differing_prefix_bits(records, threads);
  io::HugeVector<std::uint32_t> order;
  order.resize(std::min(n, slice));
  scratch.resize(n);
  std::vector<std::uint64_t> bounds{0};
  for (std::uint64_t lo = 0; lo < n; lo += slice) {
    const std::uint64_t m = std::min(slice, n - lo);
    const RecordEntry* in = records.data() + lo;
    gpu.sort(
        m,
        [&](std::uint64_t first, std::uint64_t count, std::uint64_t* words) {
          parallel_ranges(count, threads, 65536, [&](std::uint64_t a, std::uint64_t b) {
            for (std::uint64_t i = a; i < b; ++i)
              std::copy_n(in[first + i].prefix.w, kWords, words + kWords * i);
          });
        },
        key_bits, order.data());
    RecordEntry* out = scratch.data() + lo;
    const std::uint32_t* o = order.data();
    parallel_ranges(m, threads, 65536, [&](std::uint64_t a, std::uint64_t b) {
      for (std::uint64_t i = a; i < b; ++i) out[i] = in[o[i]];
    });
    settle_ties(scratch, lo, lo + m, less, threads);
    bounds.push_back(lo + m);
  }
  if (bounds.size() > 2)
    merge_sorted_slices(scratch, records, bounds, less, threads);  // leaves the merged records in scratch
  records.swap(scratch);
}

}  // namespace corank::text
