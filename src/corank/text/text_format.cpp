#include "corank/text/text_format.hpp"

#include <cstring>

#include "corank/errors.hpp"
#include "corank/text/debug_view.hpp"

namespace corank::text {

void TextFormat::check_record(std::string_view record, const std::string& file, std::uint64_t line) const {
  if (auto p = record_problem(record)) throw InputError(file + ":" + std::to_string(line + p->lines_in) + ": " + p->why);
}

std::size_t LineFormat::record_length(const char* p, const char* end) const {
  const void* hit = std::memchr(p, terminator(), static_cast<std::size_t>(end - p));
  return hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - p) + 1 : 0;
}

void LineFormat::append_debug_view(std::string_view record, std::string& out) const {
  text::append_debug_view(cmp_.ordering(), record, out);
}

}  // namespace corank::text
