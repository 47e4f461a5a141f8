// trace/logfile.cc — see logfile.h; the layout is docs/logfile.md.
#include "trace/logfile.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/crc32.h"
#include "base/le.h"
#include "trace/packed.h"
#include "trace/wire.h"

namespace pfc::trace {
namespace {

constexpr uint32_t kSectionSession = 1;
constexpr uint32_t kSectionSchemas = 2;
constexpr uint32_t kSectionLeftOut = 3;
constexpr int kSectionReadTries = 3;  // a reader racing the host's rewrite of the sections
constexpr uint32_t kSectionVersion = 1;
constexpr uint32_t kMaxSchemas = 4096;

uint64_t round8(uint64_t n) { return (n + 7) & ~uint64_t{7}; }

void put_section(ByteWriter& w, uint32_t type, const std::vector<uint8_t>& body) {
  w.put<uint32_t>(type);
  w.put<uint32_t>(kSectionVersion);
  w.put<uint32_t>(static_cast<uint32_t>(body.size()));
  w.put<uint32_t>(0);
  w.data().insert(w.data().end(), body.begin(), body.end());
  w.data().resize(round8(w.data().size()), 0);
}

class FdInput final : public LogInput {
 public:
  explicit FdInput(UniqueFd fd) : fd_(std::move(fd)) {}
  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
    size_t done = 0;
    while (done < n) {
      const ssize_t got =
          ::pread(fd_.get(), out + done, n - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return make_error(errno_text("cannot read", errno));
      if (got == 0) break;
      done += static_cast<size_t>(got);
    }
    return done;
  }
  bool seekable() const override { return true; }

 private:
  UniqueFd fd_;
};

}  // namespace

bool is_log_file(const uint8_t* data, size_t size) {
  return size >= sizeof kLogMagic && std::memcmp(data, kLogMagic, sizeof kLogMagic) == 0;
}

std::unique_ptr<LogInput> fd_input(UniqueFd fd) { return std::make_unique<FdInput>(std::move(fd)); }

// ---- schemas --------------------------------------------------------------------------

std::vector<uint8_t> encode_schemas(const std::vector<ProviderSchema>& schemas) {
  ByteWriter w;
  w.put<uint32_t>(static_cast<uint32_t>(schemas.size()));
  for (const ProviderSchema& s : schemas) {
    w.put(s.provider);
    w.put<uint32_t>(s.kind);
    w.bytes(std::vector<uint8_t>(s.name.begin(), s.name.end()));
    w.bytes(s.data);
  }
  return std::move(w.data());
}

Result<std::vector<ProviderSchema>> decode_schemas(const uint8_t* data, size_t size) {
  ByteReader r(data, size);
  const uint32_t count = r.get<uint32_t>();
  if (!r.ok() || count > kMaxSchemas) return make_error("bad schema section (count)");
  std::vector<ProviderSchema> out;
  for (uint32_t i = 0; i < count && r.ok(); ++i) {
    ProviderSchema s;
    s.provider = r.get<Guid>();
    s.kind = r.get<uint32_t>();
    const auto name = r.bytes(1024);
    s.name.assign(name.begin(), name.end());
    s.data = r.bytes(kMaxLogSections);
    out.push_back(std::move(s));
  }
  if (!r.ok() || !r.at_end()) return make_error("bad schema section (lengths)");
  return out;
}

// ---- header ---------------------------------------------------------------------------

std::vector<uint8_t> encode_log_header(const LogInfo& info) {
  ByteWriter sections;
  ByteWriter session;
  session.u16string(info.session);
  session.u16string(info.file_name);
  put_section(sections, kSectionSession, session.data());
  put_section(sections, kSectionSchemas, encode_schemas(info.schemas));
  if (info.schemas_left_out != 0) {
    ByteWriter left;
    left.put<uint32_t>(info.schemas_left_out);
    put_section(sections, kSectionLeftOut, left.data());
  }
  std::vector<uint8_t> out(kLogHeaderSize, 0);
  uint8_t* h = out.data();
  std::memcpy(h, kLogMagic, sizeof kLogMagic);
  store_le<uint32_t>(h + 8, info.version);
  store_le<uint32_t>(h + 12, kLogHeaderSize);
  store_le<uint32_t>(h + 16, info.buffer_size);
  store_le<uint32_t>(h + 20, info.data_offset);
  store_le<uint32_t>(h + 24, info.circular ? kLogModeCircular : 0);
  store_le<uint32_t>(h + 28, info.pointer_size);
  store_le<uint32_t>(h + 32, info.clock);
  store_le<uint32_t>(h + 36, static_cast<uint32_t>(sections.data().size()));
  store_le<int64_t>(h + 40, info.start_time);
  store_le<int64_t>(h + 48, info.end_time);
  store_le<uint64_t>(h + 56, info.max_bytes);
  store_le<uint32_t>(h + 64, info.closed ? 1 : 0);
  store_le<uint32_t>(h + 68, info.log_file_mode);
  store_le<uint64_t>(h + 72, info.buffers_written);
  store_le<uint64_t>(h + 80, info.events_written);
  store_le<uint64_t>(h + 88, info.events_lost);
  store_le<uint64_t>(h + 96, info.log_buffers_lost);
  store_le<uint32_t>(h + 108, crc32(sections.data()));
  store_le<uint32_t>(h + 104, crc32({h, 104}));
  out.insert(out.end(), sections.data().begin(), sections.data().end());
  return out;
}

Result<LogInfo> decode_log_header(const uint8_t* h, size_t size, uint32_t* sections_bytes) {
  if (size < kLogHeaderSize || !is_log_file(h, size))
    return make_error("not a pfc trace log file (docs/logfile.md)");
  if (load_le<uint32_t>(h + 104) != crc32({h, 104}))
    return make_error("damaged log file header (CRC)");
  LogInfo info;
  info.version = load_le<uint32_t>(h + 8);
  if (info.version != kLogVersion)
    return make_error("log file version " + std::to_string(info.version) +
                      " is not supported (this pfc reads version " + std::to_string(kLogVersion) +
                      ")");
  info.buffer_size = load_le<uint32_t>(h + 16);
  info.data_offset = load_le<uint32_t>(h + 20);
  const uint32_t mode = load_le<uint32_t>(h + 24);
  info.pointer_size = load_le<uint32_t>(h + 28);
  info.clock = load_le<uint32_t>(h + 32);
  *sections_bytes = load_le<uint32_t>(h + 36);
  info.start_time = load_le<int64_t>(h + 40);
  info.end_time = load_le<int64_t>(h + 48);
  info.max_bytes = load_le<uint64_t>(h + 56);
  const uint32_t closed = load_le<uint32_t>(h + 64);
  info.log_file_mode = load_le<uint32_t>(h + 68);
  info.buffers_written = load_le<uint64_t>(h + 72);
  info.events_written = load_le<uint64_t>(h + 80);
  info.events_lost = load_le<uint64_t>(h + 88);
  info.log_buffers_lost = load_le<uint64_t>(h + 96);
  info.circular = (mode & kLogModeCircular) != 0;
  info.closed = closed == 1;
  if (load_le<uint32_t>(h + 12) != kLogHeaderSize || (mode & ~kLogModeCircular) != 0 ||
      closed > 1 || info.buffer_size < kMinLogBuffer || info.buffer_size > kMaxLogBuffer ||
      info.buffer_size % 8 != 0 || *sections_bytes > kMaxLogSections ||
      info.data_offset < kLogHeaderSize + uint64_t{*sections_bytes} || info.data_offset % 8 != 0 ||
      (info.pointer_size != 4 && info.pointer_size != 8) || info.clock != kLogClockFiletime)
    return make_error("inconsistent log file header");
  if (info.circular && (info.max_bytes < info.data_offset + 2ull * info.buffer_size ||
                        (info.max_bytes - info.data_offset) / info.buffer_size > kMaxCircularSlots))
    return make_error("inconsistent log file header (circular size)");
  return info;
}

Result<void> decode_log_sections(const uint8_t* data, size_t size, LogInfo& info) {
  size_t at = 0;
  while (at < size) {
    ByteReader head(data + at, size - at);
    const uint32_t type = head.get<uint32_t>();
    const uint32_t version = head.get<uint32_t>();
    const uint32_t length = head.get<uint32_t>();
    (void)head.get<uint32_t>();
    if (!head.ok() || length > size - at - 16) return make_error("bad section length");
    const uint8_t* body = data + at + 16;
    if (type == kSectionSession && version == kSectionVersion) {
      ByteReader s(body, length);
      info.session = s.u16string(kMaxLogSections / 2);
      info.file_name = s.u16string(kMaxLogSections / 2);
      if (!s.ok()) return make_error("bad session section");
    } else if (type == kSectionSchemas && version == kSectionVersion) {
      auto schemas = decode_schemas(body, length);
      if (!schemas) return std::unexpected(schemas.error());
      info.schemas = std::move(*schemas);
    } else if (type == kSectionLeftOut && version == kSectionVersion) {
      ByteReader l(body, length);
      info.schemas_left_out = l.get<uint32_t>();
      if (!l.ok() || !l.at_end()) return make_error("bad section (schemas left out)");
    }  // other types and versions: skipped (written by a newer pfc)
    at += 16 + round8(length);
  }
  return {};
}

// ---- reader ---------------------------------------------------------------------------

Result<LogReader> LogReader::open(std::unique_ptr<LogInput> input, std::string display) {
  LogReader r;
  r.input_ = std::move(input);
  r.display_ = std::move(display);
  if (auto h = r.refresh(); !h) return std::unexpected(h.error());
  r.buffer_ = std::make_shared<std::vector<uint8_t>>(r.info_.buffer_size, 0);
  return r;
}

// The fixed header and, when their CRC differs from the last read, the sections. A file
// not closed may be rewritten meanwhile (LogWriter::set_schemas): a mismatch is read again a
// few times, then the sections are given up (sections_lost) and the events still read.
void LogReader::keep_sections(LogInfo& info) const {
  info.session = info_.session;
  info.file_name = info_.file_name;
  info.schemas = info_.schemas;
  info.schemas_left_out = info_.schemas_left_out;
}

Result<LogInfo> LogReader::read_header() {
  for (int attempt = 1;; ++attempt) {
    uint8_t head[kLogHeaderSize];
    auto got = input_->read_at(0, head, sizeof head);
    if (!got) return make_error(display_ + ": " + got.error().message);
    uint32_t sections = 0;
    auto info = decode_log_header(head, *got, &sections);
    if (!info) return make_error(display_ + ": " + info.error().message);
    const uint32_t want = load_le<uint32_t>(head + 108);
    if (have_sections_ && want == sections_crc_) {
      keep_sections(*info);
      return info;
    }
    std::vector<uint8_t> body(sections);
    Result<size_t> s = size_t{0};  // a header without sections reads nothing
    if (!body.empty()) s = input_->read_at(kLogHeaderSize, body.data(), body.size());
    if (!s) return make_error(display_ + ": " + s.error().message);
    Result<void> d = make_error("damaged log file header (sections)");
    if (*s == body.size() && want == crc32(body))
      d = decode_log_sections(body.data(), body.size(), *info);
    if (d) {
      have_sections_ = true;
      sections_crc_ = want;
      sections_lost_ = false;
      return info;
    }
    if (info->closed) return make_error(display_ + ": " + d.error().message);
    if (attempt < kSectionReadTries && input_->seekable()) continue;
    sections_lost_ = true;  // keeps what an earlier read found
    keep_sections(*info);
    return info;
  }
}

Result<void> LogReader::refresh() {
  auto info = read_header();
  if (!info) return std::unexpected(info.error());
  if (buffer_ != nullptr &&
      (info->buffer_size != info_.buffer_size || info->data_offset != info_.data_offset ||
       info->circular != info_.circular))
    return make_error(display_ + ": the log file header changed while it was read");
  info_ = std::move(*info);
  return {};
}

std::string LogReader::not_closed_warning() const {
  return display_ + ": file not closed: writer died or still writing (read " +
         std::to_string(buffers_read_) + " complete buffers" +
         (buffers_overwritten_ != 0
              ? "; " + std::to_string(buffers_overwritten_) + " overwritten before they were read"
              : std::string()) +
         (sections_lost_ ? "; its sections (session, provider schemas) are unreadable)" : ")");
}

LogReader::Step LogReader::damaged(const std::string& what) {
  problem_ = display_ + ": " + what;
  done_ = true;
  return Step::Damaged;
}

std::string LogReader::overwritten_warning() const {
  return display_ + ": " + std::to_string(buffers_overwritten_) +
         " buffers were overwritten before they were read (circular file)";
}

uint64_t LogReader::slots() const {
  return (info_.max_bytes - info_.data_offset) / info_.buffer_size;
}

// Scans every slot's header for the buffers not yet read: right magic, `sequence mod slots`
// equal to the slot, sequence ≥ expected_sequence_. Their CRCs are checked when read. A
// closed file is checked against its header instead (order_closed_circular).
Result<void> LogReader::order_circular() {
  order_.clear();
  next_index_ = 0;
  ordered_ = true;
  checked_ = info_.closed;
  gap_.clear();
  if (checked_) return order_closed_circular();
  const uint64_t slots = this->slots();
  for (uint64_t slot = 0; slot < slots; ++slot) {
    uint8_t h[kLogBufferHeaderSize];
    auto got = input_->read_at(info_.data_offset + slot * info_.buffer_size, h, sizeof h);
    if (!got) return std::unexpected(got.error());
    if (*got < sizeof h) break;
    if (load_le<uint32_t>(h) != kLogBufferMagic) continue;  // never written
    const uint64_t seq = load_le<uint64_t>(h + 8);
    if (seq % slots == slot && seq >= expected_sequence_) order_.emplace_back(seq, slot);
  }
  std::sort(order_.begin(), order_.end());
  return {};
}

// A closed circular file: its header's BuffersWritten (B) says which buffers survive —
// sequences max(B − slots, 0) … B − 1, sequence s in slot s mod slots, each exactly once.
// The oldest of them may be missing when the file lost buffers (LogBuffersLost): the
// writer clears a slot's header before it overwrites it, and a failed write leaves it so.
// order_ gets the surviving buffers from expected_sequence_ on, up to the first one that is
// missing, truncated away or out of place; gap_ names that one (raised once the buffers
// before it were read), else a buffer found in a slot never written.
Result<void> LogReader::order_closed_circular() {
  const uint64_t slots = this->slots(), total = info_.buffers_written;
  const uint64_t first = total > slots ? total - slots : 0;
  if (expected_sequence_ > total) {
    gap_ = std::to_string(expected_sequence_) + " buffers read, but the header says " +
           std::to_string(total) + " were written";
    return {};
  }
  const uint64_t from = std::max(expected_sequence_, first);
  const bool oldest_may_miss = info_.log_buffers_lost != 0 && total >= slots;
  uint64_t bad = UINT64_MAX, present = 0;  // the first sequence missing or out of place
  bool truncated = false;
  std::string bad_text, extra;
  for (uint64_t slot = 0; slot < slots; ++slot) {
    const uint64_t offset = info_.data_offset + slot * info_.buffer_size;
    uint8_t h[kLogBufferHeaderSize];
    auto got = input_->read_at(offset, h, sizeof h);
    if (!got) return std::unexpected(got.error());
    const bool valid = *got == sizeof h && load_le<uint32_t>(h) == kLogBufferMagic;
    const uint64_t seq = valid ? load_le<uint64_t>(h + 8) : 0;
    const uint64_t want = first + (slot + slots - first % slots) % slots;  // this slot's
    const std::string at = " at offset " + std::to_string(offset);
    if (want >= total) {  // a slot never written (B < slots)
      if (valid && extra.empty())
        extra = "unexpected buffer (sequence " + std::to_string(seq) + ")" + at;
      continue;
    }
    if (valid && seq == want) ++present;
    if (want < from || (valid && seq == want)) {
      if (want >= from) order_.emplace_back(want, slot);
      continue;
    }
    if (want == first && oldest_may_miss && !valid) continue;
    if (want > bad) continue;
    bad = want;
    truncated = *got < sizeof h;
    bad_text = !valid ? "missing buffer (sequence " + std::to_string(want) + ")" + at
                      : "buffer out of place (sequence " + std::to_string(seq) + ", expected " +
                            std::to_string(want) + ")" + at;
  }
  std::sort(order_.begin(), order_.end());
  std::erase_if(order_, [&](const auto& o) { return o.first > bad; });
  if (truncated)
    bad_text = "truncated: " + std::to_string(present) + " of " + std::to_string(total - first) +
               " buffers present";
  gap_ = bad != UINT64_MAX ? bad_text : extra;
  return {};
}

LogReader::Step LogReader::check_buffer(uint64_t offset, size_t got) {
  const uint8_t* b = buffer_->data();
  const bool pending = !info_.closed;
  const auto fail = [&](std::string what) {
    if (pending) return Step::Pending;  // being written (or its writer died mid-write)
    return damaged(std::move(what) + " at offset " + std::to_string(offset));
  };
  if (got < info_.buffer_size) return fail("truncated buffer");
  const uint32_t used = load_le<uint32_t>(b + 16), events = load_le<uint32_t>(b + 20);
  if (load_le<uint32_t>(b) != kLogBufferMagic || used > info_.buffer_size - kLogBufferHeaderSize ||
      used % 8 != 0 || events > used / kPackedHeadBytes || load_le<uint32_t>(b + 28) != 0 ||
      load_le<uint64_t>(b + 40) != 0)
    return fail("damaged buffer header");
  uint8_t copy[kLogBufferHeaderSize];
  std::memcpy(copy, b, sizeof copy);
  store_le<uint32_t>(copy + 24, 0);
  if (crc32({b + kLogBufferHeaderSize, used}, crc32(copy)) != load_le<uint32_t>(b + 24))
    return fail("damaged buffer (CRC mismatch)");
  const uint64_t seq = load_le<uint64_t>(b + 8);
  const uint64_t want = info_.circular ? order_[next_index_].first : expected_sequence_;
  if (seq != want)
    return fail("buffer out of sequence (" + std::to_string(seq) + ", expected " +
                std::to_string(want) + ")");
  expected_sequence_ = seq + 1;
  buffer_offset_ = offset;
  buffers_read_++;
  return Step::Event;
}

// After the buffers of the last scan: the slot of the next sequence, from its header alone
// (one read per poll for a follower, whatever the number of slots). Buffers are written in
// sequence order, so an older sequence there (or no buffer) means nothing new yet, and a
// newer one means the host lapped the reader.
LogReader::Peek LogReader::peek_next_slot() {
  const uint64_t slots = this->slots();
  const uint64_t slot = expected_sequence_ % slots;
  uint8_t h[kLogBufferHeaderSize];
  auto got = input_->read_at(info_.data_offset + slot * info_.buffer_size, h, sizeof h);
  if (!got) return Peek::Lapped;  // the full scan reports the read error
  if (*got < sizeof h || load_le<uint32_t>(h) != kLogBufferMagic) return Peek::Nothing;
  const uint64_t seq = load_le<uint64_t>(h + 8);
  if (seq < expected_sequence_ || seq % slots != slot) return Peek::Nothing;
  if (seq > expected_sequence_) return Peek::Lapped;
  order_.assign(1, {seq, slot});
  next_index_ = 0;
  return Peek::Next;
}

// Circular files: the buffers of the last scan in sequence order; once they are read, a new
// scan for what was written since (a closed file ends when it finds none). A slot that no
// longer holds the sequence the scan found was overwritten by a writer that lapped this
// reader (the file is being written): scan again and count the sequences skipped.
LogReader::Step LogReader::load_circular_buffer() {
  if (!input_->seekable()) return damaged("a circular log file must be read from a file");
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!ordered_ || next_index_ >= order_.size()) {
      if (info_.closed && checked_) return gap_.empty() ? end_of_file() : damaged(gap_);
      const Peek peek = ordered_ && !info_.closed ? peek_next_slot() : Peek::Lapped;
      if (peek == Peek::Nothing) return Step::Pending;
      if (peek == Peek::Lapped) {
        if (auto o = order_circular(); !o) return damaged(o.error().message);
        if (order_.empty() && !checked_) return Step::Pending;
        if (order_.empty()) return gap_.empty() ? end_of_file() : damaged(gap_);
        if (buffers_read_ > 0) buffers_overwritten_ += order_.front().first - expected_sequence_;
      }
    }
    const uint64_t offset = info_.data_offset + order_[next_index_].second * info_.buffer_size;
    auto got = input_->read_at(offset, fresh_buffer(), buffer_->size());
    if (!got) return damaged(got.error().message);
    const Step s = check_buffer(offset, *got);
    if (s == Step::Event) {
      next_index_++;
      return s;
    }
    if (s != Step::Pending || load_le<uint64_t>(buffer_->data() + 8) <= order_[next_index_].first)
      return s;        // damaged, or being written (a follower retries)
    ordered_ = false;  // lapped: the slot holds a newer buffer
  }
  return Step::Pending;
}

// The end of a closed file: when every buffer ever written was read, their events must
// be the header's count (a buffer whose `used` and `events` were both cut, with a valid
// CRC, would otherwise go unnoticed).
LogReader::Step LogReader::end_of_file() {
  if (buffers_read_ == info_.buffers_written && expected_sequence_ == buffers_read_ &&
      buffers_overwritten_ == 0 && events_loaded_ != info_.events_written)
    return damaged("the buffers hold " + std::to_string(events_loaded_) +
                   " events, the header says " + std::to_string(info_.events_written) +
                   " were written");
  return Step::End;
}

LogReader::Step LogReader::load_next_buffer() {
  if (info_.circular) return load_circular_buffer();
  const uint64_t slot = next_index_;
  if (info_.closed && next_index_ >= info_.buffers_written) return end_of_file();
  const uint64_t offset = info_.data_offset + slot * uint64_t{info_.buffer_size};
  auto got = input_->read_at(offset, fresh_buffer(), buffer_->size());
  if (!got) return damaged(got.error().message);
  if (*got == 0 && !info_.closed) return Step::Pending;
  if (*got == 0)
    return damaged("truncated: " + std::to_string(buffers_read_) + " of " +
                   std::to_string(info_.buffers_written) + " buffers present");
  const Step s = check_buffer(offset, *got);
  if (s == Step::Event) next_index_++;
  return s;
}

uint8_t* LogReader::fresh_buffer() {
  if (buffer_.use_count() > 1) {  // its records are being merged: read into another one
    spare_.push_back(std::move(buffer_));
    for (auto& b : spare_)
      if (b.use_count() == 1) {
        buffer_ = std::move(b);
        break;
      }
    std::erase(spare_, nullptr);
    if (buffer_ == nullptr) buffer_ = std::make_shared<std::vector<uint8_t>>(info_.buffer_size, 0);
  }
  return buffer_->data();
}

namespace {

// Whether the packed record at `p` (`room` bytes left in its chunk, whose base is `base`)
// is a whole event record of a stream that defined the table entries `entries`.
bool record_ok(const uint8_t* p, uint32_t room, uint64_t base, const EntrySet& entries,
               uint32_t& size) {
  PackedLayout l;
  if (!packed_layout(p, room, base, l)) return false;
  size = l.size;
  return l.entry == kEntryInline || (l.entry < kMaxTableEntries && entries.has(l.entry));
}

// A records chunk's body at `p` (`bytes`, a multiple of 8): its head (base, thread, 0), `n`
// whole records and zeroes after them. The damage found, or an empty text.
std::string records_damage(const uint8_t* p, uint32_t bytes, uint32_t n, const EntrySet& entries) {
  if (bytes < kPackedChunkBase || load_le<uint16_t>(p + 14) != 0) return "damaged chunk header";
  const uint64_t base = load_le<uint64_t>(p);
  uint32_t at = kPackedChunkBase, size = 0;
  for (uint32_t i = 0; i < n; ++i, at += size)
    if (!record_ok(p + at, bytes - at, base, entries, size)) return "damaged event record";
  // After the n records: the padding to 8, zeroes (more records than n, or fewer, end here).
  if (bytes - at >= 8 || std::any_of(p + at, p + bytes, [](uint8_t b) { return b != 0; }))
    return "damaged chunk (event count)";
  return {};
}

}  // namespace

// The heap order of runs: the smallest timestamp on top, then file order.
bool LogReader::run_after(const Run& a, const Run& b) {
  return a.ts != b.ts ? a.ts > b.ts : a.order > b.order;
}

// A stream chunk's body: the stream's process and clock pair, and entries. False when it
// contradicts what earlier chunks defined (entries are only added, never changed).
bool LogReader::take_stream(uint32_t stream, const uint8_t* p, uint32_t bytes, uint32_t n) {
  if (bytes != kStreamChunkHead + uint64_t{n} * kStreamChunkEntry || load_le<uint32_t>(p + 4) != 0)
    return false;
  const StreamInfo info{.pid = load_le<uint32_t>(p),
                        .mono_base = load_le<uint64_t>(p + 8),
                        .ft_base = load_le<int64_t>(p + 16)};
  auto [it, fresh] = streams_.try_emplace(stream);
  Stream& s = it->second;
  if (fresh) s.info = info;
  if (!(s.info == info)) return false;
  for (uint32_t i = 0; i < n; ++i) {
    const uint8_t* at = p + kStreamChunkHead + i * kStreamChunkEntry;
    const uint32_t index = load_le<uint32_t>(at);
    TableEntry e;
    std::memcpy(&e, at + 8, sizeof e);
    if (index >= kMaxTableEntries || load_le<uint32_t>(at + 4) != 0 || e.reserved[0] != 0 ||
        e.reserved[1] != 0 || e.reserved[2] != 0)
      return false;
    const auto k = static_cast<uint8_t>(index);
    if (s.defined.has(k) && !(s.table[k] == e)) return false;
    s.table[k] = e;
    s.defined.add(k);
  }
  return true;
}

bool LogReader::take_buffer() {
  const std::vector<uint8_t>& b = *buffer_;
  const uint32_t end = kLogBufferHeaderSize + load_le<uint32_t>(b.data() + 16);
  const uint32_t events = load_le<uint32_t>(b.data() + 20);
  const auto bad = [&](const std::string& what) {
    damaged(what + " in the buffer at offset " + std::to_string(buffer_offset_));
    return false;
  };
  std::vector<Run> found;
  uint64_t counted = 0;
  for (uint32_t at = kLogBufferHeaderSize; at < end;) {
    if (end - at < kLogChunkHeaderSize) return bad("damaged chunk header");
    const uint32_t bytes = load_le<uint32_t>(b.data() + at);
    const uint32_t n = load_le<uint32_t>(b.data() + at + 4);
    const uint32_t stream = load_le<uint32_t>(b.data() + at + 8);
    const uint32_t kind = load_le<uint32_t>(b.data() + at + 12);
    at += kLogChunkHeaderSize;
    if (bytes == 0 || bytes > end - at || bytes % 8 != 0 ||
        (kind != kChunkRecords && kind != kChunkStream) || (kind == kChunkRecords && n == 0))
      return bad("damaged chunk header");
    if (kind == kChunkStream) {
      if (!take_stream(stream, b.data() + at, bytes, n))
        return bad("damaged stream table (stream " + std::to_string(stream) + ")");
      at += bytes;
      continue;
    }
    const auto s = streams_.find(stream);
    if (s == streams_.end())
      return bad("a chunk of stream " + std::to_string(stream) + ", which no chunk defined,");
    if (const std::string d = records_damage(b.data() + at, bytes, n, s->second.defined);
        !d.empty())
      return bad(d);
    const uint64_t base = load_le<uint64_t>(b.data() + at);
    const PackedThread thread{load_le<uint32_t>(b.data() + at + 8),
                              load_le<uint16_t>(b.data() + at + 12)};
    const uint32_t first = at + kPackedChunkBase;
    found.push_back(Run{buffer_, &s->second, first, n, base, packed_ts(b.data() + first, base),
                        next_order_++, thread});
    counted += n;
    at += bytes;
  }
  if (counted != events) return bad("damaged buffer (event count)");
  events_loaded_ += events;
  horizon_ = std::max(horizon_, load_le<uint64_t>(b.data() + 32));
  for (Run& r : found) {
    runs_.push_back(std::move(r));
    std::push_heap(runs_.begin(), runs_.end(), run_after);
  }
  return true;
}

LogReader::Step LogReader::emit(RingReader::View& out) {
  std::pop_heap(runs_.begin(), runs_.end(), run_after);
  Run& r = runs_.back();
  const uint8_t* p = r.buffer->data() + r.pos;
  // Checked by take_buffer: the layout holds and the entry is defined (tables only grow).
  PackedLayout l;
  (void)packed_layout(p, static_cast<uint32_t>(r.buffer->size() - r.pos), r.base, l);
  TableEntry inline_entry;
  if (l.entry == kEntryInline) std::memcpy(&inline_entry, p + l.inline_entry, sizeof inline_entry);
  const TableEntry& e = l.entry == kEntryInline ? inline_entry : r.stream->table[l.entry];
  decode_packed(p, l, e, r.stream->info, r.thread, out.header);
  out.record = p;
  out.payload = p + l.payload;
  out.stack = p + l.stack;
  current_ = r.buffer;
  r.pos += l.size;
  if (--r.left != 0) {
    r.ts = packed_ts(r.buffer->data() + r.pos, r.base);
    std::push_heap(runs_.begin(), runs_.end(), run_after);
  } else {
    runs_.pop_back();
  }
  events_read_++;
  return Step::Event;
}

// A file whose horizons lag (damaged, or hostile) would make the reader hold every buffer:
// past kMaxHeldBytes the oldest record goes out without waiting for the horizon.
bool LogReader::holding_too_much() const {
  size_t held = buffer_.use_count() > 1 ? 1 : 0;
  for (const auto& b : spare_) held += b.use_count() > 1 ? 1 : 0;
  return held * uint64_t{info_.buffer_size} >= kMaxHeldBytes;
}

bool LogReader::release_held() {
  release_all_ = true;
  return !runs_.empty();
}

LogReader::Step LogReader::next(RingReader::View& out) {
  for (;;) {
    if (!runs_.empty() &&
        (done_ || release_all_ || runs_.front().ts <= horizon_ || holding_too_much()))
      return emit(out);
    if (done_) return problem_.empty() ? Step::End : Step::Damaged;
    const Step s = load_next_buffer();
    if (s == Step::Event) {
      take_buffer();  // damage: done_, the records before it still come
      continue;
    }
    if (s == Step::End) done_ = true;
    if (s == Step::Pending) return s;
  }
}

}  // namespace pfc::trace
