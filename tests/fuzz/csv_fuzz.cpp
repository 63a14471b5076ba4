// CSV rows: splitting any bytes into fields, finding where a row ends, and
// comparing two rows by typed column keys, which must be antisymmetric and
// agree with the rows' prefixes (compare(a, b) < 0 never with prefix(b) < prefix(a)),
// with decimal points or (--decimal-separator ,) decimal commas. The first
// byte picks: bit 0 the delimiter, bits 1-5 the keys, bit 6 commas, bit 7 NULLs' place.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "corank/format.hpp"
#include "corank/text/csv_format.hpp"
#include "fuzz_util.hpp"

namespace {

const std::vector<std::vector<std::string>> kKeySets = {
    {}, {"1"}, {"2:n", "1"}, {"1:g:desc"}, {"3:h", "2:M"}, {"2:V:desc", "1:fd"}, {"1:b:i"},
    {"1:time", "2:decimal:desc"}, {"2:date", "1:n:desc"}, {"1:T:desc"}, {"1:float", "2:n:desc"},
    {"2:decimal", "1:float:desc"}};

// Whether a key set reads numbers by GNU's g or h rules, which refuse decimal commas.
bool gnu_numbers(const std::vector<std::string>& keys) {
  for (const auto& k : keys)
    if (k.find(":g") != std::string::npos || k.find(":h") != std::string::npos) return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const char delimiter = (data[0] & 1) ? '\t' : ',';
  const auto& keys = kKeySets[((data[0] >> 1) & 0x1f) % kKeySets.size()];
  const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);
  (void)corank::text::parse_csv_row(input, delimiter);

  corank::text::CsvOptions o;
  o.delimiter = delimiter;
  o.keys = keys;
  o.nulls = (data[0] & 0x80) ? corank::text::NullOrder::First : corank::text::NullOrder::Last;
  o.decimal_point = (data[0] & 0x40) && !gnu_numbers(keys) ? ',' : '.';
  corank::text::CsvFormat f(o);
  const char* p = input.data();
  const char* end = p + input.size();
  const std::size_t len = f.record_length(p, end);
  corank::fuzz::require(len <= input.size(), "a record within its bytes");

  const auto [a, b] = corank::fuzz::split_once(input, '\0');
  const int ab = corank::fuzz::sign(f.compare(a, b)), ba = corank::fuzz::sign(f.compare(b, a));
  corank::fuzz::require(ab == -ba, "compare is antisymmetric");
  if (ab < 0) corank::fuzz::require(!(f.prefix(b) < f.prefix(a)), "prefixes agree with compare");
  if (ab > 0) corank::fuzz::require(!(f.prefix(a) < f.prefix(b)), "prefixes agree with compare");
  return 0;
}
