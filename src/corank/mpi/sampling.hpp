#pragma once
// Sample sort's splitters: every rank takes a regular sample of its share,
// the samples are gathered everywhere, and every rank cuts them alike into
// N even parts (partition.hpp). Samples lie at regular byte offsets for text,
// so a record weighs as much as its length and the parts come out even in
// bytes; at regular record numbers for fixed-size records. A record that
// holds several offsets is taken once, with their number as its weight: a
// rank's samples never hold more than its share, however long its records.
#include <cstdint>
#include <string>
#include <vector>

#include "corank/mpi/communicator.hpp"
#include "corank/mpi/job.hpp"
#include "corank/mpi/partition.hpp"

namespace corank::mpi {

// Samples each rank contributes: about this many per part on average, so a
// part's size is off by ~1/sqrt(16384) < 1% (one standard deviation).
constexpr std::uint64_t kSamplesPerRank = 16384;

// This rank's samples of its share, as bytes to gather (encode_sample's).
std::string local_samples(const Job& job);

void encode_sample(std::string& out, std::uint64_t position, std::uint64_t weight, std::string_view record);
std::vector<Sample> decode_samples(const std::string& bytes);

// Takes this rank's samples, gathers everyone's and sets job.partitioner's
// splitters; failures agreed.
void choose_splitters(Communicator& c, Job& job);

}  // namespace corank::mpi
