#include "corank/io/positional_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "corank/io/codec.hpp"
#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"
#include "corank/io/source.hpp"

namespace corank::io {

bool PositionalInput::suits(const std::vector<std::string>& paths, const IoOptions& opt) {
  if (paths.empty() || (opt.input_codec && *opt.input_codec != Codec::none)) return false;
  for (const auto& p : paths) {
    if (p == "-") return false;
    if (!opt.input_codec && codec_from_suffix(p) != Codec::none) return false;
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || on_pseudo_file_system(p)) return false;
  }
  return true;
}

PositionalInput::PositionalInput(const std::vector<std::string>& paths) { open(paths, nullptr); }

PositionalInput::PositionalInput(const std::vector<std::string>& paths, const std::vector<std::uint64_t>& sizes) {
  if (sizes.size() != paths.size()) throw std::invalid_argument("PositionalInput: one size for every path");
  open(paths, &sizes);
}

void PositionalInput::open(const std::vector<std::string>& paths, const std::vector<std::uint64_t>* sizes) {
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string& p = paths[i];
    File f;
    f.fd = FileDesc::open(p, O_RDONLY);
    struct stat st {};
    if (::fstat(f.fd.get(), &st) != 0) throw_io_error("stat failed", p, errno);
    if (S_ISDIR(st.st_mode)) throw IoError("read failed", p, EISDIR);
    f.path = p;
    f.begin = size_;
    f.found = static_cast<std::uint64_t>(st.st_size);
    f.regular = S_ISREG(st.st_mode);
    f.size = sizes ? (*sizes)[i] : f.found;
    size_ += f.size;
    files_.push_back(std::move(f));
  }
}

PositionalInput::PositionalInput(const std::vector<std::span<const std::byte>>& pieces, const std::string& name) {
  for (const auto& piece : pieces) {
    File f;
    f.memory = piece.data();
    f.path = name;
    f.begin = size_;
    f.size = piece.size();
    size_ += f.size;
    files_.push_back(std::move(f));
  }
}

void PositionalInput::read(std::uint64_t offset, std::byte* dst, std::size_t n) const {
  // The first file that ends after offset.
  auto it = std::upper_bound(files_.begin(), files_.end(), offset,
                             [](std::uint64_t off, const File& f) { return off < f.begin + f.size; });
  while (n > 0) {
    if (it == files_.end()) throw IoError("read failed", files_.back().path, "read past the end of the input");
    const std::uint64_t in_file = offset - it->begin;
    const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(n, it->size - in_file));
    if (it->memory)
      std::memcpy(dst, it->memory + in_file, len);
    else if (pread_full(it->fd.get(), dst, len, in_file, it->path) != len)
      throw_file_shrank(it->path, it->fd.get(), it->size);
    dst += len;
    offset += len;
    n -= len;
    ++it;
  }
}

}  // namespace corank::io
