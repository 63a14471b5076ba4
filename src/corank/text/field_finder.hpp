#pragma once
// Where a key lies in a line, by GNU sort's rules (begfield/limfield): without
// -t a field is a run of blanks followed by non-blanks, so the leading blanks
// belong to the field; with -t every separator ends a field. A key whose end
// lies before its start is empty.
#include <cstddef>
#include <string_view>

#include "corank/text/key_spec.hpp"

namespace corank::text {

struct KeySpan {
  const char* begin;
  const char* end;
  std::size_t size() const noexcept { return static_cast<std::size_t>(end - begin); }
};

// `line` excludes its terminator.
KeySpan find_key(std::string_view line, const KeyField& key, int tab) noexcept;

// The bytes of `line` after the key `k` found in it (what a time key's
// cut-off UTC offset or zone abbreviation is read from).
inline std::string_view bytes_after(std::string_view line, const KeySpan& k) noexcept {
  const char* end = line.data() + line.size();
  return k.end && k.end < end ? std::string_view(k.end, static_cast<std::size_t>(end - k.end)) : std::string_view{};
}

}  // namespace corank::text
