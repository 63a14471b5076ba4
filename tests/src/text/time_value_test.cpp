#include "corank/text/time_value.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

namespace corank::text {
namespace {

constexpr std::int64_t k20261010T135536Z = 1791640536;  // 2026-10-10T13:55:36Z

Instant at(std::int64_t s, std::uint32_t ns = 0) { return Instant{s, ns}; }

std::optional<Instant> t(std::string_view s) { return parse_time(s, 2026); }

TEST(TimeValue, Iso8601AndRfc3339) {
  EXPECT_EQ(t("2026-10-10T13:55:36Z"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10t13:55:36z"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10 13:55:36"), at(k20261010T135536Z));  // no offset: UTC
  EXPECT_EQ(t("2026-10-10T15:55:36+02:00"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10T15:55:36+0200"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10T15:55:36+02"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10T08:25:36-05:30"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10T13:55:36.123456+00:00"), at(k20261010T135536Z, 123'456'000));
  EXPECT_EQ(t("2026-10-10T13:55:36,5Z"), at(k20261010T135536Z, 500'000'000));
  EXPECT_EQ(t("2026-10-10T13:55:36.1234567891Z"), at(k20261010T135536Z, 123'456'789));  // nine digits kept
  EXPECT_EQ(t("2026-10-10T13:55Z"), at(k20261010T135536Z - 36));
  EXPECT_EQ(t("2026-10-10"), at(k20261010T135536Z - (13 * 3600 + 55 * 60 + 36)));
  EXPECT_EQ(t("2024-02-29"), at(1709164800));
  EXPECT_EQ(t("0001-01-01"), at(-62135596800));
  EXPECT_EQ(t("1969-12-31T23:59:59Z"), at(-1));
}

TEST(TimeValue, CommonLogFormatAndSyslog) {
  EXPECT_EQ(t("[10/Oct/2026:13:55:36 +0000]"), at(k20261010T135536Z));
  EXPECT_EQ(t("10/oct/2026:15:55:36 +0200"), at(k20261010T135536Z));
  EXPECT_EQ(t("[10/Oct/2026:13:55:36"), at(k20261010T135536Z));  // -k4,4: the offset left out, UTC
  EXPECT_EQ(t("  [10/Oct/2026:13:55:36 -0100]"), at(k20261010T135536Z + 3600));
  EXPECT_EQ(t("Oct 10 13:55:36"), at(k20261010T135536Z));
  EXPECT_EQ(parse_time("Oct 10 13:55:36", 2025), at(k20261010T135536Z - 365 * 86400));
  EXPECT_EQ(t("Oct  1 13:55:36 host sshd[1]: x"), at(k20261010T135536Z - 9 * 86400));
}

TEST(TimeValue, EpochNumbersByMagnitude) {
  EXPECT_EQ(t("1791640536"), at(k20261010T135536Z));
  EXPECT_EQ(t("1791640536.25"), at(k20261010T135536Z, 250'000'000));
  EXPECT_EQ(t("1791640536250"), at(k20261010T135536Z, 250'000'000));          // milliseconds
  EXPECT_EQ(t("1791640536250.5"), at(k20261010T135536Z, 250'500'000));
  EXPECT_EQ(t("1791640536250001"), at(k20261010T135536Z, 250'001'000));       // microseconds
  EXPECT_EQ(t("1791640536250001002"), at(k20261010T135536Z, 250'001'002));    // nanoseconds
  EXPECT_EQ(t("99999999999"), at(99999999999));                              // the largest in seconds
  EXPECT_EQ(t("100000000000"), at(100000000));                              // the smallest in milliseconds
  EXPECT_EQ(t("-1.5"), at(-2, 500'000'000));
  EXPECT_EQ(t("0"), at(0));
  EXPECT_EQ(t("99999999999999999999"), std::nullopt);  // past 64 bits
}

TEST(TimeValue, UnparsableValues) {
  for (const char* bad : {"", "  ", "[", "hello", "2026-13-01", "2026-02-30", "2026-10-10T24:00:00",
                          "2026-10-10T13:60", "2026-10-10T13:55:36+24:00", "2026-10-10T13:55:36x",
                          "10/Foo/2026:13:55:36 +0000", "Oct 10", "1e3", "12abc", "2026/10/10", "-",
                          "2026-10-10T13:55:36+0"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(t(bad), std::nullopt);
  }
  // A timestamp may be followed by a blank or ']', and then anything.
  EXPECT_EQ(t("2026-10-10T13:55:36Z GET /index.html"), at(k20261010T135536Z));
  EXPECT_EQ(t("2026-10-10 13:55:36 -5 x"), at(k20261010T135536Z));  // "-5" is no offset
  EXPECT_EQ(compare_time("junk", "0001-01-01", 2026), -1);  // unparsable first
  EXPECT_EQ(compare_time("junk", "", 2026), 0);
  EXPECT_EQ(compare_time("2026-10-10T13:55:36Z", "10/Oct/2026:15:55:36 +0200", 2026), 0);
  EXPECT_EQ(compare_time("2026-10-10T13:55:36.000000001Z", "1791640536", 2026), 1);
}

TEST(TimeValue, Dates) {
  EXPECT_EQ(parse_date("1970-01-02"), 1);
  EXPECT_EQ(parse_date(" 1969-12-31 "), -1);
  EXPECT_EQ(parse_date("2024-02-29"), 19782);
  EXPECT_EQ(parse_date("2023-02-29"), std::nullopt);
  EXPECT_EQ(parse_date("2024-02-29T00:00"), std::nullopt);
  EXPECT_EQ(parse_date("24-02-29"), std::nullopt);
}

// The codes order as the instants do, the unparsable first.
TEST(TimeValue, CodesPreserveOrder) {
  std::mt19937_64 rng(7);
  std::vector<std::optional<Instant>> v{std::nullopt};
  for (int i = 0; i < 2000; ++i) {
    const auto s = static_cast<std::int64_t>(rng() % 20'000'000'000ull) - 10'000'000'000ll;
    v.push_back(at(s, static_cast<std::uint32_t>(rng() % 1'000'000'000)));
    if (i % 10 == 0) v.push_back(at(s));
  }
  auto code = [](const std::optional<Instant>& x) {
    std::vector<unsigned char> c(kTimeCodeBytes);
    encode_time(x, c.data());
    return c;
  };
  for (std::size_t i = 0; i + 1 < v.size(); ++i) {
    const auto &a = v[i], &b = v[i + 1];
    const int by_value = !a || !b ? a.has_value() - b.has_value() : (*a < *b ? -1 : *a == *b ? 0 : 1);
    const auto ca = code(a), cb = code(b);
    const int by_code = std::memcmp(ca.data(), cb.data(), kTimeCodeBytes);
    EXPECT_EQ((by_value > 0) - (by_value < 0), (by_code > 0) - (by_code < 0));
  }
}

}  // namespace
}  // namespace corank::text
