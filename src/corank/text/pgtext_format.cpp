// Hand-written after PostgreSQL's own reader (copyfromparse.c,
// CopyReadLineText and CopyReadAttributesText): no library reads COPY's text
// format, and its rules are few.
#include "corank/text/pgtext_format.hpp"

#include <algorithm>
#include <cstring>

#include "corank/errors.hpp"
#include "corank/text/debug_view.hpp"

namespace corank::text {

namespace {

// How many backslashes end [begin, at): an odd count escapes the byte at `at`.
std::size_t backslashes_before(const char* begin, const char* at) noexcept {
  std::size_t n = 0;
  while (at - n > begin && at[-1 - static_cast<std::ptrdiff_t>(n)] == '\\') ++n;
  return n;
}

// The row without the CR of a CRLF line end (an escaped CR is data).
std::string_view without_cr(std::string_view row) {
  if (!row.empty() && row.back() == '\r' && backslashes_before(row.data(), row.data() + row.size() - 1) % 2 == 0)
    row.remove_suffix(1);
  return row;
}

// Calls on_field(index, begin, end) with each field's raw bytes [begin, end)
// of the row until it returns false. A backslash escapes the byte after it,
// the delimiter included.
template <class OnField>
void for_each_raw_field(std::string_view row, char delim, OnField&& on_field) {
  row = without_cr(row);
  std::size_t start = 0;
  for (std::uint64_t index = 0;; ++index) {
    std::size_t i = start;
    while (i < row.size() && row[i] != delim) i += row[i] == '\\' ? 2 : 1;
    i = std::min(i, row.size());
    if (!on_field(index, start, i) || i == row.size()) return;
    start = i + 1;
  }
}

int octal(char c) noexcept { return c >= '0' && c <= '7' ? c - '0' : -1; }
int hex(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  const int l = c | 0x20;
  return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
}

}  // namespace

std::string unescape_pgtext(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size();) {
    char c = raw[i++];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (i == raw.size()) break;  // a backslash that ends the row stands for nothing
    c = raw[i++];
    if (octal(c) >= 0) {
      int v = octal(c);
      for (int k = 0; k < 2 && i < raw.size() && octal(raw[i]) >= 0; ++k) v = v << 3 | octal(raw[i++]);
      c = static_cast<char>(v & 0377);
    } else if (c == 'x' && i < raw.size() && hex(raw[i]) >= 0) {
      int v = hex(raw[i++]);
      if (i < raw.size() && hex(raw[i]) >= 0) v = v << 4 | hex(raw[i++]);
      c = static_cast<char>(v);
    } else {
      switch (c) {
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'v': c = '\v'; break;
        default: break;  // the byte itself
      }
    }
    out += c;
  }
  return out;
}

PgTextFormat::PgTextFormat(PgTextOptions options)
    : RowFormat(options.unique, options.header, options.nulls,
                ColumnKeys(options.keys, options.global, options.header, options.collation)),
      options_(std::move(options)),
      column_key_(parse_column_key("1", options_.global).key) {}

std::vector<std::string> PgTextFormat::header_names(std::string_view header) const {
  std::vector<std::string> names;
  for_each_raw_field(header, options_.delimiter, [&](std::uint64_t, std::size_t b, std::size_t e) {
    names.push_back(unescape_pgtext(without_cr(header).substr(b, e - b)));
    return true;
  });
  return names;
}

void PgTextFormat::set_header(std::string_view header, const std::string& file) {
  keys_.name_columns(header_names(header), file);
}

void PgTextFormat::check_header(std::string_view header, const std::string& file) const {
  keys_.check_header(header_names(header), file);
}

FieldValue PgTextFormat::value(std::string_view raw, std::string& buf) const {
  if (raw == options_.null_string) return {{}, true};
  if (raw.find('\\') == std::string_view::npos) return {raw, false};
  buf = unescape_pgtext(raw);
  return {buf, false};
}

FieldValue PgTextFormat::field(std::string_view row, std::uint64_t column, std::string& buf) const {
  FieldValue out{{}, true};  // a missing column is NULL
  const std::string_view content = without_cr(row);
  for_each_raw_field(row, options_.delimiter, [&](std::uint64_t index, std::size_t b, std::size_t e) {
    if (index < column) return true;
    out = value(content.substr(b, e - b), buf);
    return false;
  });
  return out;
}

void PgTextFormat::raw_fields(std::string_view row, std::vector<std::string_view>& out) const {
  out.clear();
  const std::string_view content = without_cr(row);
  for_each_raw_field(row, options_.delimiter, [&](std::uint64_t, std::size_t b, std::size_t e) {
    out.push_back(content.substr(b, e - b));
    return true;
  });
}

int PgTextFormat::compare(std::string_view a, std::string_view b) const {
  thread_local std::string ba, bb;
  if (keys_.empty()) {
    // Column by column, then the row with fewer columns first.
    thread_local std::vector<std::string_view> fa, fb;
    raw_fields(a, fa);
    raw_fields(b, fb);
    for (std::size_t i = 0; i < fa.size() && i < fb.size(); ++i)
      if (int d = compare_values(column_key_, value(fa[i], ba), value(fb[i], bb), options_.nulls)) return d;
    const int d = (fa.size() > fb.size()) - (fa.size() < fb.size());
    return column_key_.key.reverse ? -d : d;
  }
  keys_.require_resolved();
  for (const auto& k : keys_.keys())
    if (int d = compare_values(k.key, field(a, k.column, ba), field(b, k.column, bb), options_.nulls)) return d;
  return 0;
}

Prefix PgTextFormat::prefix(std::string_view record) const {
  thread_local std::string buf;
  if (keys_.empty()) return value_prefix(column_key_, field(record, 0, buf), options_.nulls);
  keys_.require_resolved();
  const ColumnKey& k = keys_.keys().front();
  return value_prefix(k.key, field(record, k.column, buf), options_.nulls);
}

std::size_t PgTextFormat::record_length(const char* p, const char* end) const {
  for (const char* q = p; q < end;) {
    const void* hit = std::memchr(q, '\n', static_cast<std::size_t>(end - q));
    if (!hit) return 0;
    const char* nl = static_cast<const char*>(hit);
    if (backslashes_before(p, nl) % 2 == 0) return static_cast<std::size_t>(nl - p) + 1;
    q = nl + 1;  // an escaped newline: data
  }
  return 0;
}

void PgTextFormat::check_unterminated(std::string_view tail, const std::string& file, std::uint64_t line) const {
  if (backslashes_before(tail.data(), tail.data() + tail.size()) % 2)
    throw InputError(file + ":" + std::to_string(line) + ": the file ends in a backslash that escapes nothing");
}

std::optional<TextFormat::Problem> PgTextFormat::record_problem(std::string_view record) const {
  for (std::size_t i = 0; i + 1 < record.size(); ++i) {
    if (record[i] != '\\') continue;
    if (record[i + 1] == '.') {
      // The line of the marker, within a row that may hold escaped newlines.
      const auto lines = static_cast<std::uint64_t>(std::count(record.begin(), record.begin() + static_cast<std::ptrdiff_t>(i), '\n'));
      return Problem{"\\. is COPY's end-of-data marker (COPY stops reading there): no row may hold one", lines};
    }
    ++i;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> PgTextFormat::field_count(std::string_view record) const {
  const std::string_view row = without_cr(record);
  const char delim = options_.delimiter;
  // Rows without escapes, the most, are counted by the vectorized std::count.
  if (std::memchr(row.data(), '\\', row.size()) == nullptr)
    return static_cast<std::uint64_t>(std::count(row.begin(), row.end(), delim)) + 1;
  std::uint64_t n = 1;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\') ++i;  // escapes the byte after it, a delimiter too
    else if (row[i] == delim) ++n;
  }
  return n;
}

void PgTextFormat::append_debug_view(std::string_view record, std::string& out) const {
  std::vector<KeyExtent> marks;
  if (keys_.empty()) {
    marks.push_back({0, record.size(), true});
  } else {
    keys_.require_resolved();
    const std::string_view content = without_cr(record);
    for (const auto& k : keys_.keys()) {
      KeyExtent e{content.size(), content.size(), false};  // a missing column: at the row's end
      for_each_raw_field(record, options_.delimiter, [&](std::uint64_t index, std::size_t b, std::size_t end) {
        if (index < k.column) return true;
        e = {b, end, content.substr(b, end - b) != options_.null_string};
        return false;
      });
      marks.push_back(e);
    }
  }
  append_record_view(record, marks, out);
}

}  // namespace corank::text
