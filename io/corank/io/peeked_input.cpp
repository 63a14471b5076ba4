#include "corank/io/peeked_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <list>
#include <mutex>
#include <utility>

#include "corank/io/direct_fd.hpp"

namespace corank::io {

namespace {

// A file's identity: one pipe under two names ("-" and /dev/stdin) is one.
struct Identity {
  dev_t dev = 0;
  ino_t ino = 0;
  bool operator==(const Identity&) const = default;
};

std::optional<Identity> identity_of(const std::string& path) {
  struct stat st {};
  if ((path == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(path.c_str(), &st)) != 0) return std::nullopt;
  return Identity{st.st_dev, st.st_ino};
}

struct Peeked {
  Identity id;
  PeekedInput input;
  bool replay = true;  // false: read where it lies (a regular file), nothing to give back
};

std::mutex& peeked_mutex() {
  static std::mutex m;
  return m;
}
// Few entries (the inputs that are pipes); a list, so that the views
// peek_input returns stay where they are.
std::list<Peeked>& peeked() {
  static std::list<Peeked> v;
  return v;
}

class HeadFirstSource final : public ByteSource {
public:
  HeadFirstSource(std::string head, std::unique_ptr<ByteSource> rest, std::string name)
      : ByteSource(std::move(name)), head_(std::move(head)), rest_(std::move(rest)) {}
  std::size_t read(void* dst, std::size_t n) override {
    const std::size_t from_head = std::min(n, head_.size() - at_);
    std::memcpy(dst, head_.data() + at_, from_head);
    at_ += from_head;
    if (from_head == n || !rest_) return from_head;
    return from_head + rest_->read(static_cast<char*>(dst) + from_head, n - from_head);
  }
  std::optional<std::uint64_t> size() const override {
    const auto rest = rest_ ? rest_->size() : std::optional<std::uint64_t>(0);
    if (!rest) return std::nullopt;
    return head_.size() + *rest;
  }

private:
  std::string head_;
  std::size_t at_ = 0;
  std::unique_ptr<ByteSource> rest_;
};

}  // namespace

std::string_view peek_input(const std::string& path, std::size_t bytes) {
  const std::lock_guard lock(peeked_mutex());
  const auto id = identity_of(path);
  if (!id) return {};  // the sort's own open reports why
  auto& all = peeked();
  for (const Peeked& p : all)
    if (p.id == *id && p.replay) return p.input.head;
  // A regular file's bytes are read again: they may have moved on since.
  all.remove_if([&](const Peeked& p) { return p.id == *id; });
  Peeked p{*id, {}, true};
  PeekedInput& in = p.input;
  try {
    if (path == "-") {
      in.fd = STDIN_FILENO;
    } else {
      in.owned = FileDesc::open(path, O_RDONLY | O_CLOEXEC);
      in.fd = in.owned.get();
    }
    in.head.resize(bytes);
    // Standard input that is a regular file (`< file`) is read from where
    // it stands, which the sort's reads start from, and not moved.
    const off_t at = is_regular_file(in.fd) ? ::lseek(in.fd, 0, SEEK_CUR) : -1;
    p.replay = at < 0;
    in.head.resize(p.replay ? read_full(in.fd, in.head.data(), bytes, path)
                            : pread_full(in.fd, in.head.data(), bytes, static_cast<std::uint64_t>(at), path));
    // Its end reached (a terminal's end-of-file typed once): not read again.
    in.ended = in.head.size() < bytes;
    if (!p.replay) in.owned.reset();
  } catch (const std::exception&) {
    // Not opened, or not read: nothing peeked, and the sort's own open or
    // read reports why.
    return {};
  }
  all.push_back(std::move(p));
  return all.back().input.head;
}

std::optional<PeekedInput> take_peeked_input(const std::string& path) {
  const std::lock_guard lock(peeked_mutex());
  auto& all = peeked();
  if (all.empty()) return std::nullopt;
  const auto id = identity_of(path);
  if (!id) return std::nullopt;
  const auto p = std::find_if(all.begin(), all.end(), [&](const Peeked& x) { return x.id == *id && x.replay; });
  if (p == all.end()) return std::nullopt;
  PeekedInput in = std::move(p->input);
  all.erase(p);
  return in;
}

std::unique_ptr<ByteSource> head_first(std::string head, std::unique_ptr<ByteSource> rest, std::string name) {
  return std::make_unique<HeadFirstSource>(std::move(head), std::move(rest), std::move(name));
}

}  // namespace corank::io
