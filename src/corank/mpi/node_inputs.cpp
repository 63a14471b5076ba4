#include "corank/mpi/node_inputs.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>

#include "corank/mpi/agreement.hpp"
#include "corank/mpi/part_finder.hpp"
#include "corank/parallel.hpp"
#include "corank/thread_counters.hpp"

namespace corank::mpi {

namespace {

// The records of one part: their marks where the ranks share them, else a
// test of each record against the splitters.
class PartSelection final : public RecordSelection {
public:
  PartSelection(const BinaryOrder& order, const Partitioner& partitioner, const std::uint8_t* marks, unsigned part,
                std::uint32_t record_size, std::uint64_t records)
      : marks_(marks), part_(part), R_(record_size), records_(records) {
    if (!marks_) finder_.emplace(order, partitioner);
  }

  std::uint64_t records() const override { return records_; }
  std::uint64_t mark(const std::byte* records, std::uint64_t n, std::uint64_t first,
                     std::uint8_t* keep) const override {
    std::uint64_t kept = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const bool k = marks_ ? marks_[first + i] == part_ : finder_->part_of(records + i * R_, (first + i) * R_) == part_;
      keep[i] = k;
      kept += k;
    }
    return kept;
  }

private:
  std::optional<PartFinder> finder_;  // where there are no marks
  const std::uint8_t* marks_;
  unsigned part_;
  std::uint32_t R_;
  std::uint64_t records_;
};

}  // namespace

NodeInputs::~NodeInputs() = default;

std::unique_ptr<NodeInputs> NodeInputs::map_if_shared(Communicator& c, const Job& job) {
  std::unique_ptr<NodeInputs> mapped;
  std::string files;  // (device, inode) of every file mapped: the same files on every rank?
  // Local work first, then one agreement: any rank that cannot, and none does.
  phase(c, [&] {
    if (job.text() || job.request.exchange == DistributedRequest::Exchange::Always || job.node.node_ranks != c.ranks() ||
        !dynamic_cast<const BinaryOrder*>(job.order.get()))
      return;
    auto in = std::unique_ptr<NodeInputs>(new NodeInputs());
    in->record_size_ = job.record_size;
    in->share_bytes_ = job.share.end - job.share.begin;
    for (std::size_t i = 0; i < job.inputs->files(); ++i) {
      if (job.inputs->file_size(i) == 0) continue;  // nothing to map, nothing to sort
      auto map = io::MappedInput::map_if_resident(job.inputs->name(i), job.local.io, job.inputs->file_size(i));
      struct stat st {};
      if (!map || ::stat(job.inputs->name(i).c_str(), &st) != 0) return;
      put_u64(files, static_cast<std::uint64_t>(st.st_dev));
      put_u64(files, static_cast<std::uint64_t>(st.st_ino));
      in->maps_.push_back(std::move(map));
      in->begins_.push_back(job.inputs->begin[i]);
    }
    mapped = std::move(in);
  });
  int missing[1] = {mapped ? 0 : 1};
  c.max(missing, 1);
  if (missing[0]) return nullptr;
  // A name may stand for other files on other ranks (a relative path from
  // another directory): each rank's marks would then name records of files
  // the others never read. Only ranks that all mapped the same files share.
  std::vector<int> sizes;
  const std::string all = gather_all(c, files, &sizes);
  for (std::size_t r = 0, at = 0; r < sizes.size(); at += static_cast<std::size_t>(sizes[r++]))
    if (all.compare(at, static_cast<std::size_t>(sizes[r]), files) != 0) return nullptr;
  // A mark holds a part: 255 ranks at most.
  if (c.ranks() <= 255) mapped->marks_ = NodeMarks::share(c, job.inputs->total() / job.record_size);
  return mapped;
}

void NodeInputs::count_parts(Communicator& c, const Job& job) {
  const auto& order = dynamic_cast<const BinaryOrder&>(*job.order);
  const unsigned parts = c.ranks();
  std::vector<std::uint64_t> counts(parts, 0);
  phase(c, [&] {
    const PartFinder finder(order, *job.partitioner);
    const std::uint64_t R = record_size_;
    const std::uint64_t n = (job.share.end - job.share.begin) / R;
    const unsigned slices = static_cast<unsigned>(std::clamp<std::uint64_t>(n / 65536, 1, std::max(job.local.threads, 1u)));
    std::vector<ThreadCounters> of_slice(slices, ThreadCounters(parts));
    parallel_for(slices, [&](unsigned t) {
      // Records [b, e) of the share, map by map.
      std::uint64_t at = job.share.begin + n * t / slices * R;
      const std::uint64_t end = job.share.begin + n * (t + 1) / slices * R;
      for (std::size_t m = 0; m < maps_.size() && at < end; ++m) {
        const std::uint64_t mb = begins_[m], me = mb + maps_[m]->size();
        if (at >= me) continue;
        const std::uint64_t stop = std::min(end, me);
        for (; at < stop; at += R) {
          const unsigned part = finder.part_of(maps_[m]->data() + (at - mb), at);
          ++of_slice[t][part];
          if (marks_) marks_->data()[at / R] = static_cast<std::uint8_t>(part);
        }
      }
    });
    for (const ThreadCounters& s : of_slice)
      for (unsigned d = 0; d < parts; ++d) counts[d] += s[d];
  });
  // The collectives below order every rank's marks before any rank reads them.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  std::uint64_t mine = 0;
  for (unsigned d = 0; d < parts; ++d) {
    const std::vector<std::uint64_t> of_rank = c.gather(counts[d]);
    if (d == static_cast<unsigned>(c.rank()))
      for (std::uint64_t k : of_rank) mine += k;
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
  part_ = std::make_unique<PartSelection>(order, *job.partitioner, marks_ ? marks_->data() : nullptr,
                                          static_cast<unsigned>(c.rank()), record_size_, mine);
}

PieceInput NodeInputs::piece() {
  PieceInput in;
  for (const auto& m : maps_) in.buffers.emplace_back(m->data(), m->size());
  in.selection = part_.get();
  in.bytes = part_->records() * record_size_;
  in.release = [this] { maps_.clear(); };
  return in;
}

}  // namespace corank::mpi
