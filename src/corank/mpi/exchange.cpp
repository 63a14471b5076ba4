#include "corank/mpi/exchange.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "corank/mpi/agreement.hpp"
#include "corank/mpi/binning.hpp"
#include "corank/progress.hpp"

namespace corank::mpi {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::unique_ptr<ReceivedPieces> receiver(const Job& job, unsigned ranks, unsigned threads) {
  ReceivedPieces::Plan plan;
  plan.senders = ranks;
  plan.header = job.header;
  plan.threads = threads;
  ScratchSpace* scratch = job.scratch.get();
  plan.create_file = [scratch](unsigned s) { return scratch->create("from-" + std::to_string(s)); };
  // Fixed-size records stay in memory while they take at most half of
  // the rank's budget; the sort then has the other half.
  if (!job.text()) {
    for (unsigned s = 0; s < ranks; ++s) plan.most_from.push_back(fixed_share(*job.inputs, s, ranks, job.record_size).bytes());
    plan.memory_limit = job.local.memory_budget / 2;
  }
  return std::make_unique<ReceivedPieces>(std::move(plan));
}

// Where every sender's records of this round fit in memory, counts and
// displacements in records for receiving them straight into their pieces:
// whether they do. recv_counts are bytes.
bool room_in_pieces(ReceivedPieces& received, const std::vector<int>& recv_counts, std::uint32_t record_size,
                    std::vector<int>& counts, std::vector<int>& displs) {
  std::vector<std::uint64_t> n(recv_counts.size());
  for (std::size_t s = 0; s < n.size(); ++s) {
    n[s] = static_cast<std::uint64_t>(recv_counts[s]);
    if (n[s] % record_size != 0) return false;
  }
  if (!received.make_room(n)) return false;
  for (unsigned s = 0; s < n.size(); ++s) {
    const std::uint64_t end = received.end(s);
    if (end % record_size != 0 || end / record_size > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
      return false;
    counts[s] = static_cast<int>(n[s] / record_size);
    displs[s] = static_cast<int>(end / record_size);
  }
  return true;
}

}  // namespace

Exchanged exchange(Communicator& c, Job& job, ExchangeTimes& times) {
  const unsigned n = c.ranks();
  const unsigned threads = std::max(job.local.threads, 1u);
  Exchanged out;
  std::string err;
  Progress progress(job.local.progress);  // rank 0's: its share read and sent
  progress.phase("exchange", job.share.bytes());
  try {
    out.received = receiver(job, n, threads);
    out.keys = ArrivingKeys::make_if_useful(job, *out.received);
    if (!out.keys) out.device_records = ArrivingRecords::make_if_useful(job, *out.received);
  } catch (...) {
    err = what_of(std::current_exception());
  }
  agree(c, err);
  ReceivedPieces& received = *out.received;
  ArrivingKeys* keys = out.keys.get();
  ArrivingRecords* uploads = out.device_records.get();
  // Before the pieces may leave memory (append: only where they no longer
  // fit), the keys made of them, or the device holding them, go.
  const auto append = [&](unsigned s, const char* data, std::uint64_t k) {
    if (keys) keys->abandon();
    if (uploads) uploads->abandon();
    received.append(s, data, k);
  };
  const auto landed = [&] {
    if (keys) keys->landed();
    if (uploads) uploads->landed();
  };

  ShareReader reader(*job.inputs, job.share.begin, job.share.end, job.record_size, job.term, job.chunk_bytes,
                     job.reading(true), threads);
  Binning binning(n, threads, job.record_size, job.term);
  std::optional<PartFinder> finder;  // fixed-size records: the splitters' keys normalized once
  if (job.record_size) finder.emplace(dynamic_cast<const BinaryOrder&>(*job.order), *job.partitioner);
  std::vector<ShareRecord> records;
  // Of part d of the chunk binned last, sent[d] bytes are gone.
  std::vector<std::uint64_t> sent(n, 0);
  std::vector<int> send_counts(n), recv_counts(n), send_displs(n), recv_displs(n), unit_counts(n), unit_displs(n);
  std::vector<char> recv_buf;
  const unsigned self = static_cast<unsigned>(c.rank());
  bool input_left = true;
  for (;;) {
    bool pending = false;
    if (err.empty()) {
      try {
        bool drained = true;
        for (unsigned d = 0; d < n; ++d) drained = drained && sent[d] == binning.size(d);
        if (drained && input_left) {
          std::fill(sent.begin(), sent.end(), 0);
          auto t = Clock::now();
          if (job.record_size) {
            const char* block = nullptr;
            std::uint64_t bytes = 0, at = 0;
            input_left = reader.next_block(block, bytes, at);
            times.read += seconds_since(t), t = Clock::now();
            binning.find_parts(block, bytes, at, *finder);  // none left: no block, 0 bytes
          } else {
            input_left = reader.next(records);
            times.read += seconds_since(t), t = Clock::now();
            binning.find_parts(records, *job.partitioner);
          }
          // What stays on this rank goes straight into its piece where
          // that is in memory: one copy less, and no trip through MPI.
          times.bin += seconds_since(t), t = Clock::now();
          std::byte* kept = binning.size(self) ? received.room(self, binning.size(self)) : nullptr;
          times.keep += seconds_since(t), t = Clock::now();
          binning.group(self, kept);
          if (kept) {
            received.appended(self, binning.size(self));
            sent[self] = binning.size(self);
            landed();
          }
          times.bin += seconds_since(t);
          out.read_bytes += binning.bytes();
          progress.advance(binning.bytes());
        }
      } catch (...) {
        err = what_of(std::current_exception());
      }
    }
    // What stays on this rank and did not go straight into its piece
    // skips MPI all the same: added to its piece all at once.
    if (err.empty() && sent[self] < binning.size(self)) {
      try {
        const auto t = Clock::now();
        const std::uint64_t k = binning.size(self) - sent[self];
        append(self, binning.grouped() + binning.region(self) + sent[self], k);
        sent[self] += k;
        times.keep += seconds_since(t);
      } catch (...) {
        err = what_of(std::current_exception());
      }
    }
    for (unsigned d = 0; d < n; ++d) {
      const std::uint64_t k = err.empty() && d != self ? std::min(binning.size(d) - sent[d], job.round_quota) : 0;
      send_displs[d] = static_cast<int>(binning.region(d) + sent[d]);
      send_counts[d] = static_cast<int>(k);
      sent[d] += k;
      pending = pending || sent[d] < binning.size(d);
    }
    auto t_mpi = Clock::now();
    c.all_to_all(send_counts.data(), recv_counts.data());
    times.mpi += seconds_since(t_mpi);
    // Fixed-size records that all fit in memory arrive straight in their
    // pieces; otherwise in recv_buf first, then appended to the pieces.
    bool direct = false;
    if (err.empty() && job.record_size) {
      try {
        const auto t = Clock::now();
        direct = room_in_pieces(received, recv_counts, job.record_size, unit_counts, unit_displs);
        times.keep += seconds_since(t);
      } catch (...) {
        err = what_of(std::current_exception());  // this round's records are received, then dropped
      }
    }
    t_mpi = Clock::now();
    if (direct) {
      c.all_to_all_bytes(binning.grouped(), send_counts.data(), send_displs.data(),
                         reinterpret_cast<char*>(received.base()), unit_counts.data(), unit_displs.data(),
                         job.record_size);
      for (unsigned s = 0; s < n; ++s) received.appended(s, static_cast<std::uint64_t>(recv_counts[s]));
      if (err.empty()) {
        try {
          landed();
        } catch (...) {
          err = what_of(std::current_exception());
        }
      }
    } else {
      std::size_t total = 0;
      for (unsigned s = 0; s < n; ++s)
        recv_displs[s] = static_cast<int>(total), total += static_cast<std::size_t>(recv_counts[s]);
      recv_buf.resize(total);
      c.all_to_all_bytes(binning.grouped(), send_counts.data(), send_displs.data(), recv_buf.data(),
                         recv_counts.data(), recv_displs.data(), 1);
    }
    times.mpi += seconds_since(t_mpi);
    if (err.empty() && !direct) {
      try {
        const auto t = Clock::now();
        for (unsigned s = 0; s < n; ++s)
          if (recv_counts[s] != 0)
            append(s, recv_buf.data() + recv_displs[s], static_cast<std::uint64_t>(recv_counts[s]));
        times.keep += seconds_since(t);
      } catch (...) {
        err = what_of(std::current_exception());
      }
    }
    // [more to send anywhere, lowest failing rank as size - rank]
    int state[2] = {err.empty() && (pending || input_left) ? 1 : 0, err.empty() ? 0 : c.size() - c.rank()};
    c.max(state, 2);
    if (state[1] != 0 || state[0] == 0) break;
  }
  binning.release();
  recv_buf = std::vector<char>();
  if (keys) {
    if (err.empty()) keys->finish();
    else keys->abandon();
    times.keys = keys->seconds();
  }
  if (uploads) {
    if (err.empty()) uploads->finish();
    else uploads->abandon();
    times.uploads = uploads->seconds();
  }
  progress.finish();
  agree(c, err);
  return out;
}

PieceInput Exchanged::piece() {
  if (keys && !keys->abandoned() && received->in_memory()) return keys->piece();
  if (device_records && !device_records->abandoned() && received->in_memory()) return device_records->piece();
  return piece_input(*received);
}

}  // namespace corank::mpi
