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
// By the stream's header (up to 10 bytes are looked at), as far as its format
// fixes it, so that no line of text matches: gzip's magic, method byte and
// reserved flag bits; bzip2's "BZh", block size digit and the magic of its
// first block (or of its end, for an empty stream), which together are 10
// bytes where "BZh" and a digit alone begin ordinary lines; xz's 6-byte magic
// and reserved stream flags; zstd's 4-byte magic and the frame header's
// reserved bit. Fields a format leaves free (gzip's OS byte, say) are not
// looked at: a stream that a compressor wrote is never refused.
Codec codec_from_magic(const unsigned char* p, std::size_t n) noexcept;
// How many leading bytes codec_from_magic wants to see.
inline constexpr std::size_t kCodecMagicBytes = 10;

}  // namespace corank::io
