// trace/logfile_writer.cc — LogWriter (logfile.h): a session host's log file, the layout of
// docs/logfile.md. Each buffer is built whole in memory — chunk headers, stream chunks and
// packed records put in place, zeroes after them, then its header with the CRC of it all —
// and complete buffers are written kLogBatchBytes at a time, with O_DIRECT where the file
// system takes it, so the kernel neither copies them into the page cache nor writes them
// back in the host's fsync.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstring>

#include "base/crc32.h"
#include "base/le.h"
#include "trace/logfile.h"
#include "trace/packed.h"

namespace pfc::trace {
namespace {

constexpr uint32_t kLeftOutSectionBytes = 16 + 8;  // section 3 as encoded
constexpr uint32_t kDirectAlign = 4096;            // O_DIRECT: memory, offsets and sizes

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

// A records chunk body's head (logfile.h kPackedChunkBase): its base, its thread, 0.
void put_body_head(uint8_t* body, uint64_t base, const PackedThread& thread) {
  store_le<uint64_t>(body, base);
  store_le<uint32_t>(body + 8, thread.tid);
  store_le<uint16_t>(body + 12, thread.cpu);
  store_le<uint16_t>(body + 14, 0);
}

// The header of a records chunk at `h`: its body's bytes, its records, its stream.
void put_records_header(uint8_t* h, uint32_t body, uint32_t events, uint32_t stream) {
  store_le<uint32_t>(h, body);
  store_le<uint32_t>(h + 4, events);
  store_le<uint32_t>(h + 8, stream);
  store_le<uint32_t>(h + 12, kChunkRecords);
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
  const uint32_t size = out.info_.buffer_size;
  out.batch_slots_ = std::max(1u, kLogBatchBytes / size);
  // (aligned_alloc: a size that is a multiple of the alignment)
  const uint64_t batch = uint64_t{out.batch_slots_} * size;
  void* mem =
      std::aligned_alloc(kDirectAlign, (batch + kDirectAlign - 1) / kDirectAlign * kDirectAlign);
  if (mem == nullptr) return make_error("cannot allocate the log file's buffers");
  out.batch_.reset(static_cast<uint8_t*>(mem));
  out.staged_events_.reserve(out.batch_slots_);
  // Whole buffers at offsets and of sizes that are multiples of 4 KB, from 4 KB-aligned
  // memory: what O_DIRECT asks (a file system that refuses it keeps buffered writes).
  if (size % kDirectAlign == 0 && out.info_.data_offset % kDirectAlign == 0) out.set_direct(true);
  return out;
}

void LogWriter::set_direct(bool on) {
  const int flags = ::fcntl(fd_.get(), F_GETFL);
  if (flags < 0) return;
  const int want = on ? flags | O_DIRECT : flags & ~O_DIRECT;
  direct_ = (want == flags || ::fcntl(fd_.get(), F_SETFL, want) == 0) ? on : false;
}

Result<void> LogWriter::write_buffered(const uint8_t* p, size_t n, uint64_t offset) {
  const bool direct = direct_;
  if (direct) set_direct(false);  // not whole 4 KB blocks
  auto w = write_all(fd_.get(), p, n, offset);
  if (direct) set_direct(true);
  return w;
}

uint64_t LogWriter::slots() const {
  return (info_.max_bytes - info_.data_offset) / info_.buffer_size;
}

uint64_t LogWriter::offset_of(uint64_t seq) const {
  const uint64_t slot = info_.circular ? seq % slots() : seq;
  return info_.data_offset + slot * uint64_t{info_.buffer_size};
}

bool LogWriter::fits(uint64_t seq) const {
  return info_.circular || info_.max_bytes == 0 ||
         info_.data_offset + (seq + 1) * info_.buffer_size <= info_.max_bytes;
}

void LogWriter::add_packed(uint64_t base, const PackedThread& thread, const uint8_t* records,
                           uint32_t bytes, uint32_t events, uint32_t stream, const StreamInfo& info,
                           const EntrySet& used) {
  if (stream_chunk_bytes(stream, used) != 0) add_stream_chunk(stream, info, used);
  uint8_t* h = current() + kLogBufferHeaderSize + used_;
  uint8_t* body = h + kLogChunkHeaderSize;
  const uint32_t len = (kPackedChunkBase + bytes + 7) & ~7u;
  put_body_head(body, base, thread);
  std::memcpy(body + kPackedChunkBase, records, bytes);
  std::memset(body + kPackedChunkBase + bytes, 0, len - kPackedChunkBase - bytes);
  put_records_header(h, len, events, stream);
  used_ += kLogChunkHeaderSize + len;
  events_ += events;
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

void LogWriter::add_stream_chunk(uint32_t stream, const StreamInfo& info, const EntrySet& used) {
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
  append(c.data(), static_cast<uint32_t>(c.size()));
}

uint32_t LogWriter::pack(const uint8_t* records, uint32_t bytes, uint32_t events,
                         const StreamInfo& info, const EntrySet& used, uint8_t* dst,
                         uint32_t& packed) {
  uint8_t* out = dst + kPackedChunkBase;
  // The entries a record may name: those of `used` the table has (kEntryInline never).
  uint8_t usable[256] = {};
  for (uint32_t e = 0; e < info.count && e < kMaxTableEntries; ++e)
    usable[e] = used.has(static_cast<uint8_t>(e)) ? 1 : 0;
  uint64_t base = 0;    // the first record's timestamp...
  PackedThread thread;  // ... and thread
  if (bytes >= kMinRecordBytes) {
    RecordHead first;
    std::memcpy(&first, records, sizeof first);
    base = first.ts;
    thread = {first.tid, first.cpu};
  }
  packed = 0;
  uint32_t at = 0;
  for (uint32_t i = 0; i < events && bytes - at >= kMinRecordBytes; ++i) {
    // The span's words were checked, but the writer may have changed them since: every
    // record is checked again here, and one that is not whole is left out and counted.
    const uint8_t* rec = records + at;
    RecordHead h;
    std::memcpy(&h, rec, sizeof h);
    if (h.size % 8 != 0 || h.size - kMinRecordBytes > bytes - at - kMinRecordBytes) break;
    if (plain_record(h, base, usable)) [[likely]] {
      out += pack_plain(h, rec, base, thread, out);
      packed++;
    } else if (RecordLayout l; record_layout(h, rec, h.size, l) && l.payload_len <= 0xFFFF &&
                               (h.entry == kEntryInline || usable[h.entry] != 0)) {
      out += pack_record(h, rec, l, base, thread, out);
      packed++;
    }
    at += h.size;
  }
  put_body_head(dst, base, thread);
  auto body = static_cast<uint32_t>(out - dst);
  const uint32_t pad = (8 - body % 8) % 8;
  std::memset(out, 0, pad);
  return body + pad;
}

Result<void> LogWriter::add_chunk(const uint8_t* records, uint32_t bytes, uint32_t events,
                                  uint32_t stream, const StreamInfo& info, const EntrySet& used) {
  if (stream_chunk_bytes(stream, used) != 0) add_stream_chunk(stream, info, used);
  // Packed in place, after the chunk's header (the caller checked the room).
  uint8_t* h = current() + kLogBufferHeaderSize + used_;
  uint32_t packed = 0;
  const uint32_t body = pack(records, bytes, events, info, used, h + kLogChunkHeaderSize, packed);
  info_.events_lost += events - packed;  // records that were not whole
  if (packed == 0) return {};            // (a stream chunk added for it stays: harmless)
  put_records_header(h, body, packed, stream);
  used_ += kLogChunkHeaderSize + body;
  events_ += packed;
  return {};
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
  // A failed write is returned after the event is added (and counted lost with its buffer).
  Result<void> done;
  if (size > room(stream, EntrySet{})) done = finish_buffer();
  std::vector<uint8_t> rec(size, 0);
  auto* head = reinterpret_cast<RecordHead*>(rec.data());
  head->size = size;
  head->state = kRecordEvent;
  head->ts = h.ts;
  fill_record(head, h.tid, h.cpu, kEntryInline, parts);
  if (auto w = add_chunk(rec.data(), size, 1, stream, info, EntrySet{}); !w)
    return std::unexpected(w.error());
  set_horizon(h.ts);
  if (!done) return std::unexpected(done.error());
  return true;
}

void LogWriter::append(const uint8_t* p, uint32_t n) {
  std::memcpy(current() + kLogBufferHeaderSize + used_, p, n);
  used_ += n;
}

void LogWriter::lose_buffer(uint32_t events) {
  info_.log_buffers_lost++;
  info_.events_lost += events;
}

Result<void> LogWriter::finish_buffer() {
  if (events_ == 0) return {};
  const uint32_t events = events_, used = used_;
  uint8_t* b = current();
  events_ = 0;
  used_ = 0;
  defined_.clear();                 // the next buffer defines its streams anew
  if (full_ || !fits(sequence_)) {  // sequential and full: lost, as ETW does
    full_ = true;
    lose_buffer(events);
    return {};
  }
  std::memset(b + kLogBufferHeaderSize + used, 0, info_.buffer_size - kLogBufferHeaderSize - used);
  std::memset(b, 0, kLogBufferHeaderSize);
  store_le<uint32_t>(b, kLogBufferMagic);
  store_le<uint64_t>(b + 8, sequence_);
  store_le<uint32_t>(b + 16, used);
  store_le<uint32_t>(b + 20, events);
  store_le<uint64_t>(b + 32, horizon_);
  store_le<uint32_t>(b + 24, crc32({b, kLogBufferHeaderSize + uint64_t{used}}));
  if (staged_ == 0) first_staged_ = sequence_;
  staged_events_.push_back(events);
  staged_++;
  sequence_++;
  // A batch is one write: full, or the next buffer not right after it (a circular file's
  // last slot).
  if (staged_ == batch_slots_ ||
      offset_of(sequence_) != offset_of(sequence_ - 1) + info_.buffer_size)
    return write_complete();
  return {};
}

Result<void> LogWriter::write_complete() {
  if (staged_ == 0) return {};
  const uint64_t bytes = uint64_t{staged_} * info_.buffer_size;
  uint64_t done = 0;
  Result<void> w;
  while (done < bytes) {
    const ssize_t got = ::pwrite(fd_.get(), batch_.get() + done, bytes - done,
                                 static_cast<off_t>(offset_of(first_staged_) + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && errno == EINVAL && direct_) {  // the file system refused this O_DIRECT write
      set_direct(false);
      direct_ = false;
      continue;
    }
    if (got <= 0) {
      w = make_error(errno_text("cannot write the log file", errno));
      break;
    }
    done += static_cast<uint64_t>(got);
  }
  // Buffers written whole count; the rest (a full or failing disk) are lost, and every
  // later buffer with them.
  const uint64_t whole = done / info_.buffer_size;
  for (uint32_t i = 0; i < staged_; ++i) {
    if (i < whole) {
      info_.buffers_written++;
      info_.events_written += staged_events_[i];
    } else {
      lose_buffer(staged_events_[i]);
    }
  }
  if (!w) {
    full_ = true;
    // A buffer written in part holds a new header over old bytes, which would read as
    // damage: its header is cleared (in place, so a full disk still takes it), and the
    // slot reads as a missing buffer of a file that lost buffers.
    if (done % info_.buffer_size != 0) {
      const uint8_t zeros[kLogBufferHeaderSize] = {};
      (void)write_buffered(zeros, sizeof zeros, offset_of(first_staged_ + whole));
    }
  }
  // The current buffer's bytes move to the start of the batch memory.
  if (used_ != 0) std::memmove(batch_.get(), current(), kLogBufferHeaderSize + uint64_t{used_});
  staged_ = 0;
  staged_events_.clear();
  return w;
}

Result<void> LogWriter::flush() {
  auto w = finish_buffer();
  auto c = write_complete();
  return w ? c : w;
}

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
  if (auto w = write_buffered(bytes.data(), bytes.size(), 0); !w) {
    // Partly written, perhaps: the old sections back (best effort), which the final
    // header's CRC will describe.
    const std::vector<uint8_t> old = encode_log_header(info_);
    (void)write_buffered(old.data(), old.size(), 0);
    return w;
  }
  info_.schemas = std::move(next.schemas);
  info_.schemas_left_out = next.schemas_left_out;
  return {};
}

Result<void> LogWriter::close(int64_t end_time, uint64_t ring_lost) {
  horizon_ = ~uint64_t{0};  // nothing comes after the last buffer
  auto w = flush();
  info_.end_time = end_time;
  info_.events_lost += ring_lost;
  info_.closed = true;
  const std::vector<uint8_t> bytes = encode_log_header(info_);
  if (auto h = write_buffered(bytes.data(), kLogHeaderSize, 0); !h) return h;
  if (::fsync(fd_.get()) != 0) return make_error(errno_text("cannot sync the log file", errno));
  return w;
}

}  // namespace pfc::trace
