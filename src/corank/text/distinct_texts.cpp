#include "corank/text/distinct_texts.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "corank/io/fresh_pages.hpp"
#include "corank/io/huge_vector.hpp"

namespace corank::text {

namespace {

// Whether grouping pays is judged as the records are hashed. At a
// sixteenth, an eighth, a quarter and half of the run (64 records at
// least): where nine in ten of the records since the last judgement brought
// texts of their own, the run's texts are taken as mostly distinct, and
// grouping is given up. Texts drawn evenly from fewer than a quarter as
// many as the run's records show fewer new ones than that at the first
// judgement, many distinct texts each repeated many times too (a stack
// trace's lines, which differ in a line number: their first records look
// distinct). At any time: more than three in four distinct so far of the
// whole run's records, and grouping is given up too.
constexpr std::ptrdiff_t kFirstJudgement = 64;
bool mostly_new(std::size_t new_texts, std::ptrdiff_t records) {
  return new_texts * 10 > static_cast<std::size_t>(records) * 9;
}
bool mostly_distinct(std::size_t texts, std::ptrdiff_t records) {
  return texts * 4 > static_cast<std::size_t>(records) * 3;
}
// Distinct texts at most this many: each record's is an index of 32 bits.
constexpr std::size_t kMostTexts = UINT32_MAX;

struct Text {
  std::uint64_t hash;
  std::ptrdiff_t first;      // its first record in the run
  std::uint32_t class_of = 0;  // its class of texts the full comparison calls equal
};

// Texts by hash, open addressing with linear probing; a slot holds a text's
// index + 1 (0: empty), at most half the slots full.
class TextTable {
public:
  explicit TextTable(std::size_t expected) : slots_(std::bit_ceil(std::max<std::size_t>(16, 2 * expected))) {}

  // The index of the text of `record` (whose bytes are `text`), added where
  // it is new.
  std::uint32_t find_or_add(std::string_view text, std::ptrdiff_t record, const RecordEntry* run,
                            const Chunk& chunk) {
    const std::uint64_t h = std::hash<std::string_view>{}(text);
    std::size_t mask = slots_.size() - 1;
    for (std::size_t s = h & mask;; s = (s + 1) & mask) {
      const std::uint32_t slot = slots_[s];
      if (slot == 0) break;
      const Text& t = texts_[slot - 1];
      if (t.hash == h && chunk.record(run[t.first]) == text) return slot - 1;
    }
    texts_.push_back({h, record});
    if (2 * texts_.size() > slots_.size()) grow();
    mask = slots_.size() - 1;
    std::size_t s = h & mask;
    while (slots_[s] != 0) s = (s + 1) & mask;
    slots_[s] = static_cast<std::uint32_t>(texts_.size());
    return static_cast<std::uint32_t>(texts_.size() - 1);
  }
  std::vector<Text>& texts() noexcept { return texts_; }

private:
  void grow() {
    std::vector<std::uint32_t> bigger(2 * slots_.size(), 0);
    const std::size_t mask = bigger.size() - 1;
    for (std::size_t t = 0; t + 1 < texts_.size(); ++t) {  // the newest goes in after
      std::size_t s = texts_[t].hash & mask;
      while (bigger[s] != 0) s = (s + 1) & mask;
      bigger[s] = static_cast<std::uint32_t>(t + 1);
    }
    slots_ = std::move(bigger);
  }
  std::vector<std::uint32_t> slots_;
  std::vector<Text> texts_;
};

}  // namespace

bool sort_by_distinct_texts(RecordEntry* first, std::ptrdiff_t n, const EntryLess& less,
                            const std::function<void(RecordEntry*, std::ptrdiff_t)>& sort_texts) {
  const Chunk& chunk = *less.chunk;
  std::ptrdiff_t judged_at = std::max(kFirstJudgement, n / 16), judged_before = 0;
  std::size_t texts_before = 0;
  TextTable table(static_cast<std::size_t>(std::min(n, judged_at)));
  std::vector<std::uint32_t> text_of;  // each record's text, as far as hashed
  constexpr std::ptrdiff_t kAhead = 8;  // each record's text is a cache miss: fetched ahead
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    if (i + kAhead < n) __builtin_prefetch(chunk.data() + first[i + kAhead].offset);
    text_of.push_back(table.find_or_add(chunk.record(first[i]), i, first, chunk));
    const std::size_t texts = table.texts().size();
    if (texts >= kMostTexts || mostly_distinct(texts, n)) return false;
    if (i + 1 == judged_at && judged_at <= n / 2) {
      if (mostly_new(texts - texts_before, judged_at - judged_before)) return false;
      texts_before = texts;
      judged_before = judged_at;
      judged_at *= 2;
    }
  }
  std::vector<Text>& texts = table.texts();

  // Each text's first record, sorted; the texts found again from them by
  // their positions in the run (their offsets, distinct).
  std::vector<RecordEntry> heads;
  heads.reserve(texts.size());
  for (const Text& t : texts) heads.push_back(first[t.first]);
  using OffsetText = std::pair<std::uint64_t, std::uint32_t>;
  std::vector<OffsetText> by_offset;
  by_offset.reserve(texts.size());
  for (std::size_t t = 0; t < texts.size(); ++t)
    by_offset.emplace_back(std::uint64_t{heads[t].offset}, static_cast<std::uint32_t>(t));
  std::sort(by_offset.begin(), by_offset.end());
  if (heads.size() > 1) sort_texts(heads.data(), static_cast<std::ptrdiff_t>(heads.size()));
  auto text_at = [&](const RecordEntry& head) -> Text& {
    return texts[std::lower_bound(by_offset.begin(), by_offset.end(), OffsetText{std::uint64_t{head.offset}, 0})
                     ->second];
  };

  // Texts that the full comparison calls equal form a class, whose records
  // go in input order: each record is placed at its class's next place, in
  // the order of the run (the order of their positions, as sort_tied's
  // callers give it); a class whose records came in another order is
  // sorted by position.
  std::uint32_t classes = 0;
  for (std::size_t h = 0; h < heads.size(); ++classes) {
    std::size_t k = h + 1;
    while (k < heads.size() && less.format->compare_tied(chunk.record(heads[h]), chunk.record(heads[k])) == 0) ++k;
    for (; h < k; ++h) text_at(heads[h]).class_of = classes;
  }
  std::vector<std::uint64_t> class_records(classes, 0), class_start(classes, 0);
  for (const std::uint32_t t : text_of) ++class_records[texts[t].class_of];
  for (std::uint32_t c = 1; c < classes; ++c) class_start[c] = class_start[c - 1] + class_records[c - 1];
  std::vector<std::uint64_t> next = class_start;
  io::HugeVector<RecordEntry> out(static_cast<std::size_t>(n));
  io::populate_for_writing(out.data(), out.size() * sizeof(RecordEntry));  // written whole (io/fresh_pages.hpp)
  for (std::ptrdiff_t i = 0; i < n; ++i) out[next[texts[text_of[static_cast<std::size_t>(i)]].class_of]++] = first[i];
  const auto by_position = [](const RecordEntry& a, const RecordEntry& b) { return a.offset < b.offset; };
  for (std::uint32_t c = 0; c < classes; ++c) {
    RecordEntry* b = out.data() + class_start[c];
    RecordEntry* e = b + class_records[c];
    if (!std::is_sorted(b, e, by_position)) std::sort(b, e, by_position);
  }
  std::copy(out.begin(), out.end(), first);
  return true;
}

}  // namespace corank::text
