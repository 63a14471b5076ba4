// DeferTermination: await_termination() returns only once every open section
// has closed, the thread that closed it goes no further, and a section opened
// after it began never starts. Each case runs
// in a child process (a death test): termination, once begun, is for good.
#include <unistd.h>

#include <atomic>
#include <thread>

#include "corank/io/termination.hpp"
#include "io_test_util.hpp"

namespace corank::io::test {
namespace {

TEST(TerminationDeathTest, AwaitWaitsForOpenSectionsAndHoldsOffNewOnes) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::atomic<int> state{0};
        std::thread section([&] {
          {
            const DeferTermination hold;
            state = 1;
            while (state != 2) ::usleep(1000);
            ::usleep(50000);  // still inside when await_termination() starts
            state = 3;
          }
          state = 5;  // never: the thread that closes a section once termination began goes no further
        });
        while (state != 1) ::usleep(1000);
        if (!termination_deferred()) ::_exit(4);
        state = 2;
        await_termination();
        if (state != 3) ::_exit(1);  // returned while the section was open (or its thread went on)
        std::atomic<bool> opened{false};
        std::thread late([&] {
          const DeferTermination hold;
          opened = true;
        });
        ::usleep(50000);
        if (state != 3) ::_exit(3);  // the section's thread went on past its end
        ::_exit(opened ? 2 : 0);  // a section opened after termination began
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace corank::io::test
