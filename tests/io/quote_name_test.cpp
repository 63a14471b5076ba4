#include "corank/io/quote_name.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>

namespace {

// LC_ALL set for the test's span, and put back as it was.
class LcAll {
public:
  explicit LcAll(const char* value) {
    if (const char* v = std::getenv("LC_ALL")) before_ = v;
    ::setenv("LC_ALL", value, 1);
  }
  ~LcAll() {
    if (before_) ::setenv("LC_ALL", before_->c_str(), 1);
    else ::unsetenv("LC_ALL");
  }

private:
  std::optional<std::string> before_;
};

// A message quotes the name beside the errno of the failure: reading a byte
// that is not UTF-8 sets errno (EILSEQ) inside, which must not reach the caller.
TEST(QuoteName, LeavesErrnoAsItFoundIt) {
  const LcAll utf8("C.UTF-8");
  for (const std::string name : {"a\xff" "b", "plain", "a b", "\xc3\xa9", "", "it's"}) {
    SCOPED_TRACE(name);
    errno = ENOENT;
    (void)corank::io::quote_name(name);
    EXPECT_EQ(errno, ENOENT);
  }
  EXPECT_EQ(corank::io::quote_name("a\xff" "b"), "'a'$'\\377''b'");
}

}  // namespace
