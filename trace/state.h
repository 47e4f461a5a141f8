// trace/state.h — the namespace's control state (docs/namespace.md §2): the live sessions
// and every session's enable of every provider GUID, exactly as the controllers gave them
// (the API-level arguments: each process converts them itself). One file, `state`,
// replaced atomically (write state.tmp, exchange it with state) under the namespace lock
// (an OFD lock on `lock`, released by the kernel if the holder dies), versioned and
// CRC-checked; a generation counter in the shared page `gen` tells every process that it
// changed and wakes waiters (futex).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "pfc/guid.h"
#include "trace/dir.h"
#include "trace/sys.h"

namespace pfc::trace {

inline constexpr uint32_t kMaxSessions = 64;
inline constexpr size_t kMaxStateBytes = 64u << 20;
inline constexpr size_t kMaxSessionNameUnits = 1023;
inline constexpr size_t kMaxFilterBytes = 1u << 20;  // one enable's filter descriptors
inline constexpr size_t kMaxPathUnits = 4096;
// Session instances fit the 48 bits a TRACEHANDLE gives them (etw/session.h); a name in
// the directory with a larger instance is not one pfc made.
inline constexpr uint64_t kMaxInstance = (uint64_t{1} << 48) - 1;

// EVENT_TRACE_PROPERTIES as StartTraceW accepted them.
struct SessionEntry {
  uint32_t slot = 0;      // logger id - 1
  uint64_t instance = 0;  // unique per StartTraceW within the namespace, never reused
  std::u16string name;
  Guid guid;
  uint32_t log_file_mode = 0;
  uint32_t buffer_kb = 64;
  uint32_t min_buffers = 0;
  uint32_t max_buffers = 0;
  uint32_t flush_timer = 0;
  uint32_t enable_flags = 0;
  int32_t age_limit = 0;
  int64_t start_time = 0;  // FILETIME
  uint32_t max_file_mb = 0;
  std::u16string log_file;  // empty: no log file
};

// One session's enable of one provider GUID: EnableTraceEx2's arguments.
struct EnableEntry {
  Guid provider;
  uint32_t slot = 0;
  uint64_t seq = 0;          // enable order over the namespace (legacy: last enabler wins)
  uint64_t capture_seq = 0;  // bumped by CAPTURE_STATE requests
  uint8_t level = 0;
  uint64_t any = 0;
  uint64_t all = 0;
  uint32_t properties = 0;
  // The EVENT_FILTER_DESCRIPTORs, serialised: per descriptor u32 type, u32 size, bytes.
  std::vector<uint8_t> filters;
};

struct NamespaceState {
  uint64_t generation = 0;
  uint64_t next_instance = 1;
  uint64_t next_seq = 1;
  std::vector<SessionEntry> sessions;  // ordered by slot
  std::vector<EnableEntry> enables;    // ordered by seq

  const SessionEntry* session_by_slot(uint32_t slot) const;
  const SessionEntry* session_by_name(const std::u16string& name) const;  // ASCII case-insensitive
  const SessionEntry* session_by_instance(uint64_t instance) const;
  EnableEntry* find_enable(const Guid& provider, uint32_t slot);
  std::optional<uint32_t> free_slot() const;
};

// Serialised form (the body of the state file, and what a fuzzer feeds decode_state).
std::vector<uint8_t> encode_state(const NamespaceState& s);
// Fully validates; error names what is wrong.
Result<NamespaceState> decode_state(const uint8_t* data, size_t size);
// The whole state file: its 24-byte header (magic, version, body size, CRC-32) and the body.
std::vector<uint8_t> encode_state_file(const NamespaceState& s);

// The shared generation page.
struct GenPage {
  std::atomic<uint32_t> futex;  // low 32 bits of generation
  // Bumped by a publisher before it writes into `state.tmp`, which may be a former `state`
  // that a reader still has open (docs/namespace.md §2): a read it overlapped is retried.
  std::atomic<uint32_t> spare_writes;
  std::atomic<uint64_t> generation;
  std::atomic<uint64_t> next_instance;  // the state's next_instance, as last published
};

class StateStore {
 public:
  // Opens (creating it when missing) and maps the generation page. On failure *os_error
  // (when given) is the errno behind it, or 0.
  static Result<StateStore> open(const TraceDir& dir, int* os_error = nullptr);

  // The state as last published (empty when none was). A corrupt state file is an error;
  // *damaged (when given) then says that the file itself is bad (its content failed the
  // checks: the next update replaces it, so it holds no session any more) rather than
  // unreadable for a while (an open or read that failed). A read that a publisher's write
  // overlapped is done again (spare_writes), at last under the namespace lock.
  Result<NamespaceState> read(bool* damaged = nullptr) const;
  // Runs `change` on the current state under the namespace lock. When it returns an error,
  // or leaves a state readers would refuse (decode_state, kMaxStateBytes), nothing is written;
  // otherwise the state is written
  // with generation + 1 and every waiting process is woken. A damaged state file is replaced by an
  // empty state. Either way next_instance is at least every instance the directory still names plus
  // one and the one the generation page last recorded, so a lost state never makes an instance
  // number come back (docs/namespace.md §2). On failure *os_error (when given) is the
  // errno behind it (ENOSPC: the file system is full), or 0.
  using Change = std::function<Result<void>(NamespaceState&)>;
  Result<NamespaceState> update(const Change& change, int* os_error = nullptr);

  uint64_t generation() const { return gen()->generation.load(std::memory_order_acquire); }
  // Returns when the generation differs from `seen`, or after timeout_ms.
  void wait_change(uint64_t seen, int timeout_ms) const;
  const TraceDir& dir() const { return *dir_; }

 private:
  GenPage* gen() const { return reinterpret_cast<GenPage*>(gen_map_.data()); }

  const TraceDir* dir_ = nullptr;  // outlives the store
  Mapping gen_map_;
};

}  // namespace pfc::trace
