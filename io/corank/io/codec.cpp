#include "corank/io/codec.hpp"

#include <initializer_list>

namespace corank::io {

std::string_view codec_name(Codec c) noexcept {
  switch (c) {
    case Codec::none: return "none";
    case Codec::gzip: return "gzip";
    case Codec::bzip2: return "bzip2";
    case Codec::xz: return "xz";
    case Codec::zstd: return "zstd";
  }
  return "none";
}

std::optional<Codec> parse_codec(std::string_view s) noexcept {
  if (s == "none") return Codec::none;
  if (s == "gzip" || s == "gz") return Codec::gzip;
  if (s == "bzip2" || s == "bz2") return Codec::bzip2;
  if (s == "xz") return Codec::xz;
  if (s == "zstd" || s == "zst") return Codec::zstd;
  return std::nullopt;
}

Codec codec_from_suffix(std::string_view path) noexcept {
  auto ends = [&](std::string_view suf) {
    return path.size() > suf.size() && path.substr(path.size() - suf.size()) == suf;
  };
  if (ends(".gz")) return Codec::gzip;
  if (ends(".bz2")) return Codec::bzip2;
  if (ends(".xz")) return Codec::xz;
  if (ends(".zst")) return Codec::zstd;
  return Codec::none;
}

Codec codec_from_magic(const unsigned char* p, std::size_t n) noexcept {
  auto starts = [&](std::size_t at, std::initializer_list<unsigned char> bytes) {
    if (n < at + bytes.size()) return false;
    for (const unsigned char b : bytes)
      if (p[at++] != b) return false;
    return true;
  };
  // gzip (RFC 1952): 1f 8b, method 8 (deflate, the only one defined), reserved FLG bits 0.
  if (starts(0, {0x1f, 0x8b, 8}) && n >= 4 && (p[3] & 0xe0) == 0) return Codec::gzip;
  // bzip2: "BZh", the block size digit, then the first block's magic (the
  // digits of pi) or, for a stream with no block, the end-of-stream magic (of sqrt(pi)).
  if (starts(0, {'B', 'Z', 'h'}) && n >= 4 && p[3] >= '1' && p[3] <= '9' &&
      (starts(4, {0x31, 0x41, 0x59, 0x26, 0x53, 0x59}) || starts(4, {0x17, 0x72, 0x45, 0x38, 0x50, 0x90})))
    return Codec::bzip2;
  // xz: the magic, then stream flags whose first byte and high bits are reserved (0).
  if (starts(0, {0xfd, '7', 'z', 'X', 'Z', 0, 0}) && n >= 8 && (p[7] & 0xf0) == 0) return Codec::xz;
  // zstd: the frame magic, then a frame header descriptor whose bit 3 is reserved (0).
  if (starts(0, {0x28, 0xb5, 0x2f, 0xfd}) && n >= 5 && (p[4] & 0x08) == 0) return Codec::zstd;
  return Codec::none;
}

}  // namespace corank::io
