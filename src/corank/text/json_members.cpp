#include "corank/text/json_members.hpp"

namespace corank::text {

namespace {

constexpr bool json_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

JsonMembers::JsonMembers(std::string_view line) noexcept : s_(line) {
  skip_blanks();
  object_ = open_ = i_ < s_.size() && s_[i_] == '{';
  if (open_) ++i_;
}

void JsonMembers::skip_blanks() noexcept {
  while (i_ < s_.size() && json_blank(s_[i_])) ++i_;
}

bool JsonMembers::string_at(std::string_view& contents) noexcept {
  if (i_ >= s_.size() || s_[i_] != '"') return false;
  const std::size_t begin = ++i_;
  for (; i_ < s_.size(); ++i_) {
    if (s_[i_] == '\\') {
      ++i_;  // the escaped byte, a quote included
    } else if (s_[i_] == '"') {
      contents = s_.substr(begin, i_ - begin);
      ++i_;
      return true;
    }
  }
  return false;
}

bool JsonMembers::skip_value() noexcept {
  const std::size_t begin = i_;
  int depth = 0;
  while (i_ < s_.size()) {
    const char c = s_[i_];
    if (c == '"') {
      std::string_view ignored;
      if (depth == 0 || !string_at(ignored)) return false;  // a string at the top is the caller's
      continue;
    }
    if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (depth == 0) return i_ > begin;  // the object's end, after a scalar
      if (--depth == 0) {
        ++i_;
        return true;
      }
    } else if (depth == 0 && (c == ',' || json_blank(c))) {
      return i_ > begin;
    }
    ++i_;
  }
  return false;  // broken off
}

bool JsonMembers::next(JsonMember& m) noexcept {
  if (!open_) return false;
  open_ = false;  // until this member is read whole
  skip_blanks();
  if (i_ < s_.size() && s_[i_] == '}') return false;
  if (!first_) {
    if (i_ >= s_.size() || s_[i_] != ',') return false;
    ++i_;
    skip_blanks();
  }
  first_ = false;
  JsonMember out;
  if (!string_at(out.name)) return false;
  skip_blanks();
  if (i_ >= s_.size() || s_[i_] != ':') return false;
  ++i_;
  skip_blanks();
  if (i_ < s_.size() && s_[i_] == '"') {
    if (!string_at(out.value)) return false;
    out.string = true;
  } else {
    const std::size_t begin = i_;
    if (!skip_value()) return false;
    out.value = s_.substr(begin, i_ - begin);
  }
  m = out;
  open_ = true;
  return true;
}

}  // namespace corank::text
