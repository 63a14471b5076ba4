#pragma once
// Sorting records that arrive nearly in order, as the lines of logs do: each
// file is in time order but for a few late lines, and a sort's input is many
// such files one after another. A slice of records is dealt, in input order,
// onto piles each kept in order: a record goes onto the open pile whose last
// record is the greatest one below it (patience sorting's rule), or opens a
// pile of its own where it is below every open pile's last (deal_into_piles
// says which piles stay open). Each file so becomes one pile, and its late
// lines a few more; past kMaxRuns piles, records that would open one go to a
// side pile, sorted on its own. The piles are then merged
// (merge_sorted_slices) instead of sorting the slice: a pass of a few
// comparisons a record, where a sort takes log2(n).
//
// A slice that is not nearly in order (its side pile grows past a
// kSideShare of what was dealt) is sorted by std::sort instead, after a
// short look: random input gives up within the first few thousand records.
// Either way the result is the sort by `less`, which must be a strict weak
// order; the records of a pile keep their input order among equals only where
// `less` breaks ties by input position (PrefixLess does).
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "corank/io/fresh_pages.hpp"
#include "corank/parallel.hpp"
#include "corank/text/record_sort.hpp"

namespace corank::text {

inline constexpr std::size_t kMaxPiles = 128;       // piles open at once
inline constexpr std::size_t kMaxRuns = 1024;       // piles in all, each a run of the merge
inline constexpr std::uint16_t kSidePile = 0xffff;
inline constexpr std::uint64_t kSideShare = 16;     // the side pile's largest share of a slice
inline constexpr std::uint64_t kFirstLook = 4096;   // the side pile's share is of at least this many records
inline constexpr std::uint64_t kInLine = 256;       // a stretch this long takes the line over (lay_out_piles)

// How a slice was dealt: each record's pile (tags), each pile's size in
// creation order, the side pile's size; false where the slice is not nearly
// in order (dealing stopped).
struct PileDeal {
  std::vector<std::uint16_t> tags;
  std::vector<std::uint64_t> sizes;
  std::uint64_t side = 0;
  std::uint64_t changes = 0;  // places where a record's pile differs from the one before it

  // Each pile lies in one piece, in creation order, and none is on the side:
  // the slice is its piles already, one after another.
  bool in_place() const noexcept { return side == 0 && changes + 1 == sizes.size(); }
};

// Deals v onto piles. Where a record is below every open pile and kMaxPiles
// are open, the pile that took a record longest ago is closed (the piles of a
// file before this one, say) and the record opens a new one; past kMaxRuns
// piles in all, such a record goes to the side pile.
template <class T, class Less>
bool deal_into_piles(std::span<const T> v, const Less& less, PileDeal& deal) {
  struct Top {
    const T* last;
    std::uint16_t run;
    std::uint64_t used;  // the index of its last record
  };
  std::array<Top, kMaxPiles> tops;  // the open piles, ordered by their last records
  std::size_t open = 0, at = 0;     // at: the pile the record before went onto
  deal.tags.resize(v.size());
  deal.sizes.clear();
  deal.side = deal.changes = 0;
  std::uint16_t before = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const T& x = v[i];
    std::size_t p;
    if (at < open && less(*tops[at].last, x) && (at + 1 == open || !less(*tops[at + 1].last, x))) {
      p = at;
    } else {  // the first pile whose last is not below x, then the one before it
      std::size_t lo = 0, hi = open;
      while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (less(*tops[mid].last, x)) lo = mid + 1;
        else hi = mid;
      }
      if (lo == 0) {  // below every open pile: a new one, first in order
        if (deal.sizes.size() == kMaxRuns) {
          deal.tags[i] = kSidePile;
          ++deal.side;
          if (deal.side * kSideShare > std::max<std::uint64_t>(i + 1, kFirstLook)) return false;
          continue;
        }
        std::size_t gap = open;  // the slot that opens up: past the end, or the closed pile's
        if (open == kMaxPiles) {
          gap = 0;
          for (std::size_t j = 1; j < open; ++j)
            if (tops[j].used < tops[gap].used) gap = j;
          --open;
        }
        std::copy_backward(tops.begin(), tops.begin() + static_cast<std::ptrdiff_t>(gap),
                           tops.begin() + static_cast<std::ptrdiff_t>(gap + 1));
        ++open;
        tops[0] = {&x, static_cast<std::uint16_t>(deal.sizes.size()), i};
        deal.sizes.push_back(0);
      }
      p = lo == 0 ? 0 : lo - 1;
    }
    tops[p].last = &x;
    tops[p].used = i;
    at = p;
    const std::uint16_t run = tops[p].run;
    deal.tags[i] = run;
    ++deal.sizes[run];
    if (i > 0 && run != before) ++deal.changes;
    before = run;
  }
  return true;
}

// Puts the dealt slice v in order of its piles, each pile a run of the merge,
// the side pile last and sorted; returns where each run begins in v, and v's
// end. Most records stay in line: a file's lines but its late ones (and
// those without a time) move down over the gaps the others leave, in place,
// as one run. The rest (late lines, the lines of a file that interleaves
// with another, the side pile) go through the start of `scratch` (as long
// as v), grouped by pile, and follow at the end: only as many places of
// scratch are written, whose pages a first touch costs, as records leave
// the line.
template <class T, class Less>
std::vector<std::uint64_t> lay_out_piles(std::span<T> v, std::span<T> scratch, const PileDeal& deal, const Less& less) {
  const std::uint64_t n = v.size();
  const std::size_t piles = deal.sizes.size(), side = piles;
  std::vector<std::uint64_t> bounds{0};
  if (deal.in_place()) {
    std::uint64_t at = 0;
    for (const std::uint64_t size : deal.sizes)
      if (size) bounds.push_back(at += size);
    return bounds;
  }
  auto pile_of = [&](std::uint64_t i) -> std::size_t { return deal.tags[i] == kSidePile ? side : deal.tags[i]; };
  auto stretch_end = [&](std::uint64_t i) {
    std::uint64_t j = i + 1;
    while (j < n && deal.tags[j] == deal.tags[i]) ++j;
    return j;
  };
  // Which stretches stay in line. The line follows one pile at a time, the
  // current one, whose stretches all stay, however short. Another pile's
  // stretch takes the line over where it is kInLine records long, or where
  // the current pile has no record among the next kInLine (its file has
  // ended, say); the other stretches (late lines, lines without a time
  // between a file's) leave the line. Each takeover starts a run; where there
  // would be more than kMaxRuns, no stretch stays.
  constexpr std::uint32_t kNoPile = 0x10000;
  bool any_stays = true;
  auto walk = [&](auto&& each) {  // each(i, j, stays, takes_over) for each stretch [i, j), in order
    std::uint32_t current = kNoPile;
    std::uint64_t seen = 0;  // a record of the current pile at or after the stretch, or where the look stopped
    for (std::uint64_t i = 0; i < n;) {
      const std::uint64_t j = stretch_end(i);
      const std::uint16_t tag = deal.tags[i];
      bool stays = any_stays && tag != kSidePile && tag == current, takes_over = false;
      if (any_stays && tag != kSidePile && tag != current) {
        takes_over = current == kNoPile || j - i >= kInLine;
        if (!takes_over) {
          seen = std::max(seen, j);
          while (seen < n && seen < i + kInLine && deal.tags[seen] != current) ++seen;
          takes_over = seen == n || seen >= i + kInLine;
        }
        if (takes_over) current = tag, seen = 0, stays = true;
      }
      each(i, j, stays, takes_over);
      i = j;
    }
  };
  std::size_t runs = 0;
  walk([&](std::uint64_t, std::uint64_t, bool, bool takes_over) { runs += takes_over; });
  if (runs > kMaxRuns) any_stays = false;
  std::vector<std::uint64_t> next(piles + 1, 0);  // where each pile's next record goes in scratch
  walk([&](std::uint64_t i, std::uint64_t j, bool stays, bool) {
    if (!stays) next[pile_of(i)] += j - i;
  });
  std::uint64_t out = 0;  // in scratch, then where each pile's records begin
  for (auto& x : next) out += std::exchange(x, out);
  // The places of scratch about to be written: their pages in one call where
  // that pays (io/fresh_pages.hpp).
  io::populate_for_writing(scratch.data(), out * sizeof(T));
  const std::vector<std::uint64_t> start = next;
  std::uint64_t w = 0;  // the next place in line
  walk([&](std::uint64_t i, std::uint64_t j, bool stays, bool takes_over) {
    if (stays) {
      if (takes_over && w > 0) bounds.push_back(w);
      if (w != i)
        std::copy(v.begin() + static_cast<std::ptrdiff_t>(i), v.begin() + static_cast<std::ptrdiff_t>(j),
                  v.begin() + static_cast<std::ptrdiff_t>(w));
      w += j - i;
    } else {
      std::uint64_t& to = next[pile_of(i)];
      for (std::uint64_t k = i; k < j; ++k) scratch[to++] = v[k];
    }
  });
  if (w > 0) bounds.push_back(w);
  std::copy(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(out), v.begin() + static_cast<std::ptrdiff_t>(w));
  for (std::size_t p = 0; p < piles; ++p)
    if (next[p] > start[p]) bounds.push_back(w + next[p]);
  if (next[side] > start[side]) {
    std::sort(v.begin() + static_cast<std::ptrdiff_t>(w + start[side]), v.end(), less);
    bounds.push_back(n);
  }
  return bounds;
}

// The first step of sort_nearly_in_order: each thread's slice of v is dealt
// into piles, laid out one after another, where it is nearly in order, else
// sorted. Returns where each pile and sorted slice begins in v, and v's end:
// merging them is the rest of the sort. `scratch` is resized; only the slices
// not in place touch it.
template <class Vec, class Less>
std::vector<std::uint64_t> sort_into_slices(Vec& v, Vec& scratch, const Less& less, unsigned threads) {
  using T = std::remove_cvref_t<decltype(v[0])>;
  const std::uint64_t n = v.size();
  const unsigned parts = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, n / 8192)));
  scratch.resize(n);
  std::vector<std::vector<std::uint64_t>> bounds(parts);
  parallel_for(parts, [&](unsigned p) {
    const std::uint64_t b = n * p / parts, e = n * (p + 1) / parts;
    const std::span<T> slice(v.data() + b, e - b);
    PileDeal deal;
    if (deal_into_piles(std::span<const T>(slice), less, deal)) {
      bounds[p] = lay_out_piles(slice, std::span<T>(scratch.data() + b, e - b), deal, less);
    } else {
      std::sort(slice.begin(), slice.end(), less);
      bounds[p] = {0, e - b};
    }
    for (auto& x : bounds[p]) x += b;
  });
  std::vector<std::uint64_t> all{0};
  for (const auto& part : bounds) all.insert(all.end(), part.begin() + 1, part.end());
  return all;
}

// parallel_sort (record_sort.hpp) for records nearly in order: the piles and
// sorted slices of sort_into_slices merged on all threads. `scratch` is resized.
template <class Vec, class Less>
void sort_nearly_in_order(Vec& v, Vec& scratch, const Less& less, unsigned threads) {
  const std::vector<std::uint64_t> bounds = sort_into_slices(v, scratch, less, threads);
  if (bounds.size() > 2) merge_sorted_slices(v, scratch, bounds, less, threads);
}

}  // namespace corank::text
