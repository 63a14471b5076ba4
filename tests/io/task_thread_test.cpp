// io::TaskThread, and the rule it exists for: an io_uring request is reaped
// before the thread that submitted it exits (io_engine.hpp). The kernel
// finishes a buffered read that waited for the disk in the submitter's
// context and fails it with EFAULT once that thread is gone; UringEngine
// refuses to reap such a request, so a reader driven by a new thread per call
// fails here, deterministically, instead of now and then under cache pressure.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "corank/io/file_desc.hpp"
#include "corank/io/read_ahead_source.hpp"
#include "corank/io/task_thread.hpp"
#include "corank/io/uring_engine.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

TEST(TaskThread, RunsTasksInOrderOnOneThreadOfItsOwn) {
  TaskThread t;
  std::vector<std::thread::id> ids;
  std::vector<int> order;
  std::vector<std::future<int>> results;
  for (int i = 0; i < 20; ++i)
    results.push_back(t.run([&, i] {
      ids.push_back(std::this_thread::get_id());
      order.push_back(i);
      return i * i;
    }));
  for (int i = 0; i < 20; ++i) EXPECT_EQ(results[static_cast<std::size_t>(i)].get(), i * i);
  ASSERT_EQ(order.size(), 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
  for (const auto& id : ids) EXPECT_EQ(id, ids.front());
  EXPECT_NE(ids.front(), std::this_thread::get_id());
}

TEST(TaskThread, ExceptionsReachTheFutureAndTheThreadGoesOn) {
  TaskThread t;
  auto bad = t.run([]() -> int { throw std::runtime_error("disk on fire"); });
  auto good = t.run([] { return 7; });
  EXPECT_THROW(bad.get(), std::runtime_error);
  EXPECT_EQ(good.get(), 7);
}

TEST(TaskThread, DrainWaitsForEveryTaskHandedOver) {
  TaskThread t;
  std::atomic<int> done{0};
  for (int i = 0; i < 5; ++i)
    (void)t.run([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      ++done;
    });
  {
    const TaskThread::Drain drain(t);
  }
  EXPECT_EQ(done.load(), 5);
}

// A read of the whole of `buf` from the start of `fd`.
IoRequest read_into(const FileDesc& fd, std::vector<std::byte>& buf) {
  IoRequest r;
  r.op = IoOp::read;
  r.fd = fd.get();
  r.buf = buf.data();
  r.len = buf.size();
  r.tag = 1;
  return r;
}

class UringSubmitter : public ::testing::Test {
protected:
  void SetUp() override { CORANK_REQUIRE_ENGINE(Engine::uring); }
  ScratchDir dir_;
};

TEST_F(UringSubmitter, RequestReapedAfterItsSubmitterExitedIsRefused) {
  const std::string path = dir_.file("in");
  spit(path, pattern(1 << 20));
  FileDesc fd = FileDesc::open(path, O_RDONLY);
  std::vector<std::byte> buf(1 << 20);
  UringEngine engine(4);
  std::thread([&] { engine.submit(read_into(fd, buf)); }).join();
  IoCompletion c[1];
  EXPECT_THROW(engine.reap(c, 1), std::logic_error);
  // The engine's destructor still waits for the request.
}

TEST_F(UringSubmitter, RequestReapedWhileItsSubmitterRunsIsFine) {
  const std::string path = dir_.file("in");
  const std::string data = pattern(1 << 20);
  spit(path, data);
  FileDesc fd = FileDesc::open(path, O_RDONLY);
  std::vector<std::byte> buf(1 << 20);
  UringEngine engine(4);
  TaskThread submitter;
  submitter.run([&] { engine.submit(read_into(fd, buf)); }).get();
  IoCompletion c[1];
  ASSERT_EQ(engine.reap(c, 1), 1u);
  EXPECT_EQ(c[0].result, static_cast<std::int64_t>(buf.size()));
  EXPECT_EQ(std::memcmp(buf.data(), data.data(), buf.size()), 0);
}

// A read-ahead source read chunk by chunk, its cache dropped first so that
// its reads wait for the disk: from one TaskThread every byte arrives; from
// a new thread per chunk (what the sorters once did) the second thread reaps
// read-ahead that the exited first thread submitted.
TEST_F(UringSubmitter, ReadAheadSourceReadFromOneTaskThreadNotFromAThreadPerChunk) {
  const std::string path = dir_.file("in");
  const std::string data = pattern(8 << 20, 3);
  spit(path, data);
  auto open = [&] {
    FileDesc fd = FileDesc::open(path, O_RDONLY);
    ::fdatasync(fd.get());
    ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_DONTNEED);
    const int raw = fd.get();
    return std::make_unique<ReadAheadSource>(raw, std::move(fd), path, options_for(Engine::uring, 256 << 10, 8));
  };
  constexpr std::size_t kChunk = 1 << 20;
  {
    auto src = open();
    TaskThread reader;
    std::string got(data.size(), '\0');
    for (std::size_t at = 0; at < data.size(); at += kChunk)
      EXPECT_EQ(reader.run([&, at] { return src->read(got.data() + at, kChunk); }).get(), kChunk);
    EXPECT_TRUE(got == data);
  }
  {
    auto src = open();
    std::string got(data.size(), '\0');
    std::thread([&] { src->read(got.data(), kChunk); }).join();
    bool refused = false;
    std::thread([&] {
      try {
        // The rest: at least the block the first thread issued last, after
        // its last reap, comes back here.
        src->read(got.data() + kChunk, data.size() - kChunk);
      } catch (const std::logic_error&) {
        refused = true;
      }
    }).join();
    EXPECT_TRUE(refused);
  }
}

}  // namespace
}  // namespace corank::io::test
