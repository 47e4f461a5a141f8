// trace/host.cc — see host.h.
#include "trace/host.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "trace/logfile.h"
#include "trace/merge.h"
#include "trace/names.h"
#include "trace/packed.h"
#include "trace/state.h"
#include "trace/wire.h"

namespace pfc::trace {
namespace {

constexpr uint32_t kModeCircular = 0x2;  // EVENT_TRACE_FILE_MODE_CIRCULAR
constexpr int kLogFd = 3;
// A round that moved less than this sleeps host_idle_sleep_ns before the next.
constexpr uint64_t kBusyBytes = 64u << 10;
// New writers' rings are looked for this often: a fresh writer at full pace fills a 2 MB
// ring in about 10 ms, before the host would see it at the consumers' kScanNs.
constexpr uint64_t kHostScanNs = 1'000'000;
// How long a host sleeps when nothing wakes it: with no ring yet (DirWatch: a new ring or
// the state's replacement does), and with every ring's doorbell armed (a writer that
// filled a quarter of its ring does; a flush request does). Bounds how late the flush
// timer, a slow writer's open window and a flush request of a controller that does not
// ring the bell are served.
constexpr uint64_t kDozeNs = 50'000'000;
// A window ring that completed no window for this long gives its open window's committed
// part even in a busy round (move_ring).
constexpr uint64_t kOpenWindowNs = 10'000'000;

// The pfc enable extensions among an enable's descriptors (EnableEntry::filters: the
// layout of etw/enable_wire.h), appended to `out` as schemas of `provider`. Malformed
// bytes add nothing; readers validate what they decode.
void add_ext_schemas(const Guid& provider, const std::vector<uint8_t>& filters,
                     std::vector<ProviderSchema>& out) {
  ByteReader r(filters.data(), filters.size());
  for (int i = 0; i < 3; ++i) (void)r.get<uint32_t>();  // version, EnableProperty, ControlFlags
  (void)r.get<Guid>();                                  // SourceId
  const uint32_t count = r.get<uint32_t>();
  for (uint32_t i = 0; r.ok() && i < count; ++i) {
    const uint32_t type = r.get<uint32_t>();
    std::vector<uint8_t> data = r.bytes(kMaxFilterBytes);
    if (r.ok() && type == kHostSchemaFilterType)
      out.push_back(ProviderSchema{provider, kSchemaPfcExtension, {}, std::move(data)});
  }
}

// `next` replaces the schema of the same provider in `known` or is appended (a provider
// disabled later keeps its schema: its events are in the file). True when `known` changed.
bool merge_schema(std::vector<ProviderSchema>& known, ProviderSchema next) {
  for (ProviderSchema& k : known) {
    if (k.provider != next.provider) continue;
    if (k == next) return false;
    k = std::move(next);
    return true;
  }
  known.push_back(std::move(next));
  return true;
}

// The bytes of the longest prefix of the run `s` that fits in the current buffer with a
// stream chunk of only the entries its records name among the `count` of the ring's table
// (`used`: those; a record naming another is damaged, which the file's readers name). Each
// record's size and table index are read (the run's words were checked; a size changed
// since, by a writer scribbling on committed records, ends the prefix).
uint64_t named_prefix(const RingReader::Span& s, const LogWriter& w, uint32_t stream,
                      uint32_t count, EntrySet& used) {
  used = EntrySet{};
  uint64_t bytes = 0;
  while (bytes < s.bytes) {
    RecordHead h;
    std::memcpy(&h, s.data + bytes, sizeof h);
    if (h.size < kMinRecordBytes || h.size > s.bytes - bytes) break;
    EntrySet next = used;
    if (h.entry < count) next.add(h.entry);
    if (bytes + h.size + w.stream_chunk_bytes(stream, next) > w.room()) break;
    used = next;
    bytes += h.size;
  }
  return bytes;
}

// The record at tail, which an empty buffer cannot take beside the ring's whole table:
// alone, with a stream chunk of only the entry it names (a large table in small buffers),
// else lost and counted (larger than a buffer).
void move_alone(RingReader& r, LogWriter& w, uint32_t stream, Moved& m) {
  const RingReader::View* v = r.peek();  // checked in full
  if (v == nullptr) return;
  const uint32_t size = v->header.size;
  EntrySet used;
  // (Read again: a writer may have changed it since the check; an entry not published is
  // damage the file's readers name.)
  if (const uint8_t e = v->record[offsetof(RecordHead, entry)]; e < r.stream().count) used.add(e);
  if (size <= w.room(stream, used)) {
    (void)w.add_chunk(v->record, size, 1, stream, r.stream(), used);
    m.bytes += size;
    m.last_ts = v->header.ts;
  } else {
    w.lose_event();
  }
  r.pop();
  m.events++;
}

}  // namespace

Moved move_runs(RingReader& r, LogWriter& w, uint64_t limit, uint32_t stream) {
  Moved m;
  for (;;) {
    // The room once the buffer defines the ring's whole table (docs/logfile.md "The
    // session host"); the span reads the table anew, and when that grew the span is taken
    // again with the room it leaves (tables only grow, to kMaxTableEntries at most). A
    // large table in small buffers (the entries the buffer lacks would take more than an
    // eighth of it): only the entries the records name.
    RingReader::Span s;
    EntrySet used;
    bool whole = true;
    for (uint32_t count = ~0u; count != r.stream().count;) {
      count = r.stream().count;
      used = EntrySet::first(count);
      whole = w.stream_chunk_bytes(stream, used) <= w.info().buffer_size / 8;
      s = r.span(limit, w.room(stream, whole ? used : EntrySet{}));
    }
    if (!whole && s.events != 0) {
      const uint64_t bytes = named_prefix(s, w, stream, r.stream().count, used);
      if (bytes != s.bytes) s = r.span(limit, bytes);
    }
    if (s.events != 0) {
      (void)w.add_chunk(s.data, static_cast<uint32_t>(s.bytes), s.events, stream, r.stream(), used);
      r.release(s.bytes);
      m.bytes += s.bytes;
      m.events += s.events;
      m.last_ts = s.last_ts;
    }
    if (s.stop == RingReader::Span::Stop::Full) {
      // The run was taken by its ring bytes, and packed it takes fewer: the buffer ends
      // only when not even the next record fits.
      if (s.events == 0 && w.empty()) move_alone(r, w, stream, m);
      else if (s.events == 0) (void)w.next_buffer();
      continue;
    }
    if (s.events == 0) return m;
  }
}

namespace {

// The entries the packed records of `s` name (a large table in small buffers); false when
// a record is not whole, which the file's readers would call damage: then the slice is
// dropped and counted.
bool named_entries(const RingReader::Slice& s, uint32_t count, EntrySet& used) {
  used = EntrySet{};
  uint32_t at = 0;
  for (uint32_t i = 0; i < s.events; ++i) {
    PackedLayout l;
    if (!packed_layout(s.data + at, s.bytes - at, s.base, l)) return false;
    if (l.entry != kEntryInline && l.entry < count) used.add(l.entry);
    at += l.size;
  }
  return at == s.bytes;
}

}  // namespace

Moved move_windows(RingReader& r, LogWriter& w, uint32_t stream, bool partial) {
  Moved m;
  for (;;) {
    const RingReader::Slice s = r.slice(partial);
    if (s.data == nullptr && !s.complete) return m;
    if (s.events == 0) {  // a window of padding only, or its last part empty
      m.windows += s.complete ? 1 : 0;
      r.take(s);
      continue;
    }
    const uint32_t count = r.stream().count;
    EntrySet used = EntrySet::first(count);
    bool fits = true;
    if (w.stream_chunk_bytes(stream, used) > w.info().buffer_size / 8 &&
        !named_entries(s, count, used))
      fits = false;
    if (fits && s.bytes > w.room(stream, used)) {
      if (!w.empty()) {
        (void)w.next_buffer();
        continue;  // the same slice again, into an empty buffer
      }
      fits = false;
    }
    if (fits) {
      w.add_packed(s.base, s.thread, s.data, s.bytes, s.events, stream, r.stream(), used);
      m.bytes += s.bytes;
    } else {
      w.lose_events(s.events);
    }
    m.events += s.events;
    m.windows += s.complete ? 1 : 0;
    r.take(s);
  }
}

namespace {

class Host {
 public:
  Host(const TraceDir& dir, StateStore store, const SessionEntry& e, LogWriter writer)
      : dir_(dir), store_(std::move(store)), rings_(e.instance, kHostScanNs),
        writer_(std::move(writer)), instance_(e.instance) {
    flush_ns_ = uint64_t{e.flush_timer != 0 ? e.flush_timer : 1} * 1'000'000'000;
    rings_.watch(dir_);
    idle_sleep_ns_ = host_idle_sleep_ns(e);
    // Without it (a file system without FIFOs) the host sleeps idle_sleep_ns_ at most.
    if (auto bell = dir_.open_fifo(bell_name(instance_), true)) bell_ = std::move(*bell);
  }
  ~Host() {
    if (bell_) dir_.remove(bell_name(instance_));
  }
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  Result<void> run(int marker_fd) {
    marker_fd_ = marker_fd;
    uint64_t last_flush = mono_ns();
    uint64_t moved_awake = 0;  // bytes moved since the last wait
    for (;;) {
      const uint64_t now = mono_ns();
      rings_.scan(dir_, store_, now);
      // A failed write makes the writer count everything as lost from then on: the host
      // keeps moving the rings' records, so writers and STOP behave as with a full file.
      const uint64_t moved = move_records(now);
      moved_awake += moved;
      quiet_ = moved < kBusyBytes;
      if (moved != 0) publish();
      note_schemas();
      const bool asked = flush_asked(now);
      if ((writer_.pending() && now - last_flush >= flush_ns_) || asked) {
        if (asked) {  // the records committed before the request, open windows' too
          take_open_ = true;
          (void)move_records(now);
          take_open_ = false;
        }
        (void)writer_.flush();
        last_flush = now;
        publish();
        if (asked) answer_flush();
      }
      if (rings_.oldest().view == nullptr && rings_.finished(now)) break;
      if (moved < kBusyBytes) {
        // Little to move: the complete buffers held for a batch go now, so a reader
        // following the file waits no longer than this round for them.
        if (writer_.write_complete()) publish();
        // With no ring yet there is nothing to move until a writer creates one, which
        // wakes the wait, as the state's replacement does (a stop). After a wake-up whose
        // rounds moved less than kBusyBytes (no writer is busy), with every ring's bell
        // armed, until a writer or a flush request rings it (docs/logfile.md "The session
        // host"). Else idle_sleep_ns_: busy writers keep the host on that beat, so it is
        // never a quarter of a ring behind them.
        const bool idle = moved_awake < kBusyBytes;
        const uint64_t sleep = rings_.rings().empty() ? kDozeNs
                               : idle && arm_bells()  ? doze_ns(now, last_flush)
                                                      : idle_sleep_ns_;
        const uint32_t seen =
            rings_.wait(soon_ ? std::min(sleep, kHostScanNs) : sleep, bell_.get());
        moved_awake = 0;
        if (armed_) disarm_bells();
        soon_ = (seen & DirWatch::kWatchOther) != 0;
        if ((seen & DirWatch::kWatchBell) != 0) next_flush_check_ = 0;  // a flush request, maybe
      }
    }
    note_schemas();
    // Every event a writer put into a ring or dropped is in the file or counted lost: the
    // rings' drops, and what was reserved but never taken (given up in a damaged ring,
    // left behind a record never committed, a dead writer's reservation).
    uint64_t ring_lost = rings_.left_behind();
    for (const auto& r : rings_.rings()) ring_lost += r->lost();
    auto closed = writer_.close(filetime_now(), ring_lost);
    publish();
    return closed;
  }

 private:
  // A FLUSH request (a monotonic time in the marker) whose events are all taken: every
  // record committed before it is older than the merge horizon by now, and no ready
  // record is left (run() takes those first). Checked every kScanNs, and at once after the
  // bell rang (request_host_flush rings it); one not answered yet keeps the host awake.
  bool flush_asked(uint64_t now) {
    if (now < next_flush_check_) return false;
    next_flush_check_ = now + kScanNs;
    uint64_t req = 0;
    if (::pread(marker_fd_, &req, sizeof req, 32) != static_cast<ssize_t>(sizeof req)) return false;
    flush_waiting_ = req > flush_done_;
    if (!flush_waiting_ || now < req + kLagNs) return false;
    flush_req_ = req;
    return true;
  }
  void answer_flush() {
    flush_done_ = flush_req_;
    flush_waiting_ = false;
    (void)!::pwrite(marker_fd_, &flush_done_, sizeof flush_done_, 40);
  }

  // Before a sleep: asks every ring's writer to ring the bell once a quarter of its ring is
  // unread (docs/namespace.md §3 "The doorbell"). False — none left armed — when the host
  // may not sleep long: it has no bell or no watch of the directory (a new ring would go
  // unseen), the session stopped, a flush request waits, or a ring's writer has no bell or
  // a quarter of its ring is unread already.
  bool arm_bells() {
    armed_ = false;
    if (!bell_ || !rings_.watching() || rings_.stopped_at() != 0 || flush_waiting_) return false;
    for (const auto& r : rings_.rings()) {
      if (!r->has_bell() || !r->arm_bell(r->capacity() / 4)) {
        disarm_bells();
        return false;
      }
    }
    armed_ = !rings_.rings().empty();
    return armed_;
  }
  void disarm_bells() {
    for (const auto& r : rings_.rings())
      if (r->has_bell()) r->disarm_bell();
    armed_ = false;
  }
  // How long an armed host sleeps: kDozeNs, or less when the flush timer is due sooner.
  uint64_t doze_ns(uint64_t now, uint64_t last_flush) const {
    if (!writer_.pending()) return kDozeNs;
    const uint64_t due = last_flush + flush_ns_;
    return std::clamp<uint64_t>(due > now ? due - now : 0, idle_sleep_ns_, kDozeNs);
  }

  // The schemas published with the session's enables (pfc enable extensions), read from
  // the state whenever its generation moved and at the end, into the file's schema section
  // when they changed. An enable the host never saw (enabled and stopped between two of its
  // rounds) is missed.
  void note_schemas() {
    // Every round (a mapped word's load), so the enable of a session stopped soon after is
    // seen: a wait that ended on the state's replacement is followed by a round within
    // kHostScanNs.
    if (store_.generation() == schema_generation_) return;
    auto st = store_.read();
    if (!st) return;
    schema_generation_ = st->generation;
    const SessionEntry* e = st->session_by_instance(instance_);
    if (e == nullptr) return;
    std::vector<ProviderSchema> found;
    for (const EnableEntry& en : st->enables)
      if (en.slot == e->slot) add_ext_schemas(en.provider, en.filters, found);
    bool changed = false;
    for (ProviderSchema& f : found) changed |= merge_schema(schemas_, std::move(f));
    if (changed) (void)writer_.set_schemas(schemas_);  // a failed write: the file keeps the old
  }

  // Moves every committed record of every ring into the file, ring by ring, in runs
  // (RingReader::span: no record is parsed beyond its word, lengths and timestamp, none
  // copied but by the write), then raises the file's merge horizon to `now` less the merge
  // lag: a record not moved yet has a later timestamp, unless its writer took longer than
  // that between its timestamp and its commit (docs/namespace.md §3). Returns the bytes.
  uint64_t move_records(uint64_t now) {
    const size_t n = rings_.rings().size();
    last_ts_.resize(n, 0);
    group_limit_.resize(n, 0);
    last_whole_.resize(n, now);
    uint64_t horizon = now > kLagNs ? now - kLagNs : 0, moved = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t g = rings_.group(i);
      if (g == i) group_limit_[g] = limit_of_group(g);
      horizon = std::min(horizon, group_limit_[g]);
      moved += move_ring(i, group_limit_[g], now);
      // A window ring's records left behind one in flight are no older than its window's
      // base (docs/logfile.md "Merging").
      if (rings_.rings()[i]->windowed())
        horizon = std::min(horizon, rings_.rings()[i]->untaken_floor());
    }
    if (rings_.stopped_at() == 0) writer_.set_horizon(horizon);
    return moved;
  }

  // The timestamp limit for the rings of the writer process whose first ring is `g`: none,
  // unless one of its rings has a record in flight while the other may hold later records of
  // the same threads; then the timestamp of the last record before that one (every record
  // behind it is later), so a thread whose records alternate between the two rings is never
  // reordered (docs/namespace.md §3 "The front ring").
  uint64_t limit_of_group(uint32_t g) {
    uint64_t limit = ~uint64_t{0};
    const auto& rings = rings_.rings();
    bool siblings = false;
    for (size_t j = g + 1; j < rings.size() && !siblings; ++j) siblings = rings_.group(j) == g;
    if (!siblings) return limit;
    for (size_t j = g; j < rings.size(); ++j) {
      if (rings_.group(j) != g) continue;
      const RingReader::Span s = rings[j]->span(limit, ~uint64_t{0});
      if (s.stop == RingReader::Span::Stop::InFlight)
        limit = std::min(limit, s.events != 0 ? s.last_ts : last_ts_[j]);
    }
    return limit;
  }

  // Ring i's records up to `limit` into the file (move_runs, or move_windows for a window
  // ring), counted as taken.
  uint64_t move_ring(size_t i, uint64_t limit, uint64_t now) {
    RingReader& r = *rings_.rings()[i];
    // The committed part of a ring's open window is taken in a quiet round (the last one
    // moved little), when a flush asks for it, after the stop, and from a ring that
    // completed no window for kOpenWindowNs (a slow writer beside a busy one): a busy host
    // copies whole windows, one chunk each, and a slow writer's events (and the horizon
    // its open window holds back) wait at most that long.
    const bool partial =
        quiet_ || take_open_ || rings_.stopped_at() != 0 || now - last_whole_[i] >= kOpenWindowNs;
    const Moved m = r.windowed() ? move_windows(r, writer_, static_cast<uint32_t>(i), partial)
                                 : move_runs(r, writer_, limit, static_cast<uint32_t>(i));
    rings_.count_taken(i, m.events);
    if (m.events != 0) last_ts_[i] = m.last_ts;
    if (m.windows != 0 || partial) last_whole_[i] = now;
    return m.bytes;
  }

  // The live counters, into the marker when they changed (controllers' QUERY reads them;
  // they add the rings' own losses). Events given up in damaged rings count as lost from
  // when that happens. Buffers a full file refused change no BuffersWritten: every counter
  // is compared.
  void publish() {
    const LogInfo& i = writer_.info();
    const uint64_t given_up = i.closed ? 0 : rings_.given_up();  // close() added them
    const std::array<uint64_t, 4> c{i.buffers_written, i.events_lost + given_up, i.log_buffers_lost,
                                    i.events_written};
    if (c == published_) return;
    published_ = c;
    (void)!::pwrite(marker_fd_, c.data(), sizeof c, 0);
  }

  const TraceDir& dir_;
  StateStore store_;
  SessionRings rings_;
  LogWriter writer_;
  uint64_t flush_ns_;
  uint64_t idle_sleep_ns_;
  bool quiet_ = true;       // the last round moved less than kBusyBytes
  bool take_open_ = false;  // a flush: take the open windows' committed parts too
  bool soon_ = false;       // the last wait ended on a name other than a ring's: look again soon
  bool armed_ = false;      // the rings' bells are armed (arm_bells)
  bool flush_waiting_ = false;  // a flush request not answered yet
  UniqueFd bell_;               // the doorbell (bell_name), the host's end; none: never armed
  int marker_fd_ = -1;
  std::array<uint64_t, 4> published_{~uint64_t{0}};
  uint64_t next_flush_check_ = 0;
  uint64_t flush_req_ = 0;
  uint64_t flush_done_ = 0;
  uint64_t instance_;
  uint64_t schema_generation_ = 0;
  std::vector<ProviderSchema> schemas_;  // every provider's latest, in first-enable order
  std::vector<uint64_t> last_ts_;        // per ring: the timestamp of the last record moved
  std::vector<uint64_t> group_limit_;    // per first ring of a writer: this round's limit
  std::vector<uint64_t> last_whole_;     // per ring: when it last gave a window or a part
};

// The spawned process forks the host and exits with the host's start-up status (0: the
// file header is written and the marker exists), so the controller learns the outcome by
// reaping it, and the host is nobody's child and, after setsid, has no terminal. Returns
// the pipe's write end in the host; -1 when the fork failed.
int detach() {
  int fds[2];
  if (::pipe(fds) != 0) return -1;
  const pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid > 0) {
    ::close(fds[1]);
    unsigned char status = 7;  // the host died before it reported
    while (::read(fds[0], &status, 1) < 0 && errno == EINTR) {
    }
    ::_exit(status);
  }
  ::close(fds[0]);
  ::setsid();
  return fds[1];
}

void report(int& pipe_fd, unsigned char status) {
  if (pipe_fd < 0) return;
  (void)!::write(pipe_fd, &status, 1);
  ::close(pipe_fd);
  pipe_fd = -1;
}

int serve(uint64_t instance, int ready) {
  auto dir = TraceDir::open_existing();
  if (!dir) return 3;
  auto store = StateStore::open(*dir);
  if (!store) return 3;
  auto st = store->read();
  if (!st) return 3;
  const SessionEntry* e = st->session_by_instance(instance);
  if (e == nullptr) return 4;
  // The marker first: once the writer truncated the file, the start goes on.
  const std::string marker = host_marker(instance, self_process());
  auto marker_fd = dir->open_file(marker, true);
  if (!marker_fd) return 3;
  auto writer = LogWriter::create(UniqueFd(kLogFd), host_log_info(*e));
  if (!writer) {
    dir->remove(marker);
    return 5;
  }
  bool done = false;
  {
    Host host(*dir, std::move(*store), *e, std::move(*writer));
    report(ready, 0);
    done = host.run(marker_fd->get()).has_value();
  }  // the log file closed, and the lock StartTraceW took on it released, before STOP
     // sees the marker go: a start right after the stop may take the file again
  dir->remove(marker);
  return done ? 0 : 6;
}

}  // namespace

uint64_t host_idle_sleep_ns(const SessionEntry& e) {
  const uint64_t main = ring_capacity(e.buffer_kb, e.min_buffers, e.max_buffers);
  const uint64_t front = front_ring_capacity(main);
  const uint64_t smallest = front != 0 ? front : main;
  // At kFastWriterBytesPerNs a writer fills the ring in smallest / rate ns: a quarter of it.
  return std::clamp<uint64_t>(smallest / kFastWriterBytesPerNs / 2, kMinIdleSleepNs,
                              kMaxIdleSleepNs);
}

LogInfo host_log_info(const SessionEntry& e) {
  LogInfo info;
  info.session = e.name;
  info.file_name = e.log_file;
  info.buffer_size =
      static_cast<uint32_t>(std::min<uint64_t>(uint64_t{e.buffer_kb} * 1024, kMaxLogBuffer));
  info.circular = (e.log_file_mode & kModeCircular) != 0;
  info.max_bytes = uint64_t{e.max_file_mb} << 20;
  info.start_time = e.start_time;
  info.log_file_mode = e.log_file_mode;
  info.schema_room = kLogSchemaRoom;
  return info;
}

std::string host_marker(uint64_t instance, const ProcessKey& host) {
  return object_name('c', instance, host, "host");
}

std::optional<HostRef> find_host(const TraceDir& dir, uint64_t instance) {
  for (const std::string& name : dir.list("c-" + std::to_string(instance) + "-")) {
    const std::optional<ObjectName> n = parse_object_name(name, 'c', true);
    if (n && n->rest == "host" && n->instance == instance) return HostRef{n->process, name};
  }
  return std::nullopt;
}

std::optional<HostCounters> read_host_counters(const TraceDir& dir, const std::string& marker) {
  auto fd = dir.open_file(marker, false);
  if (!fd) return std::nullopt;
  uint64_t c[4] = {};
  if (::pread(fd->get(), c, sizeof c, 0) != static_cast<ssize_t>(sizeof c)) return HostCounters{};
  return HostCounters{c[0], c[1], c[2], c[3]};
}

bool request_host_flush(const TraceDir& dir, uint64_t instance, uint32_t timeout_ms) {
  auto host = find_host(dir, instance);
  if (!host || !process_alive(host->key)) return false;
  auto fd = dir.open_file(host->marker, false);
  if (!fd) return false;
  const uint64_t req = mono_ns();
  if (::pwrite(fd->get(), &req, sizeof req, 32) != static_cast<ssize_t>(sizeof req)) return false;
  (void)ring_session_bell(dir, instance);  // a host asleep until its rings fill wakes now
  const uint64_t deadline = req + uint64_t{timeout_ms} * 1'000'000;
  for (;;) {
    uint64_t done = 0;
    if (::pread(fd->get(), &done, sizeof done, 40) == static_cast<ssize_t>(sizeof done) &&
        done >= req)
      return true;
    if (mono_ns() >= deadline || !process_alive(host->key)) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

int host_main(int argc, char** argv) {
  uint64_t instance = 0;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--instance") == 0) instance = std::strtoull(argv[i + 1], nullptr, 10);
  if (instance == 0) {
    std::fprintf(stderr, "usage: pfc-trace-host --instance N (started by StartTraceW)\n");
    return 2;
  }
  ::signal(SIGPIPE, SIG_IGN);
  ::signal(SIGHUP, SIG_IGN);
  int ready = detach();
  if (ready < 0) return 3;
  const int rc = serve(instance, ready);
  report(ready, static_cast<unsigned char>(rc));
  return rc;
}

}  // namespace pfc::trace
