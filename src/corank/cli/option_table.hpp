#pragma once
// corank's options as getopt_long sees them: GNU sort's short letters and
// every long option, GNU's and corank's own. A new option is a code here (when
// it has no letter), a row in kLongOptions, a case in parse_args (args.cpp)
// and a line in help_text (help_text.cpp).
#include <getopt.h>

namespace corank::cli {

// Long options without a short form get codes past the byte range.
enum OptionCode : int {
  kBatchSize = 256, kCheck, kCompressProgram, kCompressTemp, kDebug, kDelimiter, kFiles0From, kFormat, kGpu,
  kGpuMemory, kHeader, kHelp, kIoEngine, kNoFsync, kNoProgress, kNull, kNulls, kParallel, kProgress, kRandomSource,
  kSort, kStats, kTimeYear, kVerify, kVersion
};

// GNU sort's short options; the leading '-' hands operands over in order, which
// the obsolete +POS keys need.
inline constexpr char kShortOptions[] = "-bcCdfghik:mMno:rRsS:t:T:uVvz";

// Every long option, ended by a row of zeros.
extern const option kLongOptions[];

}  // namespace corank::cli
