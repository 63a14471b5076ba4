#pragma once
// k-way merge of sorted sequences: a loser tree for one thread, and a parallel
// merge in which each thread takes an equal share of the output, cut by
// kway_co_rank, and merges its share independently.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "corank/kway_co_rank.hpp"
#include "corank/loser_tree.hpp"
#include "corank/parallel.hpp"

namespace corank {

// Hands the elements of seqs to emit in merged order, with a loser tree.
// `less` must be a strict total order over all elements (ties broken by
// position, say); then the order is the same whatever the order of seqs.
template <class T, class Less, class Emit>
void merge_kway_each(std::span<const std::span<const T>> seqs, const Less& less, Emit&& emit) {
  const std::size_t k = seqs.size();
  if (k == 1) {
    for (const T& x : seqs[0]) emit(x);
    return;
  }
  if (k == 0) return;
  std::vector<std::size_t> cur(k, 0);
  std::uint64_t total = 0;
  for (const auto& s : seqs) total += s.size();
  // An exhausted sequence never wins.
  LoserTree tree(k, [&](std::size_t a, std::size_t b) {
    if (cur[a] == seqs[a].size()) return false;
    if (cur[b] == seqs[b].size()) return true;
    return less(seqs[a][cur[a]], seqs[b][cur[b]]);
  });
  for (std::uint64_t o = 0; o < total; ++o) {
    const std::size_t w = tree.winner();
    emit(seqs[w][cur[w]++]);
    tree.replay();
  }
}

// Merges seqs into out (which holds the sum of their sizes), as merge_kway_each orders them.
template <class T, class Less>
void merge_kway_with(std::span<const std::span<const T>> seqs, T* out, const Less& less) {
  if (seqs.size() == 1) {
    std::copy(seqs[0].begin(), seqs[0].end(), out);
    return;
  }
  if (seqs.size() == 2) {
    std::merge(seqs[0].begin(), seqs[0].end(), seqs[1].begin(), seqs[1].end(), out, less);
    return;
  }
  merge_kway_each(seqs, less, [&out](const T& x) { *out++ = x; });
}

// merge_kway_with by operator<: elements must be unique under it (KeyEntry's
// key-then-position order).
template <class T>
void merge_kway(std::span<const std::span<const T>> seqs, T* out) {
  merge_kway_with(seqs, out, std::less<T>{});
}

// The same result as merge_kway, produced by `threads` threads on disjoint output ranges.
template <class T>
void merge_kway_parallel(std::span<const std::span<const T>> seqs, T* out, unsigned threads) {
  std::uint64_t total = 0;
  for (const auto& s : seqs) total += s.size();
  threads = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, total / 4096 + 1)));
  if (threads == 1 || seqs.size() < 2) {
    merge_kway(seqs, out);
    return;
  }
  std::vector<std::vector<std::uint64_t>> cuts(threads + 1);
  for (unsigned t = 0; t <= threads; ++t) cuts[t] = kway_co_rank(seqs, total * t / threads);
  parallel_for(threads, [&](unsigned t) {
    std::vector<std::span<const T>> part(seqs.size());
    for (std::size_t i = 0; i < seqs.size(); ++i)
      part[i] = seqs[i].subspan(cuts[t][i], cuts[t + 1][i] - cuts[t][i]);
    merge_kway(std::span<const std::span<const T>>(part), out + total * t / threads);
  });
}

}  // namespace corank
