#include "corank/progress.hpp"

#include <algorithm>
#include <cstdio>

namespace corank {

namespace {
std::string human_bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) b /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", b, units[u]);
  return buf;
}
}  // namespace

std::string redraw_sequence(std::string_view line, std::size_t previous_width) {
  std::string out = "\r";
  out += line;
  if (previous_width > line.size()) out.append(previous_width - line.size(), ' ');
  return out;
}

void Progress::phase(std::string name, std::uint64_t total) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  if (drawn_) std::fputc('\n', out_);
  last_width_ = 0;
  name_ = std::move(name);
  total_ = total;
  done_ = 0;
  start_ = std::chrono::steady_clock::now();
  drawn_ = false;
  draw(true);
}

void Progress::advance(std::uint64_t bytes) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  done_ += bytes;
  draw(false);
}

void Progress::finish() {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  if (!drawn_) return;
  draw(true);
  std::fputc('\n', out_);
  drawn_ = false;
  last_width_ = 0;
}

void Progress::draw(bool force) {
  auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  double secs = std::chrono::duration<double>(now - start_).count();
  double rate = secs > 0 ? done_ / secs : 0;
  char line[192];
  int width;
  if (total_ > 0) {
    double frac = static_cast<double>(done_) / static_cast<double>(total_);
    const int bar_width = 24, filled = static_cast<int>(frac * bar_width + 0.5);
    std::string bar(static_cast<std::size_t>(filled > bar_width ? bar_width : filled), '#');
    bar.resize(static_cast<std::size_t>(bar_width), '.');
    double eta = rate > 0 ? (static_cast<double>(total_ - std::min(done_, total_))) / rate : 0;
    width = std::snprintf(line, sizeof line, "corank: %-8s [%s] %3.0f%% %s/%s %s/s ETA %d:%02d", name_.c_str(),
                  bar.c_str(), frac * 100, human_bytes(done_).c_str(), human_bytes(total_).c_str(),
                  human_bytes(rate).c_str(), static_cast<int>(eta) / 60, static_cast<int>(eta) % 60);
  } else {
    width = std::snprintf(line, sizeof line, "corank: %-8s %s %s/s", name_.c_str(), human_bytes(done_).c_str(),
                          human_bytes(rate).c_str());
  }
  const std::size_t w = std::min<std::size_t>(static_cast<std::size_t>(std::max(width, 0)), sizeof line - 1);
  const std::string seq = redraw_sequence({line, w}, last_width_);
  std::fwrite(seq.data(), 1, seq.size(), out_);
  std::fflush(out_);
  last_width_ = w;
  drawn_ = true;
}

}  // namespace corank
