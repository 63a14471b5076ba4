#pragma once
// What GNU sort makes of option values: argmatch's words and prefixes, SIZE
// and count arguments with its checks and messages, --sort's words, and the
// programs --compress-program names.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

#include "corank/io/codec.hpp"

namespace corank::cli {

// One accepted value of an option; values with the same meaning have `same`
// equal (GNU lists them on one line of its message, and a prefix of both is
// not ambiguous).
struct Choice {
  const char* value;
  int same;
};

// GNU's argmatch: `arg` or an unambiguous prefix of it, as the full value.
// Throws BadCommandLine with GNU's message and the list of valid values.
std::string match_argument(const std::string& option, const std::string& arg, std::initializer_list<Choice> valid);

// SIZE arguments (-S, --gpu-memory): digits, then at most one suffix letter
// (b K M G T, %). `bare_is_kib`: a number without a suffix counts KiB, as -S does.
std::uint64_t parse_size_argument(const std::string& option, const std::string& text, bool bare_is_kib);

// A count such as --parallel or --batch-size: digits only, saturating.
std::uint64_t parse_count_argument(const std::string& option, const std::string& text);

// The ordering letter of --sort=WORD.
char sort_word_letter(const std::string& word);

// The built-in codec that stands for --compress-program's PROG, if any.
std::optional<io::Codec> codec_for_program(const std::string& prog);

}  // namespace corank::cli
