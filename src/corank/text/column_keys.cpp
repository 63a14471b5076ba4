#include "corank/text/column_keys.hpp"

#include <algorithm>
#include <charconv>

#include "corank/errors.hpp"

namespace corank::text {

ColumnKeys::ColumnKeys(const std::vector<std::string>& specs, const KeyField& global, bool header,
                       std::shared_ptr<const Collation> default_collation, char decimal_point) {
  for (const auto& spec : specs) {
    ColumnKeySpec parsed = parse_column_key(spec, global, default_collation);
    parsed.key.decimal_point = decimal_point;
    if (decimal_point != '.' && parsed.key.type == ValueType::Letters &&
        (parsed.key.key.general_numeric || parsed.key.key.human_numeric))
      throw UsageError("invalid key '" + spec + "': --decimal-separator applies to n, decimal and float keys, not g or h");
    ColumnKey ck;
    ck.name = std::move(parsed.column);
    ck.key = parsed.key;
    std::uint64_t n = 0;
    auto [p, ec] = std::from_chars(ck.name.data(), ck.name.data() + ck.name.size(), n);
    if (ec == std::errc{} && p == ck.name.data() + ck.name.size()) {
      if (n == 0) throw UsageError("invalid key '" + spec + "': columns are numbered from 1");
      ck.column = n - 1;
    } else {
      if (!header) throw UsageError("invalid key '" + spec + "': a column name needs --header");
      ck.named = true;
      resolved_ = false;
    }
    keys_.push_back(std::move(ck));
  }
}

namespace {

std::string columns(std::size_t n) { return std::to_string(n) + (n == 1 ? " column" : " columns"); }

}  // namespace

void ColumnKeys::name_columns(std::vector<std::string> header, const std::string& file) {
  for (auto& k : keys_) {
    if (!k.named && k.column >= header.size()) {
      // Every row holds the header's columns: a number past them names none.
      // A header's column of that name ("2024") is the one meant.
      if (std::find(header.begin(), header.end(), k.name) == header.end())
        throw UsageError("invalid key: column " + k.name + " is past the " + columns(header.size()) +
                         " of the header of " + file);
      k.named = true;
    }
    if (!k.named) continue;
    std::uint64_t i = 0;
    while (i < header.size() && header[i] != k.name) ++i;
    if (i == header.size()) throw UsageError("invalid key: no column named '" + k.name + "' in the header of " + file);
    // A second column of that name would leave the key's column a guess.
    for (std::uint64_t j = i + 1; j < header.size(); ++j)
      if (header[j] == k.name)
        throw UsageError("invalid key: the header of " + file + " names two columns '" + k.name + "' (columns " +
                         std::to_string(i + 1) + " and " + std::to_string(j + 1) + ")");
    k.column = i;
  }
  header_ = std::move(header);
  header_file_ = file;
  resolved_ = true;
}

void ColumnKeys::check_header(const std::vector<std::string>& header, const std::string& file) const {
  if (header == header_) return;
  std::string why;
  std::size_t i = 0;
  while (i < header.size() && i < header_.size() && header[i] == header_[i]) ++i;
  if (i < header.size() && i < header_.size())
    why = "column " + std::to_string(i + 1) + " is '" + header[i] + "', not '" + header_[i] + "'";
  else
    why = columns(header.size()) + ", not " + std::to_string(header_.size());
  throw InputError(file + ":1: its header differs from that of " + header_file_ + ": " + why);
}

void ColumnKeys::require_resolved() const {
  if (!resolved_) throw UsageError("invalid key: column names need a header row, and the input is empty");
}

std::vector<KeyValueCounts> ColumnKeys::value_checks(NullOrder nulls) const {
  std::vector<KeyValueCounts> checks;
  for (std::size_t i = 0; i < keys_.size(); ++i)
    checks.push_back(value_check(keys_[i].key, static_cast<unsigned>(i + 1), keys_[i].name, nulls));
  return checks;
}

}  // namespace corank::text
