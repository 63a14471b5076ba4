#include "corank/cli/gnu_abbreviations.hpp"

namespace corank::cli {

namespace {

// GNU sort 9.4's long options (coreutils src/sort.c, long_options[]). GNU
// sort has no two with the same meaning, so getopt_long calls a prefix of two
// of them ambiguous (--s: --sort, --stable), as it does here.
constexpr std::string_view kGnuSortLongOptions[] = {
    "ignore-leading-blanks", "check", "compress-program", "debug", "dictionary-order", "ignore-case",
    "files0-from", "general-numeric-sort", "ignore-nonprinting", "key", "merge", "month-sort", "numeric-sort",
    "human-numeric-sort", "version-sort", "random-sort", "random-source", "sort", "output", "reverse", "stable",
    "batch-size", "buffer-size", "field-separator", "temporary-directory", "unique", "zero-terminated", "parallel",
    "help", "version"};

}  // namespace

std::optional<std::string> spell_out_gnu_abbreviation(std::string_view arg, const option* options) {
  if (!arg.starts_with("--") || arg.size() == 2) return std::nullopt;
  const std::string_view name = arg.substr(2, arg.find('=') == std::string_view::npos ? arg.npos : arg.find('=') - 2);
  for (const option* o = options; o->name != nullptr; ++o)
    if (name == o->name) return std::nullopt;
  std::optional<std::string_view> gnu;
  for (std::string_view candidate : kGnuSortLongOptions) {
    if (!candidate.starts_with(name)) continue;
    if (gnu) return std::nullopt;  // ambiguous in GNU sort too
    gnu = candidate;
  }
  if (!gnu) return std::nullopt;
  return "--" + std::string(*gnu) + std::string(arg.substr(2 + name.size()));
}

}  // namespace corank::cli
