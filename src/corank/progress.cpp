#include "corank/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>

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

// ETA as h:mm:ss or m:ss; unknown ("-:--") until something has moved.
std::string eta_text(std::uint64_t left, double rate) {
  if (rate <= 0 && left > 0) return "-:--";
  const auto s = static_cast<long long>(rate > 0 ? static_cast<double>(left) / rate : 0);
  char eta[32];
  if (s >= 3600) std::snprintf(eta, sizeof eta, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(eta, sizeof eta, "%lld:%02lld", s / 60, s % 60);
  return eta;
}

// The parts of a line, as text.
struct LineParts {
  std::string bytes;  // "done/total", or "done" when the total is unknown
  std::string throughput;
  std::string eta;
};

// The widest each part gets (1023.9 MiB/1023.9 MiB, 1023.9 MiB/s, ETA 59:59):
// a layout is chosen for these, so that it stays the same from one drawing of
// a phase to the next as the figures change.
LineParts widest_parts(bool total_known) {
  const std::string number(10, '0');
  return {total_known ? number + "/" + number : number, number + "/s", "ETA 59:59"};
}

// Which parts a layout shows; the phase and the percent are always shown.
enum Part : unsigned { kProgram = 1, kPhaseColumn = 2, kBar = 4, kBytes = 8, kThroughput = 16, kEta = 32 };

// `bar` with its brackets.
std::string render(unsigned layout, std::string_view phase, std::string_view percent, const LineParts& parts,
                   std::string_view bar) {
  std::string line;
  auto add = [&line](std::string_view part) {
    if (part.empty()) return;
    if (!line.empty()) line += ' ';
    line += part;
  };
  if (layout & kProgram) add("corank:");
  std::string name(phase);
  if ((layout & kPhaseColumn) && name.size() < 8) name.resize(8, ' ');  // each phase's figures in the same columns
  add(name);
  if (layout & kBar) add(bar);
  add(percent);
  if (layout & kBytes) add(parts.bytes);
  if (layout & kThroughput) add(parts.throughput);
  if (layout & kEta) add(parts.eta);
  return line;
}
}  // namespace

std::string progress_line(const ProgressFigures& f, std::size_t columns) {
  // A line as wide as the terminal leaves the cursor past its last column,
  // where some terminals wrap at once: one column stays free.
  const std::size_t fit = columns > 1 ? columns - 1 : 1;
  const bool known = f.total > 0;
  const double rate = f.seconds > 0 ? static_cast<double>(f.done) / f.seconds : 0;
  const double frac = known ? static_cast<double>(f.done) / static_cast<double>(f.total) : 0;
  char percent[16] = "";
  if (known) std::snprintf(percent, sizeof percent, "%3.0f%%", frac * 100);
  LineParts parts{human_bytes(static_cast<double>(f.done)), human_bytes(rate) + "/s", ""};
  if (known) {
    parts.bytes += '/';
    parts.bytes += human_bytes(static_cast<double>(f.total));
    parts.eta = std::string("ETA ") + eta_text(f.total - std::min(f.done, f.total), rate);
  }
  const LineParts widest = widest_parts(known);
  // A layout fits when it fits both the widest parts and the figures shown
  // (an ETA of an hour or more is wider than the widest).
  auto width_of = [&](unsigned layout, std::string_view bar) {
    return std::max(render(layout, f.phase, percent, widest, bar).size(),
                    render(layout, f.phase, percent, parts, bar).size());
  };
  constexpr unsigned kAll = kProgram | kPhaseColumn | kBytes | kThroughput | kEta;
  // The bar takes what the rest leaves, from 24 columns down to 8.
  const std::size_t rest = width_of(kAll | kBar, "[]");
  if (known && rest + 8 <= fit) {
    const std::size_t width = std::min<std::size_t>(24, fit - rest);
    std::string bar = "[";
    bar.append(std::min(width, static_cast<std::size_t>(frac * static_cast<double>(width) + 0.5)), '#');
    bar.resize(width + 1, '.');
    bar += ']';
    return render(kAll | kBar, f.phase, percent, parts, bar);
  }
  // Then the layouts, widest first; without a total, the bytes are the figure.
  static constexpr unsigned kWithTotal[] = {kAll, kProgram | kPhaseColumn | kBytes | kEta,
                                            kProgram | kPhaseColumn | kEta, kProgram | kEta, kEta, 0};
  static constexpr unsigned kWithoutTotal[] = {kAll, kProgram | kPhaseColumn | kBytes, kBytes, 0};
  const std::span<const unsigned> layouts = known ? std::span<const unsigned>(kWithTotal) : kWithoutTotal;
  std::string line;
  for (unsigned layout : layouts) {
    line = render(layout, f.phase, percent, parts, "");
    if (width_of(layout, "") <= fit) return line;
  }
  line.resize(std::min(line.size(), fit));
  return line;
}

std::size_t terminal_columns(int fd) {
  winsize ws{};
  if (::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* env = std::getenv("COLUMNS")) {
    std::size_t n = 0;
    const auto [end, ec] = std::from_chars(env, env + std::strlen(env), n);
    if (ec == std::errc() && *end == '\0' && n > 0) return n;
  }
  return 80;
}

std::string redraw_sequence(std::string_view line, std::size_t previous_width) {
  std::string out = "\r";
  out += line;
  if (previous_width > line.size()) out.append(previous_width - line.size(), ' ');
  return out;
}

void Progress::phase(std::string name, std::uint64_t total) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  if (drawn_) {
    draw(true);  // the finished phase's line shows where it ended
    std::fputc('\n', out_);
  }
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
  const std::size_t columns = terminal_columns(::fileno(out_));
  const std::string line = progress_line(
      {name_, done_, total_, std::chrono::duration<double>(now - start_).count()}, columns);
  // A drawing from before the terminal narrowed is blanked only up to the new width.
  const std::string seq = redraw_sequence(line, std::min(last_width_, columns > 1 ? columns - 1 : 1));
  std::fwrite(seq.data(), 1, seq.size(), out_);
  std::fflush(out_);
  last_width_ = line.size();
  drawn_ = true;
}

}  // namespace corank
