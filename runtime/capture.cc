// runtime/capture.cc — writing and validating reading of the binary capture format
// (runtime/capture.h). The reader checks every length against the bytes that are really there
// before touching them, so truncated or corrupted files give an error, never a bad read.

#include <algorithm>
#include <string>

#include "base/crc32.h"
#include "base/hex.h"
#include "runtime/capture.h"

namespace pfc {
namespace {

namespace rec = internal::capture_record;
namespace hdr = internal::capture_header;

std::string hex32(uint32_t v) { return to_hex(v, 8); }

std::unexpected<Error> fail(const std::string& message) {
  return make_error("capture: " + message);
}

std::unexpected<Error> record_fail(uint64_t index, uint64_t offset, const std::string& what) {
  return internal::capture_record_error(index, offset, what);
}

}  // namespace

namespace internal {

std::unexpected<Error> capture_record_error(uint64_t index, uint64_t offset,
                                            const std::string& what) {
  return make_error("capture: record " + std::to_string(index) + " at offset " +
                    std::to_string(offset) + ": " + what);
}

Result<CaptureHeaderFields> read_capture_header(std::span<const uint8_t> b) {
  const size_t seen = std::min(b.size(), kCaptureMagic.size());
  if (seen == 0 || !std::equal(b.begin(), b.begin() + seen, kCaptureMagic.begin()))
    return fail("not a pfc capture file (bad magic at offset 0)");
  if (b.size() < kCaptureHeaderSize)
    return fail("truncated header (" + std::to_string(b.size()) + " of " +
                std::to_string(kCaptureHeaderSize) + " bytes)");
  const uint64_t version = load_le(&b[hdr::kVersion], 2);
  if (version != kCaptureVersion)
    return fail("unsupported version " + std::to_string(version) +
                " at offset 8 (this pfc reads version " + std::to_string(kCaptureVersion) + ")");
  const uint64_t header_size = load_le(&b[hdr::kHeaderSize], 2);
  if (header_size != kCaptureHeaderSize)
    return fail("header size " + std::to_string(header_size) + " at offset 10, expected " +
                std::to_string(kCaptureHeaderSize));
  CaptureHeaderFields h;
  h.providers = uint32_t(load_le(&b[hdr::kProviderCount], 4));
  h.strings = uint32_t(load_le(&b[hdr::kStringCount], 4));
  h.crc = uint32_t(load_le(&b[hdr::kBodyCrc], 4));
  h.records = load_le(&b[hdr::kRecordCount], 8);
  h.body_size = load_le(&b[hdr::kBodySize], 8);
  if (h.providers > 0xFFFF)
    return fail("provider count " + std::to_string(h.providers) + " at offset 12 exceeds 65535");
  return h;
}

Result<void> check_capture_record_fields(const uint8_t* r, uint64_t index, uint64_t off,
                                         const CaptureHeaderFields& h) {
  const uint64_t provider = load_le(r + rec::kProvider, 2);
  if (provider >= h.providers)
    return capture_record_error(index, off,
                                "provider index " + std::to_string(provider) + " out of range (" +
                                    std::to_string(h.providers) + " providers)");
  const uint64_t exe = load_le(r + rec::kExe, 4);
  if (exe != kCaptureNoExe && exe >= h.strings)
    return capture_record_error(index, off,
                                "exe index " + std::to_string(exe) + " out of range (" +
                                    std::to_string(h.strings) + " strings)");
  if (load_le(r + rec::kFlags, 2) != 0 || load_le(r + rec::kReserved, 4) != 0)
    return capture_record_error(index, off, "reserved fields are not zero");
  return {};
}

}  // namespace internal

namespace {

// decode_capture_event's body, inlined into both decoders (CaptureReader::next's loop and
// the streaming reader pay no extra call).
inline void decode_event_at(const uint8_t* r, std::span<const std::string_view> strings,
                            EventView& e) {
  const uint8_t* d = r + rec::kDescriptor;
  e = EventView{};
  e.desc =
      EventDescriptor{uint16_t(load_le(d, 2)), d[2], d[3], d[4], d[5], uint16_t(load_le(d + 6, 2)),
                      load_le(d + 8, 8)};
  e.pid = uint32_t(load_le(r + rec::kPid, 4));
  e.tid = uint32_t(load_le(r + rec::kTid, 4));
  const uint32_t exe = uint32_t(load_le(r + rec::kExe, 4));
  if (exe != kCaptureNoExe) e.exe = StrRef::of(strings[exe]);
  e.payload_size = load_le(r + rec::kPayloadSize, 4);
  e.payload = r + kCaptureRecordHeaderSize;
}

}  // namespace

namespace internal {

void decode_capture_event(const uint8_t* r, std::span<const std::string_view> strings,
                          EventView& e) {
  decode_event_at(r, strings, e);
}

void decode_capture_record(const uint8_t* r, std::span<const std::string_view> strings,
                           CaptureRecord& out) {
  out.provider = uint16_t(load_le(r + rec::kProvider, 2));
  out.timestamp = load_le(r + rec::kTimestamp, 8);
  decode_event_at(r, strings, out.event);
}

void append_capture_record(std::vector<uint8_t>& out, uint16_t provider, const EventView& e,
                           uint32_t exe, uint64_t timestamp) {
  append_le(out, e.payload_size, 4);
  append_le(out, provider, 2);
  append_le(out, 0, 2);
  append_le(out, e.desc.id, 2);
  out.push_back(e.desc.version);
  out.push_back(e.desc.channel);
  out.push_back(e.desc.level);
  out.push_back(e.desc.opcode);
  append_le(out, e.desc.task, 2);
  append_le(out, e.desc.keyword, 8);
  append_le(out, e.pid, 4);
  append_le(out, e.tid, 4);
  append_le(out, timestamp, 8);
  append_le(out, exe, 4);
  append_le(out, 0, 4);
  out.insert(out.end(), e.payload, e.payload + e.payload_size);
}

std::vector<uint8_t> capture_tables(std::span<const Guid> providers,
                                    std::span<const std::string> strings) {
  std::vector<uint8_t> tables;
  for (const Guid& g : providers) {
    const auto bytes = g.to_bytes();
    tables.insert(tables.end(), bytes.begin(), bytes.end());
  }
  for (const std::string& s : strings) {
    append_le(tables, s.size(), 4);
    tables.insert(tables.end(), s.begin(), s.end());
  }
  return tables;
}

std::vector<uint8_t> capture_header_bytes(uint32_t providers, uint32_t strings, uint32_t crc,
                                          uint64_t records, uint64_t body_size) {
  std::vector<uint8_t> out(kCaptureMagic.begin(), kCaptureMagic.end());
  append_le(out, kCaptureVersion, 2);
  append_le(out, kCaptureHeaderSize, 2);
  append_le(out, providers, 4);
  append_le(out, strings, 4);
  append_le(out, crc, 4);
  append_le(out, records, 8);
  append_le(out, body_size, 8);
  return out;
}

std::string capture_payload_limit_message(uint64_t payload) {
  return "payload of " + std::to_string(payload) + " bytes exceeds the limit of " +
         std::to_string(kMaxCapturePayload) + " bytes";
}

std::string capture_strings_limit_message(uint32_t index, uint64_t offset) {
  return "capture: the string table exceeds the limit of " + std::to_string(kMaxCaptureStrings) +
         " bytes (string " + std::to_string(index) + " at offset " + std::to_string(offset) + ")";
}

}  // namespace internal

namespace {

using internal::CaptureHeaderFields;
using internal::kMaxCapturePayload;
using internal::kMaxCaptureStrings;

// Reads the provider and string tables starting at *offset; advances it.
Result<void> read_tables(std::span<const uint8_t> b, const CaptureHeaderFields& h, uint64_t* offset,
                         std::vector<Guid>& providers, std::vector<std::string_view>& strings) {
  uint64_t off = *offset;
  if (uint64_t{h.providers} * 16 > b.size() - off)
    return fail("provider table (" + std::to_string(h.providers) + " GUIDs at offset " +
                std::to_string(off) + ") runs past the end of the file (" +
                std::to_string(b.size()) + " bytes)");
  for (uint32_t i = 0; i < h.providers; ++i, off += 16)
    providers.push_back(Guid::from_bytes(&b[off]));
  if (uint64_t{h.strings} * 4 > b.size() - off)
    return fail("string count " + std::to_string(h.strings) + " at offset 16 cannot fit in the " +
                std::to_string(b.size() - off) + " bytes after offset " + std::to_string(off));
  strings.reserve(h.strings);
  uint64_t total = 0;
  for (uint32_t i = 0; i < h.strings; ++i) {
    if (b.size() - off < 4)
      return fail("string " + std::to_string(i) + " at offset " + std::to_string(off) +
                  ": truncated length");
    const uint64_t len = load_le(&b[off], 4);
    total += len + 4;
    if (total > kMaxCaptureStrings)
      return make_error(internal::capture_strings_limit_message(i, off));
    if (len > b.size() - off - 4)
      return fail("string " + std::to_string(i) + " at offset " + std::to_string(off) +
                  ": length " + std::to_string(len) + " runs past the end of the file");
    strings.emplace_back(reinterpret_cast<const char*>(&b[off + 4]), len);
    off += 4 + len;
  }
  *offset = off;
  return {};
}

// Checks record `index` at `off`; returns the offset just past it.
Result<uint64_t> check_record(std::span<const uint8_t> b, uint64_t index, uint64_t off,
                              const CaptureHeaderFields& h) {
  const uint64_t left = b.size() - off;
  if (left < kCaptureRecordHeaderSize)
    return record_fail(index, off,
                       "truncated (" + std::to_string(left) + " of " +
                           std::to_string(kCaptureRecordHeaderSize) + " fixed bytes)");
  const uint8_t* r = &b[off];
  const uint64_t payload = load_le(r + rec::kPayloadSize, 4);
  if (payload > kMaxCapturePayload)
    return record_fail(index, off, internal::capture_payload_limit_message(payload));
  if (payload > left - kCaptureRecordHeaderSize)
    return record_fail(index, off,
                       "payload of " + std::to_string(payload) +
                           " bytes runs past the end of the file (" +
                           std::to_string(left - kCaptureRecordHeaderSize) + " bytes left)");
  if (auto fields = internal::check_capture_record_fields(r, index, off, h); !fields)
    return std::unexpected(fields.error());
  return off + kCaptureRecordHeaderSize + payload;
}

}  // namespace

bool is_capture(std::span<const uint8_t> bytes) {
  return bytes.size() >= kCaptureMagic.size() &&
         std::equal(kCaptureMagic.begin(), kCaptureMagic.end(), bytes.begin());
}

Result<uint16_t> CaptureWriter::add_provider(const Guid& guid) {
  for (size_t i = 0; i < providers_.size(); ++i)
    if (providers_[i] == guid) return uint16_t(i);
  if (providers_.size() == 0xFFFF) return make_error("capture: more than 65535 providers");
  providers_.push_back(guid);
  return uint16_t(providers_.size() - 1);
}

uint32_t CaptureWriter::intern(std::string_view text) {
  auto [it, added] = string_index_.try_emplace(std::string(text), uint32_t(strings_.size()));
  if (added) strings_.emplace_back(text);
  return it->second;
}

Result<void> CaptureWriter::add(uint16_t provider, const Event& e, uint64_t timestamp) {
  if (provider >= providers_.size())
    return make_error("capture: provider index " + std::to_string(provider) + " was never added");
  if (e.payload.size() > 0xFFFFFFFFu) return make_error("capture: payload of 4 GiB or more");
  internal::append_capture_record(body_, provider, e.view(),
                                  e.exe.empty() ? kCaptureNoExe : intern(e.exe), timestamp);
  ++records_;
  return {};
}

std::vector<uint8_t> CaptureWriter::finish() const {
  const std::vector<uint8_t> tables = internal::capture_tables(providers_, strings_);
  const uint32_t crc = crc32(body_, crc32(tables));
  std::vector<uint8_t> out =
      internal::capture_header_bytes(uint32_t(providers_.size()), uint32_t(strings_.size()), crc,
                                     records_, tables.size() + body_.size());
  out.reserve(kCaptureHeaderSize + tables.size() + body_.size());
  out.insert(out.end(), tables.begin(), tables.end());
  out.insert(out.end(), body_.begin(), body_.end());
  return out;
}

Result<CaptureReader> CaptureReader::open(std::span<const uint8_t> bytes) {
  auto header = internal::read_capture_header(bytes);
  if (!header) return std::unexpected(header.error());
  CaptureReader reader;
  uint64_t off = kCaptureHeaderSize;
  if (auto t = read_tables(bytes, *header, &off, reader.providers_, reader.strings_); !t)
    return std::unexpected(t.error());
  reader.records_begin_ = off;
  for (uint64_t i = 0; i < header->records; ++i) {
    if (off == bytes.size())
      return fail("the file ends at offset " + std::to_string(off) + " after " + std::to_string(i) +
                  " of " + std::to_string(header->records) + " records (truncated)");
    auto next = check_record(bytes, i, off, *header);
    if (!next) return std::unexpected(next.error());
    off = *next;
  }
  if (off != bytes.size())
    return fail(std::to_string(bytes.size() - off) + " unexpected bytes at offset " +
                std::to_string(off) + " after the last of " + std::to_string(header->records) +
                " records");
  if (header->body_size != bytes.size() - kCaptureHeaderSize)
    return fail("body size " + std::to_string(header->body_size) +
                " at offset 32 does not match the " +
                std::to_string(bytes.size() - kCaptureHeaderSize) + " bytes after the header");
  const uint32_t crc = crc32(bytes.subspan(kCaptureHeaderSize));
  if (crc != header->crc)
    return fail("checksum mismatch: the header (offset 20) says " + hex32(header->crc) +
                ", the body hashes to " + hex32(crc) + " (the file is corrupted)");
  reader.bytes_ = bytes;
  reader.record_count_ = header->records;
  reader.cursor_ = reader.records_begin_;
  return reader;
}

bool CaptureReader::next(CaptureRecord& out) {
  if (read_ == record_count_) return false;
  internal::decode_capture_record(bytes_.data() + cursor_, strings_, out);
  cursor_ += kCaptureRecordHeaderSize + out.event.payload_size;
  ++read_;
  return true;
}

void CaptureReader::rewind() {
  cursor_ = records_begin_;
  read_ = 0;
}

}  // namespace pfc
