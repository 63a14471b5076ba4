#include "corank/text/tied_records.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "corank/parallel.hpp"
#include "corank/text/distinct_texts.hpp"

namespace corank::text {

namespace {

// Runs this short are sorted by the full comparison straight away: the bytes
// would cost as much as they save.
constexpr std::ptrdiff_t kFewTied = 8;
// Runs this short are sorted record by record: a table of their texts would
// cost more than it saves.
constexpr std::ptrdiff_t kFewToGroup = 32;
// Runs of at least this many records are sorted on all threads.
constexpr std::uint64_t kManyTied = 1 << 16;

std::string_view text_of(const RecordEntry& r, const Chunk& chunk) {
  return chunk.record(r);
}

// std::sort(first, first + n, less), on `threads` threads where the run is long.
template <class Less>
void sort_range(RecordEntry* first, std::ptrdiff_t n, const Less& less, unsigned threads) {
  if (threads < 2 || static_cast<std::uint64_t>(n) < kManyTied) {
    std::sort(first, first + n, less);
    return;
  }
  io::HugeVector<RecordEntry> v, scratch;
  v.resize(static_cast<std::size_t>(n));
  std::copy(first, first + n, v.data());
  parallel_sort(v, scratch, less, threads);
  std::copy(v.begin(), v.end(), first);
}

// A tied record with the next bytes of its order (LineComparator::prefix_at)
// and whether its byte string ends within them: an entry's size (its spare
// bit the end), no more than the copy and the scratch a long run's full sort
// takes (sort_range), since the run's prefixes, all equal, need not be kept.
struct Refreshed {
  Prefix prefix;
  std::uint64_t offset : RecordEntry::kOffsetBits;
  std::uint64_t length_code : RecordEntry::kLengthBits;
  std::uint64_t ends : 1;
  RecordEntry entry(const Prefix& tied) const noexcept { return RecordEntry::with_code(tied, offset, length_code); }
};
static_assert(sizeof(Refreshed) == sizeof(RecordEntry));

struct RefreshedLess {
  bool operator()(const Refreshed& a, const Refreshed& b) const {
    return a.prefix == b.prefix ? a.offset < b.offset : a.prefix < b.prefix;
  }
};

// Under a collation, a run is sorted by its digests a Prefix (kDigestBytes)
// a level, at most kMostDigestBytes deep.
constexpr std::size_t kDigestBytes = Prefix::kBytes, kMostDigestBytes = 256;

// Where the last resort is a collation's (TextFormat::tie_order): the run,
// whose records the last resort alone orders, sorted by bytes [depth, depth +
// kDigestBytes) of each record's digest, held where a Refreshed holds its
// next bytes (so that the run takes no more memory than its full sort would:
// a copy, and scratch where it is sorted on several threads); each run of
// equal digests that goes on past them by the next level, the others (texts
// whose weights end alike: apart only in accents, case or punctuation, or
// equal) by the full comparison. The order std::sort(less) gives, with
// strcoll called for few pairs rather than for every comparison (lines that
// share their first words: a stack trace's).
void sort_by_digests(RecordEntry* first, std::ptrdiff_t n, const EntryLess& less, unsigned threads,
                     std::size_t depth = 0) {
  const auto count = static_cast<std::size_t>(n);
  const Prefix tied = first[0].prefix;
  std::vector<Refreshed> r(count);
  const auto parts = static_cast<unsigned>(std::clamp<std::size_t>(count / 4096, 1, threads));
  parallel_for(parts, [&](unsigned p) {
    std::vector<unsigned char> whole(depth + kDigestBytes);
    for (std::size_t i = count * p / parts, end = count * (p + 1) / parts; i < end; ++i) {
      less.format->last_resort_digest(text_of(first[i], *less.chunk), whole.data(), whole.size());
      r[i].prefix = prefix_from_bytes(whole.data() + depth, false);
      r[i].offset = first[i].offset;
      r[i].length_code = first[i].length_code;
    }
  });
  if (threads > 1 && count >= kManyTied) {
    std::vector<Refreshed> scratch;
    parallel_sort(r, scratch, RefreshedLess{}, threads);
  } else {
    std::sort(r.begin(), r.end(), RefreshedLess{});
  }
  for (std::size_t i = 0; i < count; ++i) first[i] = r[i].entry(tied);
  for (std::size_t i = 0; i < count;) {
    std::size_t j = i + 1;
    while (j < count && r[j].prefix == r[i].prefix) ++j;
    // Zeros (inverted under -r) past a digest's end: one that fills the
    // level may go on.
    const auto last = static_cast<unsigned char>(r[i].prefix.w[3] & 0xff);
    if (j - i > 1 && last != 0x00 && last != 0xFF && depth + 2 * kDigestBytes <= kMostDigestBytes)
      sort_by_digests(first + i, static_cast<std::ptrdiff_t>(j - i), less, 1, depth + kDigestBytes);
    else if (j - i > 1)
      std::sort(first + i, first + j, less);
    i = j;
  }
}

// Where one text key decides before the collation (TieOrder::
// key_then_collation): the run sorted by its keys alone (equal keys, the
// usual tie, are equal bytes: a memcmp each), then each run of equal keys by
// the last resort's digests.
void sort_by_key_then_digests(RecordEntry* first, std::ptrdiff_t n, const EntryLess& less, unsigned threads) {
  const TextFormat& format = *less.format;
  const auto key_order = [&](const RecordEntry& a, const RecordEntry& b) {
    return format.compare_tied_keys(text_of(a, *less.chunk), text_of(b, *less.chunk));
  };
  sort_range(first, n, [&](const RecordEntry& a, const RecordEntry& b) {
    const int c = key_order(a, b);
    return c ? c < 0 : a.offset < b.offset;
  }, threads);
  for (std::ptrdiff_t i = 0; i < n;) {
    std::ptrdiff_t j = i + 1;
    while (j < n && key_order(first[i], first[j]) == 0) ++j;
    if (j - i >= kFewTied) sort_by_digests(first + i, j - i, less, threads);
    else if (j - i > 1) std::sort(first + i, first + j, less);
    i = j;
  }
}

// Beyond this many bytes of tied order, the full comparison decides.
constexpr std::size_t kMaxRefreshDepth = 4096;

// A level costs each record of a run its key found again; a comparison two
// keys found. A run whose records all tie again level after level (keys that
// share a long start: megabyte-long fields of the same filler, or URLs under
// one long path) has, once it has tied through about log2 of its size levels,
// paid what a full sort of it costs, and goes to the full comparison.
std::size_t most_stalled_levels(std::ptrdiff_t n) {
  return std::max<std::size_t>(4, static_cast<std::size_t>(std::bit_width(static_cast<std::uint64_t>(n))));
}

// Gives r[0, n) their bytes [depth, depth + kPrefixBytes); false where a
// record has none (a key with a NUL byte).
bool refresh(Refreshed* r, std::ptrdiff_t n, std::size_t depth, const LineComparator& lines, const Chunk& chunk) {
  const char* base = chunk.data();
  constexpr std::ptrdiff_t kAhead = 8;  // each record's text is a cache miss: fetched ahead
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    if (i + kAhead < n) __builtin_prefetch(base + r[i + kAhead].offset);
    std::size_t length = 0;
    const std::string_view text = chunk.record(r[i].entry(r[i].prefix));
    if (!lines.prefix_at(text, depth, r[i].prefix, length)) return false;
    r[i].ends = length <= depth + Prefix::kBytes;
  }
  return true;
}

// r[0, n) tie in their order's first `depth` bytes and have their next ones:
// sorted by them, and each run that ties again by the bytes after, until the
// records' byte strings end. Records whose strings end tied are the same
// line where their lengths agree (the input order then decides), else (a
// line ending in NUL bytes against a shorter one) the full comparison does.
// `stalled`: the levels before this one at which the run did not split.
void sort_refreshed(Refreshed* r, std::ptrdiff_t n, std::size_t depth, const LineComparator& lines,
                    const EntryLess& less, const Prefix& tied, bool sorted = false, std::size_t stalled = 0) {
  if (!sorted) std::sort(r, r + n, RefreshedLess{});
  for (std::ptrdiff_t i = 0; i < n;) {
    std::ptrdiff_t j = i + 1;
    bool ended = r[i].ends, same_length = true;
    for (; j < n && r[j].prefix == r[i].prefix; ++j) {
      ended = ended && r[j].ends;
      same_length = same_length && less.chunk->length(r[j].entry(tied)) == less.chunk->length(r[i].entry(tied));
    }
    if (j - i > 1 && !(ended && same_length)) {
      const std::size_t next = depth + Prefix::kBytes;
      const std::size_t stalls = j - i == n ? stalled + 1 : 0;
      if (ended || next >= kMaxRefreshDepth || stalls >= most_stalled_levels(j - i)) {
        std::sort(r + i, r + j,
                  [&](const Refreshed& a, const Refreshed& b) { return less(a.entry(tied), b.entry(tied)); });
      } else {
        refresh(r + i, j - i, next, lines, *less.chunk);
        sort_refreshed(r + i, j - i, next, lines, less, tied, false, stalls);
      }
    }
    i = j;
  }
}

// The tied run sorted by the bytes of its order after the prefix, where the
// order has them (LineComparator::orders_by_bytes): each record's next bytes
// are found once, where the full comparison would find its key again in every
// comparison, each a cache miss. False, with the run untouched, where it has
// not. The run's prefixes are equal, as sort_tied's are.
bool sort_by_refreshed_prefixes(RecordEntry* first, std::ptrdiff_t n, const EntryLess& less, unsigned threads) {
  const LineComparator* lines = less.format->line_comparator();
  if (lines == nullptr || !lines->orders_by_bytes()) return false;
  const Prefix tied = first[0].prefix;
  std::vector<Refreshed> r(static_cast<std::size_t>(n));
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    r[static_cast<std::size_t>(i)].offset = first[i].offset;
    r[static_cast<std::size_t>(i)].length_code = first[i].length_code;
  }
  const unsigned parts =
      static_cast<unsigned>(std::clamp<std::uint64_t>(static_cast<std::uint64_t>(n) / kManyTied, 1, threads));
  std::vector<char> ok(parts, 1);
  parallel_for(parts, [&](unsigned p) {
    const std::ptrdiff_t lo = n * p / parts, hi = n * (p + 1) / parts;
    ok[p] = refresh(r.data() + lo, hi - lo, Prefix::kBytes, *lines, *less.chunk);
  });
  if (std::find(ok.begin(), ok.end(), 0) != ok.end()) return false;
  if (parts > 1) {  // the first level on all threads; the runs it leaves are short
    std::vector<Refreshed> scratch;
    parallel_sort(r, scratch, RefreshedLess{}, parts);
  }
  sort_refreshed(r.data(), n, Prefix::kBytes, *lines, less, tied, parts > 1);
  for (std::ptrdiff_t i = 0; i < n; ++i) first[i] = r[static_cast<std::size_t>(i)].entry(tied);
  return true;
}

// The run sorted record by record, its texts distinct or not.
void sort_each(RecordEntry* first, std::ptrdiff_t n, const EntryLess& less, unsigned threads) {
  // A few records (a line and its copy, say) are compared in full at once:
  // their next bytes, found level by level to their ends, would cost more.
  if (n < 2 || (n >= kFewTied && sort_by_refreshed_prefixes(first, n, less, threads))) return;
  const TieOrder order = n >= kFewTied ? less.format->tie_order() : TieOrder::other;
  if (order == TieOrder::collation) sort_by_digests(first, n, less, threads);
  else if (order == TieOrder::key_then_collation) sort_by_key_then_digests(first, n, less, threads);
  else sort_range(first, n, less, threads);
}

}  // namespace

void sort_tied(RecordEntry* first, RecordEntry* last, const EntryLess& less, unsigned threads) {
  const std::ptrdiff_t n = last - first;
  const auto sort_texts = [&](RecordEntry* texts, std::ptrdiff_t m) { sort_each(texts, m, less, threads); };
  if (n >= kFewToGroup && sort_by_distinct_texts(first, n, less, sort_texts)) return;
  sort_each(first, n, less, threads);
}

void settle_ties(io::HugeVector<RecordEntry>& v, std::uint64_t lo, std::uint64_t hi, const EntryLess& less,
                 unsigned threads) {
  RecordEntry* r = v.data();
  const std::uint64_t n = hi - lo;
  const auto parts = static_cast<unsigned>(std::clamp<std::uint64_t>(n / 65536, 1, threads));
  // A part's start moves forward past records that tie with their
  // predecessor, so that each run is sorted by exactly one thread; runs too
  // long for one are left for all threads, one after another.
  auto start = [&](unsigned p) {
    std::uint64_t i = lo + n * p / parts;
    if (p > 0)
      while (i < hi && r[i].prefix == r[i - 1].prefix) ++i;
    return i;
  };
  std::mutex mutex;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> long_runs;
  parallel_for(parts, [&](unsigned p) {
    const std::uint64_t end = p + 1 == parts ? hi : start(p + 1);
    for (std::uint64_t i = start(p); i < end;) {
      std::uint64_t j = i + 1;
      while (j < end && r[j].prefix == r[i].prefix) ++j;
      if (threads > 1 && j - i >= kManyTied) {
        const std::lock_guard<std::mutex> lock(mutex);
        long_runs.emplace_back(i, j);
      } else if (j - i > 1) {
        sort_tied(r + i, r + j, less, 1);
      }
      i = j;
    }
  });
  for (const auto& [i, j] : long_runs) sort_tied(r + i, r + j, less, threads);
}

}  // namespace corank::text
