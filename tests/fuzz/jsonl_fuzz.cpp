// JSON lines: checking any bytes as a record (an InputError or nothing), and
// comparing two records by field keys of every type, which must be
// antisymmetric and agree with the records' prefixes, whether or not the
// records are valid JSON.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "corank/errors.hpp"
#include "corank/text/jsonl_format.hpp"
#include "fuzz_util.hpp"

namespace {

const std::vector<std::vector<std::string>> kKeySets = {
    {}, {"a"}, {"a:desc", "b"}, {"a.b:n"}, {"a:time"}, {"a:decimal:desc", "b.0:date"}, {"a:f", "a:g"}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  corank::text::JsonlOptions o;
  o.keys = kKeySets[(data[0] & 0x7f) % kKeySets.size()];
  o.nulls = (data[0] & 0x80) ? corank::text::NullOrder::First : corank::text::NullOrder::Last;
  const corank::text::JsonlFormat f(o);
  const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);
  const auto [a, b] = corank::fuzz::split_once(input, '\n');
  try {
    f.check_record(a, "fuzz", 1);
  } catch (const corank::InputError&) {
  }
  const int ab = corank::fuzz::sign(f.compare(a, b)), ba = corank::fuzz::sign(f.compare(b, a));
  corank::fuzz::require(ab == -ba, "compare is antisymmetric");
  if (ab < 0) corank::fuzz::require(!(f.prefix(b) < f.prefix(a)), "prefixes agree with compare");
  if (ab > 0) corank::fuzz::require(!(f.prefix(a) < f.prefix(b)), "prefixes agree with compare");
  return 0;
}
