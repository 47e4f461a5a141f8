// io/byte_reader.cc — block reads with read(2), errno messages, bounded growth.
#include "io/byte_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace pfc::io {

std::string input_display_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

namespace {

std::unexpected<Error> read_error(const std::string& name, int err) {
  return make_error("cannot read " + name + ": " + std::strerror(err));
}

}  // namespace

ByteReader::ByteReader(std::string name, int fd, bool owned, std::optional<uint64_t> size)
    : name_(std::move(name)), fd_(fd), owned_(owned), size_(size) {}

ByteReader::ByteReader(ByteReader&& o) noexcept { *this = std::move(o); }

ByteReader& ByteReader::operator=(ByteReader&& o) noexcept {
  if (this == &o) return *this;
  if (owned_ && fd_ >= 0) ::close(fd_);
  name_ = std::move(o.name_);
  fd_ = std::exchange(o.fd_, -1);
  owned_ = std::exchange(o.owned_, false);
  size_ = o.size_;
  buffer_ = std::move(o.buffer_);
  capacity_ = std::exchange(o.capacity_, 0);
  begin_ = std::exchange(o.begin_, 0);
  end_ = std::exchange(o.end_, 0);
  offset_ = o.offset_;
  eof_ = o.eof_;
  before_read_ = std::move(o.before_read_);
  return *this;
}

ByteReader::~ByteReader() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

Result<ByteReader> ByteReader::open(const std::string& path) {
  const std::string name = input_display_name(path);
  int fd = 0;
  const bool owned = path != "-";
  if (owned) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return read_error(name, errno);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    if (owned) ::close(fd);
    return read_error(name, err);
  }
  if (S_ISDIR(st.st_mode)) {
    if (owned) ::close(fd);
    return read_error(name, EISDIR);
  }
  std::optional<uint64_t> size;
  if (S_ISREG(st.st_mode)) size = uint64_t(st.st_size);
  ByteReader reader(name, fd, owned, size);
  if (auto g = reader.grow(kBlock); !g) return std::unexpected(g.error());
  return reader;
}

Result<void> ByteReader::grow(size_t capacity) {
  std::unique_ptr<char[]> bigger(new (std::nothrow) char[capacity + kPadding]);
  if (!bigger)
    return make_error("cannot read " + name_ + ": out of memory for a " + std::to_string(capacity) +
                      "-byte buffer");
  const size_t kept = end_ - begin_;
  if (kept != 0) std::memcpy(bigger.get(), buffer_.get() + begin_, kept);
  std::memset(bigger.get() + kept, 0, kPadding);  // bytes past end_ are never read before a fill
  buffer_ = std::move(bigger);
  capacity_ = capacity;
  begin_ = 0;
  end_ = kept;
  return {};
}

Result<ByteReader::Fill> ByteReader::fill(size_t limit) {
  if (eof_) return Fill::End;
  const size_t kept = end_ - begin_;
  if (kept >= limit) return Fill::Full;
  if (begin_ != 0) {  // move the unconsumed bytes to the front
    std::memmove(buffer_.get(), buffer_.get() + begin_, kept);
    begin_ = 0;
    end_ = kept;
  }
  if (end_ == capacity_) {
    const size_t want = std::min(limit, std::max(capacity_ * 2, kBlock));
    if (auto g = grow(want); !g) return std::unexpected(g.error());
  }
  const size_t room = std::min(capacity_, limit) - end_;
  if (before_read_) before_read_();
  for (;;) {
    const ssize_t n = ::read(fd_, buffer_.get() + end_, room);
    if (n > 0) {
      end_ += size_t(n);
      std::memset(buffer_.get() + end_, 0, kPadding);
      return Fill::More;
    }
    if (n == 0) {
      eof_ = true;
      return Fill::End;
    }
    if (errno != EINTR) return read_error(name_, errno);
  }
}

Result<bool> ByteReader::fill_to(size_t n) {
  while (end_ - begin_ < n) {
    auto f = fill(std::max(n, capacity_));
    if (!f) return std::unexpected(f.error());
    if (*f == Fill::End) return false;
  }
  return true;
}

}  // namespace pfc::io
