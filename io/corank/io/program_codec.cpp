#include "corank/io/program_codec.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "corank/io/error.hpp"
#include "corank/io/file_desc.hpp"

extern char** environ;

namespace corank::io {

namespace {

constexpr std::size_t kPipeBatch = std::size_t{1} << 20;  // bytes gathered per write to PROG

// A descriptor that is not stdin, stdout or stderr: dup2 onto 0 or 1 in the
// child must never be a no-op that leaves close-on-exec set. `keep` is what
// the caller holds while the copy is in use (empty when fd is already above).
int above_stdio(int fd, FileDesc& keep, const std::string& label) {
  if (fd > STDERR_FILENO) return fd;
  keep = FileDesc(::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1));
  if (!keep.valid()) throw_io_error("couldn't execute compress program", label, errno);
  return keep.get();
}

FileDesc make_pipe_end(int fd) {
  FileDesc owner(fd);
  FileDesc moved;
  above_stdio(fd, moved, "pipe");
  return moved.valid() ? std::move(moved) : std::move(owner);
}

// A started PROG; the destructor kills and reaps one that was not waited for.
class Child {
public:
  Child(const std::vector<std::string>& argv, int in, int out, std::string label) : label_(std::move(label)) {
    FileDesc in_copy, out_copy;
    in = above_stdio(in, in_copy, label_);
    out = above_stdio(out, out_copy, label_);

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawnattr_init(&attr);
    ::posix_spawn_file_actions_adddup2(&actions, in, STDIN_FILENO);
    ::posix_spawn_file_actions_adddup2(&actions, out, STDOUT_FILENO);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    // Other runs' files and pipes stay out of PROG even where they lack O_CLOEXEC.
    ::posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
#endif
    // PROG starts with no signal blocked (the spawning thread may block some),
    // dies of a broken pipe as a filter should, and of `ulimit -f` as any
    // program does (the corank program ignores SIGXFSZ).
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGXFSZ}) sigaddset(&defaults, sig);
    ::posix_spawnattr_setsigmask(&attr, &none);
    ::posix_spawnattr_setsigdefault(&attr, &defaults);
    ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // glibc reports a failed exec (ENOENT, EACCES...) here, and reaps that child.
    const int rc = ::posix_spawnp(&pid_, args[0], &actions, &attr, args.data(), environ);
    ::posix_spawn_file_actions_destroy(&actions);
    ::posix_spawnattr_destroy(&attr);
    if (rc != 0) {
      pid_ = -1;
      throw_io_error("couldn't execute compress program", label_, rc);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }

  // Waits for PROG to exit; throws unless it exited with status 0.
  void wait() {
    int status = 0;
    pid_t r;
    while ((r = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    if (r < 0) throw_io_error("waitpid failed for compress program", label_, errno);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    const std::string why =
        WIFEXITED(status) ? "terminated abnormally (exit status " + std::to_string(WEXITSTATUS(status)) + ")"
                          : "terminated abnormally (killed by signal " + std::to_string(WTERMSIG(status)) + ", " +
                                ::strsignal(WTERMSIG(status)) + ")";
    throw IoError("compress program", label_, why);
  }
  const std::string& label() const noexcept { return label_; }

private:
  std::string label_;
  pid_t pid_ = -1;
};

// Writes all of [p, p + n) to a pipe. Returns false when the reader has gone
// (EPIPE); the SIGPIPE that write raised is taken back before this thread
// unblocks it, so that it never reaches the process's handler.
bool write_to_pipe(int fd, const char* p, std::size_t n, const std::string& label) {
  sigset_t pipe_only, old, pending;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  sigpending(&pending);
  const bool already_pending = sigismember(&pending, SIGPIPE) == 1;
  int err = 0;
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      err = errno;
      break;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  if (err == EPIPE && !already_pending) {
    const timespec zero{};
    while (::sigtimedwait(&pipe_only, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (err != 0 && err != EPIPE) throw_io_error("write failed to compress program", label, err);
  return err == 0;
}

// The command as messages name it (quoted there: io/error.hpp).
std::string command(const std::string& program, bool decompress) { return decompress ? program + " -d" : program; }

class ProgramSink final : public ByteSink {
public:
  ProgramSink(int fd, const std::string& program, std::string name) : fd_(fd), name_(std::move(name)) {
    const off_t at = ::lseek(fd, 0, SEEK_CUR);
    if (at < 0) throw_io_error("seek failed", name_, errno);
    start_ = static_cast<std::uint64_t>(at);
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) throw_io_error("pipe failed", name_, errno);
    FileDesc read_end = make_pipe_end(p[0]);
    to_child_ = make_pipe_end(p[1]);
    child_.emplace(std::vector<std::string>{program}, read_end.get(), fd, command(program, false));
    buffer_.reserve(kPipeBatch);
  }
  ~ProgramSink() override {
    to_child_.reset();  // then the child, if still running, is killed and reaped
  }

  void write(const void* src, std::size_t n) override {
    if (finished_) throw std::logic_error("program_compressing_sink: write after finish");
    const char* p = static_cast<const char*>(src);
    written_ += n;
    if (buffer_.size() + n < kPipeBatch) {
      buffer_.insert(buffer_.end(), p, p + n);
      return;
    }
    flush();
    send(p, n);
  }

  void finish() override {
    if (finished_) return;
    flush();
    to_child_.reset();  // end of PROG's input
    finished_ = true;
    child_->wait();
    const off_t end = ::lseek(fd_, 0, SEEK_CUR);
    if (end < 0) throw_io_error("seek failed", name_, errno);
    stored_ = static_cast<std::uint64_t>(end) - start_;
  }
  std::uint64_t bytes_written() const override { return written_; }
  std::uint64_t stored_bytes() const override { return stored_; }

private:
  void flush() {
    send(buffer_.data(), buffer_.size());
    buffer_.clear();
  }
  void send(const char* p, std::size_t n) {
    if (n == 0 || write_to_pipe(to_child_.get(), p, n, child_->label())) return;
    // PROG stopped reading: its status says why; one that exited 0 lost data all the same.
    to_child_.reset();
    finished_ = true;
    child_->wait();
    throw IoError("compress program", child_->label(), "exited before reading all its input");
  }

  int fd_;
  std::string name_;
  std::uint64_t start_ = 0, written_ = 0, stored_ = 0;
  std::vector<char> buffer_;
  FileDesc to_child_;
  std::optional<Child> child_;
  bool finished_ = false;
};

class ProgramSource final : public ByteSource {
public:
  ProgramSource(int fd, const std::string& program, std::string name, std::uint64_t offset)
      : ByteSource(std::move(name)) {
    // PROG -d reads the file through fd's own offset: set it where the run starts.
    if (::lseek(fd, static_cast<off_t>(offset), SEEK_SET) < 0) throw_io_error("seek failed", this->name(), errno);
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) throw_io_error("pipe failed", this->name(), errno);
    from_child_ = make_pipe_end(p[0]);
    FileDesc write_end = make_pipe_end(p[1]);
    child_.emplace(std::vector<std::string>{program, "-d"}, fd, write_end.get(), command(program, true));
    // write_end closes here: the pipe ends when PROG -d exits.
  }
  ~ProgramSource() override {
    from_child_.reset();  // a child still writing gets EPIPE; then it is killed and reaped
  }

  std::size_t read(void* dst, std::size_t n) override {
    char* out = static_cast<char*>(dst);
    std::size_t got = 0;
    while (got < n && !done_) {
      const ssize_t r = ::read(from_child_.get(), out + got, n - got);
      if (r < 0) {
        if (errno == EINTR) continue;
        throw_io_error("read failed from compress program", child_->label(), errno);
      }
      if (r == 0) {
        from_child_.reset();
        done_ = true;
        child_->wait();  // a failed PROG -d is an error, not the run's end
        break;
      }
      got += static_cast<std::size_t>(r);
    }
    return got;
  }
  std::optional<std::uint64_t> size() const override { return std::nullopt; }

private:
  FileDesc from_child_;
  std::optional<Child> child_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<ByteSink> program_compressing_sink(int fd, const std::string& program, std::string name) {
  return std::make_unique<ProgramSink>(fd, program, std::move(name));
}

std::unique_ptr<ByteSource> program_decompressing_source(int fd, const std::string& program, std::string name,
                                                         std::uint64_t offset) {
  return std::make_unique<ProgramSource>(fd, program, std::move(name), offset);
}

}  // namespace corank::io
