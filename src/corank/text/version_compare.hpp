#pragma once
// -V: gnulib's filevercmp (the Debian version order, with file suffixes such as
// ".tar.gz" compared only when the rest is equal), on byte ranges.
#include <string_view>

namespace corank::text {

int compare_version(std::string_view a, std::string_view b) noexcept;

}  // namespace corank::text
