#include "corank/normalize.hpp"

#include <array>
#include <bit>
#include <cstring>

namespace corank {

namespace {

std::uint64_t load_uint(const std::byte* p, std::uint32_t width, Endian e) noexcept {
  std::uint64_t v = 0;
  if (e == Endian::Little) {
    for (std::uint32_t i = 0; i < width; ++i) v |= std::uint64_t(std::to_integer<std::uint8_t>(p[i])) << (8 * i);
  } else {
    for (std::uint32_t i = 0; i < width; ++i) v = (v << 8) | std::to_integer<std::uint8_t>(p[i]);
  }
  return v;
}

void store_big_endian(std::uint64_t v, std::uint32_t width, std::uint8_t* out) noexcept {
  for (std::uint32_t i = 0; i < width; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * (width - 1 - i)));
}

// Writes the key's normalized bytes (spec.normalized_length() of them) to out.
void normalize_key(const KeySpec& k, const std::byte* record, std::uint8_t* out) noexcept {
  const std::byte* p = record + k.offset;
  const std::uint32_t w = k.length;
  // Integer and float keys are at most 8 bytes; byte keys need no sign bit.
  const std::uint64_t sign = w <= 8 ? std::uint64_t{1} << (8 * w - 1) : 0;
  switch (k.type) {
    case KeyType::Bytes:
      std::memcpy(out, p, w);
      break;
    case KeyType::UInt:
      store_big_endian(load_uint(p, w, k.endian), w, out);
      break;
    case KeyType::Int:
      // Flipping the sign bit maps two's complement onto offset binary.
      store_big_endian(load_uint(p, w, k.endian) ^ sign, w, out);
      break;
    case KeyType::Float32:
    case KeyType::Float64: {
      // IEEE total order: positives get the sign bit set, negatives are inverted.
      std::uint64_t bits = load_uint(p, w, k.endian);
      bits = (bits & sign) ? ~bits : (bits | sign);
      if (w < 8) bits &= (std::uint64_t{1} << (8 * w)) - 1;
      store_big_endian(bits, w, out);
      break;
    }
  }
  if (k.descending)
    for (std::uint32_t i = 0; i < w; ++i) out[i] = static_cast<std::uint8_t>(~out[i]);
}

}  // namespace

KeyNormalizer::KeyNormalizer(const RecordFormat& format) : format_(format), words_(format.key_words()) {}

void KeyNormalizer::normalize(const std::byte* record, std::uint64_t* out) const noexcept {
  std::array<std::uint8_t, 64> buf{};  // parse_format caps keys at 64 bytes
  std::uint32_t pos = 0;
  for (const auto& k : format_.keys) {
    normalize_key(k, record, buf.data() + pos);
    pos += k.normalized_length();
  }
  for (std::uint32_t w = 0; w < words_; ++w) {
    std::uint64_t v;
    std::memcpy(&v, buf.data() + 8 * w, 8);
    out[w] = __builtin_bswap64(v);  // first byte most significant (little-endian host)
  }
}

int KeyNormalizer::compare(const std::byte* a, const std::byte* b) const noexcept {
  std::array<std::uint64_t, 8> ka{}, kb{};
  normalize(a, ka.data());
  normalize(b, kb.data());
  for (std::uint32_t w = 0; w < words_; ++w)
    if (ka[w] != kb[w]) return ka[w] < kb[w] ? -1 : 1;
  return 0;
}

}  // namespace corank
