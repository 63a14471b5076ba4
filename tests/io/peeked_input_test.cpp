// An input that cannot be read twice, its first bytes read ahead
// (peeked_input.hpp): its source yields them and then the rest, once (and
// nothing more where the peek reached its end); a named pipe stays open
// between the peek and the read; one pipe under two names is peeked once; a
// regular file is read where it lies and its source starts at its start.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "corank/io/peeked_input.hpp"
#include "corank/io/source.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

std::string read_all(ByteSource& src) {
  std::string out, buf(7, '\0');  // reads that straddle the head's end
  for (std::size_t n; (n = src.read(buf.data(), buf.size())) > 0;) out.append(buf, 0, n);
  return out;
}

// A writer of `data` into the named pipe `fifo`, which it opens (once a
// reader has) and closes when done.
std::thread fifo_writer(const std::string& fifo, std::string data) {
  return std::thread([fifo, data = std::move(data)] {
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    if (fd < 0) return;
    (void)!::write(fd, data.data(), data.size());
    ::close(fd);
  });
}

TEST(PeekedInput, APipesFirstBytesAreGivenBackOnce) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string data = pattern(100000, 7);
  std::thread writer([&] {
    for (std::size_t at = 0; at < data.size();) {
      const ssize_t n = ::write(fds[1], data.data() + at, data.size() - at);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
  });
  const std::string path = "/proc/self/fd/" + std::to_string(fds[0]);
  EXPECT_EQ(peek_input(path, 1000), data.substr(0, 1000));
  EXPECT_EQ(peek_input(path, 5000), data.substr(0, 1000));  // what the first peek read
  auto src = open_source(path, IoOptions{}, std::nullopt, MagicBytes::ignore);
  EXPECT_TRUE(read_all(*src) == data);
  writer.join();
  EXPECT_FALSE(take_peeked_input(path).has_value());  // taken by the source
  ::close(fds[0]);
}

TEST(PeekedInput, ANamedPipeStaysOpenFromThePeekToTheRead) {
  ScratchDir dir;
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer = fifo_writer(fifo, "line one\nline two\n");
  EXPECT_EQ(peek_input(fifo, 4), "line");
  writer.join();  // the writer is gone: a pipe opened again now would be empty
  auto src = open_source(fifo, IoOptions{}, std::nullopt, MagicBytes::ignore);
  EXPECT_EQ(read_all(*src), "line one\nline two\n");
}

// Where the peek reached the input's end (a terminal's end-of-file, typed
// once), the source reads nothing more: a later writer's bytes stay unread.
TEST(PeekedInput, AnInputWhoseEndThePeekReachedIsNotReadAgain) {
  ScratchDir dir;
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer = fifo_writer(fifo, "abc");
  EXPECT_EQ(peek_input(fifo, 100), "abc");
  writer.join();
  const int late = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);  // the peek's descriptor still reads it
  ASSERT_GE(late, 0);
  ASSERT_EQ(::write(late, "XYZ", 3), 3);
  ::close(late);
  auto src = open_source(fifo, IoOptions{}, std::nullopt, MagicBytes::ignore);
  EXPECT_EQ(read_all(*src), "abc");
}

// One pipe under two names is one input, peeked once: the second name finds
// the first one's bytes, and the pipe's next bytes are left to its reader.
TEST(PeekedInput, OnePipeUnderTwoNamesIsPeekedOnce) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const int other = ::dup(fds[0]);
  ASSERT_EQ(::write(fds[1], "0123456789", 10), 10);
  ::close(fds[1]);
  const std::string a = "/proc/self/fd/" + std::to_string(fds[0]), b = "/proc/self/fd/" + std::to_string(other);
  EXPECT_EQ(peek_input(a, 4), "0123");
  EXPECT_EQ(peek_input(b, 4), "0123");
  auto src = open_source(b, IoOptions{}, std::nullopt, MagicBytes::ignore);
  EXPECT_EQ(read_all(*src), "0123456789");
  EXPECT_FALSE(take_peeked_input(a).has_value());
  ::close(fds[0]);
  ::close(other);
}

TEST(PeekedInput, ARegularFileIsReadWhereItLies) {
  ScratchDir dir;
  const std::string file = dir.file("f");
  spit(file, "0123456789");
  EXPECT_EQ(peek_input(file, 4), "0123");
  EXPECT_FALSE(take_peeked_input(file).has_value());
  auto src = open_source(file, IoOptions{});
  EXPECT_EQ(src->size(), 10u);
  EXPECT_EQ(read_all(*src), "0123456789");
  spit(file, "abcdef");  // read again, as it is now
  EXPECT_EQ(peek_input(file, 4), "abcd");
}

TEST(PeekedInput, ThePipesSourceIsReadAfterItsHeadEvenWhenEmpty) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[1]);
  const std::string path = "/proc/self/fd/" + std::to_string(fds[0]);
  EXPECT_EQ(peek_input(path, 100), "");
  auto src = open_source(path, IoOptions{}, std::nullopt, MagicBytes::ignore);
  EXPECT_EQ(read_all(*src), "");
  ::close(fds[0]);
}

}  // namespace
}  // namespace corank::io::test
