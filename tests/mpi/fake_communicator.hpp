#pragma once
// Ranks as threads of the test process, for the distributed sort's stages
// without mpirun: every collective is one round in which each rank leaves its
// bytes in a slot and reads everyone's. A rank that ends with an exception
// breaks the round for the others, which then throw too instead of waiting
// forever.
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "corank/mpi/communicator.hpp"

namespace corank::mpi::testing {

class FakeWorld {
public:
  explicit FakeWorld(int size) : size_(size), slots_(static_cast<std::size_t>(size)) {}

  // Runs f(rank's communicator) on one thread per rank; rethrows the first
  // exception a rank ended with.
  void run(const std::function<void(Communicator&)>& f);

  // Every rank's bytes, in rank order.
  std::vector<std::string> round(int rank, std::string mine);
  int size() const { return size_; }

private:
  void wait_all();  // a barrier that a broken world releases with an exception

  int size_;
  std::vector<std::string> slots_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int arrived_ = 0;
  unsigned long generation_ = 0;
  bool broken_ = false;
};

class FakeCommunicator final : public Communicator {
public:
  FakeCommunicator(FakeWorld& world, int rank) : world_(world), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return world_.size(); }
  // One node: every rank of the world.
  std::vector<std::string> gather_on_node(const std::string& mine) override { return world_.round(rank_, mine); }

  void max(int* values, int n) override {
    const auto all = world_.round(rank_, bytes_of(values, static_cast<std::size_t>(n) * sizeof(int)));
    for (const auto& a : all)
      for (int i = 0; i < n; ++i) values[i] = std::max(values[i], value_at<int>(a, static_cast<std::size_t>(i)));
  }
  std::uint64_t sum(std::uint64_t value) override {
    std::uint64_t total = 0;
    for (const auto& a : world_.round(rank_, bytes_of(&value, sizeof value))) total += value_at<std::uint64_t>(a, 0);
    return total;
  }
  std::uint64_t sum_before(std::uint64_t value) override {
    const auto all = world_.round(rank_, bytes_of(&value, sizeof value));
    std::uint64_t before = 0;
    for (int r = 0; r < rank_; ++r) before += value_at<std::uint64_t>(all[static_cast<std::size_t>(r)], 0);
    return before;
  }
  void broadcast(std::string& bytes, int root) override {
    bytes = world_.round(rank_, bytes)[static_cast<std::size_t>(root)];
  }
  std::vector<std::uint64_t> gather(std::uint64_t value) override {
    std::vector<std::uint64_t> out;
    for (const auto& a : world_.round(rank_, bytes_of(&value, sizeof value))) out.push_back(value_at<std::uint64_t>(a, 0));
    return out;
  }
  void gather_bytes(const char* mine, int n, char* all, const int* counts, const int* displs) override {
    const auto got = world_.round(rank_, std::string(mine, static_cast<std::size_t>(n)));
    for (std::size_t r = 0; r < got.size(); ++r) {
      if (got[r].size() != static_cast<std::size_t>(counts[r])) throw std::logic_error("gather_bytes: counts differ");
      if (!got[r].empty()) std::memcpy(all + displs[r], got[r].data(), got[r].size());
    }
  }
  void all_to_all(const int* send, int* recv) override {
    const auto all = world_.round(rank_, bytes_of(send, static_cast<std::size_t>(size()) * sizeof(int)));
    for (std::size_t s = 0; s < all.size(); ++s) recv[s] = value_at<int>(all[s], static_cast<std::size_t>(rank_));
  }
  void all_to_all_bytes(const char* send, const int* send_counts, const int* send_displs, char* recv,
                        const int* recv_counts, const int* recv_displs, std::uint32_t recv_unit) override {
    // Each rank's message: its counts to every rank, then the bytes for each in turn.
    std::string mine = bytes_of(send_counts, static_cast<std::size_t>(size()) * sizeof(int));
    for (int d = 0; d < size(); ++d) mine.append(send + send_displs[d], static_cast<std::size_t>(send_counts[d]));
    const auto all = world_.round(rank_, std::move(mine));
    for (std::size_t s = 0; s < all.size(); ++s) {
      std::size_t at = static_cast<std::size_t>(size()) * sizeof(int);
      for (int d = 0; d < rank_; ++d) at += static_cast<std::size_t>(value_at<int>(all[s], static_cast<std::size_t>(d)));
      const int n = value_at<int>(all[s], static_cast<std::size_t>(rank_));
      if (static_cast<std::uint64_t>(n) != std::uint64_t{recv_unit} * static_cast<std::uint64_t>(recv_counts[s]))
        throw std::logic_error("all_to_all_bytes: counts differ");
      if (n > 0)  // recv may be null where nothing is received (memcpy's pointers may not be)
        std::memcpy(recv + std::uint64_t{recv_unit} * static_cast<std::uint64_t>(recv_displs[s]), all[s].data() + at,
                    static_cast<std::size_t>(n));
    }
  }

private:
  static std::string bytes_of(const void* p, std::size_t n) { return std::string(static_cast<const char*>(p), n); }
  template <class T>
  static T value_at(const std::string& bytes, std::size_t i) {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    return v;
  }

  FakeWorld& world_;
  int rank_;
};

inline void FakeWorld::run(const std::function<void(Communicator&)>& f) {
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(size_));
  std::vector<std::thread> threads;
  for (int r = 0; r < size_; ++r)
    threads.emplace_back([&, r] {
      FakeCommunicator c(*this, r);
      try {
        f(c);
      } catch (...) {
        errors[static_cast<std::size_t>(r)] = std::current_exception();
        std::lock_guard lock(mutex_);
        broken_ = true;
        cv_.notify_all();
      }
    });
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

inline void FakeWorld::wait_all() {
  std::unique_lock lock(mutex_);
  if (broken_) throw std::runtime_error("a rank of the fake world ended with an exception");
  const unsigned long gen = generation_;
  if (++arrived_ == size_) {
    arrived_ = 0;
    ++generation_;
    cv_.notify_all();
    return;
  }
  cv_.wait(lock, [&] { return generation_ != gen || broken_; });
  if (generation_ == gen) throw std::runtime_error("a rank of the fake world ended with an exception");
}

inline std::vector<std::string> FakeWorld::round(int rank, std::string mine) {
  slots_[static_cast<std::size_t>(rank)] = std::move(mine);
  wait_all();
  std::vector<std::string> all = slots_;
  wait_all();  // nobody writes a slot before everyone has read them all
  return all;
}

}  // namespace corank::mpi::testing
