#include "gensort_keys.hpp"

namespace corank::tools {

namespace {

constexpr unsigned kSkewPrefixBits = 40;
constexpr std::uint64_t kPrintable = 95;  // ' ' .. '~'

void store_be64(std::uint8_t* out, std::uint64_t v) noexcept {
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<std::uint8_t>(v);
    v >>= 8;
  }
}

// The first n base-95 digits of the fraction x / 2^64, most significant first:
// order-preserving, so a shared top-bit prefix gives a shared character prefix.
// n <= 5 keeps every digit exact (95^5 < 2^33).
void fraction_digits(std::uint64_t x, int n, std::uint8_t* out) noexcept {
  for (int i = 0; i < n; ++i) {
    const unsigned __int128 p = static_cast<unsigned __int128>(x) * kPrintable;
    out[i] = static_cast<std::uint8_t>(' ' + static_cast<std::uint64_t>(p >> 64));
    x = static_cast<std::uint64_t>(p);
  }
}

}  // namespace

void gensort_binary_key(const KeyMaterialSource& src, GenDist dist, std::uint64_t record_number,
                        std::uint8_t* key) noexcept {
  if (dist == GenDist::Sorted || dist == GenDist::Reverse) {
    // Big-endian record number in 80 bits; reverse is its complement.
    const std::uint8_t pad = dist == GenDist::Sorted ? 0x00 : 0xFF;
    key[0] = key[1] = pad;
    store_be64(key + 2, dist == GenDist::Sorted ? record_number : ~record_number);
    return;
  }
  const KeyMaterial m = src.draw(record_number, kSkewPrefixBits);
  store_be64(key, m.hi);
  key[8] = static_cast<std::uint8_t>(m.lo >> 56);
  key[9] = static_cast<std::uint8_t>(m.lo >> 48);
}

void gensort_ascii_key(const KeyMaterialSource& src, GenDist dist, std::uint64_t record_number,
                       std::uint8_t* key) noexcept {
  if (dist == GenDist::Sorted || dist == GenDist::Reverse) {
    // Ten base-95 digits hold any 64-bit record number (95^10 > 2^64).
    std::uint64_t n = record_number;
    for (int i = 9; i >= 0; --i) {
      const auto d = static_cast<std::uint8_t>(n % kPrintable);
      key[i] = static_cast<std::uint8_t>(dist == GenDist::Sorted ? ' ' + d : '~' - d);
      n /= kPrintable;
    }
    return;
  }
  const KeyMaterial m = src.draw(record_number, kSkewPrefixBits);
  fraction_digits(m.hi, 5, key);
  fraction_digits(m.lo, 5, key + 5);
}

}  // namespace corank::tools
