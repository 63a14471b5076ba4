#pragma once
// A one-line progress display on stderr: phase, percent, bytes, throughput, ETA.
// Redrawn at most five times a second; silent when disabled.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace corank {

class Progress {
public:
  explicit Progress(bool enabled) : enabled_(enabled) {}
  ~Progress() { finish(); }

  // Starts a phase of `total` bytes (0 if unknown).
  void phase(std::string name, std::uint64_t total);
  void advance(std::uint64_t bytes);
  // Ends the current line.
  void finish();

private:
  void draw(bool force);

  bool enabled_;
  std::mutex mutex_;
  std::string name_;
  std::uint64_t total_ = 0, done_ = 0;
  std::chrono::steady_clock::time_point start_, last_draw_;
  bool drawn_ = false;
};

}  // namespace corank
