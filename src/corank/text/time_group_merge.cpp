#include "corank/text/time_group_merge.hpp"

#include <memory>
#include <vector>

#include "corank/io/codec.hpp"
#include "corank/io/error.hpp"
#include "corank/io/output_file.hpp"
#include "corank/io/source.hpp"
#include "corank/loser_tree.hpp"
#include "corank/text/record_reader.hpp"
#include "corank/text/record_writer.hpp"

namespace corank::text {

void merge_time_groups(std::span<const TimeGroupFile> groups, const std::string& output, bool unique,
                       const io::IoOptions& io, SortStats& stats) {
  const std::size_t k = groups.size();
  std::vector<std::unique_ptr<io::ByteSource>> sources;
  std::vector<std::unique_ptr<RecordReader>> readers;
  io::IoOptions plain = io;  // the groups' files hold their bytes as they are
  plain.input_codec = io::Codec::none;
  std::string heads;  // every group's first, in the inputs' order (multiline_format.hpp)
  for (const TimeGroupFile& g : groups) {
    io::ByteSource* src = sources.emplace_back(io::open_source(g.path, plain)).get();
    const std::size_t at = heads.size();
    heads.resize(at + g.head_bytes);
    if (src->read(heads.data() + at, g.head_bytes) != g.head_bytes) throw io::IoError("read failed", g.path, "file ended early");
    readers.push_back(std::make_unique<RecordReader>([src](char* dst, std::size_t n) { return src->read(dst, n); },
                                                     g.path, *g.format, std::size_t{1} << 20, /*check=*/false));
  }
  io::OutputFile out(output, io);
  RecordWriter writer(out.sink(), groups.front().format->terminator(), nullptr);
  writer.write_raw(heads);
  std::vector<std::string_view> head(k);
  std::vector<Prefix> prefix(k);
  std::vector<bool> live(k);
  auto advance = [&](std::size_t i) {
    live[i] = readers[i]->next(head[i]);
    if (live[i]) prefix[i] = groups[i].format->prefix(head[i]);
  };
  for (std::size_t i = 0; i < k; ++i) advance(i);
  // The prefixes are comparable across groups: each holds its record's
  // instant by its own group's rules, as compare_across reads it.
  LoserTree tree(k, [&](std::size_t a, std::size_t b) {
    if (!live[a]) return false;
    if (!live[b]) return true;
    if (!(prefix[a] == prefix[b])) return prefix[a] < prefix[b];
    const int c = groups[a].order->compare_across(head[a], *groups[b].order, head[b], /*tied=*/true);
    return c ? c < 0 : a < b;
  });
  std::string last;
  const LineComparator* last_order = nullptr;
  for (std::size_t w; live[w = tree.winner()];) {
    if (!unique || !last_order || last_order->compare_across(last, *groups[w].order, head[w]) != 0) {
      writer.write(head[w]);
      if (unique) last.assign(head[w]), last_order = groups[w].order;
    }
    advance(w);
    tree.replay();
  }
  writer.finish();
  stats.records_out += writer.records() + stats.head_records;
  stats.bytes_out += writer.bytes();
  out.commit();
}

}  // namespace corank::text
