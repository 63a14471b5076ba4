#include "corank/io/codec.hpp"

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
  // gzip: 1f 8b, method 8 (deflate, the only one defined), reserved FLG bits 0.
  if (n >= 4 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8 && (p[3] & 0xe0) == 0) return Codec::gzip;
  // bzip2: "BZh" and a block size digit.
  if (n >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && p[3] >= '1' && p[3] <= '9') return Codec::bzip2;
  if (n >= 6 && p[0] == 0xfd && p[1] == '7' && p[2] == 'z' && p[3] == 'X' && p[4] == 'Z' && p[5] == 0)
    return Codec::xz;
  if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) return Codec::zstd;
  return Codec::none;
}

}  // namespace corank::io
