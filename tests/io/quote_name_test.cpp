#include "corank/io/quote_name.hpp"

#include <gtest/gtest.h>

#include "corank/io/error.hpp"
#include "corank/io/temp_files.hpp"

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

// The messages' names (GNU sort's own are compared in tests/cli's
// Options.FileNamesInMessagesAreQuotedAsGnusAre): quoted where a shell needs
// it, always after "in" and for a compress program's command, and corank's
// label for an unnamed temporary file as it is.
TEST(QuoteName, IoErrorsNameTheirFilesQuoted) {
  const LcAll c("C");
  using corank::io::IoError;
  EXPECT_EQ(corank::io::quote_name_always("/tmp"), "'/tmp'");
  EXPECT_EQ(corank::io::quote_name_always("a b"), "'a b'");
  EXPECT_EQ(corank::io::quote_name_always("it's"), "\"it's\"");
  EXPECT_EQ(corank::io::quote_name_always(""), "''");
  EXPECT_STREQ(IoError("read failed", "in.txt", EISDIR).what(), "read failed: in.txt: Is a directory");
  EXPECT_STREQ(IoError("read failed", "a b", EISDIR).what(), "read failed: 'a b': Is a directory");
  EXPECT_STREQ(IoError("write failed", "standard output", ENOSPC).what(),
               "write failed: 'standard output': No space left on device");
  EXPECT_STREQ(IoError("open failed", "", ENOENT).what(), "open failed: '': No such file or directory");
  EXPECT_STREQ(IoError("cannot create temporary file in", "/tmp", ENOSPC).what(),
               "cannot create temporary file in '/tmp': No space left on device");
  EXPECT_STREQ(IoError("compress program", "lz4 -d", "terminated abnormally").what(),
               "compress program: 'lz4 -d': terminated abnormally");
  EXPECT_STREQ(IoError("couldn't execute compress program", "lz4", ENOENT).what(),
               "couldn't execute compress program: 'lz4': No such file or directory");
  const std::string label = std::string(corank::io::kTemporaryFile) + " in '/a b'";
  EXPECT_EQ(IoError("write failed", label, ENOSPC).what(), "write failed: " + label + ": No space left on device");
  EXPECT_STREQ(IoError("read failed", corank::io::kTemporaryFile, "run ended early").what(),
               "read failed: temporary file: run ended early");
  // A file of the user's whose name begins as the label does is quoted.
  EXPECT_STREQ(IoError("read failed", "temporary file.txt", EISDIR).what(),
               "read failed: 'temporary file.txt': Is a directory");
}

}  // namespace
