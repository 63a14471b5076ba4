#include "corank/mpi/whole_input.hpp"

namespace corank::mpi {

std::unique_ptr<WholeInput> WholeInput::map_if_resident(const Job& job) {
  // As the exchange keeps what it receives in memory (exchange.cpp): while
  // it takes at most half of the rank's budget, the sort having the other half.
  if (job.text() || job.inputs->total() > job.local.memory_budget / 2) return nullptr;
  auto whole = std::make_unique<WholeInput>();
  for (std::size_t i = 0; i < job.inputs->files(); ++i) {
    if (job.inputs->file_size(i) == 0) continue;  // nothing to map, nothing to sort
    auto map = io::MappedInput::map_if_resident(job.inputs->name(i), job.local.io, job.inputs->file_size(i));
    if (!map) return nullptr;
    whole->maps_.push_back(std::move(map));
  }
  return whole;
}

PieceInput WholeInput::piece() {
  PieceInput in;
  for (const auto& m : maps_) {
    in.buffers.emplace_back(m->data(), m->size());
    in.bytes += m->size();
  }
  in.release = [this] { maps_.clear(); };
  return in;
}

}  // namespace corank::mpi
