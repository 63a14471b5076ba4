#include "corank/io/file_desc.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>

#include "corank/io/error.hpp"

TEST(FileDesc, OpenMissingFileNamesPathAndReason) {
  try {
    corank::io::FileDesc::open("/nonexistent/corank-test", O_RDONLY);
    FAIL() << "open of a missing file succeeded";
  } catch (const corank::io::IoError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/corank-test"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos);
  }
}
