// trace/logfile_writer.cc — LogWriter (logfile.h): a session host's log file, the layout of
// docs/logfile.md. Small chunks are staged in kLogWriteChunk pieces and large ones written
// straight from the caller's memory (the host's ring mapping), each at its place in the
// current buffer; the buffer's header goes last, when the buffer is complete, with a CRC
// that combines its own bytes' CRC with the body's.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "base/crc32.h"
#include "base/le.h"
#include "trace/logfile.h"
#include "trace/packed.h"

namespace pfc::trace {
namespace {

constexpr uint32_t kLeftOutSectionBytes = 16 + 8;  // section 3 as encoded
constexpr std::array<uint8_t, 64u << 10> kZeros{};

Result<void> write_all(int fd, const uint8_t* p, size_t n, uint64_t offset) {
  while (n > 0) {
    const ssize_t got = ::pwrite(fd, p, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return make_error(errno_text("cannot write the log file", errno));
    p += got;
    n -= static_cast<size_t>(got);
    offset += static_cast<uint64_t>(got);
  }
  return {};
}

// `n` zero bytes at `offset`.
Result<void> write_zeros(int fd, uint64_t n, uint64_t offset) {
  while (n > 0) {
    const size_t part = std::min<uint64_t>(n, kZeros.size());
    if (auto w = write_all(fd, kZeros.data(), part, offset); !w) return w;
    n -= part;
    offset += part;
  }
  return {};
}

std::string circular_size_text(uint64_t bytes) {
  return (bytes % (1u << 20)) == 0 ? std::to_string(bytes >> 20) + " MB"
                                   : std::to_string(bytes) + " bytes";
}

}  // namespace

Result<void> plan_log_layout(LogInfo& info) {
  info.buffer_size = std::clamp(info.buffer_size & ~7u, kMinLogBuffer, kMaxLogBuffer);
  info.version = kLogVersion;
  info.clock = kLogClockFiletime;
  info.pointer_size = sizeof(void*);
  info.closed = false;
  info.data_offset = 0;
  const size_t head = encode_log_header(info).size() + info.schema_room;
  if (head - kLogHeaderSize > kMaxLogSections) return make_error("log file sections too large");
  info.data_offset = static_cast<uint32_t>((head + 4095) & ~size_t{4095});
  if (!info.circular) return {};
  const uint64_t least = info.data_offset + 2ull * info.buffer_size;
  if (info.max_bytes < least)
    return make_error("a circular log file of " + circular_size_text(info.max_bytes) +
                      " holds fewer than 2 buffers of " + std::to_string(info.buffer_size >> 10) +
                      " KB (it needs at least " + std::to_string((least + (1u << 20) - 1) >> 20) +
                      " MB)");
  const uint64_t most = info.data_offset + kMaxCircularSlots * info.buffer_size;
  if ((info.max_bytes - info.data_offset) / info.buffer_size > kMaxCircularSlots)
    return make_error("a circular log file of " + circular_size_text(info.max_bytes) +
                      " holds more than " + std::to_string(kMaxCircularSlots) + " buffers of " +
                      std::to_string(info.buffer_size >> 10) + " KB (at most " +
                      std::to_string(most >> 20) + " MB, or larger buffers)");
  return {};
}

Result<LogWriter> LogWriter::create(UniqueFd fd, LogInfo info) {
  if (auto plan = plan_log_layout(info); !plan) return std::unexpected(plan.error());
  const std::vector<uint8_t> bytes = encode_log_header(info);
  // The file is made anew here, once the session is sure to start (etw/file_session.cc
  // opened it without truncating): empty, and readable by its owner only.
  if (::ftruncate(fd.get(), 0) != 0)
    return make_error(errno_text("cannot truncate the log file", errno));
  if (::fchmod(fd.get(), 0600) != 0)
    return make_error(errno_text("cannot set the log file's mode", errno));
  if (auto w = write_all(fd.get(), bytes.data(), bytes.size(), 0); !w)
    return std::unexpected(w.error());
  LogWriter out;
  out.fd_ = std::move(fd);
  out.info_ = std::move(info);
  out.chunk_.assign(std::min(kLogWriteChunk, out.info_.buffer_size), 0);
  return out;
}

uint64_t LogWriter::slots() const {
  return (info_.max_bytes - info_.data_offset) / info_.buffer_size;
}

uint64_t LogWriter::buffer_offset() const {
  const uint64_t slot = info_.circular ? sequence_ % slots() : sequence_;
  return info_.data_offset + slot * uint64_t{info_.buffer_size};
}

bool LogWriter::buffer_fits() const {
  return info_.circular || info_.max_bytes == 0 ||
         info_.data_offset + (sequence_ + 1) * info_.buffer_size <= info_.max_bytes;
}

uint32_t LogWriter::room() const {
  const uint32_t taken = kLogBufferHeaderSize + used_ + kLogChunkHeaderSize + kPackedChunkSlack;
  return taken < info_.buffer_size ? info_.buffer_size - taken : 0;
}

const EntrySet* LogWriter::defined(uint32_t stream) const {
  for (const auto& [id, set] : defined_)
    if (id == stream) return &set;
  return nullptr;
}

uint32_t LogWriter::stream_chunk_bytes(uint32_t stream, const EntrySet& used) const {
  const EntrySet* have = defined(stream);
  const uint32_t missing = have != nullptr ? used.minus(*have).size() : used.size();
  if (have != nullptr && missing == 0) return 0;
  return kLogChunkHeaderSize + kStreamChunkHead + missing * kStreamChunkEntry;
}

uint32_t LogWriter::room(uint32_t stream, const EntrySet& used) const {
  const uint32_t r = room(), def = stream_chunk_bytes(stream, used);
  return r > def ? r - def : 0;
}

Result<void> LogWriter::add_stream_chunk(uint32_t stream, const StreamInfo& info,
                                         const EntrySet& used) {
  const EntrySet* have = defined(stream);
  const EntrySet missing = have != nullptr ? used.minus(*have) : used;
  std::vector<uint8_t> c(kLogChunkHeaderSize + kStreamChunkHead +
                         missing.size() * kStreamChunkEntry);
  store_le<uint32_t>(c.data(), static_cast<uint32_t>(c.size() - kLogChunkHeaderSize));
  store_le<uint32_t>(c.data() + 4, missing.size());
  store_le<uint32_t>(c.data() + 8, stream);
  store_le<uint32_t>(c.data() + 12, kChunkStream);
  uint8_t* b = c.data() + kLogChunkHeaderSize;
  store_le<uint32_t>(b, info.pid);
  store_le<uint64_t>(b + 8, info.mono_base);
  store_le<int64_t>(b + 16, info.ft_base);
  b += kStreamChunkHead;
  for (uint32_t i = 0; i < info.count; ++i) {
    if (!missing.has(static_cast<uint8_t>(i))) continue;
    store_le<uint32_t>(b, i);
    std::memcpy(b + 8, &info.table[i], sizeof(TableEntry));
    b += kStreamChunkEntry;
  }
  if (have == nullptr) {
    defined_.emplace_back(stream, used);
  } else {
    for (auto& d : defined_)
      if (d.first == stream) d.second.merge(used);
  }
  return append(c.data(), static_cast<uint32_t>(c.size()));
}

uint32_t LogWriter::pack(const uint8_t* records, uint32_t bytes, uint32_t events,
                         const StreamInfo& info, const EntrySet& used, uint32_t& packed) {
  const uint64_t need = kPackedChunkBase + uint64_t{bytes} + kPackedChunkSlack + kPackedCopySlack;
  if (packed_.size() < need) packed_.resize(need);
  uint8_t* out = packed_.data() + kPackedChunkBase;
  uint64_t base = 0;
  packed = 0;
  uint32_t at = 0;
  for (uint32_t i = 0; i < events && bytes - at >= kMinRecordBytes; ++i) {
    // The span's words were checked, but the writer may have changed them since: every
    // record is checked again here, and one that is not whole is left out and counted.
    const uint8_t* rec = records + at;
    RecordHead h;
    std::memcpy(&h, rec, sizeof h);
    if (h.size % 8 != 0 || h.size - kMinRecordBytes > bytes - at - kMinRecordBytes) break;
    if (packed == 0) base = h.ts;
    if (plain_record(h, base, info.count, used)) [[likely]] {
      out += pack_plain(h, rec, base, out);
      packed++;
    } else if (RecordLayout l;
               record_layout(h, rec, h.size, l) && l.payload_len <= 0xFFFF &&
               (h.entry == kEntryInline || (h.entry < info.count && used.has(h.entry)))) {
      out += pack_record(h, rec, l, base, out);
      packed++;
    }
    at += h.size;
  }
  store_le<uint64_t>(packed_.data(), base);
  auto body = static_cast<uint32_t>(out - packed_.data());
  const uint32_t pad = (8 - body % 8) % 8;
  std::memset(out, 0, pad);
  return body + pad;
}

Result<void> LogWriter::add_chunk(const uint8_t* records, uint32_t bytes, uint32_t events,
                                  uint32_t stream, const StreamInfo& info, const EntrySet& used) {
  uint32_t packed = 0;
  const uint32_t body = pack(records, bytes, events, info, used, packed);
  info_.events_lost += events - packed;  // records that were not whole
  if (packed == 0) return {};
  Result<void> w;
  if (stream_chunk_bytes(stream, used) != 0) w = add_stream_chunk(stream, info, used);
  std::array<uint8_t, kLogChunkHeaderSize> h{};
  store_le<uint32_t>(h.data(), body);
  store_le<uint32_t>(h.data() + 4, packed);
  store_le<uint32_t>(h.data() + 8, stream);
  store_le<uint32_t>(h.data() + 12, kChunkRecords);
  if (w) w = append(h.data(), kLogChunkHeaderSize);
  if (w) w = append(packed_.data(), body);
  events_ += packed;
  return w;  // a failure: the buffer's events are counted lost when it ends
}

Result<bool> LogWriter::add(const EventRecord& h, const uint8_t* payload, const uint8_t* stack) {
  TableEntry entry;
  entry.provider = h.provider;
  entry.id = h.id;
  entry.version = h.version;
  entry.channel = h.channel;
  entry.level = h.level;
  entry.opcode = h.opcode;
  entry.task = h.task;
  entry.keyword = h.keyword;
  entry.flags = h.flags;
  RecordParts parts{.inline_entry = &entry,
                    .activity = h.activity != Guid{} ? &h.activity : nullptr,
                    .related = h.has_related != 0 ? &h.related : nullptr,
                    .stack = reinterpret_cast<const uint64_t*>(stack),
                    .stack_count = h.stack_count,
                    .payload = payload,
                    .payload_len = h.payload_len};
  const uint32_t size = record_bytes(parts);
  // A stream of this pid whose clock pair gives this FILETIME, or a new one.
  StreamInfo info{.pid = h.pid, .mono_base = h.ts, .ft_base = h.filetime};
  // (Looked for among the last few: events whose clocks disagree each get a stream.)
  auto stream = static_cast<uint32_t>(add_streams_.size());
  for (uint32_t i = stream; i > 0 && stream - i < 16; --i)
    if (add_streams_[i - 1].pid == h.pid && filetime_at(add_streams_[i - 1], h.ts) == h.filetime) {
      stream = i - 1;
      break;
    }
  if (stream == add_streams_.size()) add_streams_.push_back(info);
  info = add_streams_[stream];
  stream += kAddStreams;
  const uint64_t def = kLogChunkHeaderSize + kStreamChunkHead;
  if (uint64_t{size} + kLogChunkHeaderSize + kPackedChunkSlack + def >
          info_.buffer_size - kLogBufferHeaderSize ||
      h.payload_len > 0xFFFF) {
    info_.events_lost++;
    return false;
  }
  if (size > room(stream, EntrySet{}))
    if (auto w = write_buffer(); !w) return std::unexpected(w.error());
  std::vector<uint8_t> rec(size, 0);
  auto* head = reinterpret_cast<RecordHead*>(rec.data());
  head->size = size;
  head->state = kRecordEvent;
  head->ts = h.ts;
  fill_record(head, h.tid, h.cpu, kEntryInline, parts);
  if (auto w = add_chunk(rec.data(), size, 1, stream, info, EntrySet{}); !w)
    return std::unexpected(w.error());
  set_horizon(h.ts);
  return true;
}

Result<void> LogWriter::append(const uint8_t* p, uint32_t n) {
  used_ += n;
  Result<void> w;
  if (staged_ + n > chunk_.size() || n > kLogDirectWrite) w = write_staged();
  if (n > kLogDirectWrite) return w ? write_piece(p, n) : w;  // straight from the caller's memory
  std::memcpy(chunk_.data() + staged_, p, n);
  staged_ += n;
  return w;
}

Result<void> LogWriter::write_staged() {
  const uint32_t n = staged_;
  staged_ = 0;
  return n == 0 ? Result<void>{} : write_piece(chunk_.data(), n);
}

Result<void> LogWriter::write_piece(const uint8_t* p, uint32_t n) {
  const uint64_t at = buffer_offset() + kLogBufferHeaderSize + written_;
  written_ += n;
  if (full_) return {};  // full: the buffer is counted lost when it ends
  if (!started_) {
    started_ = true;
    if (!buffer_fits()) {  // sequential and full: lost, as ETW does
      full_ = true;
      return {};
    }
    if (info_.circular && sequence_ >= slots())
      if (auto w = write_zeros(fd_.get(), kLogBufferHeaderSize, buffer_offset()); !w) {
        full_ = true;
        return w;
      }
  }
  crc_ = crc32({p, n}, crc_);
  if (auto w = write_all(fd_.get(), p, n, at); !w) {
    full_ = true;  // a disk full or failing: this and every later buffer is lost, and counted
    return w;
  }
  return {};
}

void LogWriter::lose_buffer(uint32_t events) {
  info_.log_buffers_lost++;
  info_.events_lost += events;
}

Result<void> LogWriter::write_buffer() {
  if (events_ == 0) return {};
  auto w = write_staged();
  const uint32_t events = events_, used = used_, records_crc = crc_;
  const uint64_t at = buffer_offset();
  events_ = 0;
  defined_.clear();  // the next buffer defines its streams anew
  used_ = 0;
  written_ = 0;
  crc_ = 0;
  started_ = false;
  if (full_) {
    lose_buffer(events);
    return w;
  }
  std::array<uint8_t, kLogBufferHeaderSize> b{};
  store_le<uint32_t>(b.data(), kLogBufferMagic);
  store_le<uint64_t>(b.data() + 8, sequence_);
  store_le<uint32_t>(b.data() + 16, used);
  store_le<uint32_t>(b.data() + 20, events);
  store_le<uint64_t>(b.data() + 32, horizon_);
  store_le<uint32_t>(b.data() + 24, crc32_combine(crc32(b), records_crc, used));
  // Zeroes after the records (an earlier lap's bytes in a circular file, the file's end in
  // a sequential one), then the header: a buffer is valid only once it is whole.
  w = write_zeros(fd_.get(), info_.buffer_size - kLogBufferHeaderSize - used,
                  at + kLogBufferHeaderSize + used);
  if (w) w = write_all(fd_.get(), b.data(), b.size(), at);
  if (!w) {
    full_ = true;  // a disk full or failing: this and every later buffer is lost, and counted
    lose_buffer(events);
    return w;
  }
  sequence_++;
  info_.buffers_written++;
  info_.events_written += events;
  return {};
}

Result<void> LogWriter::flush() { return write_buffer(); }

Result<void> LogWriter::set_schemas(std::vector<ProviderSchema> schemas) {
  LogInfo next = info_;
  next.schemas.clear();
  next.schemas_left_out = 0;
  for (ProviderSchema& s : schemas) {
    next.schemas.push_back(std::move(s));
    // Counting section 3 always keeps room for it should a later schema be left out.
    if (encode_log_header(next).size() + kLeftOutSectionBytes > info_.data_offset) {
      next.schemas.pop_back();
      next.schemas_left_out++;
    }
  }
  const std::vector<uint8_t> bytes = encode_log_header(next);
  if (auto w = write_all(fd_.get(), bytes.data(), bytes.size(), 0); !w) {
    // Partly written, perhaps: the old sections back (best effort), which the final
    // header's CRC will describe.
    const std::vector<uint8_t> old = encode_log_header(info_);
    (void)write_all(fd_.get(), old.data(), old.size(), 0);
    return w;
  }
  info_.schemas = std::move(next.schemas);
  info_.schemas_left_out = next.schemas_left_out;
  return {};
}

Result<void> LogWriter::close(int64_t end_time, uint64_t ring_lost) {
  horizon_ = ~uint64_t{0};  // nothing comes after the last buffer
  auto w = write_buffer();
  info_.end_time = end_time;
  info_.events_lost += ring_lost;
  info_.closed = true;
  const std::vector<uint8_t> bytes = encode_log_header(info_);
  if (auto h = write_all(fd_.get(), bytes.data(), kLogHeaderSize, 0); !h) return h;
  if (::fsync(fd_.get()) != 0) return make_error(errno_text("cannot sync the log file", errno));
  return w;
}

}  // namespace pfc::trace
