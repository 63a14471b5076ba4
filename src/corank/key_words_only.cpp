#include "corank/key_words_only.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "corank/parallel.hpp"
#include "corank/radix_sort.hpp"

namespace corank {

namespace {

// How many pieces n words are split into on `threads` threads: one a thread,
// fewer for small n.
unsigned piece_count(std::uint64_t n, unsigned threads) {
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, n / 65536)));
}

// Runs f(piece, begin, end) over [0, n) split into piece_count pieces, one per thread.
template <class F>
void for_pieces(std::uint64_t n, unsigned threads, F&& f) {
  const unsigned t = piece_count(n, threads);
  parallel_for(t, [&](unsigned i) { f(i, n * i / t, n * (i + 1) / t); });
}

// The fingerprint of words computed piece by piece: f(begin, end) returns the
// WordsSum of its piece.
template <class F>
WordsSum sum_over_pieces(std::uint64_t n, unsigned threads, F&& f) {
  std::vector<WordsSum> part(piece_count(n, threads));
  for_pieces(n, threads, [&](unsigned t, std::uint64_t b, std::uint64_t e) { part[t] = f(b, e); });
  WordsSum total;
  for (const auto& s : part) total += s;
  return total;
}

// One key of Width bytes covering the record: its value (the bytes read in the
// key's byte order) and its normalized word, the normalized bytes in the top
// Width bytes of the word, as KeyNormalizer lays them out.
template <unsigned Width>
struct WordMap {
  using U = std::conditional_t<Width == 8, std::uint64_t, std::uint32_t>;
  static constexpr U kSign = U{1} << (8 * Width - 1);
  static constexpr unsigned kShift = 64 - 8 * Width;

  KeySpec key;

  static U swap(U v) noexcept {
    if constexpr (Width == 8)
      return __builtin_bswap64(v);
    else
      return __builtin_bswap32(v);
  }
  // The record's bytes, loaded little-endian (the host's order), to the key's value and back.
  U value_of(U raw) const noexcept { return key.endian == Endian::Little ? raw : swap(raw); }
  U raw_of(U value) const noexcept { return value_of(value); }

  template <KeyType T>
  static U normalize(U raw, const WordMap& m) noexcept {
    if constexpr (T == KeyType::Bytes) {
      return swap(raw);  // memcmp order: the first byte most significant
    } else {
      const U v = m.value_of(raw);
      if constexpr (T == KeyType::UInt) return v;
      if constexpr (T == KeyType::Int) return v ^ kSign;
      if constexpr (T == KeyType::Float32 || T == KeyType::Float64)
        return (v & kSign) ? static_cast<U>(~v) : static_cast<U>(v | kSign);  // IEEE total order
    }
  }
  template <KeyType T>
  static U denormalize(U w, const WordMap& m) noexcept {
    if constexpr (T == KeyType::Bytes) {
      return swap(w);
    } else {
      U v = w;
      if constexpr (T == KeyType::Int) v = w ^ kSign;
      if constexpr (T == KeyType::Float32 || T == KeyType::Float64)
        v = (w & kSign) ? static_cast<U>(w ^ kSign) : static_cast<U>(~w);
      return m.raw_of(v);
    }
  }

  // Calls f with normalize<T>/denormalize<T> for the key's type, so the loops
  // below have no switch inside.
  template <class F>
  void dispatch(F&& f) const {
    switch (key.type) {
      case KeyType::Bytes: f(std::integral_constant<KeyType, KeyType::Bytes>{}); break;
      case KeyType::UInt: f(std::integral_constant<KeyType, KeyType::UInt>{}); break;
      case KeyType::Int: f(std::integral_constant<KeyType, KeyType::Int>{}); break;
      case KeyType::Float32: f(std::integral_constant<KeyType, KeyType::Float32>{}); break;
      case KeyType::Float64: f(std::integral_constant<KeyType, KeyType::Float64>{}); break;
    }
  }

  WordsSum to_words(const std::byte* records, std::uint64_t b, std::uint64_t e, std::uint64_t* words) const {
    const U flip = key.descending ? static_cast<U>(~U{0}) : U{0};
    WordsSum s;
    dispatch([&](auto type) {
      for (std::uint64_t i = b; i < e; ++i) {
        U raw;
        std::memcpy(&raw, records + Width * i, Width);
        const std::uint64_t w = std::uint64_t{static_cast<U>(normalize<decltype(type)::value>(raw, *this) ^ flip)}
                                << kShift;
        words[i] = w;
        s.sum += w;
        s.x ^= w;
      }
    });
    return s;
  }

  void to_records(const std::uint64_t* words, std::uint64_t b, std::uint64_t e, std::byte* records) const {
    const U flip = key.descending ? static_cast<U>(~U{0}) : U{0};
    dispatch([&](auto type) {
      for (std::uint64_t i = b; i < e; ++i) {
        const U w = static_cast<U>(words[i] >> kShift) ^ flip;
        const U raw = denormalize<decltype(type)::value>(w, *this);
        std::memcpy(records + Width * i, &raw, Width);
      }
    });
  }
};

}  // namespace

bool sorts_as_key_words(const RecordFormat& f) noexcept {
  return (f.record_size == 4 || f.record_size == 8) && f.keys.size() == 1 && f.keys[0].offset == 0 &&
         f.keys[0].length == f.record_size;
}

WordsSum words_sum(const std::uint64_t* words, std::uint64_t n, unsigned threads) {
  return sum_over_pieces(n, threads, [&](std::uint64_t b, std::uint64_t e) {
    WordsSum s;
    for (std::uint64_t i = b; i < e; ++i) {
      s.sum += words[i];
      s.x ^= words[i];
    }
    return s;
  });
}

WordsSum records_to_words(const std::byte* records, std::uint64_t n, const RecordFormat& format,
                          std::uint64_t* words, unsigned threads) {
  return sum_over_pieces(n, threads, [&](std::uint64_t b, std::uint64_t e) {
    return format.record_size == 8 ? WordMap<8>{format.keys[0]}.to_words(records, b, e, words)
                                   : WordMap<4>{format.keys[0]}.to_words(records, b, e, words);
  });
}

void words_to_records(const std::uint64_t* words, std::uint64_t n, const RecordFormat& format, std::byte* records,
                      unsigned threads) {
  for_pieces(n, threads, [&](unsigned, std::uint64_t b, std::uint64_t e) {
    if (format.record_size == 8)
      WordMap<8>{format.keys[0]}.to_records(words, b, e, records);
    else
      WordMap<4>{format.keys[0]}.to_records(words, b, e, records);
  });
}

void sort_words(std::uint64_t* words, std::uint64_t* scratch, std::uint64_t n, unsigned threads) {
  radix_sort(words, scratch, n, threads);
}

std::uint64_t unique_words(std::uint64_t* words, std::uint64_t n) noexcept {
  return n == 0 ? 0 : static_cast<std::uint64_t>(std::unique(words, words + n) - words);
}

}  // namespace corank
