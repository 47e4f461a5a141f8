// trace/state.cc — see state.h. File layout (docs/namespace.md §2):
//   @0 u64 magic "PFCSTATE"  @8 u32 version (1)  @12 u32 body size  @16 u32 CRC-32 of body
//   @20 u32 reserved (0)     @24 body (encode_state)
#include "trace/state.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "base/ascii.h"
#include "base/crc32.h"
#include "trace/names.h"
#include "trace/testpoint.h"
#include "trace/wire.h"

namespace pfc::trace {
namespace {

constexpr uint64_t kStateMagic = 0x4554415453434650ull;  // "PFCSTATE"
constexpr uint32_t kStateVersion = 1;
constexpr size_t kStateHeader = 24;
constexpr size_t kGenPageSize = 4096;

bool iequal(const std::u16string& a, const std::u16string& b) { return iequals_ascii(a, b); }

void put_session(ByteWriter& w, const SessionEntry& s) {
  w.put(s.slot);
  w.put(s.instance);
  w.u16string(s.name);
  w.put(s.guid);
  for (uint32_t v : {s.log_file_mode, s.buffer_kb, s.min_buffers, s.max_buffers, s.flush_timer,
                     s.enable_flags, s.max_file_mb})
    w.put(v);
  w.put(s.age_limit);
  w.put(s.start_time);
  w.u16string(s.log_file);
}

SessionEntry get_session(ByteReader& r) {
  SessionEntry s;
  s.slot = r.get<uint32_t>();
  s.instance = r.get<uint64_t>();
  s.name = r.u16string(kMaxSessionNameUnits);
  s.guid = r.get<Guid>();
  for (uint32_t* v : {&s.log_file_mode, &s.buffer_kb, &s.min_buffers, &s.max_buffers,
                      &s.flush_timer, &s.enable_flags, &s.max_file_mb})
    *v = r.get<uint32_t>();
  s.age_limit = r.get<int32_t>();
  s.start_time = r.get<int64_t>();
  s.log_file = r.u16string(kMaxPathUnits);
  return s;
}

void put_enable(ByteWriter& w, const EnableEntry& e) {
  w.put(e.provider);
  w.put(e.slot);
  w.put(e.seq);
  w.put(e.capture_seq);
  w.put(e.level);
  w.put(e.any);
  w.put(e.all);
  w.put(e.properties);
  w.bytes(e.filters);
}

EnableEntry get_enable(ByteReader& r) {
  EnableEntry e;
  e.provider = r.get<Guid>();
  e.slot = r.get<uint32_t>();
  e.seq = r.get<uint64_t>();
  e.capture_seq = r.get<uint64_t>();
  e.level = r.get<uint8_t>();
  e.any = r.get<uint64_t>();
  e.all = r.get<uint64_t>();
  e.properties = r.get<uint32_t>();
  e.filters = r.bytes(kMaxFilterBytes);
  return e;
}

// Cross-record rules: slots in range and unique, names unique, instances below
// next_instance (at most kMaxInstance + 1), enables naming live sessions, seqs increasing and below
// next_seq.
Result<void> check_consistent(const NamespaceState& s) {
  if (s.next_instance > kMaxInstance + 1) return make_error("bad instance counter");
  uint64_t used = 0;
  for (size_t i = 0; i < s.sessions.size(); ++i) {
    const SessionEntry& e = s.sessions[i];
    if (e.slot >= kMaxSessions || ((used >> e.slot) & 1) != 0)
      return make_error("bad session slot");
    used |= uint64_t{1} << e.slot;
    if (e.instance == 0 || e.instance >= s.next_instance) return make_error("bad session instance");
    if (e.name.empty()) return make_error("empty session name");
    for (size_t j = 0; j < i; ++j)
      if (iequal(s.sessions[j].name, e.name)) return make_error("duplicate session name");
  }
  uint64_t last = 0;
  for (const EnableEntry& e : s.enables) {
    if (e.slot >= kMaxSessions || ((used >> e.slot) & 1) == 0)
      return make_error("enable of no session");
    if (e.seq <= last || e.seq >= s.next_seq) return make_error("bad enable order");
    last = e.seq;
  }
  return {};
}

}  // namespace

const SessionEntry* NamespaceState::session_by_slot(uint32_t slot) const {
  for (const auto& s : sessions)
    if (s.slot == slot) return &s;
  return nullptr;
}

const SessionEntry* NamespaceState::session_by_name(const std::u16string& name) const {
  for (const auto& s : sessions)
    if (iequal(s.name, name)) return &s;
  return nullptr;
}

const SessionEntry* NamespaceState::session_by_instance(uint64_t instance) const {
  for (const auto& s : sessions)
    if (s.instance == instance) return &s;
  return nullptr;
}

EnableEntry* NamespaceState::find_enable(const Guid& provider, uint32_t slot) {
  for (auto& e : enables)
    if (e.slot == slot && e.provider == provider) return &e;
  return nullptr;
}

std::optional<uint32_t> NamespaceState::free_slot() const {
  uint64_t used = 0;
  for (const auto& s : sessions) used |= uint64_t{1} << s.slot;
  for (uint32_t i = 0; i < kMaxSessions; ++i)
    if (((used >> i) & 1) == 0) return i;
  return std::nullopt;
}

std::vector<uint8_t> encode_state(const NamespaceState& s) {
  ByteWriter w;
  w.put(s.generation);
  w.put(s.next_instance);
  w.put(s.next_seq);
  w.put(static_cast<uint32_t>(s.sessions.size()));
  for (const auto& e : s.sessions) put_session(w, e);
  w.put(static_cast<uint32_t>(s.enables.size()));
  for (const auto& e : s.enables) put_enable(w, e);
  return std::move(w.data());
}

Result<NamespaceState> decode_state(const uint8_t* data, size_t size) {
  ByteReader r(data, size);
  NamespaceState s;
  s.generation = r.get<uint64_t>();
  s.next_instance = r.get<uint64_t>();
  s.next_seq = r.get<uint64_t>();
  const uint32_t sessions = r.get<uint32_t>();
  if (sessions > kMaxSessions) r.fail();
  for (uint32_t i = 0; r.ok() && i < sessions; ++i) s.sessions.push_back(get_session(r));
  const uint32_t enables = r.get<uint32_t>();
  if (enables > kMaxSessions * 65536u) r.fail();
  for (uint32_t i = 0; r.ok() && i < enables; ++i) s.enables.push_back(get_enable(r));
  if (!r.ok() || !r.at_end()) return make_error("trace namespace state is truncated or malformed");
  if (auto ok = check_consistent(s); !ok)
    return make_error("trace namespace state is inconsistent: " + ok.error().message);
  std::sort(s.sessions.begin(), s.sessions.end(),
            [](const auto& a, const auto& b) { return a.slot < b.slot; });
  return s;
}

std::vector<uint8_t> encode_state_file(const NamespaceState& s) {
  const std::vector<uint8_t> body = encode_state(s);
  ByteWriter h;
  h.put(kStateMagic);
  h.put(kStateVersion);
  h.put(static_cast<uint32_t>(body.size()));
  h.put(crc32(body));
  h.put(uint32_t{0});
  std::vector<uint8_t> out = std::move(h.data());
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

Result<StateStore> StateStore::open(const TraceDir& dir, int* os_error) {
  StateStore st;
  st.dir_ = &dir;
  auto fd = dir.open_file("gen", true);
  if (!fd) return std::unexpected(fd.error());
  struct stat info;
  if (::fstat(fd->get(), &info) != 0) return make_error(errno_text("cannot stat gen", errno));
  // The page is taken before it is mapped, by every process (another one may have sized it
  // and failed to allocate it): a full file system fails here, not with a SIGBUS later.
  int err = 0;
  if (info.st_size < static_cast<off_t>(kGenPageSize) && ::ftruncate(fd->get(), kGenPageSize) != 0)
    err = errno;
  if (err == 0) err = reserve_file(fd->get(), kGenPageSize);
  if (err != 0) {
    if (os_error != nullptr) *os_error = err;
    return make_error(errno_text("cannot allocate trace file '" + dir.path() + "/gen'", err));
  }
  auto map = Mapping::map(fd->get(), kGenPageSize);
  if (!map) return std::unexpected(map.error());
  st.gen_map_ = std::move(*map);
  return st;
}

namespace {

constexpr size_t kPage = 4096;

// The content of the open state file `fd` of `size` bytes, checked.
Result<NamespaceState> check_state_file(int fd, off_t size) {
  if (size < static_cast<off_t>(kStateHeader) || static_cast<size_t>(size) > kMaxStateBytes)
    return make_error("trace namespace state has a bad size");
  std::vector<uint8_t> buf(static_cast<size_t>(size));
  if (::pread(fd, buf.data(), buf.size(), 0) != static_cast<ssize_t>(buf.size()))
    return make_error("trace namespace state cannot be read whole");
  ByteReader h(buf.data(), kStateHeader);
  const uint64_t magic = h.get<uint64_t>();
  const uint32_t version = h.get<uint32_t>();
  const uint32_t body = h.get<uint32_t>();
  const uint32_t crc = h.get<uint32_t>();
  if (magic != kStateMagic) return make_error("trace namespace state has a bad magic number");
  if (version != kStateVersion) return make_error("trace namespace state has an unknown version");
  if (body != buf.size() - kStateHeader)
    return make_error("trace namespace state has a bad length");
  const uint8_t* p = buf.data() + kStateHeader;
  if (crc32(std::span(p, body)) != crc)
    return make_error("trace namespace state fails its checksum");
  return decode_state(p, body);
}

// The state file, checked. *damaged: the error is the file's content (see StateStore::read).
Result<NamespaceState> read_state_file(const TraceDir& dir, bool* damaged) {
  *damaged = false;
  auto fd = dir.open_file("state", false);
  if (!fd) {
    if (errno == ENOENT) return NamespaceState{};
    return std::unexpected(fd.error());
  }
  struct stat info;
  if (::fstat(fd->get(), &info) != 0) return make_error(errno_text("cannot stat state", errno));
  auto state = check_state_file(fd->get(), info.st_size);
  if (state) return state;
  *damaged = true;
  return make_error("trace file '" + dir.path() + "/state' is damaged (" + state.error().message +
                    "); its sessions are lost, and the next session started replaces it");
}

// Writes `out` at offset 0 of `fd`: 0 or the errno (a short write is retried, so a full
// file system ends in ENOSPC).
int write_all(int fd, const std::vector<uint8_t>& out) {
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pwrite(fd, out.data() + done, out.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    done += static_cast<size_t>(n);
  }
  return 0;
}

// Puts the written `state.tmp` in place of `state`: exchanged with it, so that the state it
// replaces, with its blocks, is the next spare — nothing is freed that another file could
// take before a STOP needs it; renamed over it when there is no `state` yet or the file
// system cannot exchange. 0 or the errno; *exchanged says which was done.
int put_in_place(const TraceDir& dir, bool* exchanged) {
  *exchanged = ::renameat2(dir.fd(), "state.tmp", dir.fd(), "state", RENAME_EXCHANGE) == 0;
  if (*exchanged) return 0;
  if (errno != ENOENT && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return errno;
  return ::renameat(dir.fd(), "state.tmp", dir.fd(), "state") == 0 ? 0 : errno;
}

// Leaves `state.tmp` holding the blocks of a state of `bytes` and a page more: the next
// publish writes into blocks the file already has, so a change that does not grow the state
// beyond that — a STOP above all, which then frees its session's rings — needs no new space
// on a full file system (docs/namespace.md §2). After an exchange the file is the replaced
// state and keeps its blocks when no more can be had; after a rename there was no
// `state.tmp` left (the lock is held): a new one is ours and regular. Best effort, and it
// allocates no memory: it follows the publication, which nothing may fail any more. The
// blocks are taken past the end (FALLOC_FL_KEEP_SIZE): a reader that still has the file
// open as `state` sees its size and content unchanged.
void reserve_spare(const TraceDir& dir, size_t bytes, bool exchanged) noexcept {
  const int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | (exchanged ? 0 : O_CREAT | O_EXCL);
  const UniqueFd fd(::openat(dir.fd(), "state.tmp", flags, 0600));
  const off_t size = static_cast<off_t>((bytes + 2 * kPage - 1) / kPage * kPage);
  if (fd) (void)::fallocate(fd.get(), FALLOC_FL_KEEP_SIZE, 0, size);
}

// Writes the state file `out` into `state.tmp` (the spare reserve_spare left, else a new
// file) and puts it in place of `state`. The spare may be a former `state` that a reader still has
// open: `spare_writes` is bumped first, so that reader reads again (StateStore::read). *os_error:
// the errno of a failed write.
Result<void> write_state_file(const TraceDir& dir, std::atomic<uint32_t>& spare_writes,
                              const std::vector<uint8_t>& out, int* os_error) {
  auto fd = dir.open_file("state.tmp", true);
  if (!fd) {  // not a regular file of ours: replace it
    dir.remove("state.tmp");
    fd = dir.open_file("state.tmp", true);
  }
  if (!fd) return std::unexpected(fd.error());
  spare_writes.fetch_add(1, std::memory_order_seq_cst);
  int err = write_all(fd->get(), out);
  if (err == 0 && ::ftruncate(fd->get(), static_cast<off_t>(out.size())) != 0) err = errno;
  if (err != 0) {
    *os_error = err;
    return make_error(errno_text("cannot write trace file '" + dir.path() + "/state.tmp'", err));
  }
  testpoint("state.tmp-written");
  bool exchanged = false;
  if (const int e = put_in_place(dir, &exchanged); e != 0) {
    *os_error = e;
    return make_error(errno_text("cannot publish the trace namespace state", e));
  }
  testpoint("state.renamed");
  reserve_spare(dir, out.size(), exchanged);
  return {};
}

// The state file of `s` when readers would read it (the rules and limits decode_state and
// read_state_file check), else why not: what readers refuse would end every session.
Result<std::vector<uint8_t>> publishable_file(const NamespaceState& s) {
  if (auto ok = check_consistent(s); !ok)
    return make_error("refused an inconsistent trace namespace state: " + ok.error().message);
  std::vector<uint8_t> out = encode_state_file(s);
  if (out.size() > kMaxStateBytes)
    return make_error("refused a trace namespace state of " + std::to_string(out.size()) +
                      " bytes (at most " + std::to_string(kMaxStateBytes) + ")");
  if (auto back = decode_state(out.data() + kStateHeader, out.size() - kStateHeader); !back)
    return make_error("refused a trace namespace state that readers would not read: " +
                      back.error().message);
  return out;
}

// One more than the largest instance a ring or a consumer marker in `dir` names (names
// beyond kMaxInstance are not pfc's and count for nothing); 1 when none does.
uint64_t instance_after_names(const TraceDir& dir) {
  uint64_t next = 1;
  for (const std::string& name : dir.list("")) {
    for (const char kind : {'r', 'c'}) {
      const std::optional<ObjectName> n = parse_object_name(name, kind, true);
      if (n && *n->instance <= kMaxInstance) next = std::max(next, *n->instance + 1);
    }
  }
  return next;
}

}  // namespace

Result<NamespaceState> StateStore::read(bool* damaged) const {
  constexpr int kTries = 64;  // reads that publishers' writes overlapped, before taking the lock
  bool bad = false;
  for (int i = 0; i < kTries; ++i) {
    const uint32_t before = gen()->spare_writes.load(std::memory_order_acquire);
    auto s = read_state_file(*dir_, &bad);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (gen()->spare_writes.load(std::memory_order_relaxed) == before) {
      if (damaged != nullptr) *damaged = !s && bad;
      return s;
    }
  }
  auto lock = dir_->open_file("lock", true);
  if (!lock) return std::unexpected(lock.error());
  if (auto ok = lock_file(lock->get()); !ok) return std::unexpected(ok.error());
  auto s = read_state_file(*dir_, &bad);
  if (damaged != nullptr) *damaged = !s && bad;
  return s;
}

Result<NamespaceState> StateStore::update(const Change& change, int* os_error) {
  int ignored = 0;
  int& err = os_error != nullptr ? *os_error : ignored;
  err = 0;
  // A fresh open file description per update: OFD locks then also exclude other threads
  // of this process.
  auto lock = dir_->open_file("lock", true);
  if (!lock) return std::unexpected(lock.error());
  if (auto ok = lock_file(lock->get()); !ok) return std::unexpected(ok.error());
  testpoint("state.locked");
  bool damaged = false;
  auto current = read_state_file(*dir_, &damaged);
  if (!current && !damaged) return std::unexpected(current.error());  // unreadable for now
  NamespaceState s = current ? std::move(*current) : NamespaceState{};
  s.generation = std::max(s.generation, generation());
  const uint64_t recorded = gen()->next_instance.load(std::memory_order_acquire);
  s.next_instance = std::max(
      {s.next_instance, std::min(recorded, kMaxInstance + 1), instance_after_names(*dir_)});
  if (auto ok = change(s); !ok) return std::unexpected(ok.error());
  ++s.generation;
  auto out = publishable_file(s);
  if (!out) return std::unexpected(out.error());
  if (auto ok = write_state_file(*dir_, gen()->spare_writes, *out, &err); !ok)
    return std::unexpected(ok.error());
  gen()->next_instance.store(s.next_instance, std::memory_order_release);
  gen()->generation.store(s.generation, std::memory_order_release);
  gen()->futex.store(static_cast<uint32_t>(s.generation), std::memory_order_release);
  futex_wake_all(&gen()->futex);
  return s;
}

void StateStore::wait_change(uint64_t seen, int timeout_ms) const {
  const uint32_t word = gen()->futex.load(std::memory_order_acquire);
  if (generation() != seen) return;
  futex_wait(&gen()->futex, word, timeout_ms);
}

}  // namespace pfc::trace
