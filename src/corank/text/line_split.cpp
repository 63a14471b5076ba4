#include "corank/text/line_split.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "corank/io/fresh_pages.hpp"
#include "corank/parallel.hpp"

namespace corank::text {

// Sixteen bytes a step where SSE2 is there (every x86-64): each step's
// matches subtract 1 (all ones) from byte-wide counters, which are summed
// (psadbw) before any could pass 255.
std::uint64_t count_byte(const char* p, const char* lim, char c) noexcept {
  std::uint64_t n = 0;
#if defined(__SSE2__)
  const __m128i want = _mm_set1_epi8(c), zero = _mm_setzero_si128();
  while (lim - p >= 16) {
    const std::ptrdiff_t steps = std::min<std::ptrdiff_t>((lim - p) / 16, 255);
    __m128i counts = zero;
    for (std::ptrdiff_t s = 0; s < steps; ++s, p += 16)
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), want));
    const __m128i sums = _mm_sad_epu8(counts, zero);  // two 64-bit sums, of the low and the high eight bytes
    n += static_cast<std::uint64_t>(_mm_cvtsi128_si64(sums)) +
         static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
#endif
  return n + static_cast<std::uint64_t>(std::count(p, lim, c));
}

// Part p of the piece holds the records that start in its bytes
// [begin + (end - begin) * p / parts, ...): those from the first record start
// at or after its first byte (the piece's first byte, or one after a
// terminator) up to the next part's first.
bool split_lines(const LineSplit& piece, unsigned parts, io::HugeVector<RecordEntry>& records, LongRecords& longs) {
  const char* base = piece.base;
  const std::uint64_t begin = piece.begin, end = piece.end;
  auto first_start_from = [&](std::uint64_t at) -> std::uint64_t {
    if (at <= begin) return begin;
    const void* t = std::memchr(base + at - 1, piece.terminator, static_cast<std::size_t>(end - at + 1));
    return t ? static_cast<std::uint64_t>(static_cast<const char*>(t) - base) + 1 : end;
  };
  std::vector<std::uint64_t> start(parts, end), count(parts, 0);
  parallel_for(parts, [&](unsigned p) {
    const std::uint64_t from = first_start_from(begin + (end - begin) * p / parts);
    const std::uint64_t to = p + 1 < parts ? first_start_from(begin + (end - begin) * (p + 1) / parts) : end;
    start[p] = from;
    if (from >= to) return;
    // A mapped input's pages of this part, mapped in one call where that pays
    // (io/fresh_pages.hpp); nothing for a read chunk.
    if (piece.mapped) io::populate_for_reading(base + from, static_cast<std::size_t>(to - from));
    count[p] = count_byte(base + from, base + to, piece.terminator);  // the last part's unterminated tail is no record
  });
  const std::size_t before = records.size();
  std::vector<std::size_t> first(parts + 1, before);
  for (unsigned p = 0; p < parts; ++p) first[p + 1] = first[p] + static_cast<std::size_t>(count[p]);
  records.resize(first[parts]);  // uninitialized: each part touches its own entries' pages
  // Record i at offset o fits while o + i * overhead < budget, a condition
  // that only fails more as i grows: each part stops at its first record that
  // does not fit, and the chunk keeps the records before the first such stop.
  auto over = [&](std::uint64_t at, std::size_t i) { return i > 0 && at + i * piece.overhead >= piece.budget; };
  std::vector<std::size_t> stop(parts + 1, first[parts]);
  std::vector<LongRecords> found_long(parts);
  parallel_for(parts, [&](unsigned p) {
    std::size_t i = first[p];
    const std::size_t n = first[p + 1];
    std::uint64_t at = start[p];
    if (i == n) return;  // no record starts in this part: it cuts nothing
    if (over(at, i)) {
      stop[p] = i;
      return;
    }
    // Entries past the budget are never written: at most those before the
    // index where even the part's first offset would not fit.
    const std::uint64_t fit = piece.budget > at ? (piece.budget - at + piece.overhead - 1) / piece.overhead : 0;
    const std::size_t touched = std::min<std::size_t>(n, std::max<std::size_t>(i + 1, static_cast<std::size_t>(fit)));
    io::populate_for_writing(records.data() + i, (touched - i) * sizeof(RecordEntry));  // io/fresh_pages.hpp
    LongRecords& part_longs = found_long[p];
    for (; i < n; ++i) {
      if (over(at, i)) {
        stop[p] = i;
        return;
      }
      const void* t = std::memchr(base + at, piece.terminator, static_cast<std::size_t>(end - at));  // counted: found
      const auto length = static_cast<std::uint64_t>(static_cast<const char*>(t) - base) - at;
      records[i] = RecordEntry(piece.format->prefix({base + at, static_cast<std::size_t>(length)}), at, length,
                               part_longs);
      at += length + 1;
    }
  });
  const std::size_t take = *std::min_element(stop.begin(), stop.end());
  records.resize(take);
  if (take > before) {
    const std::uint64_t last = records[take - 1].offset;
    for (const LongRecords& part_longs : found_long)
      for (const LongRecord& r : part_longs)
        if (r.offset <= last) longs.push_back(r);
  }
  return take == first[parts];
}

}  // namespace corank::text
