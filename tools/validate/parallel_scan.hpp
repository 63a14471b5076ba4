#pragma once
// Reads a file block by block on the calling thread while up to `threads`
// blocks are worked on at once; results are folded in file order, so a fold
// that needs order (the seam between blocks) stays simple. Memory stays at
// threads + 1 blocks of a few MiB.
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "record_stream.hpp"

namespace corank::tools {

// work(const std::uint8_t* records, std::uint64_t count) -> Result runs on worker
// threads; fold(Result&&) runs on the calling thread, in block order.
template <class Work, class Fold>
void scan_parallel(const std::string& path, std::uint32_t record_size, unsigned threads, const Work& work,
                   const Fold& fold) {
  using Result = std::invoke_result_t<const Work&, const std::uint8_t*, std::uint64_t>;
  using Buffer = std::unique_ptr<std::uint8_t[]>;
  struct InFlight {
    Buffer buffer;                 // declared first: destroyed after the future has joined
    std::future<Result> result;
  };

  RecordReader reader(path, record_size);
  const std::uint64_t per_block = records_per_block(record_size);
  std::vector<Buffer> spare;
  std::deque<InFlight> in_flight;
  auto retire_oldest = [&] {
    InFlight& oldest = in_flight.front();
    fold(oldest.result.get());
    spare.push_back(std::move(oldest.buffer));
    in_flight.pop_front();
  };
  for (;;) {
    Buffer buf;
    if (spare.empty()) {
      buf = std::make_unique_for_overwrite<std::uint8_t[]>(per_block * record_size);
    } else {
      buf = std::move(spare.back());
      spare.pop_back();
    }
    const std::uint64_t n = reader.read(buf.get(), per_block);
    if (n == 0) break;
    const std::uint8_t* records = buf.get();
    auto fut = std::async(std::launch::async, [&work, records, n] { return work(records, n); });
    in_flight.push_back(InFlight{std::move(buf), std::move(fut)});
    // At most `threads` blocks are worked on; the next read overlaps the other threads - 1.
    if (in_flight.size() >= threads) retire_oldest();
  }
  while (!in_flight.empty()) retire_oldest();
}

}  // namespace corank::tools
