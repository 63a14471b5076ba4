#pragma once
// The external sort's control flow, one for every record kind and backend:
// fixed-size records on the CPU threads (external_sort.cpp) or on a device
// (device_pipeline.cpp), and text records (text/text_sorter.cpp).
//
//  1. Run formation. The model sorts the input chunk by chunk (reading ahead
//     as it likes). An input that is a single chunk (as far as the model can
//     tell: it says which chunk is the last) is written straight out: no
//     run, no merge. Otherwise each sorted chunk becomes a run, kept in
//     memory or spilled to a temporary file. A spilled run holds an open
//     file, so when the sort holds max_runs() runs (the descriptors it may
//     open), neighbouring runs are merged into one there and then, before the
//     next chunk is sorted (early_merge_group): runs of the lowest merge
//     level that has two or more side by side, up to fan_in() of them, so
//     that the runs held grow like the digits of a counter and each record is
//     rewritten about log(chunks) / log(fan-in) times, not once per chunk as
//     merging the cheapest neighbours would (a new chunk beside one large run
//     is always the cheapest pair).
//  2. Merge passes. While more than fan_in() runs remain, consecutive groups
//     of fan_in() runs are merged into one longer run each.
//  3. The last merge writes the runs into the output.
// Runs stay in input order and only neighbours are merged, so a model whose
// merge keeps the order of runs for equal keys sorts stably.
//
// What differs between record kinds is the model's: what a chunk and a run
// are, how a chunk is sorted, and how runs are merged (co-rank over key
// entries, sampled splitters over spilled runs, merge on a device, a loser
// tree over text lines). A model is
//
//   struct Model {
//     using Run = ...;  // movable, owns its storage (a file, host memory)
//     // Reads and sorts the next chunk: nullopt at the end of the input,
//     // else whether this chunk is the input's last.
//     std::optional<bool> next_chunk();
//     void write_chunk();                           // the sorted chunk is the whole output
//     Run spill_chunk();                            // the sorted chunk becomes a run
//     Run merge(std::span<Run> group);              // consecutive runs into one; frees them
//     void merge_into_output(std::span<Run> runs);  // the last merge
//     std::uint64_t bytes(const Run&) const;        // what merging it costs
//     std::size_t fan_in() const;                   // runs one merge takes (at least 2)
//     std::size_t max_runs() const;                 // runs held at once, at the most
//     // optional:
//     void formed(std::span<const Run> runs);       // run formation is over, runs to merge
//     void passed(std::size_t runs_left);           // a merge pass is over
//     void held(std::span<Run> runs);  // the runs held now, after each spill and merge: a
//                                      // model may trim what they keep in memory together
//     void drain() noexcept;  // waits for work in flight on runs (a write
//                             // behind), before they are freed on unwinding
//     // adaptive run formation (all four or none):
//     bool streams() const;   // the chunk just sorted joins the run written to the output
//     std::vector<Run> stream_chunk(bool last);  // it does; returns the runs it left
//                             // besides (its late records, or everything once the
//                             // model gives up streaming: streams() false from then on)
//     void end_stream();      // the input ended after a chunk not known to be the last
//     void merge_stream_into_output(std::span<Run> runs);  // the output run and these
//   };
//
// Adaptive run formation: while streams(), chunks join one run that is the
// output's start (stream_chunk), and the runs they leave besides are held as
// usual. Where none are left the output is complete after one pass; else they
// are merged down to fan_in() - 1 and then, after the output run (it holds the
// earliest of equal records), into a new output.
//
// The driver times the phases and counts runs and merge passes in SortStats;
// everything else the model reports itself. Runs are destroyed, and their
// files freed, on every exit path including exceptions.
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "corank/planner.hpp"
#include "corank/sort_options.hpp"
#include "corank/stopwatch.hpp"

namespace corank {

template <class M>
concept SortModel = requires(M m, const M cm, std::span<typename M::Run> runs, const typename M::Run& run) {
  { m.next_chunk() } -> std::same_as<std::optional<bool>>;
  m.write_chunk();
  { m.spill_chunk() } -> std::same_as<typename M::Run>;
  { m.merge(runs) } -> std::same_as<typename M::Run>;
  m.merge_into_output(runs);
  { cm.bytes(run) } -> std::convertible_to<std::uint64_t>;
  { cm.fan_in() } -> std::convertible_to<std::size_t>;
  { cm.max_runs() } -> std::convertible_to<std::size_t>;
};

namespace sort_driver_detail {

// Merges early_merge_group(levels, fan_in()) of `runs` into one, a level
// above the highest it takes.
template <SortModel M>
void merge_early(M& model, std::vector<typename M::Run>& runs, std::vector<unsigned>& levels) {
  const auto [at, width] = early_merge_group(levels, model.fan_in());
  const unsigned level = *std::max_element(levels.begin() + static_cast<std::ptrdiff_t>(at),
                                           levels.begin() + static_cast<std::ptrdiff_t>(at + width)) + 1;
  auto merged = model.merge(std::span(runs).subspan(at, width));
  runs[at] = std::move(merged);
  levels[at] = level;
  const auto first = static_cast<std::ptrdiff_t>(at);
  runs.erase(runs.begin() + first + 1, runs.begin() + first + static_cast<std::ptrdiff_t>(width));
  levels.erase(levels.begin() + first + 1, levels.begin() + first + static_cast<std::ptrdiff_t>(width));
}

template <SortModel M>
void report_held(M& model, std::vector<typename M::Run>& runs) {
  if constexpr (requires { model.held(std::span<typename M::Run>(runs)); }) model.held(std::span<typename M::Run>(runs));
}

// One merge pass: consecutive groups of fan_in() runs become one run each.
template <SortModel M>
void merge_pass(M& model, std::vector<typename M::Run>& runs) {
  const std::size_t fan_in = model.fan_in();
  std::vector<typename M::Run> longer;
  for (std::size_t g = 0; g < runs.size(); g += fan_in) {
    const auto group = std::span(runs).subspan(g, std::min(fan_in, runs.size() - g));
    if (group.size() == 1)
      longer.push_back(std::move(group[0]));
    else
      longer.push_back(model.merge(group));
  }
  runs = std::move(longer);
  report_held(model, runs);
}

}  // namespace sort_driver_detail

// Sorts the model's input into its output (see above).
template <SortModel M>
void drive_sort(M& model, SortStats& stats) {
  namespace d = sort_driver_detail;
  using Run = typename M::Run;
  if (model.fan_in() < 2) throw std::logic_error("a merge takes at least two runs");
  const auto t_runs = Clock::now();
  std::vector<Run> runs;
  std::vector<unsigned> levels;  // of the runs while they form: merges behind each
  // Declared after the runs: on unwinding, work in flight on them ends first.
  struct Drain {
    M& m;
    ~Drain() {
      if constexpr (requires { m.drain(); }) m.drain();
    }
  } const drain{model};
  constexpr bool adaptive = requires { model.merge_stream_into_output(std::span<Run>(runs)); };
  bool streamed = false;
  for (;;) {
    const std::optional<bool> last = model.next_chunk();
    if (!last) {
      if constexpr (adaptive) {
        if (model.streams()) model.end_stream();  // what the window holds joins the output run
      }
      break;
    }
    if constexpr (adaptive) {
      if (model.streams()) {
        streamed = true;
        for (Run& r : model.stream_chunk(*last)) {
          runs.push_back(std::move(r));
          levels.push_back(0);
        }
        if (!*last && runs.size() >= 2 && runs.size() >= model.max_runs()) {
          d::merge_early(model, runs, levels);
          stats.merge_passes++;
        }
        d::report_held(model, runs);
        if (*last) break;
        continue;
      }
    }
    if (*last && runs.empty() && !streamed) {
      stats.runs = 1;
      stats.seconds.run_formation = seconds_since(t_runs);
      const auto t_write = Clock::now();
      model.write_chunk();
      stats.seconds.merge = seconds_since(t_write);
      return;
    }
    runs.push_back(model.spill_chunk());
    levels.push_back(0);
    if (!*last && runs.size() >= model.max_runs()) {
      d::merge_early(model, runs, levels);
      stats.merge_passes++;
    }
    d::report_held(model, runs);
    if (*last) break;
  }
  stats.runs = runs.size() + (streamed ? 1 : 0);
  stats.seconds.run_formation = seconds_since(t_runs);
  if (runs.empty()) return;  // an empty input, or one run streamed into the output
  if constexpr (requires { model.formed(std::span<const Run>(runs)); }) model.formed(std::span<const Run>(runs));

  const auto t_merge = Clock::now();
  const std::size_t others = streamed ? 1 : 0;  // the output run merges with the runs
  while (runs.size() + others > model.fan_in()) {
    d::merge_pass(model, runs);
    stats.merge_passes++;
    if constexpr (requires { model.passed(runs.size()); }) model.passed(runs.size());
  }
  if constexpr (adaptive) {
    if (streamed)
      model.merge_stream_into_output(std::span(runs));
    else
      model.merge_into_output(std::span(runs));
  } else {
    model.merge_into_output(std::span(runs));
  }
  runs.clear();  // frees the runs' files before the time is taken
  stats.seconds.merge = seconds_since(t_merge);
}

}  // namespace corank
