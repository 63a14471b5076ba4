#pragma once
// The top-level members of a JSON object that one line holds, read in place,
// one after another: each member's name and its value as written (a string's
// contents between its quotes, escapes left as they are; the text of any
// other value). --time reads a JSON log's time member so (time_rules.hpp).
//
// Written here rather than with simdjson, which --format jsonl uses: On
// Demand reads a padded copy of each record, where this reads the line where
// it lies, and mostly only up to its time member. It locates members; it does
// not validate: a line it reads may still be malformed JSON.
//
//   JsonMembers members(line);
//   for (JsonMember m; members.next(m);) use(m.name, m.value);
#include <cstddef>
#include <string_view>

namespace corank::text {

struct JsonMember {
  std::string_view name;   // between its quotes, escapes left as written
  std::string_view value;  // a string's contents, else the value's text (an object's, an array's too)
  bool string = false;
};

class JsonMembers {
public:
  // Positions at the first member where the line holds an object (after
  // JSON's blanks).
  explicit JsonMembers(std::string_view line) noexcept;
  // Whether the line begins an object.
  bool object() const noexcept { return object_; }
  // The next member; false at the object's end, or where the line breaks
  // off or is malformed before it (no member is given from there on).
  bool next(JsonMember& m) noexcept;

private:
  void skip_blanks() noexcept;
  bool string_at(std::string_view& contents) noexcept;  // at a '"'
  bool skip_value() noexcept;                           // a number, literal, object or array

  std::string_view s_;
  std::size_t i_ = 0;
  bool object_ = false, open_ = false, first_ = true;
};

}  // namespace corank::text
