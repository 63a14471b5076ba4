#pragma once
// Records that are one 4- or 8-byte key (--format u32 u64 i32 i64 f32 f64, and
// fixed:4 / fixed:8 with a single key covering the record) sort as their
// normalized key words alone. Normalization maps the record's bytes one to one
// onto a 64-bit word (a byte swap, a sign flip, IEEE total order, an inversion
// for descending keys), so equal words are equal records: no position is
// needed to keep the sort stable, and the records come back from the sorted
// words. The GPU then moves 8 bytes a record each way instead of records,
// (key, position) entries and a gather.
#include <cstddef>
#include <cstdint>

#include "corank/format.hpp"

namespace corank {

// Whether `format`'s records are one 4- or 8-byte key covering the whole record.
bool sorts_as_key_words(const RecordFormat& format) noexcept;

// An order-independent fingerprint of a multiset of words (their sum and xor):
// equal for any permutation, so a failed in-place sort can tell whether the
// array still holds the words it started with.
struct WordsSum {
  std::uint64_t sum = 0, x = 0;
  bool operator==(const WordsSum&) const = default;
  WordsSum& operator+=(const WordsSum& o) noexcept {
    sum += o.sum;
    x ^= o.x;
    return *this;
  }
};
WordsSum words_sum(const std::uint64_t* words, std::uint64_t n, unsigned threads);

// On `threads` threads: n records at `records` become their normalized words
// at `words` (host-order u64, exactly what KeyNormalizer gives), and back.
// `format` must satisfy sorts_as_key_words. With 8-byte records the two
// arrays may be the same memory (in place). words_to_records inverts
// records_to_words; records_to_words returns the words' fingerprint.
WordsSum records_to_words(const std::byte* records, std::uint64_t n, const RecordFormat& format,
                          std::uint64_t* words, unsigned threads);
void words_to_records(const std::uint64_t* words, std::uint64_t n, const RecordFormat& format, std::byte* records,
                      unsigned threads);

// Sorts n words ascending on `threads` threads (radix_sort.hpp); `scratch`
// holds n words and is overwritten.
void sort_words(std::uint64_t* words, std::uint64_t* scratch, std::uint64_t n, unsigned threads);

// Drops repeats of equal adjacent words in a sorted array; returns how many remain.
std::uint64_t unique_words(std::uint64_t* words, std::uint64_t n) noexcept;

}  // namespace corank
