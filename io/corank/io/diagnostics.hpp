#pragma once
// Where the library says what it plans and does. The library prints nothing
// itself: it hands lines (without the program's name) to the Diagnostics in
// its options, and the command-line tool passes one that writes them to
// stderr. Without one, nothing is said.
#include <string>
#include <string_view>

namespace corank::io {

class Diagnostics {
public:
  virtual ~Diagnostics() = default;
  // What -v (IoOptions::verbose) asks for: the plan, the engine, stage times.
  virtual void note(std::string_view line) = 0;
  // What the user hears whatever -v says: a fallback the sort took on its own
  // (a GPU that failed mid-sort, the CPU finishing the job).
  virtual void warning(std::string_view line) = 0;
};

// printf-style formatting of one line, for the library's notes.
std::string format_line(const char* format, ...) __attribute__((format(printf, 1, 2)));

// A count as a message gives it: 1234567 as "1,234,567".
std::string grouped_digits(unsigned long long n);

}  // namespace corank::io
