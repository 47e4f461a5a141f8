// io/capture_sink.cc — streaming capture writer over a temporary body file.
#include "io/capture_sink.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

#include "base/crc32.h"
#include "runtime/capture.h"

namespace pfc::io {
namespace {

constexpr size_t kChunk = size_t{1} << 20;

std::string temp_dir_for(const OutputFile& out) {
  if (!out.is_stdout() && out.is_regular()) {
    const std::filesystem::path parent = std::filesystem::path(out.name()).parent_path();
    return parent.empty() ? "." : parent.string();
  }
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp";
}

// An unnamed temporary file in `dir` (removed when closed).
Result<int> open_temp(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  std::string path = dir + "/.pfc-capture-XXXXXX";
  fd = ::mkostemp(path.data(), O_CLOEXEC);
  if (fd < 0)
    return make_error("cannot create a temporary file in " + dir + ": " + std::strerror(errno));
  ::unlink(path.c_str());
  return fd;
}

bool write_fd(int fd, const uint8_t* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= size_t(n);
  }
  return true;
}

}  // namespace

CaptureSink::CaptureSink(OutputFile& out, std::vector<Guid> providers, int fd)
    : out_(&out), providers_(std::move(providers)), body_fd_(fd) {}

CaptureSink::CaptureSink(CaptureSink&& o) noexcept
    : out_(o.out_), providers_(std::move(o.providers_)), strings_(std::move(o.strings_)),
      string_index_(std::move(o.string_index_)), body_fd_(std::exchange(o.body_fd_, -1)),
      pending_(std::move(o.pending_)), body_size_(o.body_size_), body_crc_(o.body_crc_),
      records_(o.records_) {}

CaptureSink::~CaptureSink() {
  if (body_fd_ >= 0) ::close(body_fd_);
}

Result<CaptureSink> CaptureSink::open(OutputFile& out, std::vector<Guid> providers) {
  if (providers.size() > 0xFFFF) return make_error("capture: more than 65535 providers");
  auto fd = open_temp(temp_dir_for(out));
  if (!fd) return std::unexpected(fd.error());
  return CaptureSink(out, std::move(providers), *fd);
}

uint32_t CaptureSink::intern(std::string_view text) {
  auto [it, added] = string_index_.try_emplace(std::string(text), uint32_t(strings_.size()));
  if (added) strings_.emplace_back(text);
  return it->second;
}

Result<void> CaptureSink::add(uint16_t provider, const EventView& e, uint64_t timestamp) {
  if (e.payload_size > 0xFFFFFFFFu) return make_error("capture: payload of 4 GiB or more");
  const uint32_t exe = e.exe.size == 0 ? kCaptureNoExe : intern(e.exe.view());
  internal::append_capture_record(pending_, provider, e, exe, timestamp);
  ++records_;
  if (pending_.size() >= kChunk) return flush_body();
  return {};
}

Result<void> CaptureSink::flush_body() {
  body_crc_ = pfc::crc32(pending_, body_crc_);
  if (!write_fd(body_fd_, pending_.data(), pending_.size()))
    return make_error("cannot write the temporary capture body: " +
                      std::string(std::strerror(errno)));
  body_size_ += pending_.size();
  pending_.clear();
  return {};
}

Result<void> CaptureSink::finish() {
  if (auto f = flush_body(); !f) return f;
  const std::vector<uint8_t> tables = internal::capture_tables(providers_, strings_);
  const uint32_t crc =
      uint32_t(::crc32_combine(pfc::crc32(tables), body_crc_, z_off_t(body_size_)));
  const std::vector<uint8_t> header =
      internal::capture_header_bytes(uint32_t(providers_.size()), uint32_t(strings_.size()), crc,
                                     records_, tables.size() + body_size_);
  const auto as_text = [](const std::vector<uint8_t>& v) {
    return std::string_view(reinterpret_cast<const char*>(v.data()), v.size());
  };
  out_->write(as_text(header));
  out_->write(as_text(tables));
  if (::lseek(body_fd_, 0, SEEK_SET) != 0)
    return make_error("cannot read the temporary capture body: " +
                      std::string(std::strerror(errno)));
  std::vector<char> chunk(kChunk);
  for (uint64_t left = body_size_; left > 0 && !out_->failed();) {
    const ssize_t n = ::read(body_fd_, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return make_error("cannot read the temporary capture body: " +
                        std::string(n == 0 ? "unexpected end" : std::strerror(errno)));
    out_->write(std::string_view(chunk.data(), size_t(n)));
    left -= uint64_t(n);
  }
  return {};
}

}  // namespace pfc::io
