#pragma once
// Compression codecs corank reads and writes (through Boost.Iostreams).
#include <cstddef>
#include <optional>
#include <string_view>

namespace corank::io {

enum class Codec { none, gzip, bzip2, xz, zstd };

// "none", "gzip", "bzip2", "xz", "zstd".
std::string_view codec_name(Codec c) noexcept;
// Accepts the names above plus "gz", "bz2", "zst"; nullopt for anything else.
std::optional<Codec> parse_codec(std::string_view name) noexcept;
// By file suffix: .gz .bz2 .xz .zst; Codec::none otherwise.
Codec codec_from_suffix(std::string_view path) noexcept;
// By the stream's first bytes (up to 6 are looked at). The gzip and bzip2 checks
// look past the 2-3 byte magic (method byte, reserved flag bits, block size
// digit) so that a random binary record file is not taken for compressed data
// with any real probability (about 2^-27 instead of 2^-16).
Codec codec_from_magic(const unsigned char* p, std::size_t n) noexcept;
// How many leading bytes codec_from_magic wants to see.
inline constexpr std::size_t kCodecMagicBytes = 6;

}  // namespace corank::io
