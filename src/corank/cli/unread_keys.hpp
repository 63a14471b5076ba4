#pragma once
// The line a sort ends with on stderr where some key values did not read as
// their type or were NULL (SortStats::key_values): how many of how many
// records, in which key, where they sorted, and how to see them. The sort
// still succeeds: a user who sorts logs by time learns that some lines had
// none, instead of finding them first without a word.
#include <string>

#include "corank/sort.hpp"

namespace corank::cli {

// "369 of 1,000,000 lines had no time in key 1; they sort first; --debug
// shows them" (without "corank: "), or "" where every value read.
std::string unread_keys_line(const SortStats& stats, const SortRequest& request);

}  // namespace corank::cli
