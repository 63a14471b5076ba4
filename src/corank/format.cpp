#include "corank/format.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>

#include "corank/machine_share.hpp"

namespace corank {

namespace {

constexpr std::uint32_t kMaxKeyBytes = 64;  // 8 normalized words

std::uint64_t parse_u64(std::string_view text, std::string_view what) {
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || p != text.data() + text.size())
    throw UsageError("invalid " + std::string(what) + ": '" + std::string(text) + "'");
  return v;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (;;) {
    auto pos = s.find(sep);
    out.push_back(s.substr(0, pos));
    if (pos == std::string_view::npos) return out;
    s.remove_prefix(pos + 1);
  }
}

struct TypeName {
  std::string_view name;
  KeyType type;
  std::uint32_t width;  // 0: any
  Endian endian;
};

constexpr TypeName kTypes[] = {
    {"bytes", KeyType::Bytes, 0, Endian::Big},     {"u8", KeyType::UInt, 1, Endian::Little},
    {"u16", KeyType::UInt, 2, Endian::Little},     {"u32", KeyType::UInt, 4, Endian::Little},
    {"u64", KeyType::UInt, 8, Endian::Little},     {"i8", KeyType::Int, 1, Endian::Little},
    {"i16", KeyType::Int, 2, Endian::Little},      {"i32", KeyType::Int, 4, Endian::Little},
    {"i64", KeyType::Int, 8, Endian::Little},      {"u16be", KeyType::UInt, 2, Endian::Big},
    {"u32be", KeyType::UInt, 4, Endian::Big},      {"u64be", KeyType::UInt, 8, Endian::Big},
    {"i16be", KeyType::Int, 2, Endian::Big},       {"i32be", KeyType::Int, 4, Endian::Big},
    {"i64be", KeyType::Int, 8, Endian::Big},       {"f32", KeyType::Float32, 4, Endian::Little},
    {"f64", KeyType::Float64, 8, Endian::Little},  {"f32be", KeyType::Float32, 4, Endian::Big},
    {"f64be", KeyType::Float64, 8, Endian::Big},
};

const TypeName* find_type(std::string_view name) {
  for (const auto& t : kTypes)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace

std::uint32_t RecordFormat::key_bytes() const noexcept {
  std::uint32_t n = 0;
  for (const auto& k : keys) n += k.normalized_length();
  return n;
}

KeySpec parse_key_spec(std::string_view spec) {
  auto parts = split(spec, ':');
  if (parts.size() < 2 || parts.size() > 4)
    throw UsageError("invalid key '" + std::string(spec) + "': expected OFFSET:LENGTH[:TYPE][:desc]");
  KeySpec k;
  std::uint64_t off = parse_u64(parts[0], "key offset");
  std::uint64_t len = parse_u64(parts[1], "key length");
  if (off > std::numeric_limits<std::uint32_t>::max() || len == 0 || len > kMaxKeyBytes)
    throw UsageError("invalid key '" + std::string(spec) + "': length must be 1.." + std::to_string(kMaxKeyBytes));
  k.offset = static_cast<std::uint32_t>(off);
  k.length = static_cast<std::uint32_t>(len);
  for (std::size_t i = 2; i < parts.size(); ++i) {
    if (parts[i] == "desc" || parts[i] == "r") {
      k.descending = true;
    } else if (parts[i] == "asc") {
      k.descending = false;
    } else if (const TypeName* t = find_type(parts[i]); t && i == 2) {
      if (t->width != 0 && t->width != k.length)
        throw UsageError("invalid key '" + std::string(spec) + "': type " + std::string(t->name) + " is " +
                         std::to_string(t->width) + " bytes wide, not " + std::to_string(k.length));
      k.type = t->type;
      k.endian = t->endian;
    } else {
      throw UsageError("invalid key '" + std::string(spec) + "': unknown type or flag '" + std::string(parts[i]) + "'");
    }
  }
  return k;
}

RecordFormat in_sort_order(RecordFormat format, bool reverse) {
  if (reverse)
    for (auto& k : format.keys) k.descending = !k.descending;
  return format;
}

RecordFormat parse_format(std::string_view format, const std::vector<std::string>& keys) {
  RecordFormat f;
  f.name = std::string(format);
  if (format == "gensort") {
    f.record_size = 100;
    f.keys.push_back(KeySpec{0, 10, KeyType::Bytes, Endian::Big, false});
  } else if (format.starts_with("fixed:")) {
    std::uint64_t r = parse_u64(format.substr(6), "record size");
    if (r == 0 || r > (std::uint64_t{1} << 20)) throw UsageError("invalid record size in '" + f.name + "': 1..1048576");
    f.record_size = static_cast<std::uint32_t>(r);
    if (keys.empty()) throw UsageError("--format " + f.name + " needs at least one --key OFFSET:LENGTH[:TYPE][:desc]");
  } else if (const TypeName* t = find_type(format); t && t->width != 0 && t->endian == Endian::Little &&
                                                      (t->width == 4 || t->width == 8)) {
    f.record_size = t->width;
    f.keys.push_back(KeySpec{0, t->width, t->type, Endian::Little, false});
  } else {
    throw UsageError("unknown format '" + f.name + "' (gensort, fixed:R, u32, u64, i32, i64, f32, f64)");
  }
  if (!keys.empty()) {
    f.keys.clear();
    for (const auto& k : keys) f.keys.push_back(parse_key_spec(k));
  }
  for (const auto& k : f.keys) {
    if (std::uint64_t{k.offset} + k.length > f.record_size)
      throw UsageError("key at offset " + std::to_string(k.offset) + " length " + std::to_string(k.length) +
                       " does not fit a " + std::to_string(f.record_size) + "-byte record");
  }
  if (f.key_bytes() > kMaxKeyBytes)
    throw UsageError("keys are " + std::to_string(f.key_bytes()) + " bytes together; at most " +
                     std::to_string(kMaxKeyBytes) + " are supported");
  return f;
}

std::uint64_t parse_size(std::string_view text, bool bare_is_kib) {
  if (text.empty()) throw UsageError("invalid size ''");
  std::string_view digits = text;
  char suffix = 0;
  if (!std::isdigit(static_cast<unsigned char>(text.back()))) {
    suffix = text.back();
    digits = text.substr(0, text.size() - 1);
  }
  std::uint64_t v = parse_u64(digits, "size");
  auto mul = [&](int shift) {
    if (shift > 0 && v > (std::numeric_limits<std::uint64_t>::max() >> shift))
      throw UsageError("size too large: '" + std::string(text) + "'");
    return v << shift;
  };
  switch (suffix) {
    case 0: return bare_is_kib ? mul(10) : v;
    case 'b': return v;
    case 'k': case 'K': return mul(10);
    case 'm': case 'M': return mul(20);
    case 'g': case 'G': return mul(30);
    case 't': case 'T': return mul(40);
    case 'P': return mul(50);
    case 'E': return mul(60);
    case 'Z': case 'Y': throw UsageError("size too large: '" + std::string(text) + "'");  // past 64 bits
    case '%': {  // of the memory the process may use (GNU's: of RAM); more than 100% is a size as any other
      const auto phys = static_cast<long double>(machine_share().memory);
      const long double bytes = phys * static_cast<long double>(v) / 100;
      if (bytes >= 18446744073709551616.0L) throw UsageError("size too large: '" + std::string(text) + "'");
      return static_cast<std::uint64_t>(bytes);
    }
    default: throw UsageError("invalid size suffix in '" + std::string(text) + "'");
  }
}

}  // namespace corank
