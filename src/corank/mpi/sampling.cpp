#include "corank/mpi/sampling.hpp"

#include "corank/errors.hpp"
#include "corank/mpi/agreement.hpp"

namespace corank::mpi {

namespace {

// The format's refusal of a record: no splitter. Lines and JSON lines are
// sampled here and there, so the first bad record of the share may lie
// between samples: the exchange, which checks every record in order,
// reports it as the single process would.
bool refused(const Job& job, std::string_view record) {
  if (!job.text_format || !job.text_format->checks_records()) return false;
  try {
    job.text_format->check_record(record, "", 0);
    return false;
  } catch (const InputError&) {
    return true;
  }
}

// Lines (and pgtext rows): the line that holds each of the regular byte offsets, each line
// read and taken once, weighing as many offsets as it holds, so that a
// line weighs as much as its length and a long line costs one copy.
std::string line_samples(const Job& job) {
  std::string mine;
  const Share& share = job.share;
  const auto offsets = regular_sample(share.bytes(), kSamplesPerRank);
  for (std::size_t k = 0; k < offsets.size();) {
    const std::uint64_t at = line_start_at_or_before(*job.inputs, share.begin + offsets[k], job.term, job.escaped_newlines);
    const std::string rec = record_at(*job.inputs, at, 0, job.term, job.escaped_newlines);
    std::uint64_t weight = 0;
    for (const std::uint64_t end = at + rec.size() + 1; k < offsets.size() && share.begin + offsets[k] < end; ++k) ++weight;
    if (!refused(job, rec)) encode_sample(mine, at, weight, rec);
  }
  return mine;
}

// CSV: rows start only where a scan from the share's start finds them, so
// the share is read through, every row checked as the exchange would check
// it (a malformed row fails the rank here, with its file and line, before
// anything is exchanged); the row holding each of the regular byte offsets
// is taken once, weighing as many offsets as it holds.
std::string csv_samples(const Job& job) {
  std::string mine;
  const Share& share = job.share;
  const auto offsets = regular_sample(share.bytes(), kSamplesPerRank);
  std::size_t k = 0;
  ShareReader reader(*job.inputs, share.begin, share.end, 0, job.term, job.chunk_bytes, job.reading(true));
  std::vector<ShareRecord> records;
  while (reader.next(records))
    for (const ShareRecord& r : records) {
      std::uint64_t weight = 0;
      for (const std::uint64_t end = r.position + r.size + 1; k < offsets.size() && share.begin + offsets[k] < end; ++k)
        ++weight;
      if (weight) encode_sample(mine, r.position, weight, std::string_view(r.data, r.size));
    }
  return mine;
}

}  // namespace

void encode_sample(std::string& out, std::uint64_t position, std::uint64_t weight, std::string_view record) {
  put_u64(out, position);
  put_u64(out, weight);
  put_u64(out, record.size());
  out += record;
}

std::vector<Sample> decode_samples(const std::string& bytes) {
  std::vector<Sample> samples;
  for (const char *p = bytes.data(), *end = bytes.data() + bytes.size(); p < end;) {
    Sample s;
    s.position = get_u64(p);
    s.weight = get_u64(p);
    const std::uint64_t len = get_u64(p);
    s.record.assign(p, static_cast<std::size_t>(len));
    p += len;
    samples.push_back(std::move(s));
  }
  return samples;
}

std::string local_samples(const Job& job) {
  if (job.csv) return csv_samples(job);
  if (job.text()) return line_samples(job);
  std::string mine;
  for (std::uint64_t i : regular_sample(job.share.bytes() / job.record_size, kSamplesPerRank)) {
    const std::uint64_t at = job.share.begin + i * job.record_size;
    encode_sample(mine, at, 1, record_at(*job.inputs, at, job.record_size, job.term));
  }
  return mine;
}

void choose_splitters(Communicator& c, Job& job) {
  std::string mine;
  phase(c, [&] { mine = local_samples(job); });
  phase(c, [&] { job.partitioner->choose_splitters(decode_samples(gather_all(c, mine)), c.ranks()); });
}

}  // namespace corank::mpi
