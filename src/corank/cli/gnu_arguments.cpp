#include "corank/cli/gnu_arguments.hpp"

#include <cctype>
#include <cstring>
#include <string_view>
#include <utility>

#include "corank/cli/args.hpp"
#include "corank/errors.hpp"
#include "corank/format.hpp"

namespace corank::cli {

std::string match_argument(const std::string& option, const std::string& arg, std::initializer_list<Choice> valid) {
  const Choice* hit = nullptr;
  bool ambiguous = false;
  for (const Choice& c : valid) {
    if (arg == c.value) return c.value;
    if (!arg.empty() && std::string_view(c.value).starts_with(arg)) {
      ambiguous |= hit != nullptr && hit->same != c.same;
      if (!hit) hit = &c;
    }
  }
  if (hit && !ambiguous) return hit->value;
  std::string msg = (hit ? "ambiguous argument '" : "invalid argument '") + arg + "' for '" + option + "'";
  msg += "\nValid arguments are:";
  const Choice* prev = nullptr;
  for (const Choice& c : valid) {
    msg += prev && prev->same == c.same ? ", '" : "\n  - '";
    msg += c.value;
    msg += "'";
    prev = &c;
  }
  throw BadCommandLine(msg);
}

// GNU's messages: "invalid -S argument 'X'" or "invalid suffix in -S argument 'X'".
std::uint64_t parse_size_argument(const std::string& option, const std::string& given, bool bare_is_kib) {
  const std::string quoted = option + " argument '" + given + "'";
  // Blanks and a plus sign before the number, as GNU's xstrtoumax reads them.
  std::size_t from = 0;
  while (from < given.size() && std::isspace(static_cast<unsigned char>(given[from]))) ++from;
  if (from < given.size() && given[from] == '+') ++from;
  const std::string text = given.substr(from);
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) throw UsageError("invalid " + quoted);
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (text.size() - i > 1 || (i < text.size() && std::strchr("bkKmMgGtTPEZY%", text[i]) == nullptr))
    throw UsageError("invalid suffix in " + quoted);
  try {
    return parse_size(text, bare_is_kib);
  } catch (const UsageError&) {
    throw UsageError(quoted + " too large");
  }
}

std::uint64_t parse_count_argument(const std::string& option, const std::string& text) {
  if (text.empty()) throw UsageError("invalid " + option + " argument ''");
  std::uint64_t v = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) throw UsageError("invalid " + option + " argument '" + text + "'");
    v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX : v * 10 + static_cast<unsigned>(c - '0');
  }
  return v;
}

// time, T, is corank's; GNU's -T is the temporary directory, so the word is
// the global form of the key letter.
char sort_word_letter(const std::string& word) {
  const std::string w =
      match_argument("--sort", word,
                     {{"general-numeric", 0}, {"human-numeric", 1}, {"month", 2}, {"numeric", 3}, {"random", 4},
                      {"time", 5}, {"version", 6}});
  return w == "general-numeric" ? 'g' : w == "human-numeric" ? 'h' : w == "month" ? 'M'
         : w == "numeric" ? 'n' : w == "random" ? 'R' : w == "time" ? 'T' : 'V';
}

// GNU runs --compress-program's PROG to compress temporary files and `PROG -d`
// to read them back. For the programs whose format corank writes itself (by
// name or path) it uses the built-in codec instead, in the process; any other
// PROG is run as GNU runs it (io/program_codec.hpp).
std::optional<io::Codec> codec_for_program(const std::string& prog) {
  const std::string name = prog.substr(prog.rfind('/') == std::string::npos ? 0 : prog.rfind('/') + 1);
  const std::pair<const char*, io::Codec> known[] = {
      {"zstd", io::Codec::zstd},   {"pzstd", io::Codec::zstd},  {"zstdmt", io::Codec::zstd},
      {"gzip", io::Codec::gzip},   {"pigz", io::Codec::gzip},   {"bzip2", io::Codec::bzip2},
      {"pbzip2", io::Codec::bzip2}, {"lbzip2", io::Codec::bzip2}, {"xz", io::Codec::xz},
      {"pxz", io::Codec::xz}};
  for (const auto& [n, codec] : known)
    if (name == n) return codec;
  return std::nullopt;
}

}  // namespace corank::cli
