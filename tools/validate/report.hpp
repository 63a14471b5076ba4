#pragma once
// How corank-validate prints a ValidationReport: lines for people, JSON for scripts.
#include <string>

#include "validation.hpp"

namespace corank::tools {

std::string format_text(const ValidationReport& report);
std::string format_json(const ValidationReport& report);

}  // namespace corank::tools
