#include "corank/text/text_format.hpp"

#include <cstring>

#include "corank/errors.hpp"
#include "corank/text/debug_view.hpp"
#include "corank/text/field_finder.hpp"
#include "corank/text/time_rules.hpp"

namespace corank::text {

void TextFormat::check_record(std::string_view record, const std::string& file, std::uint64_t line) const {
  if (auto p = record_problem(record)) throw InputError(file + ":" + std::to_string(line + p->lines_in) + ": " + p->why);
}

std::size_t LineFormat::record_length(const char* p, const char* end) const {
  const void* hit = std::memchr(p, terminator(), static_cast<std::size_t>(end - p));
  return hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - p) + 1 : 0;
}

bool extreme_prefix(const Prefix& p) noexcept {
  const std::uint64_t w = p.w[0];
  return (w == 0 || w == ~std::uint64_t{0}) && p.w[1] == w && p.w[2] == w && p.w[3] == w;
}

std::vector<KeyValueCounts> LineFormat::value_checks() const {
  std::vector<KeyValueCounts> checks;
  const auto& keys = cmp_.ordering().keys;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!keys[i].time) continue;
    KeyValueCounts c;
    c.key = static_cast<unsigned>(i + 1);
    c.kind = "time";
    c.unread_first = !keys[i].reverse;
    checks.push_back(c);
  }
  return checks;
}

bool LineFormat::costly_prefix() const {
  const auto& keys = cmp_.ordering().keys;
  return !keys.empty() && keys.front().time;
}

void LineFormat::count_values(std::string_view line, const Prefix& prefix, std::uint64_t* counts) const {
  const LineOrdering& o = cmp_.ordering();
  std::size_t c = 0;
  for (std::size_t i = 0; i < o.keys.size(); ++i) {
    const KeyField& key = o.keys[i];
    if (!key.time) continue;
    bool unread;
    if (i == 0) {
      // The first key's time code leads the prefix: its first byte is 0 (or,
      // reversed, 0xff) only where no time was read (time_value.hpp).
      const auto lead = static_cast<unsigned>(prefix.w[0] >> 56);
      unread = lead == (key.reverse ? 0xffu : 0u);
    } else {
      const KeySpan span = find_key(line, key, o.tab);
      unread = !key_instant(time_rules_of(key), key.time_extent(), {span.begin, span.size()}, bytes_after(line, span));
    }
    counts[2 * c] += unread;
    ++c;
  }
}

void LineFormat::append_debug_view(std::string_view record, std::string& out) const {
  text::append_debug_view(cmp_.ordering(), record, out);
}

}  // namespace corank::text
