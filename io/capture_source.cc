// io/capture_source.cc — a binary capture (docs/cli.md "The capture format") as an
// EventSource, read in blocks: the header and tables first (open), then one record at a
// time, each checked before it is returned; the CRC-32 of the body is computed on the way
// and compared after the last record. Checks that need the file's size (a regular file)
// are made up front, so a capture with bytes beyond its body (say a 4 GB sparse file) is
// rejected before any record is read. Every problem is fatal: records cannot be
// re-synchronised.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "base/crc32.h"
#include "base/hex.h"
#include "io/source_parts.h"
#include "runtime/capture.h"

namespace pfc::io {
namespace {

using internal::CaptureHeaderFields;
using internal::kMaxCapturePayload;
using internal::kMaxCaptureStrings;

SourceProblem capture_problem(const std::string& file, std::string message) {
  SourceProblem p;
  p.file = file;
  p.message = std::move(message);
  p.fatal = true;
  return p;
}

class CaptureSource final : public EventSource {
 public:
  CaptureSource(ByteReader reader, const SourceSchema& script)
      : reader_(std::move(reader)), script_(script) {}

  // Reads and checks the header and tables; the problem when they are bad.
  std::optional<SourceProblem> open() {
    auto whole = reader_.fill_to(kCaptureHeaderSize);
    if (!whole) return fail(whole.error().message);
    auto header = internal::read_capture_header(
        bytes(std::min<size_t>(reader_.data().size(), kCaptureHeaderSize)));
    if (!header) return fail(header.error().message);
    header_ = *header;
    if (auto p = check_sizes()) return p;
    reader_.consume(kCaptureHeaderSize);
    if (auto p = read_providers()) return p;
    if (auto p = read_strings()) return p;
    return std::nullopt;
  }

  Step next(SourceEvent& event, SourceProblem& problem) override {
    if (done_) return Step::End;
    consume_hashed(pending_);
    pending_ = 0;
    if (index_ == header_.records) return finish(problem);
    // The common case: the whole record is buffered and its fields are valid.
    if (const uint8_t* record = buffered_valid_record()) return emit(record, event);
    return next_checked(event, problem);
  }

  std::string_view unit() const override { return "record"; }
  uint64_t consumed() const override { return reader_.offset(); }
  std::optional<uint64_t> size() const override { return reader_.file_size(); }
  void set_before_read(std::function<void()> hook) override {
    reader_.set_before_read(std::move(hook));
  }

 private:
  // The next record with every check and its error message; refills the buffer as needed.
  Step next_checked(SourceEvent& event, SourceProblem& problem) {
    auto fixed = ensure(kCaptureRecordHeaderSize);
    if (!fixed) return stop(problem, fixed.error().message);
    const uint64_t off = reader_.offset();
    if (!*fixed) {
      if (reader_.data().empty())
        return stop(problem, "capture: the file ends at offset " + std::to_string(off) + " after " +
                                 std::to_string(index_) + " of " + std::to_string(header_.records) +
                                 " records (truncated)");
      return stop_record(problem, "truncated (" + std::to_string(reader_.data().size()) + " of " +
                                      std::to_string(kCaptureRecordHeaderSize) + " fixed bytes)");
    }
    const uint64_t payload = load_le(bytes(4).data(), 4);
    if (payload > kMaxCapturePayload)
      return stop_record(problem, internal::capture_payload_limit_message(payload));
    auto whole = ensure(kCaptureRecordHeaderSize + payload);
    if (!whole) return stop(problem, whole.error().message);
    if (!*whole)
      return stop_record(
          problem,
          "payload of " + std::to_string(payload) + " bytes runs past the end of the file (" +
              std::to_string(reader_.data().size() - kCaptureRecordHeaderSize) + " bytes left)");
    const auto record = bytes(kCaptureRecordHeaderSize + payload);
    if (auto checked = internal::check_capture_record_fields(record.data(), index_, off, header_);
        !checked)
      return stop(problem, checked.error().message);
    return emit(record.data(), event);
  }

  // The record at data()[0] when all of it is buffered and check_capture_record_fields
  // would accept it (the same conditions, without building a result), else null.
  const uint8_t* buffered_valid_record() const {
    const std::string_view d = reader_.data();
    if (d.size() < kCaptureRecordHeaderSize) return nullptr;
    const auto* r = reinterpret_cast<const uint8_t*>(d.data());
    namespace f = internal::capture_record;
    const uint32_t payload = le<uint32_t>(r + f::kPayloadSize);
    const uint32_t exe = le<uint32_t>(r + f::kExe);
    const bool ok = payload <= kMaxCapturePayload &&
                    payload <= d.size() - kCaptureRecordHeaderSize &&
                    le<uint16_t>(r + f::kProvider) < header_.providers &&
                    (exe == kCaptureNoExe || exe < header_.strings) &&
                    (le<uint16_t>(r + f::kFlags) | le<uint32_t>(r + f::kReserved)) == 0;
    return ok ? r : nullptr;
  }

  // An unsigned little-endian field: one load on a little-endian host.
  template <class T>
  static T le(const uint8_t* p) {
    if constexpr (std::endian::native == std::endian::little) {
      T v;
      std::memcpy(&v, p, sizeof v);
      return v;
    } else {
      return T(load_le(p, sizeof(T)));
    }
  }

  // Returns the checked record at `record` (= data()[0]) as the next event.
  Step emit(const uint8_t* record, SourceEvent& event) {
    namespace f = internal::capture_record;
    internal::decode_capture_event(record, string_views_, event.view);
    const uint16_t provider = le<uint16_t>(record + f::kProvider);
    event.provider = providers_[provider];
    event.def = find_event(provider, event.view.desc.id, event.view.desc.version);
    event.exclude = 0;
    event.timestamp = le<uint64_t>(record + f::kTimestamp);
    event.where = index_++;
    pending_ = kCaptureRecordHeaderSize + event.view.payload_size;
    return Step::Event;
  }

  // The schema's event for (capture provider, id, version), null if undeclared, through a
  // direct-mapped cache of the answers (a capture repeats few keys; a miss scans the
  // provider's events as before).
  const EventDef* find_event(uint16_t provider, uint16_t id, uint8_t version) {
    const uint64_t key = uint64_t{1} << 63 | uint64_t{provider} << 24 | uint64_t{id} << 8 | version;
    DefCacheEntry& slot = def_cache_[(key * 0x9E3779B97F4A7C15u) >> (64 - kDefCacheBits)];
    if (slot.key != key) {
      slot.def = script_.schema.providers[providers_[provider]].find_event(id, version);
      slot.key = key;
    }
    return slot.def;
  }

  std::span<const uint8_t> bytes(size_t n) const {
    return {reinterpret_cast<const uint8_t*>(reader_.data().data()), n};
  }

  // The checksum covers every byte after the header. Consumed bytes are hashed in bulk
  // just before the buffer is refilled (and at the end), not record by record.
  void consume_hashed(size_t n) {
    reader_.consume(n);
    unhashed_ += n;
  }
  void hash_consumed() {
    const std::string_view tail = reader_.consumed_tail(unhashed_);
    crc_ = pfc::crc32({reinterpret_cast<const uint8_t*>(tail.data()), tail.size()}, crc_);
    unhashed_ = 0;
  }
  // fill_to(n) with the consumed bytes hashed first.
  Result<bool> ensure(size_t n) {
    if (reader_.data().size() >= n) return true;
    hash_consumed();
    return reader_.fill_to(n);
  }

  SourceProblem fail(std::string message) const {
    return capture_problem(reader_.name(), std::move(message));
  }

  Step stop(SourceProblem& problem, std::string message) {
    problem = fail(std::move(message));
    done_ = true;
    return Step::Problem;
  }

  Step stop_record(SourceProblem& problem, const std::string& what) {
    return stop(problem,
                internal::capture_record_error(index_, reader_.offset(), what).error().message);
  }

  // A regular file's size must match the header before anything else is read.
  std::optional<SourceProblem> check_sizes() const {
    const uint64_t body = reader_.file_size() ? *reader_.file_size() - kCaptureHeaderSize : 0;
    if (reader_.file_size() && header_.body_size < body)
      return fail("capture: " + std::to_string(body - header_.body_size) +
                  " unexpected bytes after the body (body size " +
                  std::to_string(header_.body_size) + " at offset 32, file size " +
                  std::to_string(*reader_.file_size()) + ")");
    if (header_.records > header_.body_size / kCaptureRecordHeaderSize)
      return fail("capture: record count " + std::to_string(header_.records) +
                  " at offset 24 cannot fit in the body size " + std::to_string(header_.body_size) +
                  " at offset 32");
    return std::nullopt;
  }

  std::optional<SourceProblem> read_providers() {
    const size_t size = size_t{header_.providers} * 16;
    auto whole = ensure(size);
    if (!whole) return fail(whole.error().message);
    if (!*whole)
      return fail("capture: provider table (" + std::to_string(header_.providers) +
                  " GUIDs at offset 40) runs past the end of the file");
    for (uint32_t i = 0; i < header_.providers; ++i) {
      const Guid guid = Guid::from_bytes(bytes(size).data() + 16 * i);
      const ProviderDef* p = script_.schema.find_provider(guid);
      if (p == nullptr)
        return fail("capture provider " + std::to_string(i) + " " + guid.to_string() +
                    " is not declared in the script");
      providers_.push_back(uint32_t(p - script_.schema.providers.data()));
    }
    consume_hashed(size);
    return std::nullopt;
  }

  std::optional<SourceProblem> read_strings() {
    uint64_t total = 0;
    strings_.reserve(std::min<uint32_t>(header_.strings, 4096));
    for (uint32_t i = 0; i < header_.strings; ++i) {
      const uint64_t off = reader_.offset();
      auto len_bytes = ensure(4);
      if (!len_bytes) return fail(len_bytes.error().message);
      if (!*len_bytes)
        return fail("capture: string " + std::to_string(i) + " at offset " + std::to_string(off) +
                    ": truncated length");
      const uint64_t len = load_le(bytes(4).data(), 4);
      total += len + 4;
      if (total > kMaxCaptureStrings) return fail(internal::capture_strings_limit_message(i, off));
      auto text = ensure(4 + len);
      if (!text) return fail(text.error().message);
      if (!*text)
        return fail("capture: string " + std::to_string(i) + " at offset " + std::to_string(off) +
                    ": length " + std::to_string(len) + " runs past the end of the file");
      strings_.emplace_back(reader_.data().substr(4, len));
      consume_hashed(4 + len);
    }
    for (const std::string& s : strings_) string_views_.push_back(s);
    return std::nullopt;
  }

  // After the last record: nothing may follow, the body size and checksum must match.
  Step finish(SourceProblem& problem) {
    done_ = true;
    auto more = ensure(1);
    if (!more) return stop(problem, more.error().message);
    const uint64_t end = reader_.offset();
    if (*more)
      return stop(problem, "capture: unexpected bytes at offset " + std::to_string(end) +
                               " after the last of " + std::to_string(header_.records) +
                               " records");
    if (header_.body_size != end - kCaptureHeaderSize)
      return stop(problem, "capture: body size " + std::to_string(header_.body_size) +
                               " at offset 32 does not match the " +
                               std::to_string(end - kCaptureHeaderSize) +
                               " bytes after the header");
    if (crc_ != header_.crc)
      return stop(problem, "capture: checksum mismatch: the header (offset 20) says " +
                               to_hex(header_.crc, 8) + ", the body hashes to " + to_hex(crc_, 8) +
                               " (the file is corrupted)");
    return Step::End;
  }

  ByteReader reader_;
  const SourceSchema script_;  // a copy: the caller's may be a temporary
  CaptureHeaderFields header_;
  std::vector<uint32_t> providers_;  // capture provider index → script provider index
  std::vector<std::string> strings_;
  std::vector<std::string_view> string_views_;
  uint32_t crc_ = 0;
  size_t unhashed_ = 0;  // bytes consumed (after the header) and not yet hashed
  uint64_t index_ = 0;
  size_t pending_ = 0;  // bytes of the record last returned
  struct DefCacheEntry {
    uint64_t key = 0;  // 0: empty; else 1 << 63 | provider << 24 | id << 8 | version
    const EventDef* def = nullptr;
  };
  static constexpr unsigned kDefCacheBits = 8;
  std::array<DefCacheEntry, size_t{1} << kDefCacheBits> def_cache_{};
  bool done_ = false;
};

}  // namespace

std::expected<std::unique_ptr<EventSource>, SourceProblem> make_capture_source(
    ByteReader reader, const SourceSchema& script) {
  auto source = std::make_unique<CaptureSource>(std::move(reader), script);
  if (auto problem = source->open()) return std::unexpected(std::move(*problem));
  return source;
}

}  // namespace pfc::io
