#pragma once
// Inputs that are sorted already: -m merges them into the output
// (text_sorter.hpp's sort_text with merge_only); -c checks one
// (text_sorter.hpp's check_text, defined in sorted_inputs.cpp).
#include <cstddef>

#include "corank/io/options.hpp"
#include "corank/sort_options.hpp"
#include "corank/text/text_format.hpp"
#include "corank/text/text_sorter.hpp"

namespace corank::text {

// Merges options.inputs into options.output, each input read through a buffer
// of merge_buffer bytes; fills the counts and times of `stats`.
void merge_sorted_inputs(const TextSortOptions& options, const io::IoOptions& io, std::size_t merge_buffer,
                         TextFormat& format, SortStats& stats);

}  // namespace corank::text
