// etw/util.h — small conversions shared by the ETW API files: Windows GUID ↔ pfc::Guid,
// FILETIME clock, random GUIDs, UTF-16 names and the thread's last error.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "base/tls.h"
#include "pfc/etw/evntprov.h"
#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc::etw {

inline Guid to_pfc(const GUID& g) {
  Guid out;
  out.data1 = g.Data1;
  out.data2 = g.Data2;
  out.data3 = g.Data3;
  std::memcpy(out.data4.data(), g.Data4, 8);
  return out;
}

inline GUID to_win(const Guid& g) {
  GUID out;
  out.Data1 = g.data1;
  out.Data2 = g.data2;
  out.Data3 = g.data3;
  std::memcpy(out.Data4, g.data4.data(), 8);
  return out;
}

// The same 16 bytes field for field: one copy (the EventWrite path).
inline EventDescriptor to_pfc(const EVENT_DESCRIPTOR& d) {
  static_assert(sizeof(EventDescriptor) == sizeof(EVENT_DESCRIPTOR) &&
                offsetof(EventDescriptor, level) == offsetof(EVENT_DESCRIPTOR, Level) &&
                offsetof(EventDescriptor, task) == offsetof(EVENT_DESCRIPTOR, Task) &&
                offsetof(EventDescriptor, keyword) == offsetof(EVENT_DESCRIPTOR, Keyword));
  EventDescriptor out;
  std::memcpy(static_cast<void*>(&out), &d, sizeof out);  // trivially copyable
  return out;
}

inline EVENT_DESCRIPTOR to_win(const EventDescriptor& d) {
  EVENT_DESCRIPTOR out;
  out.Id = d.id;
  out.Version = d.version;
  out.Channel = d.channel;
  out.Level = d.level;
  out.Opcode = d.opcode;
  out.Task = d.task;
  out.Keyword = d.keyword;
  return out;
}

// Orders GUIDs by their bytes (map keys).
struct GuidBytesLess {
  bool operator()(const Guid& a, const Guid& b) const noexcept {
    return std::memcmp(&a, &b, sizeof(Guid)) < 0;
  }
};
static_assert(sizeof(Guid) == 16 && sizeof(GUID) == 16);

// The wall clock as a FILETIME count: 100 ns since 1601-01-01 UTC.
int64_t filetime_now();
// The calling process's and thread's ids, cached per thread (a syscall costs about a
// microsecond in a VM) and refreshed after fork.
uint32_t current_pid();
uint32_t current_tid();
struct ThreadIds {
  uint32_t pid;
  uint32_t tid;
};
namespace detail {
// The cache behind current_ids: valid while `generation` equals fork_generation (bumped in
// every forked child).
struct IdCache {
  uint32_t generation = 0;
  ThreadIds ids{};
};
inline constinit std::atomic<uint32_t> fork_generation{1};
PFC_TLS_HOT inline constinit thread_local IdCache tls_ids{};
ThreadIds refresh_ids();  // fills tls_ids (getpid, gettid)
}  // namespace detail
// Both at once, inline (the EventWrite path): two loads and a compare when cached.
inline ThreadIds current_ids() {
  if (detail::tls_ids.generation != detail::fork_generation.load(std::memory_order_relaxed))
      [[unlikely]]
    return detail::refresh_ids();
  return detail::tls_ids.ids;
}
// A random (version 4) GUID.
GUID random_guid();

// Length in code units of a NUL-terminated UTF-16 string, at most `max` (returns max + 1
// when no terminator was found within max units).
size_t u16_length(const WCHAR* s, size_t max);
// ASCII-case-insensitive equality (session names).
bool u16_iequal(const std::u16string& a, const std::u16string& b);
// UTF-16 → UTF-8 (unpaired surrogates become U+FFFD).
std::string u16_to_utf8(const std::u16string& s);
// UTF-8 → UTF-16, never failing: each byte that is not part of a UTF-8 sequence becomes
// U+FFFD.
std::u16string utf8_to_u16_lossy(std::string_view utf8);

void set_last_error(uint32_t error);

// The ETW error for a trace namespace that cannot be used, from the errno behind it (0:
// none known): ERROR_DISK_FULL for a full file system (ENOSPC, EDQUOT), else
// ERROR_ACCESS_DENIED.
ULONG namespace_error(int err);
// What an ETW error the namespace returns means, for messages: "No space left on device"
// for ERROR_DISK_FULL, else "error N".
std::string error_text(ULONG rc);

}  // namespace pfc::etw
