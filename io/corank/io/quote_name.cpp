#include "corank/io/quote_name.hpp"

#include <cerrno>
#include <cstdlib>
#include <cwchar>
#include <cwctype>
#include <locale.h>

namespace corank::io {

namespace {

// The characters of a name that no shell reads specially, wherever they stand.
bool safe(unsigned char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '%' || c == '+' ||
         c == ',' || c == '-' || c == '.' || c == '/' || c == ']' || c == '_';
}

// The character of name at i, in the locale of the calling thread: how many
// bytes it takes, and whether it is printable (a byte that starts no valid
// character is one unprintable byte).
struct Char {
  std::size_t bytes;
  bool printable;
};
Char char_at(std::string_view name, std::size_t i) noexcept {
  const auto c = static_cast<unsigned char>(name[i]);
  if (c < 0x80) return {1, c >= 0x20 && c < 0x7f};
  if (MB_CUR_MAX == 1) return {1, false};  // the C locale: bytes past ASCII are not characters
  std::mbstate_t state{};
  wchar_t wc = 0;
  const std::size_t n = std::mbrtowc(&wc, name.data() + i, name.size() - i, &state);
  if (n == 0 || n > name.size() - i) return {1, false};  // invalid or cut short
  return {n, std::iswprint(static_cast<wint_t>(wc)) != 0};
}

// Whether the shell-escape style writes the name as it is; all_plain: whether
// every character may stand in double quotes as it is (gnulib's
// c_and_shell_quote_compat).
bool stands_alone(std::string_view name, bool& single_quote, bool& all_plain) noexcept {
  bool alone = !name.empty();
  single_quote = false;
  all_plain = true;
  for (std::size_t i = 0, step = 1; i < name.size(); i += step, step = 1) {
    const auto c = static_cast<unsigned char>(name[i]);
    bool plain = false;
    if (safe(c) || c == ':') {
      plain = true;
      if (c == ':') alone = false;  // quotef quotes the colon too
    } else if ((c == '{' || c == '}') && name.size() > 1) {
      // a brace is special only alone
    } else if (c == '#' || c == '~' || c == '{' || c == '}') {
      if (i == 0) plain = true, alone = false;  // special at the start only
    } else if (c == ' ') {
      plain = true, alone = false;
    } else if (c == '\'') {
      plain = true, alone = false, single_quote = true;
    } else if (std::string_view("!\"$&()*;<=>?[\\^`|").find(static_cast<char>(c)) != std::string_view::npos) {
      alone = false;
    } else {
      const Char ch = char_at(name, i);
      plain = ch.printable;
      if (!ch.printable) alone = false;
      step = ch.bytes;
    }
    all_plain = all_plain && plain;
  }
  return alone;
}

std::string in_single_quotes(std::string_view name) {
  std::string out = "'";
  bool escaping = false;  // inside a $'...' that the next plain character closes
  for (std::size_t i = 0; i < name.size();) {
    const auto c = static_cast<unsigned char>(name[i]);
    const Char ch = char_at(name, i);
    if (ch.printable || c == '\'') {
      if (escaping) out += "''", escaping = false;
      if (c == '\'') out += "'\\''";
      else out.append(name.substr(i, ch.bytes));
      i += ch.bytes;
      continue;
    }
    if (!escaping) out += "'$'", escaping = true;
    out += '\\';
    switch (c) {
      case '\a': out += 'a'; break;
      case '\b': out += 'b'; break;
      case '\f': out += 'f'; break;
      case '\n': out += 'n'; break;
      case '\r': out += 'r'; break;
      case '\t': out += 't'; break;
      case '\v': out += 'v'; break;
      default:
        out += static_cast<char>('0' + (c >> 6));
        out += static_cast<char>('0' + ((c >> 3) & 7));
        out += static_cast<char>('0' + (c & 7));
    }
    ++i;  // an unprintable character's bytes are escaped one by one
  }
  return out + "'";
}

// The calling thread in the LC_CTYPE of the environment, as GNU's
// setlocale(LC_ALL, "") puts it, while it lives.
class EnvironmentCtype {
public:
  EnvironmentCtype() : loc_(::newlocale(LC_CTYPE_MASK, "", nullptr)) {
    if (!loc_) loc_ = ::newlocale(LC_CTYPE_MASK, "C", nullptr);
    if (loc_) before_ = ::uselocale(loc_);
  }
  ~EnvironmentCtype() {
    if (!loc_) return;
    ::uselocale(before_);
    ::freelocale(loc_);
  }
  EnvironmentCtype(const EnvironmentCtype&) = delete;
  EnvironmentCtype& operator=(const EnvironmentCtype&) = delete;

private:
  locale_t loc_;
  locale_t before_ = nullptr;
};

}  // namespace

std::string quote_name(std::string_view name) {
  // errno as the caller left it: a message quotes the name beside the error
  // that errno still holds, in whichever order the arguments are evaluated.
  struct KeepErrno {
    int saved = errno;
    ~KeepErrno() { errno = saved; }
  } keep;
  const EnvironmentCtype ctype;
  bool single_quote = false, all_plain = true;
  if (stands_alone(name, single_quote, all_plain)) return std::string(name);
  if (single_quote && all_plain) {
    std::string out;
    out.reserve(name.size() + 2);
    out.push_back('"');
    out.append(name);
    out.push_back('"');
    return out;
  }
  return in_single_quotes(name);
}

std::string quote_name_always(std::string_view name) {
  std::string q = quote_name(name);
  // Unchanged: the name has no character that quoting would change.
  if (q.size() == name.size()) q = "'" + q + "'";
  return q;
}

}  // namespace corank::io
