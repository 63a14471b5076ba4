#pragma once
// A tournament tree of losers over k sorted sources, for k-way merges: winner()
// is the source whose head comes first; once that source's head has changed
// (it moved on, or the source ran out), replay() finds the next winner with one
// comparison per level. The caller keeps the heads; the tree keeps indices.
#include <cstddef>
#include <utility>
#include <vector>

namespace corank {

// beats(a, b): source a's head comes before source b's. A source that has run
// out must never beat one that has not; ties must be broken (by source index,
// say) for the merge to be stable.
template <class Beats>
class LoserTree {
public:
  LoserTree(std::size_t k, Beats beats) : k_(k), beats_(std::move(beats)) {
    while (leaves_ < k) leaves_ <<= 1;
    loser_.resize(leaves_);
    std::vector<std::size_t> winner(2 * leaves_);
    for (std::size_t i = 0; i < leaves_; ++i) winner[leaves_ + i] = i;
    for (std::size_t n = leaves_ - 1; n >= 1; --n) {
      std::size_t l = winner[2 * n], r = winner[2 * n + 1];
      if (beats_padded(r, l)) std::swap(l, r);
      winner[n] = l;
      loser_[n] = r;
    }
    winner_ = winner[1];
  }

  std::size_t winner() const noexcept { return winner_; }

  void replay() {
    std::size_t w = winner_;
    for (std::size_t n = (w + leaves_) / 2; n >= 1; n /= 2)
      if (beats_padded(loser_[n], w)) std::swap(loser_[n], w);
    winner_ = w;
  }

private:
  // Leaves past k pad the tree to a power of two; they hold no source, and
  // lose even to a source that has run out, so the winner is always a source.
  bool beats_padded(std::size_t a, std::size_t b) {
    if (a >= k_) return false;
    if (b >= k_) return true;
    return beats_(a, b);
  }

  std::size_t k_;
  Beats beats_;
  std::size_t leaves_ = 1;
  std::vector<std::size_t> loser_;
  std::size_t winner_ = 0;
};

}  // namespace corank
