// fuzz/logfile/logfile_fuzzer.cc — the log-file reader (docs/logfile.md "Reading damaged
// and unfinished files") on arbitrary files: trace::LogReader::open, then next() until the
// end (bounded), every event's payload and stack read whole (ASan catches a view outside
// the reader's buffer), a Pending file refreshed once (a follower); the same bytes through
// a forward-only input (standard input's path); and the schema section decoder, whose
// accepted inputs re-encode to the same bytes. Contract checks: an open error and a
// Damaged end carry a problem naming the file.
// Seeds: fuzz/corpus/logfile/ (make_seeds.cc).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "trace/logfile.h"

namespace {

using namespace pfc;

class MemInput final : public trace::LogInput {
 public:
  MemInput(const uint8_t* data, size_t size, bool seekable)
      : data_(data), size_(size), seekable_(seekable) {}
  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
    if (!seekable_) {
      if (offset < pos_) return make_error("cannot read backwards");
      pos_ = offset;
    }
    if (offset >= size_) return size_t{0};
    const size_t have = std::min<uint64_t>(n, size_ - offset);
    std::memcpy(out, data_ + offset, have);
    if (!seekable_) pos_ = offset + have;
    return have;
  }
  bool seekable() const override { return seekable_; }

 private:
  const uint8_t* data_;
  size_t size_;
  bool seekable_;
  uint64_t pos_ = 0;
};

volatile uint64_t g_sink = 0;

void touch(const trace::RingReader::View& v) {
  uint64_t sum = 0;
  for (uint32_t i = 0; i < v.header.payload_len; ++i) sum += v.payload[i];
  for (uint32_t i = 0; i < 8u * v.header.stack_count; ++i) sum += v.stack[i];
  g_sink = g_sink + sum;
}

void read_all(const uint8_t* data, size_t size, bool seekable) {
  auto r = trace::LogReader::open(std::make_unique<MemInput>(data, size, seekable), "F");
  if (!r) {
    if (r.error().message.rfind("F: ", 0) != 0) std::abort();  // names the file
    return;
  }
  trace::RingReader::View v;
  bool refreshed = false;
  for (int i = 0; i < 200000; ++i) {
    const auto step = r->next(v);
    if (step == trace::LogReader::Step::Event) {
      touch(v);
      continue;
    }
    if (step == trace::LogReader::Step::Damaged && r->problem().rfind("F: ", 0) != 0) std::abort();
    if (step == trace::LogReader::Step::Pending && !refreshed && seekable) {
      refreshed = true;
      if (r->refresh()) continue;
    }
    if (step == trace::LogReader::Step::Pending && r->release_held()) continue;
    break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  read_all(data, size, true);
  read_all(data, size, false);
  if (auto s = trace::decode_schemas(data, size)) {
    if (trace::encode_schemas(*s) != std::vector<uint8_t>(data, data + size)) std::abort();
  }
  return 0;
}
