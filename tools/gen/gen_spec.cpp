#include "gen_spec.hpp"

#include <array>
#include <charconv>
#include <limits>
#include <utility>

namespace corank::tools {

namespace {

constexpr std::array<std::pair<std::string_view, GenFormat>, 8> kFormats{{
    {"gensort", GenFormat::Gensort}, {"gensort-ascii", GenFormat::GensortAscii},
    {"u32", GenFormat::U32},         {"u64", GenFormat::U64},
    {"i32", GenFormat::I32},         {"i64", GenFormat::I64},
    {"f32", GenFormat::F32},         {"f64", GenFormat::F64},
}};

constexpr std::array<std::pair<std::string_view, GenDist>, 8> kDists{{
    {"uniform", GenDist::Uniform},      {"skewed", GenDist::Skewed},    {"sorted", GenDist::Sorted},
    {"reverse", GenDist::Reverse},      {"all-equal", GenDist::AllEqual},
    {"few-unique", GenDist::FewUnique}, {"zipf", GenDist::Zipf},      {"nearly-sorted", GenDist::NearlySorted},
}};

std::uint64_t parse_scaled(std::string_view text, std::string_view what, std::uint64_t base) {
  std::string_view digits = text;
  int power = 0;
  if (!text.empty()) {
    switch (text.back()) {
      case 'k': case 'K': power = 1; break;
      case 'M': power = 2; break;
      case 'G': power = 3; break;
      case 'T': power = 4; break;
      default: break;
    }
    if (power > 0) digits.remove_suffix(1);
  }
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc{} || p != digits.data() + digits.size())
    throw GenUsageError("invalid " + std::string(what) + " '" + std::string(text) + "'");
  for (int i = 0; i < power; ++i) {
    if (v > std::numeric_limits<std::uint64_t>::max() / base)
      throw GenUsageError(std::string(what) + " too large: '" + std::string(text) + "'");
    v *= base;
  }
  return v;
}

}  // namespace

std::uint32_t record_size(GenFormat f) noexcept {
  switch (f) {
    case GenFormat::Gensort:
    case GenFormat::GensortAscii: return 100;
    case GenFormat::U32:
    case GenFormat::I32:
    case GenFormat::F32: return 4;
    case GenFormat::U64:
    case GenFormat::I64:
    case GenFormat::F64: return 8;
  }
  return 0;
}

GenFormat parse_gen_format(std::string_view name) {
  for (const auto& [n, f] : kFormats)
    if (n == name) return f;
  throw GenUsageError("unknown format '" + std::string(name) +
                      "' (gensort, gensort-ascii, u32, u64, i32, i64, f32, f64)");
}

GenDist parse_gen_dist(std::string_view name) {
  for (const auto& [n, d] : kDists)
    if (n == name) return d;
  throw GenUsageError("unknown distribution '" + std::string(name) +
                      "' (uniform, skewed, sorted, reverse, all-equal, few-unique, zipf)");
}

std::string_view to_string(GenFormat f) noexcept {
  for (const auto& [n, v] : kFormats)
    if (v == f) return n;
  return "?";
}

std::string_view to_string(GenDist d) noexcept {
  for (const auto& [n, v] : kDists)
    if (v == d) return n;
  return "?";
}

std::uint64_t parse_record_count(std::string_view text) { return parse_scaled(text, "record count", 1000); }
std::uint64_t parse_byte_size(std::string_view text) { return parse_scaled(text, "byte size", 1024); }

}  // namespace corank::tools
