// fuzz/trace/trace_fuzzer.cc — the trace namespace's readers of shared data
// (docs/namespace.md §5: everything read from shared memory is hostile input) on corrupted
// control areas and buffers. One input (format: trace_input.h) drives three readers:
//  (a) a state file body → trace::decode_state; what decodes re-encodes to the same size
//      and bytes up to the order of the sessions (decode sorts them by slot), and decodes
//      again to the same state; optionally the body is also written as the `state` file
//      (header and CRC computed, then possibly damaged) and StateStore::read must agree;
//  (b) a ring file: a valid ring (RingWriter::create, in a private namespace) reset for
//      each input, then changed by the input's ring program through a second mapping;
//      RingReader::open and at most kMaxReads peek()/pop() rounds, each view checked to lie
//      inside the reader's data area and read whole (ASan, and a fault outside any mapping);
//      with kFlagSpans, span()/release() rounds instead (the session host's way), each span
//      checked to lie inside the data area and to be made of whole records whose sizes
//      add up to it (their words read again), every byte read, and copied into a log
//      file as the session host copies them, which must read back whole (LogCopy);
//  (c) enable parameters → etw::decode_enable_parameters; version-2 parameters re-encode
//      to the same bytes; etw::convert_enable returns a documented code, and what it
//      accepts lowers to a routing program.
// Seeds: fuzz/corpus/trace/ (make_seeds.cc). PFC_TRACE_FUZZ_VERBOSE=1 prints what each
// input reached (to check that a seed does what its name says).
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/lower.h"
#include "etw/enable_wire.h"
#include "etw/filters.h"
#include "etw/payload_blob.h"
#include "trace/dir.h"
#include "trace/logfile.h"
#include "trace/ring.h"
#include "trace/state.h"
#include "trace_input.h"

namespace {

using namespace pfc;
using namespace pfc::fuzz::trace_input;

constexpr uint64_t kCapacity = trace::kMinRingBytes;
constexpr int kMaxReads = 512;
constexpr int kMaxOps = 1024;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "trace_fuzzer: %s\n", what.c_str());
  std::abort();
}

// One ring file, with the fuzzer's own mapping of it and its header as created.
struct Ring {
  std::string name;
  trace::Mapping map;
  std::vector<uint8_t> pristine;
};

struct World {
  trace::TraceDir dir;
  std::unique_ptr<trace::StateStore> store;
  std::vector<trace::RingWriter> writers;  // keep the files as created
  Ring live;  // written by this process: its reserved records stay reserved
  Ring dead;  // written by a process key that is not alive: reserved records are skipped
};
World* g_world = nullptr;
bool g_verbose = false;

void say(const std::string& what) {
  if (g_verbose) std::fprintf(stderr, "trace_fuzzer: %s\n", what.c_str());
}

Ring make_ring(World& w, uint64_t instance, const trace::ProcessKey& key) {
  auto writer = trace::RingWriter::create(w.dir, instance, key, kCapacity);
  if (!writer) die(writer.error().message);
  w.writers.push_back(std::move(*writer));
  Ring r;
  r.name = trace::ring_name(instance, key);
  auto fd = w.dir.open_file(r.name, false);
  if (!fd) die(fd.error().message);
  auto map = trace::Mapping::map(fd->get(), trace::kRingHeaderSize + kCapacity);
  if (!map) die(map.error().message);
  r.map = std::move(*map);
  r.pristine.assign(r.map.data(), r.map.data() + trace::kRingHeaderSize);
  return r;
}

// ---- (a) the control state ------------------------------------------------------------

// The state file as StateStore writes it (trace/state.cc), then damaged as asked.
std::vector<uint8_t> state_file(const std::vector<uint8_t>& body, StateDamage damage) {
  pfc::fuzz::trace_input::Writer w;
  w.put<uint64_t>(0x4554415453434650ull);  // "PFCSTATE"
  w.put<uint32_t>(damage == kVersion ? 2 : 1);
  w.put<uint32_t>(static_cast<uint32_t>(body.size() + (damage == kBodySize ? 1 : 0)));
  w.put<uint32_t>(
      static_cast<uint32_t>(crc32_z(0, body.data(), body.size()) ^ (damage == kCrc ? 1 : 0)));
  w.put<uint32_t>(damage == kReserved ? 1 : 0);
  std::vector<uint8_t> file = std::move(w.bytes());
  file.insert(file.end(), body.begin(), body.end());
  if (damage == kMagic) file[0] ^= 1;
  if (damage == kTruncated) file.resize(23);
  if (damage == kAppended) file.push_back(0);
  return file;
}

// StateStore::read agrees with decode_state on an intact header (the reserved word is not
// checked) and refuses every other damage.
void check_state_file(const std::vector<uint8_t>& body, StateDamage damage,
                      const Result<trace::NamespaceState>& decoded) {
  World& w = *g_world;
  const std::vector<uint8_t> file = state_file(body, damage);
  auto fd = w.dir.open_file("state", true);
  if (!fd || ::ftruncate(fd->get(), 0) != 0 ||
      ::pwrite(fd->get(), file.data(), file.size(), 0) != static_cast<ssize_t>(file.size()))
    die("cannot write the state file");
  const auto read = w.store->read();
  say(std::string("state file: ") + (read ? "read" : read.error().message));
  const bool expect = decoded.has_value() && (damage == kIntact || damage == kReserved);
  if (read.has_value() != expect) __builtin_trap();
  if (read && trace::encode_state(*read) != trace::encode_state(*decoded)) __builtin_trap();
}

void check_state(const std::vector<uint8_t>& body, uint8_t flags) {
  const auto s = trace::decode_state(body.data(), body.size());
  say("state: " + (s ? std::to_string(s->sessions.size()) + " sessions, " +
                           std::to_string(s->enables.size()) + " enables"
                     : s.error().message));
  if (s) {
    const std::vector<uint8_t> again = trace::encode_state(*s);
    if (again.size() != body.size()) __builtin_trap();
    const auto s2 = trace::decode_state(again.data(), again.size());
    if (!s2 || trace::encode_state(*s2) != again) __builtin_trap();
    // Only the sessions move: the counters before them and the enables after them stay.
    trace::NamespaceState no_sessions = *s;
    no_sessions.sessions.clear();
    const std::vector<uint8_t> rest = trace::encode_state(no_sessions);
    const size_t tail = rest.size() - 28;  // u32 enable count and the enables
    if (!std::equal(body.begin(), body.begin() + 24, again.begin()) ||
        !std::equal(body.end() - static_cast<ptrdiff_t>(tail), body.end(),
                    rest.end() - static_cast<ptrdiff_t>(tail)))
      __builtin_trap();
  }
  if (flags & kFlagStateFile)
    check_state_file(body, static_cast<StateDamage>((flags >> kDamageShift) & 7), s);
}

// ---- (b) a ring -----------------------------------------------------------------------

// Applies a ring program (trace_input.h) to the fuzzer's mapping of a ring.
class RingProgram {
 public:
  explicit RingProgram(Ring& r)
      : map_(r.map.data()), h_(reinterpret_cast<trace::RingHeader*>(map_)),
        data_(map_ + trace::kRingHeaderSize) {}

  void run(Cursor& in) {
    for (int n = 0; n < kMaxOps && in.left() > 0; ++n)
      step(static_cast<RingOp>(in.get<uint8_t>() % kRingOps), in);
  }

 private:
  // Writes at the cursor, clipped to the end of the data area (never wraps, never outside).
  void write(const void* src, size_t n, size_t skip = 0) {
    const uint64_t at = (cursor_ + skip) & (kCapacity - 1);
    if (n != 0) std::memcpy(data_ + at, src, std::min<uint64_t>(n, kCapacity - at));
  }
  // The ring's stamp of `kind` at the cursor (trace/ring.h), with the header's salt.
  uint32_t stamp(uint32_t kind) const {
    return trace::ring_stamp(cursor_, std::countr_zero(kCapacity), h_->salt, kind);
  }
  void record(uint32_t size, uint32_t kind) {
    const uint32_t words[2] = {size, stamp(kind)};
    write(words, sizeof words);
  }
  void step(RingOp op, Cursor& in);

  uint8_t* map_;
  trace::RingHeader* h_;
  uint8_t* data_;
  uint64_t cursor_ = 0;
};

void RingProgram::step(RingOp op, Cursor& in) {
  switch (op) {
    case kSetHead: h_->head.store(in.get<uint64_t>()); break;
    case kSetTail:
      cursor_ = in.get<uint64_t>();
      h_->tail.store(cursor_);
      break;
    case kSetClosed: h_->closed.store(in.get<uint8_t>()); break;
    case kSetLost:
      h_->lost.store(in.get<uint64_t>());
      h_->lost_bytes.store(in.get<uint64_t>());
      break;
    case kPatchHeader: {
      const uint8_t at = in.get<uint8_t>();
      map_[at] = in.get<uint8_t>();
      break;
    }
    case kEvent: {
      trace::TableEntry entry;
      entry.id = static_cast<uint16_t>(cursor_);
      const uint16_t payload_len = in.get<uint16_t>();
      const uint8_t stack = in.get<uint8_t>();
      const std::vector<uint8_t> payload(payload_len, static_cast<uint8_t>(cursor_ >> 3));
      const std::vector<uint64_t> frames(stack, cursor_);
      const trace::RecordParts parts{.inline_entry = &entry,
                                     .stack = frames.data(),
                                     .stack_count = stack,
                                     .payload = payload.data(),
                                     .payload_len = payload_len};
      std::vector<uint8_t> rec(trace::record_bytes(parts), 0);
      auto* h = reinterpret_cast<trace::RecordHead*>(rec.data());
      h->size = static_cast<uint32_t>(rec.size());
      h->state = stamp(trace::kRecordEvent);
      trace::fill_record(h, 1, 0, trace::kEntryInline, parts);
      write(rec.data(), rec.size());
      cursor_ += rec.size();
      h_->head.store(cursor_);
      break;
    }
    case kRecord: {
      trace::RecordHead e{};
      e.size = in.get<uint32_t>();
      e.state = in.get<uint32_t>();
      if ((e.state & 4) == 0) e.state = stamp(e.state & 3);
      const uint32_t entry_parts = in.get<uint32_t>();
      e.entry = static_cast<uint8_t>(entry_parts);
      e.parts = static_cast<uint8_t>(entry_parts >> 8);
      const uint64_t stack_count = in.get<uint16_t>();
      write(&e, sizeof e);
      write(&stack_count, sizeof stack_count, sizeof e);  // where a first part's count goes
      cursor_ += e.size;
      break;
    }
    case kTable: {  // entries 0..n-1 (entry i: id i), table_count n (may be too many)
      const uint8_t n = in.get<uint8_t>();
      for (uint32_t i = 0; i < std::min<uint32_t>(n, trace::kMaxTableEntries); ++i) {
        trace::TableEntry entry;
        entry.id = static_cast<uint16_t>(i);
        std::memcpy(map_ + trace::kRingTableOffset + i * sizeof entry, &entry, sizeof entry);
      }
      h_->table_count.store(n);
      break;
    }
    case kEntryEvent: {  // u8 index, u16 payload length: a committed event naming a table entry
      const uint8_t index = in.get<uint8_t>();
      const uint16_t payload_len = in.get<uint16_t>();
      const std::vector<uint8_t> payload(payload_len, 0x5A);
      const trace::RecordParts parts{.payload = payload.data(), .payload_len = payload_len};
      std::vector<uint8_t> rec(trace::record_bytes(parts), 0);
      auto* h = reinterpret_cast<trace::RecordHead*>(rec.data());
      h->size = static_cast<uint32_t>(rec.size());
      h->state = stamp(trace::kRecordEvent);
      trace::fill_record(h, 1, 0, index, parts);
      write(rec.data(), rec.size());
      cursor_ += rec.size();
      h_->head.store(cursor_);
      break;
    }
    case kPadding:
    case kReserve: {
      const uint32_t size = in.get<uint32_t>();
      record(size, op == kPadding ? trace::kRecordPadding : trace::kRecordReserved);
      cursor_ += size;
      h_->head.store(cursor_);
      break;
    }
    case kRaw: {
      const std::vector<uint8_t> b = in.take(in.get<uint8_t>());
      write(b.data(), b.size());
      break;
    }
    case kSkip: cursor_ += in.get<uint32_t>(); break;
    case kHeadHere: h_->head.store(cursor_); break;
    case kRingOps: break;
  }
}

// A view lies inside the reader's data area, whose start is the same for every view of
// one reader and page-aligned (the mapping's start + the 4 KB header); its payload and
// stack lie inside its record, whose bytes are read.
void check_view(const trace::RingReader& r, const trace::RingReader::View& v,
                const uint8_t*& area) {
  const uint64_t off = r.consumed() & (r.capacity() - 1);
  const uint8_t* start = v.record - off;
  if (area == nullptr) area = start;
  if (start != area || reinterpret_cast<uintptr_t>(start) % 4096 != 0) __builtin_trap();
  const uint8_t* end = v.record + v.header.size;
  const uint64_t stack_bytes = 8ull * v.header.stack_count;
  if (v.header.size < trace::kMinRecordBytes || v.header.size > r.capacity() - off ||
      v.payload < v.record + trace::kMinRecordBytes || v.payload + v.header.payload_len > end ||
      (stack_bytes != 0 &&
       (v.stack < v.record + trace::kMinRecordBytes || v.stack + stack_bytes > end)))
    __builtin_trap();
  uint8_t sum = 0;
  for (uint32_t i = 0; i < v.header.payload_len; ++i) sum ^= v.payload[i];
  for (uint64_t i = 0; i < stack_bytes; ++i) sum ^= v.stack[i];
  static std::atomic<uint8_t> sink;  // keeps the reads
  sink.store(sum, std::memory_order_relaxed);
}

// A span lies inside the reader's data area (found as check_view finds it) and is made of
// `events` records whose words (size, this lap's event stamp) add up to its bytes; every
// byte is read.
void check_span(const trace::RingReader& r, const trace::RingReader::Span& s,
                const uint8_t*& area) {
  const uint64_t off = r.consumed() & (r.capacity() - 1);
  if (s.events == 0) {
    if (s.bytes != 0) __builtin_trap();
    return;
  }
  const uint8_t* start = s.data - off;
  if (area == nullptr) area = start;
  if (start != area || reinterpret_cast<uintptr_t>(start) % 4096 != 0) __builtin_trap();
  if (s.bytes > r.capacity() - off) __builtin_trap();
  uint64_t at = 0;
  uint32_t n = 0;
  uint8_t sum = 0;
  while (at < s.bytes) {
    uint64_t word = 0;
    std::memcpy(&word, s.data + at, sizeof word);
    const auto size = static_cast<uint32_t>(word);
    if ((word >> 32 & 3) != trace::kRecordEvent || size < trace::kMinRecordBytes || size % 8 != 0 ||
        size > s.bytes - at)
      __builtin_trap();
    for (uint32_t i = 0; i < size; ++i) sum ^= s.data[at + i];
    at += size;
    ++n;
  }
  if (n != s.events) __builtin_trap();
  static std::atomic<uint8_t> sink;  // keeps the reads
  sink.store(sum, std::memory_order_relaxed);
}

// The session host's copy of the spans into a log file (LogWriter::add_chunk packs each
// record, checking it): whatever the ring held, the file reads back whole — every event
// written comes back, and the reader finds no damage.
class LogCopy {
 public:
  LogCopy() {
    const int fd = ::memfd_create("trace-fuzz-log", 0);
    if (fd < 0) die("memfd_create failed");
    trace::LogInfo info;
    info.buffer_size = 1u << 20;  // larger than the ring: every span fits a buffer
    auto w = trace::LogWriter::create(trace::UniqueFd(fd), info);
    if (!w) die("LogWriter::create: " + w.error().message);
    fd_ = ::dup(fd);
    writer_.emplace(std::move(*w));
  }
  ~LogCopy() { ::close(fd_); }
  void add(const trace::RingReader& r, const trace::RingReader::Span& s) {
    const trace::StreamInfo info = r.stream();
    const trace::EntrySet all = trace::EntrySet::first(info.count);
    if (s.bytes > writer_->room(0, all) && !writer_->next_buffer()) die("next_buffer failed");
    if (!writer_->add_chunk(s.data, static_cast<uint32_t>(s.bytes), s.events, 0, info, all))
      die("add_chunk failed");
  }
  void check() {
    if (!writer_->close(1, 0)) die("close failed");
    auto in = trace::LogReader::open(trace::fd_input(trace::UniqueFd(::dup(fd_))), "copy");
    if (!in) die("the host's copy does not open: " + in.error().message);
    trace::RingReader::View v;
    uint64_t n = 0;
    trace::LogReader::Step step;
    while ((step = in->next(v)) == trace::LogReader::Step::Event) ++n;
    if (step != trace::LogReader::Step::End || n != writer_->info().events_written)
      die("the host's copy reads back " + std::to_string(n) + " of " +
          std::to_string(writer_->info().events_written) + " events: " + in->problem());
    say("log copy: " + std::to_string(n) + " events, " +
        std::to_string(writer_->info().events_lost) + " left out");
  }

 private:
  std::optional<trace::LogWriter> writer_;
  int fd_ = -1;
};

// A window ring's slices (kFlagWindows): each lies inside the reader's data area (page
// aligned, its window at the ring's tail) and is read whole; at most kMaxReads of them.
int check_slices(trace::RingReader& r) {
  int events = 0;
  for (int i = 0; i < kMaxReads; ++i) {
    const trace::RingReader::Slice s = r.slice(true);
    if (s.data == nullptr && !s.complete) break;
    if (s.data != nullptr) {
      const uint64_t off = r.consumed() & (r.capacity() - 1);
      const auto* area = reinterpret_cast<const uint8_t*>(
          (reinterpret_cast<uintptr_t>(s.data) - off) & ~uintptr_t{4095});
      if (s.data < area + off + trace::kWindowHeadBytes || s.data + s.bytes > area + r.capacity())
        __builtin_trap();
      uint8_t sum = 0;
      for (uint32_t k = 0; k < s.bytes; ++k) sum ^= s.data[k];
      static std::atomic<uint8_t> sink;  // keeps the reads
      sink.store(sum, std::memory_order_relaxed);
    }
    events += static_cast<int>(s.events);
    r.take(s);
  }
  return events;
}

void check_ring(Cursor& in, uint8_t flags) {
  World& w = *g_world;
  Ring& ring = (flags & kFlagDeadWriter) ? w.dead : w.live;
  std::memcpy(ring.map.data(), ring.pristine.data(), ring.pristine.size());
  std::memset(ring.map.data() + trace::kRingHeaderSize, 0, kCapacity);
  if (flags & kFlagWindows)
    reinterpret_cast<trace::RingHeader*>(ring.map.data())->window_shift = 10;
  RingProgram(ring).run(in);
  auto reader = trace::RingReader::open(w.dir, ring.name);
  if (!reader) return say("ring: " + reader.error().message);
  if (reader->windowed()) {
    const int events = check_slices(*reader);
    const bool finished = reader->finished();
    say("window ring: " + std::to_string(events) + " events" +
        (reader->damaged() ? ", damaged" : "") + (finished ? ", finished" : ""));
    if (reader->damaged() && reader->slice(true).data != nullptr) __builtin_trap();
    return;
  }
  const uint8_t* area = nullptr;
  int views = 0;
  if (flags & kFlagSpans) {
    LogCopy copy;
    for (int spans = 0; spans < kMaxReads; ++spans) {
      const trace::RingReader::Span s = reader->span(~uint64_t{0}, ~uint64_t{0});
      check_span(*reader, s, area);
      if (s.events == 0) break;
      copy.add(*reader, s);
      views += static_cast<int>(s.events);
      reader->release(s.bytes);
    }
    copy.check();
  }
  for (; views < kMaxReads; ++views) {
    const trace::RingReader::View* v = reader->peek();
    if (v == nullptr) break;
    check_view(*reader, *v, area);
    reader->pop();
  }
  const bool finished = reader->finished();
  say("ring: " + std::to_string(views) + " events, consumed " + std::to_string(reader->consumed()) +
      (reader->damaged() ? ", damaged" : "") + (finished ? ", finished" : ""));
  if (reader->damaged() && reader->peek() != nullptr) __builtin_trap();  // damaged stays damaged
}

// ---- (c) enable parameters --------------------------------------------------------------

// Makes PAYLOAD descriptors' blobs pass the size and checksum checks, so the fuzzer
// reaches the blob's tables.
void fix_blobs(etw::DecodedParameters& p) {
  for (size_t i = 0; i < p.descriptors.size(); ++i) {
    std::vector<uint8_t>& b = p.data[i];
    if (p.descriptors[i].Type != EVENT_FILTER_TYPE_PAYLOAD || b.size() < etw::kBlobHeaderSize)
      continue;
    const auto size = static_cast<uint32_t>(b.size());
    std::memcpy(b.data() + 8, &size, 4);
    const uint32_t sum = etw::blob_checksum(b.data(), b.size());
    std::memcpy(b.data() + etw::kBlobChecksumOffset, &sum, 4);
  }
}

void check_enable(const std::vector<uint8_t>& bytes, uint8_t flags, uint8_t level, uint64_t any,
                  uint64_t all) {
  auto d = etw::decode_enable_parameters(bytes);
  if (!d) return say("enable: malformed");
  if (d->has && d->params.Version == ENABLE_TRACE_PARAMETERS_VERSION_2) {
    const auto again = etw::encode_enable_parameters(&d->params);
    if (!again || *again != bytes) __builtin_trap();
  }
  if (flags & kFlagFixBlobs) fix_blobs(*d);
  etw::EnableRequest req;
  const ULONG rc = etw::convert_enable(level, any, all, d->has ? &d->params : nullptr, &req);
  say("enable: " + std::to_string(d->descriptors.size()) + " descriptors, convert_enable " +
      std::to_string(rc) + (req.params.payload.empty() ? "" : ", payload filters"));
  if (rc != ERROR_SUCCESS && rc != ERROR_INVALID_PARAMETER && rc != ERROR_NOT_SUPPORTED)
    __builtin_trap();
  if (rc != ERROR_SUCCESS) return;
  ProgramSpec spec;  // a provider process without the manifest compiles what was accepted
  spec.provider.name = "fuzz";
  spec.provider.guid = req.payload_provider.value_or(Guid{});
  spec.sessions.push_back(SessionEntry{0, req.params});
  if (!lower(spec)) __builtin_trap();
}

}  // namespace

// A private trace namespace (removed at exit) with one ring of a live writer (this
// process) and one of a writer that is gone.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  static std::string path = [] {
    char tmpl[] = "/dev/shm/pfc-trace-fuzz-XXXXXX";
    char tmpl2[] = "/tmp/pfc-trace-fuzz-XXXXXX";
    const char* made = ::mkdtemp(tmpl);
    if (made == nullptr) made = ::mkdtemp(tmpl2);
    if (made == nullptr) die("cannot make a namespace directory");
    return std::string(made);
  }();
  ::setenv("PFC_TRACE_DIR", path.c_str(), 1);
  g_verbose = std::getenv("PFC_TRACE_FUZZ_VERBOSE") != nullptr;
  std::atexit([] { std::filesystem::remove_all(path); });
  auto dir = trace::TraceDir::open();
  if (!dir) die(dir.error().message);
  g_world = new World{std::move(*dir), nullptr, {}, {}, {}};
  auto store = trace::StateStore::open(g_world->dir);
  if (!store) die(store.error().message);
  g_world->store = std::make_unique<trace::StateStore>(std::move(*store));
  const trace::ProcessKey self = trace::self_process();
  g_world->live = make_ring(*g_world, 1, self);
  g_world->dead = make_ring(*g_world, 2, trace::ProcessKey{self.pid, self.start + 1});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;
  Cursor in(data, size);
  const auto flags = in.get<uint8_t>();
  const auto level = in.get<uint8_t>();
  const auto any = in.get<uint64_t>();
  const auto all = in.get<uint64_t>();
  const std::vector<uint8_t> state = in.take(in.get<uint16_t>());
  const std::vector<uint8_t> enable = in.take(in.get<uint16_t>());
  check_state(state, flags);
  check_enable(enable, flags, level, any, all);
  check_ring(in, flags);
  return 0;
}
