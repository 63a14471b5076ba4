#include "typed_values.hpp"

#include <bit>
#include <cstring>
#include <limits>

namespace corank::tools {

namespace {

enum class Kind { Unsigned, Signed, Float };

template <class Bits>
constexpr Bits sign_bit() noexcept {
  return Bits{1} << (8 * sizeof(Bits) - 1);
}

template <class Bits>
Bits saturate(std::uint64_t n) noexcept {
  return n > std::numeric_limits<Bits>::max() ? std::numeric_limits<Bits>::max() : static_cast<Bits>(n);
}

template <class Float>
using BitsOf = std::conditional_t<sizeof(Float) == 4, std::uint32_t, std::uint64_t>;

template <class Float>
BitsOf<Float> special_float(unsigned which) noexcept {
  using L = std::numeric_limits<Float>;
  constexpr Float kSpecials[8] = {L::quiet_NaN(), -L::quiet_NaN(), Float(0.0), -Float(0.0),
                                  L::infinity(),  -L::infinity(),  L::denorm_min(), L::max()};
  return std::bit_cast<BitsOf<Float>>(kSpecials[which & 7]);
}

// Random bits as a float; a NaN bit pattern gets its top exponent bit cleared,
// which makes it finite while keeping sign and mantissa random.
template <class Float>
BitsOf<Float> random_float(BitsOf<Float> bits) noexcept {
  using Bits = BitsOf<Float>;
  constexpr int kMantissa = std::numeric_limits<Float>::digits - 1;
  constexpr Bits kExp = static_cast<Bits>(~sign_bit<Bits>()) & ~((Bits{1} << kMantissa) - 1);
  if ((bits & kExp) == kExp && (bits & ~kExp & ~sign_bit<Bits>()) != 0) bits &= ~(sign_bit<Bits>() >> 1);
  return bits;
}

template <Kind K, class Bits, class Float = void>
Bits ordered_value(GenDist dist, std::uint64_t n) noexcept {
  if constexpr (K == Kind::Float) {
    const Float v = static_cast<Float>(n);  // rounding is monotone: still non-decreasing
    return std::bit_cast<Bits>(dist == GenDist::Sorted ? v : -v);
  } else {
    // Unsigned: 0+n / max-n. Signed (offset binary): min+n / max-n.
    Bits v = saturate<Bits>(n);
    if (dist == GenDist::Reverse) v = static_cast<Bits>(~v);
    if constexpr (K == Kind::Signed) v ^= sign_bit<Bits>();
    return v;
  }
}

template <Kind K, class Bits, class Float = void>
void fill(const KeyMaterialSource& src, const GenSpec& spec, std::uint64_t first, std::uint64_t count,
          std::uint8_t* out) noexcept {
  constexpr unsigned kWidthBits = 8 * sizeof(Bits);
  const bool near = spec.dist == GenDist::NearlySorted;
  const bool ordered = spec.dist == GenDist::Sorted || spec.dist == GenDist::Reverse || near;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t n = first + i;
    Bits v;
    if (ordered) {
      v = near ? ordered_value<K, Bits, Float>(GenDist::Sorted, nearly_sorted_rank(spec, n))
               : ordered_value<K, Bits, Float>(spec.dist, n);
    } else {
      const KeyMaterial m = src.draw(n, kWidthBits * 5 / 8);
      v = static_cast<Bits>(m.hi >> (64 - kWidthBits));  // the top bits carry the skewed prefix
      if constexpr (K == Kind::Float) {
        v = (spec.allow_nan && (m.lo & 7) == 0) ? special_float<Float>(static_cast<unsigned>(m.lo >> 3))
                                                : random_float<Float>(v);
      }
    }
    std::memcpy(out + i * sizeof(Bits), &v, sizeof(Bits));  // little-endian host
  }
}

}  // namespace

void fill_typed_values(const KeyMaterialSource& src, const GenSpec& spec, std::uint64_t first,
                       std::uint64_t count, std::uint8_t* out) noexcept {
  static_assert(std::endian::native == std::endian::little, "typed records are written little-endian");
  switch (spec.format) {
    case GenFormat::U32: fill<Kind::Unsigned, std::uint32_t>(src, spec, first, count, out); break;
    case GenFormat::U64: fill<Kind::Unsigned, std::uint64_t>(src, spec, first, count, out); break;
    case GenFormat::I32: fill<Kind::Signed, std::uint32_t>(src, spec, first, count, out); break;
    case GenFormat::I64: fill<Kind::Signed, std::uint64_t>(src, spec, first, count, out); break;
    case GenFormat::F32: fill<Kind::Float, std::uint32_t, float>(src, spec, first, count, out); break;
    case GenFormat::F64: fill<Kind::Float, std::uint64_t, double>(src, spec, first, count, out); break;
    case GenFormat::Gensort:
    case GenFormat::GensortAscii: break;
  }
}

}  // namespace corank::tools
