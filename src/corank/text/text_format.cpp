#include "corank/text/text_format.hpp"

#include <cstring>

#include "corank/text/debug_view.hpp"

namespace corank::text {

std::size_t LineFormat::record_length(const char* p, const char* end) const {
  const void* hit = std::memchr(p, terminator(), static_cast<std::size_t>(end - p));
  return hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - p) + 1 : 0;
}

void LineFormat::append_debug_view(std::string_view record, std::string& out) const {
  text::append_debug_view(cmp_.ordering(), record, out);
}

}  // namespace corank::text
