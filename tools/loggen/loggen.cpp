// corank-loggen: log-like text lines for the line-sorting benchmarks, e.g.
//   2026-11-03T17:42:09.318274Z WARN web-017 GET /api/v2/orders/88412 status=503 took=41ms user=u7731
// Timestamps are uniform over 30 days in random order (so sorting by them
// moves every line), levels and hosts are skewed the way real logs are.
// With --late SECONDS the lines are nearly sorted instead, as a collector
// writes them: its clock runs through the 30 days in order and each line
// carries a time up to SECONDS before it (uniform; 0: sorted), so a line lies
// at most SECONDS' worth of lines from its place.
// Deterministic for a seed; streams, so any size needs only a small buffer.
//   corank-loggen --size 4G [--seed N] [--late SECONDS] [-o FILE]
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace {

std::uint64_t parse_size(const char* s) {
  char* end = nullptr;
  std::uint64_t v = std::strtoull(s, &end, 10);
  switch (*end) {
    case 'K': case 'k': return v << 10;
    case 'M': case 'm': return v << 20;
    case 'G': case 'g': return v << 30;
    case 'T': case 't': return v << 40;
    default: return v;
  }
}

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {  // splitmix64: fast and good enough for test data
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

void put_digits(char*& p, std::uint64_t v, int width) {
  for (int i = width - 1; i >= 0; --i, v /= 10) p[i] = static_cast<char>('0' + v % 10);
  p += width;
}

void put(char*& p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  p += s.size();
}

// Days before each month of 2026 (not a leap year).
constexpr int kMonthStart[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365};

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t size = 0, seed = 1;
  double late = -1;  // seconds; negative: timestamps in random order
  const char* out_path = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "--size" && i + 1 < argc) size = parse_size(argv[++i]);
    else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "-o" && i + 1 < argc) out_path = argv[++i];
    else if (a == "--late" && i + 1 < argc) late = std::strtod(argv[++i], nullptr);
    else {
      std::fprintf(stderr, "usage: corank-loggen --size BYTES[K|M|G|T] [--seed N] [--late SECONDS] [-o FILE]\n");
      return 2;
    }
  }
  if (size == 0) {
    std::fprintf(stderr, "corank-loggen: --size: a positive size is required\n");
    return 2;
  }
  std::FILE* out = out_path ? std::fopen(out_path, "wb") : stdout;
  if (!out) {
    std::fprintf(stderr, "corank-loggen: %s: %s\n", out_path, std::strerror(errno));
    return 2;
  }
  static const char* const kLevels[] = {"INFO", "INFO", "INFO", "INFO", "INFO", "DEBUG", "DEBUG", "WARN", "ERROR"};
  static const char* const kMethods[] = {"GET", "GET", "GET", "POST", "PUT", "DELETE"};
  static const char* const kPaths[] = {"/api/v2/orders/", "/api/v2/items/", "/api/v1/users/", "/static/img/",
                                       "/api/v2/cart/",   "/health",        "/api/v1/search?q="};
  static const int kStatus[] = {200, 200, 200, 200, 200, 201, 204, 301, 304, 400, 404, 404, 500, 503};

  Rng rng{seed * 0x2545F4914F6CDD1Dull + 1};
  constexpr std::size_t kBuf = 1 << 22;
  static char buf[kBuf + 512];
  char* p = buf;
  std::uint64_t written = 0;
  const std::uint64_t window_us = 30ull * 86400 * 1000000;  // 2026-11-01 .. 2026-11-30
  // --late: the collector's clock advances by a random step a line (never 0,
  // so that its times differ), lines of about 95 bytes spread over most of
  // the 30 days.
  const std::uint64_t late_us = late > 0 ? static_cast<std::uint64_t>(late * 1e6) : 0;
  const std::uint64_t step_us = std::max<std::uint64_t>(1, window_us / std::max<std::uint64_t>(1, size / 80));
  std::uint64_t clock = late_us;
  while (written + static_cast<std::uint64_t>(p - buf) < size) {
    std::uint64_t t;
    if (late < 0) {
      t = rng.below(window_us);
    } else {
      clock += 1 + rng.below(2 * step_us - 1);
      t = std::min(window_us - 1, clock - (late_us ? rng.below(late_us + 1) : 0));
    }
    const std::uint64_t sec = t / 1000000, us = t % 1000000;
    const int day_of_year = kMonthStart[10] + static_cast<int>(sec / 86400);
    int month = 0;
    while (kMonthStart[month + 1] <= day_of_year) ++month;
    const std::uint64_t day = static_cast<std::uint64_t>(day_of_year - kMonthStart[month] + 1);
    const std::uint64_t s = sec % 86400;
    put(p, "2026-");
    put_digits(p, static_cast<std::uint64_t>(month + 1), 2);
    *p++ = '-';
    put_digits(p, day, 2);
    *p++ = 'T';
    put_digits(p, s / 3600, 2);
    *p++ = ':';
    put_digits(p, s / 60 % 60, 2);
    *p++ = ':';
    put_digits(p, s % 60, 2);
    *p++ = '.';
    put_digits(p, us, 6);
    put(p, "Z ");
    put(p, kLevels[rng.below(9)]);
    put(p, " web-");
    // A few hosts log most lines.
    const std::uint64_t r = rng.below(100);
    put_digits(p, r < 60 ? r % 8 : r < 90 ? 8 + r % 32 : 40 + rng.below(200), 3);
    *p++ = ' ';
    put(p, kMethods[rng.below(6)]);
    *p++ = ' ';
    put(p, kPaths[rng.below(7)]);
    put_digits(p, rng.below(100000), 5);
    put(p, " status=");
    put_digits(p, static_cast<std::uint64_t>(kStatus[rng.below(14)]), 3);
    put(p, " took=");
    const std::uint64_t took = rng.below(4) ? rng.below(100) : rng.below(10000);
    put_digits(p, took, took < 10 ? 1 : took < 100 ? 2 : took < 1000 ? 3 : 4);
    put(p, "ms user=u");
    put_digits(p, rng.below(10000), 4);
    *p++ = '\n';
    if (static_cast<std::size_t>(p - buf) >= kBuf) {
      if (std::fwrite(buf, 1, static_cast<std::size_t>(p - buf), out) != static_cast<std::size_t>(p - buf)) {
        std::fprintf(stderr, "corank-loggen: write failed: %s\n", std::strerror(errno));
        return 2;
      }
      written += static_cast<std::uint64_t>(p - buf);
      p = buf;
    }
  }
  if (std::fwrite(buf, 1, static_cast<std::size_t>(p - buf), out) != static_cast<std::size_t>(p - buf) ||
      std::fflush(out) != 0) {
    std::fprintf(stderr, "corank-loggen: write failed: %s\n", std::strerror(errno));
    return 2;
  }
  if (out != stdout) std::fclose(out);
  return 0;
}
