#include "corank/mpi/sampling.hpp"

#include "corank/errors.hpp"
#include "corank/mpi/agreement.hpp"

namespace corank::mpi {

namespace {

// CSV samples: rows start only where a scan from the share's start finds
// them, so the share is read through; the row holding each of the regular
// byte offsets is taken (a long row as often as it spans offsets).
std::string csv_samples(const Job& job) {
  std::string mine;
  const Share& share = job.share;
  const auto offsets = regular_sample(share.bytes(), kSamplesPerRank);
  std::size_t k = 0;
  ShareReader reader(*job.inputs, share.begin, share.end, 0, job.term, job.chunk_bytes, job.reading(false));
  std::vector<ShareRecord> records;
  while (reader.next(records))
    for (const ShareRecord& r : records)
      for (const std::uint64_t end = r.position + r.size + 1; k < offsets.size() && share.begin + offsets[k] < end; ++k)
        encode_sample(mine, r.position, std::string_view(r.data, r.size));
  return mine;
}

}  // namespace

void encode_sample(std::string& out, std::uint64_t position, std::string_view record) {
  put_u64(out, position);
  put_u64(out, record.size());
  out += record;
}

std::vector<Sample> decode_samples(const std::string& bytes) {
  std::vector<Sample> samples;
  for (const char *p = bytes.data(), *end = bytes.data() + bytes.size(); p < end;) {
    Sample s;
    s.position = get_u64(p);
    const std::uint64_t len = get_u64(p);
    s.record.assign(p, static_cast<std::size_t>(len));
    p += len;
    samples.push_back(std::move(s));
  }
  return samples;
}

std::string local_samples(const Job& job) {
  if (job.csv) return csv_samples(job);
  const Share& share = job.share;
  std::vector<std::uint64_t> at;
  if (job.text()) {
    // A line longer than the stride is sampled more than once: its weight.
    for (std::uint64_t i : regular_sample(share.bytes(), kSamplesPerRank))
      at.push_back(line_start_at_or_before(*job.inputs, share.begin + i, job.term));
  } else {
    for (std::uint64_t i : regular_sample(share.bytes() / job.record_size, kSamplesPerRank))
      at.push_back(share.begin + i * job.record_size);
  }
  std::string mine;
  for (std::uint64_t pos : at) {
    const std::string rec = record_at(*job.inputs, pos, job.record_size, job.term);
    // A record the format refuses is no splitter; the exchange, which
    // checks every record, reports it.
    if (job.text_format && job.text_format->checks_records()) try {
        job.text_format->check_record(rec, "", 0);
      } catch (const InputError&) {
        continue;
      }
    encode_sample(mine, pos, rec);
  }
  return mine;
}

void choose_splitters(Communicator& c, Job& job) {
  std::string mine;
  phase(c, [&] { mine = local_samples(job); });
  phase(c, [&] { job.partitioner->choose_splitters(decode_samples(gather_all(c, mine)), c.ranks()); });
}

}  // namespace corank::mpi
