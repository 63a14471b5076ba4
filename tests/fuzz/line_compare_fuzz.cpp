// GNU sort's line comparison: for orderings taken from the input (a KEYDEF,
// global letters, -t, -s) and two lines, compare must be antisymmetric, a line
// equal to itself, and the prefixes must agree with it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "corank/format.hpp"
#include "corank/text/line_comparator.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::string input(reinterpret_cast<const char*>(data + 2), size - 2);
  const auto [spec, lines] = corank::fuzz::split_once(input, '\n');
  const auto [a, b] = corank::fuzz::split_once(lines, '\n');
  std::vector<corank::text::KeyField> keys;
  corank::text::KeyField global;
  const int tab = (data[1] & 1) ? static_cast<unsigned char>(data[1] >> 1) : corank::text::kNoTab;
  const bool stable = data[1] & 2;
  std::optional<corank::text::LineComparator> made;
  try {
    if (!spec.empty()) keys.push_back(corank::text::parse_keydef(spec));
    static const char* const kLetters[] = {"", "n", "g", "h", "M", "V", "f", "d", "i", "b", "r", "fr", "nr", "bd", "T", "Tr"};
    corank::text::apply_ordering_letters(kLetters[data[0] % (sizeof kLetters / sizeof *kLetters)], global,
                                         corank::text::BlankSide::Both);
    // Incompatible letters (-dn) are refused here, as the command line refuses them.
    made.emplace(corank::text::resolve_ordering(std::move(keys), global, tab, stable, false, '\n'));
  } catch (const corank::UsageError&) {
    return 0;
  }
  const corank::text::LineComparator& cmp = *made;
  const int ab = corank::fuzz::sign(cmp.compare(a, b)), ba = corank::fuzz::sign(cmp.compare(b, a));
  corank::fuzz::require(ab == -ba, "compare is antisymmetric");
  corank::fuzz::require(cmp.compare(a, a) == 0, "a line equals itself");
  if (ab < 0) corank::fuzz::require(!(cmp.prefix(b) < cmp.prefix(a)), "prefixes agree with compare");
  if (ab > 0) corank::fuzz::require(!(cmp.prefix(a) < cmp.prefix(b)), "prefixes agree with compare");
  return 0;
}
