// SIZE arguments (-S, --gpu-memory): any string either parses or is refused
// with UsageError; a size that parses never wraps around.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "corank/format.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool bare_is_kib : {true, false}) {
    try {
      const std::uint64_t v = corank::parse_size(text, bare_is_kib);
      // A bare number in KiB is 1024 times itself in bytes, or refused.
      if (bare_is_kib && !text.empty() && text.back() >= '0' && text.back() <= '9') {
        const std::uint64_t bytes = corank::parse_size(text, false);
        corank::fuzz::require(v / 1024 == bytes, "a bare KiB size is 1024 bytes a unit");
      }
    } catch (const corank::UsageError&) {
    }
  }
  return 0;
}
