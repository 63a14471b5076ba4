#include "corank/text/jsonl_format.hpp"

#include <simdjson.h>

#include <cstring>

#include "corank/errors.hpp"
#include "corank/format.hpp"
#include "corank/text/debug_view.hpp"
#include "corank/text/exact_number.hpp"
#include "corank/text/locale_compare.hpp"

namespace corank::text {

namespace {

// JSON's kinds in jsonb's order; booleans are two kinds so that false < true.
enum class Kind : unsigned char { String, Number, False, True, Array, Object, Null };

struct JsonField {
  Kind kind = Kind::Null;  // also a missing field
  std::string_view text;   // unescaped for strings, as written otherwise
};

std::string_view trim_trailing_blanks(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

// A copy of a record with the padding simdjson's vector loads read past its
// end (SIMDJSON_PADDING bytes, zeros as in simdjson's padded_string: On
// Demand reads malformed records into it, and the bytes a longer record left
// there would make their reads differ from one call to the next). A UTF-8
// byte order mark that opens it (a file's first line, written on Windows) is
// left out, as jq reads past it; the record keeps it in the output.
std::string_view padded(std::string_view record, std::string& buf) {
  if (record.starts_with("\xEF\xBB\xBF")) record.remove_prefix(3);
  buf.assign(record.size() + simdjson::SIMDJSON_PADDING, '\0');
  if (!record.empty()) std::memcpy(buf.data(), record.data(), record.size());
  return {buf.data(), record.size()};
}

// One record open for On-Demand reads of its fields. A thread keeps its own:
// parsers are not shared between threads.
class OpenRecord {
public:
  void open(std::string_view record) {
    json_ = padded(record, buf_);
    iterate();
  }

  // The field at `pointer` ("": the record itself, an object compared as its
  // bytes). A string's view lives until the next field() or open().
  JsonField field(const std::string& pointer) {
    if (pointer.empty()) return {Kind::Object, trim_trailing_blanks(json_)};
    if (stale_) iterate();
    if (!ok_) return {};
    JsonField f;
    if (read(pointer, f)) return f;
    // After an error (a missing field too) On Demand may have abandoned the
    // document, and a later at_pointer() would read through a null token
    // (malformed records crash so): the next field opens it afresh.
    stale_ = true;
    return {};
  }

  // Where the field at `pointer` lies in the record (--debug).
  KeyExtent extent(const std::string& pointer) {
    if (pointer.empty()) return {0, trim_trailing_blanks(json_).size(), true};
    if (stale_) iterate();
    const KeyExtent missing{json_.size(), json_.size(), false};
    if (!ok_) return missing;
    simdjson::ondemand::value v;
    simdjson::ondemand::json_type type;
    std::string_view raw;
    bool bad = doc_.at_pointer(pointer).get(v) || v.type().get(type);
    if (!bad && type == simdjson::ondemand::json_type::array) {
      simdjson::ondemand::array a;
      bad = v.get_array().get(a) || a.raw_json().get(raw);
    } else if (!bad && type == simdjson::ondemand::json_type::object) {
      simdjson::ondemand::object o;
      bad = v.get_object().get(o) || o.raw_json().get(raw);
    } else if (!bad) {
      raw = v.raw_json_token();
    }
    if (bad) {
      stale_ = true;  // as in field()
      return missing;
    }
    raw = trim_trailing_blanks(raw);
    const auto at = static_cast<std::size_t>(raw.data() - json_.data());
    if (type == simdjson::ondemand::json_type::null) return {at, at, false};
    if (type == simdjson::ondemand::json_type::string && raw.size() > 2) return {at + 1, at + raw.size() - 1, true};
    return {at, at + raw.size(), true};
  }

private:
  void iterate() {
    ok_ = !parser_.iterate(json_.data(), json_.size(), buf_.size()).get(doc_);
    stale_ = false;
  }

  // False on any error: missing, or not readable as its type says.
  bool read(const std::string& pointer, JsonField& f) {
    simdjson::ondemand::value v;
    simdjson::ondemand::json_type type;
    if (doc_.at_pointer(pointer).get(v) || v.type().get(type)) return false;
    std::string_view s;
    switch (type) {
      case simdjson::ondemand::json_type::string:
        if (v.get_string().get(s)) return false;
        f = {Kind::String, s};
        return true;
      case simdjson::ondemand::json_type::number:
        f = {Kind::Number, trim_trailing_blanks(v.raw_json_token())};
        return true;
      case simdjson::ondemand::json_type::boolean: {
        bool b = false;
        if (v.get_bool().get(b)) return false;
        f = b ? JsonField{Kind::True, "true"} : JsonField{Kind::False, "false"};
        return true;
      }
      case simdjson::ondemand::json_type::array: {
        simdjson::ondemand::array a;
        if (v.get_array().get(a) || a.raw_json().get(s)) return false;
        f = {Kind::Array, trim_trailing_blanks(s)};
        return true;
      }
      case simdjson::ondemand::json_type::object: {
        simdjson::ondemand::object o;
        if (v.get_object().get(o) || o.raw_json().get(s)) return false;
        f = {Kind::Object, trim_trailing_blanks(s)};
        return true;
      }
      case simdjson::ondemand::json_type::null: f = {}; return true;
    }
    return false;
  }

  simdjson::ondemand::parser parser_;
  simdjson::ondemand::document doc_;
  std::string buf_;
  std::string_view json_;
  bool ok_ = false, stale_ = false;
};

// Two per thread: compare() holds both of its records open at once.
OpenRecord& open_record(int which) {
  thread_local OpenRecord records[2];
  return records[which];
}

FieldValue as_value(const JsonField& f) { return {f.text, f.kind == Kind::Null}; }

int bytes_compare(std::string_view a, std::string_view b) {
  const int c = a.compare(b);
  return (c > 0) - (c < 0);
}

// A key without a TYPE: kinds first, then values within a kind.
int compare_json(const TypedKey& k, const JsonField& a, const JsonField& b, NullOrder nulls) {
  if (a.kind == Kind::Null || b.kind == Kind::Null) return compare_values(k, as_value(a), as_value(b), nulls);
  int d;
  if (a.kind != b.kind) d = a.kind < b.kind ? -1 : 1;
  else if (a.kind == Kind::Number) d = compare_exact(parse_exact_number(a.text), parse_exact_number(b.text));
  else if (a.kind == Kind::String && k.collation) d = k.collation->compare(a.text, b.text);
  else d = bytes_compare(a.text, b.text);  // booleans of one kind are equal texts
  return k.key.reverse ? -d : d;
}

Prefix json_prefix(const TypedKey& k, const JsonField& f, NullOrder nulls) {
  if (f.kind == Kind::Null) return null_prefix(null_order(k, nulls));
  unsigned char p[Prefix::kBytes] = {};
  p[0] = static_cast<unsigned char>(f.kind);
  if (f.kind == Kind::Number)
    encode_exact(parse_exact_number(f.text), 0, p + 1, sizeof p - 1);
  else if (f.kind == Kind::String && k.collation && !f.text.empty())
    k.collation->prefix(f.text, p + 1, sizeof p - 1);
  else if (f.kind != Kind::False && f.kind != Kind::True && !f.text.empty())
    std::memcpy(p + 1, f.text.data(), std::min(f.text.size(), sizeof p - 1));
  Prefix r;
  for (int w = 0; w < 4; ++w)
    for (int i = 0; i < 8; ++i) r.w[w] = r.w[w] << 8 | p[8 * w + i];
  if (k.key.reverse) r.invert();
  return r;
}

int compare_field(const TypedKey& k, const JsonField& a, const JsonField& b, NullOrder nulls) {
  return k.typed ? compare_values(k, as_value(a), as_value(b), nulls) : compare_json(k, a, b, nulls);
}

// A key's path as a JSON pointer (RFC 6901, '~' and '/' escaped): "user.id"
// is "/user/id". A name holding a dot is written with the dot escaped
// (log\.level) or as a JSON string in brackets (["log.level"], which may
// follow a name: labels["app.kubernetes.io/name"]); "." is the record itself,
// the pointer "".
[[noreturn]] void bad_path(std::string_view spec, const std::string& why) {
  throw UsageError("invalid key '" + std::string(spec) + "': " + why);
}

std::string json_pointer(std::string_view spec, std::string_view path) {
  const auto bad = [&](const std::string& why) { bad_path(spec, why); };
  if (path == ".") return {};
  std::string out;
  std::size_t i = 0;
  const auto add = [&](const std::string& name) {
    out += '/';
    for (char c : name) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  };
  for (;;) {
    std::string name;
    if (path.substr(i, 2) == "[\"") {
      // A JSON string: simdjson reads it, escapes and all, up to its closing quote.
      std::size_t j = i + 2;
      while (j < path.size() && path[j] != '"') j += path[j] == '\\' ? 2 : 1;
      if (j >= path.size() || j + 1 >= path.size() || path[j + 1] != ']') bad("a [\"...\"] name without its closing \"]");
      const std::string quoted(path.substr(i + 1, j - i));
      simdjson::dom::parser parser;
      std::string_view text;
      if (parser.parse(quoted).get_string().get(text)) bad("the name " + quoted + " is no JSON string");
      name = text;
      i = j + 2;
      if (i < path.size() && path[i] != '.' && path.substr(i, 2) != "[\"") bad("a name right after [\"...\"]");
    } else {
      for (; i < path.size() && path[i] != '.' && path.substr(i, 2) != "[\""; ++i) {
        if (path[i] == '\\' && i + 1 < path.size()) ++i;  // \. is a dot of the name, \\ a backslash
        name += path[i];
      }
      if (name.empty()) bad("empty field name in the path");
    }
    add(name);
    if (i == path.size()) return out;
    if (path[i] == '.') {
      if (++i == path.size()) bad("empty field name in the path");
    }
  }
}

}  // namespace

JsonlFormat::JsonlFormat(JsonlOptions options) : TextFormat('\n', options.unique), options_(std::move(options)) {
  for (const auto& spec : options_.keys) {
    ColumnKeySpec parsed = parse_column_key(spec, options_.global, options_.collation);
    keys_.push_back({parsed.column, json_pointer(spec, parsed.column), parsed.key});
  }
}

bool JsonlFormat::collates_lines() const noexcept {
  return options_.collation && takes_collation(options_.global);
}

int JsonlFormat::compare(std::string_view a, std::string_view b) const {
  if (keys_.empty() && collates_lines()) return compare_collated_key(options_.global, a, b, *options_.collation);
  if (keys_.empty()) return compare_key_text(options_.global, a, b);
  OpenRecord& x = open_record(0);
  OpenRecord& y = open_record(1);
  x.open(a);
  y.open(b);
  for (const auto& k : keys_)
    if (int d = compare_field(k.key, x.field(k.pointer), y.field(k.pointer), options_.nulls)) return d;
  return 0;
}

Prefix JsonlFormat::prefix(std::string_view record) const {
  if (keys_.empty() && collates_lines()) return collated_key_prefix(options_.global, record, *options_.collation);
  if (keys_.empty()) return key_prefix(options_.global, record);
  OpenRecord& r = open_record(0);
  r.open(record);
  const FieldKey& k = keys_.front();
  const JsonField f = r.field(k.pointer);
  return k.key.typed ? value_prefix(k.key, as_value(f), options_.nulls) : json_prefix(k.key, f, options_.nulls);
}

std::vector<KeyValueCounts> JsonlFormat::value_checks() const {
  std::vector<KeyValueCounts> checks;
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    KeyValueCounts c = value_check(keys_[i].key, static_cast<unsigned>(i + 1), keys_[i].path, options_.nulls);
    if (!keys_[i].key.typed) c.kind.clear();  // JSON's own kinds: every value orders
    checks.push_back(std::move(c));
  }
  return checks;
}

void JsonlFormat::count_values(std::string_view record, const Prefix& prefix, std::uint64_t* counts) const {
  OpenRecord& r = open_record(0);
  bool open = false;
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    if (i == 0 && !extreme_prefix(prefix)) continue;  // the first key read, and was no null
    if (!open) r.open(record), open = true;
    const FieldValue v = as_value(r.field(keys_[i].pointer));
    if (keys_[i].key.typed) counts[2 * i] += value_unread(keys_[i].key, v);
    counts[2 * i + 1] += v.null;
  }
}

void JsonlFormat::append_debug_view(std::string_view record, std::string& out) const {
  std::vector<KeyExtent> marks;
  if (keys_.empty()) {
    marks.push_back({0, record.size(), true});
  } else {
    OpenRecord& r = open_record(0);
    r.open(record);
    for (const auto& k : keys_) marks.push_back(r.extent(k.pointer));
  }
  append_record_view(record, marks, out);
}

std::size_t JsonlFormat::record_length(const char* p, const char* end) const {
  const void* hit = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
  return hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - p) + 1 : 0;
}

std::optional<TextFormat::Problem> JsonlFormat::record_problem(std::string_view record) const {
  // The DOM parser validates the whole line (On Demand reads only as far as
  // the keys), once, as the record is read.
  thread_local simdjson::dom::parser parser;
  thread_local std::string buf;
  const std::string_view json = padded(record, buf);
  simdjson::dom::element root;
  if (const auto error = parser.parse(json.data(), json.size(), false).get(root))
    return Problem{std::string("invalid JSON: ") + simdjson::error_message(error)};
  if (!root.is_object()) return Problem{"invalid JSON: not an object"};
  return std::nullopt;
}

bool JsonlFormat::skips(std::string_view record) const {
  return record.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace corank::text
