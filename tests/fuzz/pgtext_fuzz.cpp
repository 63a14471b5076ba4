// PostgreSQL's COPY text rows: unescaping any bytes, finding where a row ends,
// checking a row for COPY's end-of-data marker, and comparing two rows by
// typed column keys, which must be antisymmetric and agree with the rows'
// prefixes (compare(a, b) < 0 never with prefix(b) < prefix(a)).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "corank/errors.hpp"
#include "corank/text/pgtext_format.hpp"
#include "fuzz_util.hpp"

namespace {

const std::vector<std::vector<std::string>> kKeySets = {
    {}, {"1"}, {"2:n", "1"}, {"1:float:desc"}, {"2:decimal:nulls_first", "1:desc"}, {"1:time:desc:nulls_last"},
    {"2:date", "1:n:desc"}, {"1:f"}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);
  (void)corank::text::unescape_pgtext(input);

  corank::text::PgTextOptions o;
  o.delimiter = (data[0] & 1) ? '\t' : '|';
  o.keys = kKeySets[(data[0] >> 1) % kKeySets.size()];
  o.nulls = (data[0] & 0x80) ? corank::text::NullOrder::First : corank::text::NullOrder::Last;
  if (data[0] & 0x40) o.null_string = "";
  corank::text::PgTextFormat f(o);
  const std::size_t len = f.record_length(input.data(), input.data() + input.size());
  corank::fuzz::require(len <= input.size(), "a record within its bytes");
  try {
    f.check_record(input, "fuzz", 1);
    f.check_unterminated(input, "fuzz", 1);
  } catch (const corank::InputError&) {
  }

  const auto [a, b] = corank::fuzz::split_once(input, '\0');
  const int ab = corank::fuzz::sign(f.compare(a, b)), ba = corank::fuzz::sign(f.compare(b, a));
  corank::fuzz::require(ab == -ba, "compare is antisymmetric");
  if (ab < 0) corank::fuzz::require(!(f.prefix(b) < f.prefix(a)), "prefixes agree with compare");
  if (ab > 0) corank::fuzz::require(!(f.prefix(a) < f.prefix(b)), "prefixes agree with compare");
  return 0;
}
