// etw/util.h — small helpers shared by the ETW API files: FILETIME clock, thread ids,
// UTF-16 names, the thread's last error and the namespace's error codes (the GUID and
// descriptor conversions are base/etw_types.h's).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "base/etw_types.h"
#include "base/tls.h"
#include "pfc/etw/evntprov.h"
#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc::etw {

// The conversions of base/etw_types.h, also by their etw:: names.
using pfc::random_guid;
using pfc::to_pfc;
using pfc::to_win;

// Orders GUIDs by their bytes (map keys).
struct GuidBytesLess {
  bool operator()(const Guid& a, const Guid& b) const noexcept {
    return std::memcmp(&a, &b, sizeof(Guid)) < 0;
  }
};

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

// The pfc extensions' text convention (pfc/etw/pfc_etw_ext.h): `text` with its NUL into
// `buffer` (`size` bytes), *needed = the bytes that takes. ERROR_MORE_DATA when it does not
// fit (nothing written); the caller has checked the pointers.
ULONG copy_text_out(std::string_view text, char* buffer, ULONG size, ULONG* needed);
// The pfc extensions' buffer convention: the `bytes` bytes at `data` into `buffer` when
// *size holds them, else ERROR_INSUFFICIENT_BUFFER with nothing written; *size = `bytes`
// either way. The caller has checked the pointers (buffer may be null when *size is 0).
ULONG copy_bytes_out(const void* data, size_t bytes, void* buffer, ULONG* size);

// The ETW error for a trace namespace that cannot be used, from the errno behind it (0:
// none known): ERROR_DISK_FULL for a full file system (ENOSPC, EDQUOT), else
// ERROR_ACCESS_DENIED.
ULONG namespace_error(int err);

}  // namespace pfc::etw
