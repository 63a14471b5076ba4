#pragma once
// The level-one (primary) weights of a text under a glibc locale's LC_COLLATE,
// read from the locale's own compiled tables: what strxfrm_l writes before its
// first level separator, at a fraction of its cost.
//
// Why not strxfrm_l itself: it computes every level of the whole text (about
// 1.2 us a 50-byte line here, mostly searching its tables once per level),
// while a record's prefix needs only the first 32 bytes of level one, which
// decides nearly every comparison. glibc publishes no call for one level, so
// this reads the tables strcoll_l and strxfrm_l read (nl_langinfo_l's
// _NL_COLLATE_* items: the first-byte table, the lists of multi-byte sequences
// and contractions, the weights) the way they read them. The layout is
// glibc's own, unchanged for two decades; to be safe regardless, from() checks
// the result against strxfrm_l on every one- and two-byte character, a sample
// of longer ones and random texts with contractions, and gives up (the caller
// falls back to strxfrm_l) on any difference.
#include <locale.h>

#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace corank::text {

class GlibcLevelOne {
public:
  // The tables of `loc`, checked; nothing where the locale has no collation
  // rules (byte order) or the check fails.
  static std::optional<GlibcLevelOne> from(locale_t loc);

  // Writes the first n bytes of text's level-one weights into out, zeros
  // after them. Returns false for a text whose level one is not a plain
  // forward sequence of weights (a backward or position rule), which the
  // caller must weigh with strxfrm_l instead. `text` holds no NUL byte.
  bool weights(std::string_view text, unsigned char* out, std::size_t n) const;

private:
  // The weights copied without searching the tables, for characters of one
  // byte (ASCII) and of two (UTF-8 0xC0-0xDF, then 0x80-0xBF) that are whole
  // collating elements: most of most texts.
  struct CharWeights {
    static constexpr std::uint8_t kSearch = 0xFF;  // not known here: search the tables
    std::uint8_t size = kSearch;
    std::array<unsigned char, 7> bytes{};
  };

  GlibcLevelOne() = default;
  // The table index of the collating element that starts at p, and where it ends.
  std::int32_t search(const unsigned char*& p, const unsigned char* end) const;
  void index_characters();
  // Element `index`'s level-one weights as a CharWeights (kSearch where they
  // are no plain forward sequence or longer than it holds).
  CharWeights plain_weights(std::int32_t index) const;

  const std::int32_t* table_ = nullptr;      // by a sequence's first byte: an index, or minus a list's offset in extra_
  const unsigned char* weights_ = nullptr;   // per element and level: a length byte, then the weights
  const unsigned char* extra_ = nullptr;     // the lists of sequences that share a first byte
  const std::int32_t* indirect_ = nullptr;   // the indexes of the characters in ranges
  const unsigned char* rulesets_ = nullptr;  // per ruleset, a rule per level
  std::uint32_t levels_ = 0;
  // ASCII characters at their byte, two-byte ones at 128 + (lead - 0xC0) * 64 + (second - 0x80).
  std::vector<CharWeights> chars_;
  // For an ASCII byte that starts contractions (l in "l·"), the bytes that
  // may follow it in one: before any other, it is an element of its own.
  std::array<std::bitset<256>, 128> continues_{};
};

// Level one as strxfrm_l writes it (the bytes before its first level separator),
// first n bytes into out, zeros after them. `text` holds no NUL byte.
void strxfrm_level_one(std::string_view text, locale_t loc, unsigned char* out, std::size_t n);

}  // namespace corank::text
