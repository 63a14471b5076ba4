// Key specifications from the command line: GNU KEYDEFs for lines, -t's
// argument, binary OFFSET:LENGTH[:TYPE][:desc] keys and formats. Anything may be
// refused with UsageError; nothing may crash, and a binary key that parses fits
// its record.
#include <cstddef>
#include <cstdint>
#include <string>

#include "corank/format.hpp"
#include "corank/text/key_spec.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const auto [first, rest] = corank::fuzz::split_once(input, '\n');
  try {
    (void)corank::text::parse_keydef(first);
  } catch (const corank::UsageError&) {
  }
  try {
    (void)corank::text::parse_tab(first);
  } catch (const corank::UsageError&) {
  }
  try {
    const corank::RecordFormat f = corank::parse_format(std::string(first), {std::string(rest)});
    for (const auto& k : f.keys) corank::fuzz::require(k.offset + k.length <= f.record_size, "key inside its record");
  } catch (const corank::UsageError&) {
  }
  try {
    (void)corank::parse_key_spec(rest);
  } catch (const corank::UsageError&) {
  }
  return 0;
}
