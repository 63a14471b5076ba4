#pragma once
// A one-line progress display on stderr: phase, percent, bytes, throughput, ETA.
// Redrawn at most five times a second, each drawing covering the last one
// whole (a shorter line is padded with blanks, so no stale digits remain);
// each fits the terminal's width, so that it never wraps; silent when disabled.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

namespace corank {

// What redraws `line` over a drawing `previous_width` characters wide on the
// same terminal line: a carriage return, the line, and blanks over the rest.
std::string redraw_sequence(std::string_view line, std::size_t previous_width);

// What one drawing shows.
struct ProgressFigures {
  std::string_view phase;
  std::uint64_t done = 0;
  std::uint64_t total = 0;  // 0: unknown
  double seconds = 0;       // since the phase began
};

// The line for `figures`, shorter than `columns`: as the width shrinks the
// bar narrows and goes, then the throughput, the byte counts, the program's
// name and the ETA, in that order; the phase and the percent (the bytes done
// where the total is unknown) go last.
std::string progress_line(const ProgressFigures& figures, std::size_t columns);

// The width of the terminal on `fd` (TIOCGWINSZ), else $COLUMNS, else 80.
std::size_t terminal_columns(int fd);

class Progress {
public:
  explicit Progress(bool enabled, std::FILE* out = stderr) : enabled_(enabled), out_(out) {}
  ~Progress() { finish(); }

  // Starts a phase of `total` bytes (0 if unknown).
  void phase(std::string name, std::uint64_t total);
  void advance(std::uint64_t bytes);
  // Ends the current line.
  void finish();

private:
  void draw(bool force);

  bool enabled_;
  std::FILE* out_;
  std::mutex mutex_;
  std::size_t last_width_ = 0;  // of the line drawn last, for the padding
  std::string name_;
  std::uint64_t total_ = 0, done_ = 0;
  std::chrono::steady_clock::time_point start_, last_draw_;
  bool drawn_ = false;
};

}  // namespace corank
