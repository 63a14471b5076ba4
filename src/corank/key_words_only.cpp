#include "corank/key_words_only.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "corank/parallel.hpp"

namespace corank {

namespace {

// Runs f(piece, begin, end) over [0, n) split into at most `threads` pieces
// (fewer for small n), one per thread.
template <class F>
void for_pieces(std::uint64_t n, unsigned threads, F&& f) {
  const unsigned t = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, n / 65536)));
  parallel_for(t, [&](unsigned i) { f(i, n * i / t, n * (i + 1) / t); });
}

// The record's 8 bytes, from the key's value read in the key's byte order.
std::uint64_t to_record_bytes(std::uint64_t value, Endian e) noexcept {
  return e == Endian::Little ? value : __builtin_bswap64(value);
}

}  // namespace

bool sorts_as_key_words(const RecordFormat& f) noexcept {
  return f.record_size == 8 && f.keys.size() == 1 && f.keys[0].offset == 0 && f.keys[0].length == 8;
}

WordsSum words_sum(const std::uint64_t* keys, std::uint64_t n, unsigned threads) {
  std::vector<WordsSum> part(std::max(1u, threads));
  for_pieces(n, threads, [&](unsigned t, std::uint64_t b, std::uint64_t e) {
    WordsSum s;
    for (std::uint64_t i = b; i < e; ++i) {
      s.sum += keys[i];
      s.x ^= keys[i];
    }
    part[t] = s;
  });
  WordsSum total;
  for (const auto& s : part) total += s;
  return total;
}

WordsSum records_to_keys(std::byte* data, std::uint64_t n, const RecordFormat& format, unsigned threads) {
  const KeySpec k = format.keys[0];
  constexpr std::uint64_t sign = std::uint64_t{1} << 63;
  const std::uint64_t flip = k.descending ? ~std::uint64_t{0} : 0;
  // The record's 8 bytes as a little-endian load, to the key's value.
  auto value = [&](std::uint64_t bytes) { return k.endian == Endian::Little ? bytes : __builtin_bswap64(bytes); };
  std::vector<WordsSum> part(std::max(1u, threads));
  for_pieces(n, threads, [&](unsigned t, std::uint64_t b, std::uint64_t e) {
    auto run = [&](auto word_of) {
      WordsSum s;
      for (std::uint64_t i = b; i < e; ++i) {
        std::uint64_t bytes;
        std::memcpy(&bytes, data + 8 * i, 8);
        const std::uint64_t w = word_of(bytes) ^ flip;
        std::memcpy(data + 8 * i, &w, 8);
        s.sum += w;
        s.x ^= w;
      }
      part[t] = s;
    };
    switch (k.type) {
      case KeyType::Bytes: run([](std::uint64_t v) { return __builtin_bswap64(v); }); break;  // memcmp order
      case KeyType::UInt: run([&](std::uint64_t v) { return value(v); }); break;
      case KeyType::Int: run([&](std::uint64_t v) { return value(v) ^ sign; }); break;
      case KeyType::Float32:  // 8-byte keys are never f32
      case KeyType::Float64:
        run([&](std::uint64_t v) {
          const std::uint64_t bits = value(v);
          return (bits & sign) ? ~bits : (bits | sign);  // IEEE total order
        });
        break;
    }
  });
  WordsSum total;
  for (const auto& s : part) total += s;
  return total;
}

void sort_words(std::uint64_t* keys, std::uint64_t n, unsigned threads) {
  const unsigned t = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, n / 65536)));
  std::vector<std::uint64_t> bounds(t + 1);
  for (unsigned i = 0; i <= t; ++i) bounds[i] = n * i / t;
  parallel_for(t, [&](unsigned i) { std::sort(keys + bounds[i], keys + bounds[i + 1]); });
  for (std::size_t width = 1; width < t; width *= 2) {
    std::vector<std::size_t> lefts;
    for (std::size_t i = 0; i + width < t; i += 2 * width) lefts.push_back(i);
    parallel_for(static_cast<unsigned>(lefts.size()), [&](unsigned j) {
      const std::size_t i = lefts[j];
      std::inplace_merge(keys + bounds[i], keys + bounds[i + width], keys + bounds[std::min<std::size_t>(i + 2 * width, t)]);
    });
  }
}

void keys_to_records(std::byte* data, std::uint64_t n, const RecordFormat& format, unsigned threads) {
  const KeySpec k = format.keys[0];
  constexpr std::uint64_t sign = std::uint64_t{1} << 63;
  for_pieces(n, threads, [&](unsigned, std::uint64_t b, std::uint64_t e) {
    for (std::uint64_t i = b; i < e; ++i) {
      std::uint64_t w;
      std::memcpy(&w, data + 8 * i, 8);
      if (k.descending) w = ~w;
      std::uint64_t bytes = 0;
      switch (k.type) {
        case KeyType::Bytes: bytes = __builtin_bswap64(w); break;  // the first byte is the most significant
        case KeyType::UInt: bytes = to_record_bytes(w, k.endian); break;
        case KeyType::Int: bytes = to_record_bytes(w ^ sign, k.endian); break;
        case KeyType::Float32:  // 8-byte keys are never f32
        case KeyType::Float64: bytes = to_record_bytes((w & sign) ? (w ^ sign) : ~w, k.endian); break;
      }
      std::memcpy(data + 8 * i, &bytes, 8);
    }
  });
}

std::uint64_t unique_keys(std::uint64_t* keys, std::uint64_t n) noexcept {
  return n == 0 ? 0 : static_cast<std::uint64_t>(std::unique(keys, keys + n) - keys);
}

}  // namespace corank
