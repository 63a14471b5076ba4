#pragma once
// Sorting a chunk's records by their prefixes on the GPU. The GPU returns the
// stable order of the prefixes; the records are gathered in that order on all
// threads, and each run of records whose prefixes tie is then sorted by the
// full comparison (then position) on the CPU, in parallel across runs. A chunk
// with more records than one GPU sort takes is sorted in slices that are then
// merged like parallel_sort's. The result equals parallel_sort's: the order
// (prefix, full comparison, input position) is a strict total order.
#include <cstdint>

#include "corank/gpu_backend.hpp"
#include "corank/text/chunk_reader.hpp"
#include "corank/io/huge_vector.hpp"
#include "corank/text/record_sort.hpp"

namespace corank::text {

// Throws GpuError; the records are then untouched (the GPU only reads their
// prefixes until it has sorted them all).
void gpu_sort_records(GpuPrefixSort& gpu, io::HugeVector<RecordEntry>& records, io::HugeVector<RecordEntry>& scratch,
                      const EntryLess& less, unsigned threads);

// The number of low bits in which the prefixes of `records` differ (256 when
// the top bits differ, 0 when all prefixes are equal).
unsigned differing_prefix_bits(const io::HugeVector<RecordEntry>& records, unsigned threads);

}  // namespace corank::text
