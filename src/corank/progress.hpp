#pragma once
// A one-line progress display on stderr: phase, percent, bytes, throughput, ETA.
// Redrawn at most five times a second, each drawing covering the last one
// whole (a shorter line is padded with blanks, so no stale digits remain);
// silent when disabled.
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
