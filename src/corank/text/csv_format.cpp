#include "corank/text/csv_format.hpp"

#include <algorithm>
#include <cstring>

#include "corank/errors.hpp"
#include "corank/format.hpp"
#include "corank/text/locale_compare.hpp"

namespace corank::text {

namespace {

std::string_view without_cr(std::string_view row) {
  if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
  return row;
}

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

std::string_view without_bom(std::string_view row) {
  if (row.starts_with(kByteOrderMark)) row.remove_prefix(kByteOrderMark.size());
  return row;
}

// Walks the fields of a row. A quote opens a quoted field only at the field's
// start; inside, a doubled quote is a quote and a single one closes the field
// (bytes after it, before the next delimiter, are kept as they are).
template <class OnField>
void for_each_field(std::string_view row, char delim, OnField&& on_field) {
  row = without_bom(without_cr(row));
  std::size_t i = 0;
  std::uint64_t index = 0;
  for (;;) {
    std::size_t start = i;
    bool quoted = false, escaped = false;
    std::size_t content_begin = i, content_end;
    if (i < row.size() && row[i] == '"') {
      quoted = true;
      content_begin = ++i;
      for (;;) {
        i = std::min(row.find('"', i), row.size());  // memchr: a quoted field may be megabytes long
        if (i >= row.size()) {  // unterminated: the rest of the row
          content_end = i;
          break;
        }
        if (i + 1 < row.size() && row[i + 1] == '"') {
          escaped = true;
          i += 2;
          continue;
        }
        content_end = i++;
        break;
      }
    }
    const std::size_t tail_begin = i;
    i = std::min(row.find(delim, i), row.size());
    if (!quoted) content_end = i;
    if (!on_field(index++, row, start, content_begin, content_end, tail_begin, i, quoted, escaped)) return;
    if (i >= row.size()) return;
    ++i;  // the delimiter
  }
}

std::string unquote(std::string_view row, std::size_t cb, std::size_t ce, std::size_t tb, std::size_t te, bool escaped) {
  std::string v;
  v.reserve(ce - cb + te - tb);
  for (std::size_t j = cb; j < ce; ++j) {
    v += row[j];
    if (escaped && row[j] == '"') ++j;  // the second quote of a doubled pair
  }
  v.append(row.substr(tb, te - tb));
  return v;
}

}  // namespace

std::vector<std::string> parse_csv_row(std::string_view row, char delimiter) {
  std::vector<std::string> out;
  for_each_field(row, delimiter,
                 [&](std::uint64_t, std::string_view r, std::size_t, std::size_t cb, std::size_t ce, std::size_t tb,
                     std::size_t te, bool quoted, bool escaped) {
                   out.push_back(quoted ? unquote(r, cb, ce, tb, te, escaped) : std::string(r.substr(cb, ce - cb)));
                   return true;
                 });
  return out;
}

CsvFormat::CsvFormat(CsvOptions options)
    : RowFormat(options.unique, options.header, options.nulls,
                ColumnKeys(options.keys, options.global, options.header, options.collation, options.decimal_point)),
      options_(std::move(options)) {}

void CsvFormat::set_header(std::string_view header, const std::string& file) {
  keys_.name_columns(parse_csv_row(header, options_.delimiter), file);
}

void CsvFormat::check_header(std::string_view header, const std::string& file) const {
  keys_.check_header(parse_csv_row(header, options_.delimiter), file);
}

bool CsvFormat::is_null(std::string_view unquoted) const {
  return options_.null_string ? unquoted == *options_.null_string : unquoted.empty();
}

bool CsvFormat::collates_rows() const noexcept {
  return options_.collation && takes_collation(options_.global);
}

FieldValue CsvFormat::field(std::string_view row, std::uint64_t column, std::string& buf) const {
  FieldValue out{{}, true};  // a missing column is NULL
  for_each_field(row, options_.delimiter,
                 [&](std::uint64_t index, std::string_view r, std::size_t, std::size_t cb, std::size_t ce,
                     std::size_t tb, std::size_t te, bool quoted, bool escaped) {
                   if (index < column) return true;
                   if (quoted && (escaped || te > tb)) {
                     buf = unquote(r, cb, ce, tb, te, escaped);
                     out.text = buf;
                   } else {
                     out.text = r.substr(cb, ce - cb);
                   }
                   out.null = !quoted && is_null(out.text);
                   return false;
                 });
  return out;
}

KeyExtent CsvFormat::extent(std::string_view row, std::uint64_t column) const {
  // for_each_field's offsets are within the row less its BOM (and final CR).
  const std::string_view content = without_cr(row);
  const std::size_t bom = content.starts_with(kByteOrderMark) ? kByteOrderMark.size() : 0;
  KeyExtent out{content.size(), content.size(), false};  // a missing column: at the row's end
  for_each_field(row, options_.delimiter,
                 [&](std::uint64_t index, std::string_view r, std::size_t start, std::size_t cb, std::size_t ce,
                     std::size_t tb, std::size_t te, bool quoted, bool) {
                   if (index < column) return true;
                   if (!quoted) {
                     const std::string_view text = r.substr(cb, ce - cb);
                     out = {bom + cb, bom + ce, !is_null(text)};
                   } else if (te > tb) {
                     out = {bom + cb, bom + te, true};  // text after the closing quote is part of the value
                   } else if (ce > cb) {
                     out = {bom + cb, bom + ce, true};
                   } else {
                     out = {bom + start, bom + te, true};  // "": an empty string, shown by its quotes
                   }
                   return false;
                 });
  return out;
}

void CsvFormat::append_debug_view(std::string_view record, std::string& out) const {
  std::vector<KeyExtent> marks;
  if (keys_.empty()) {
    marks.push_back({0, record.size(), true});
  } else {
    keys_.require_resolved();
    for (const auto& k : keys_.keys()) marks.push_back(extent(record, k.column));
  }
  append_record_view(record, marks, out);
}

namespace {
std::string_view trim_blanks(std::string_view v, const KeyField& key) {
  if (key.skip_start_blanks)
    while (!v.empty() && is_blank(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  return v;
}
}  // namespace

int CsvFormat::compare(std::string_view a, std::string_view b) const {
  thread_local std::string ba, bb;
  if (keys_.empty()) {
    const std::vector<std::string> fa = parse_csv_row(a, options_.delimiter), fb = parse_csv_row(b, options_.delimiter);
    const KeyField& text = options_.global;
    const Collation* c = collates_rows() ? options_.collation.get() : nullptr;
    for (std::size_t i = 0; i < fa.size() && i < fb.size(); ++i) {
      const std::string_view x = trim_blanks(fa[i], text), y = trim_blanks(fb[i], text);
      if (int d = c ? compare_collated_key(text, x, y, *c) : compare_key_text(text, x, y)) return d;
    }
    const int d = (fa.size() > fb.size()) - (fa.size() < fb.size());
    return text.reverse ? -d : d;
  }
  keys_.require_resolved();
  for (const auto& k : keys_.keys())
    if (int d = compare_values(k.key, field(a, k.column, ba), field(b, k.column, bb), options_.nulls)) return d;
  return 0;
}

Prefix CsvFormat::prefix(std::string_view record) const {
  thread_local std::string buf;
  if (keys_.empty()) {
    // Rows compare column by column, so the first column's prefix orders them.
    const std::string_view first = trim_blanks(field(record, 0, buf).text, options_.global);
    if (collates_rows()) return collated_key_prefix(options_.global, first, *options_.collation);
    return key_prefix(options_.global, first);
  }
  keys_.require_resolved();
  const ColumnKey& k = keys_.keys().front();
  return value_prefix(k.key, field(record, k.column, buf), options_.nulls);
}

std::size_t CsvFormat::record_length(const char* p, const char* end) const {
  const char delim = options_.delimiter;
  // A byte order mark leaves the row's first field at its start (a quote may open it).
  const std::size_t bom = static_cast<std::size_t>(end - p) >= kByteOrderMark.size() &&
                          std::string_view(p, kByteOrderMark.size()) == kByteOrderMark
                      ? kByteOrderMark.size()
                      : 0;
  // Only quotes and the row's newline change the state, and a quote opens a
  // quoted field only at a field's start (the row's, or just after a
  // delimiter): the bytes between are skipped by memchr, so that a field of
  // megabytes costs a scan, not a byte-by-byte walk.
  const char* const start = p + bom;
  const char* q = start;
  for (;;) {
    const auto* nl = static_cast<const char*>(std::memchr(q, '\n', static_cast<std::size_t>(end - q)));
    const char* const line_end = nl ? nl : end;
    const auto* quote = static_cast<const char*>(std::memchr(q, '"', static_cast<std::size_t>(line_end - q)));
    while (quote && quote != start && quote[-1] != delim)  // a quote within a field: a byte as any other
      quote = static_cast<const char*>(std::memchr(quote + 1, '"', static_cast<std::size_t>(line_end - quote - 1)));
    if (!quote) return nl ? static_cast<std::size_t>(nl - p) + 1 : 0;
    // A quoted field: it ends at a single quote; a doubled one is a quote.
    for (q = quote + 1;;) {
      const auto* close = static_cast<const char*>(std::memchr(q, '"', static_cast<std::size_t>(end - q)));
      if (!close || close + 1 == end) return 0;  // unterminated, or a closing quote not told from a doubled one yet
      if (close[1] != '"') {
        q = close + 1;
        break;
      }
      q = close + 2;
    }
  }
}

std::optional<std::uint64_t> CsvFormat::field_count(std::string_view record) const {
  // A CR ending the row is neither a delimiter nor a quote: it changes no count.
  const std::string_view row = without_bom(record);
  const char delim = options_.delimiter;
  // Rows without quotes, the most, are counted by the vectorized std::count.
  if (std::memchr(row.data(), '"', row.size()) == nullptr)
    return static_cast<std::uint64_t>(std::count(row.begin(), row.end(), delim)) + 1;
  // As for_each_field reads them: a quote opens a field only at its start.
  std::uint64_t n = 1;
  bool at_field_start = true, in_quotes = false;
  for (std::size_t i = 0; i < row.size(); ++i) {
    const char c = row[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < row.size() && row[i + 1] == '"') ++i;
        else in_quotes = false;
      }
      continue;
    }
    if (c == delim) {
      ++n;
      at_field_start = true;
      continue;
    }
    if (c == '"' && at_field_start) in_quotes = true;
    at_field_start = false;
  }
  return n;
}

void CsvFormat::check_unterminated(std::string_view tail, const std::string& file, std::uint64_t line) const {
  // The tail ends the file: it is a row unless a quoted field never closes.
  std::string t(tail);
  t += '\n';
  if (record_length(t.data(), t.data() + t.size()) == 0)
    throw InputError(file + ":" + std::to_string(line) + ": unterminated quoted field");
}

}  // namespace corank::text
