// etw/util.cc — see util.h; also GUID_NULL and GetLastError / SetLastError.
#include "etw/util.h"

#include <pthread.h>
#include <unistd.h>

#include <atomic>

#include "base/ascii.h"
#include "base/tls.h"
#include "base/utf8.h"
#include "trace/sys.h"

extern "C" {
const GUID GUID_NULL = {0, 0, 0, {0, 0, 0, 0, 0, 0, 0, 0}};
}

namespace pfc::etw {
namespace {
thread_local uint32_t tls_last_error = ERROR_SUCCESS;
}  // namespace

void set_last_error(uint32_t error) { tls_last_error = error; }

ULONG copy_text_out(std::string_view text, char* buffer, ULONG size, ULONG* needed) {
  if (text.size() >= ULONG(-1)) return ERROR_INTERNAL_ERROR;  // texts are one line
  *needed = ULONG(text.size() + 1);
  if (size < *needed) return ERROR_MORE_DATA;
  std::memcpy(buffer, text.data(), text.size());
  buffer[text.size()] = 0;
  return ERROR_SUCCESS;
}

ULONG copy_bytes_out(const void* data, size_t bytes, void* buffer, ULONG* size) {
  if (bytes > ULONG(-1)) return ERROR_INTERNAL_ERROR;
  const bool fits = *size >= bytes;
  *size = static_cast<ULONG>(bytes);
  if (!fits) return ERROR_INSUFFICIENT_BUFFER;
  if (bytes != 0) std::memcpy(buffer, data, bytes);
  return ERROR_SUCCESS;
}

ULONG namespace_error(int err) {
  return trace::disk_full(err) ? ERROR_DISK_FULL : ERROR_ACCESS_DENIED;
}

int64_t filetime_now() { return trace::filetime_now(); }

namespace detail {

ThreadIds refresh_ids() {
  const uint32_t g = fork_generation.load(std::memory_order_relaxed);
  tls_ids.ids = ThreadIds{static_cast<uint32_t>(getpid()), static_cast<uint32_t>(gettid())};
  tls_ids.generation = g;
  return tls_ids.ids;
}

}  // namespace detail

namespace {
const int fork_hook =
    pthread_atfork(nullptr, nullptr, [] { detail::fork_generation.fetch_add(1); });
}  // namespace

uint32_t current_pid() { return current_ids().pid; }
uint32_t current_tid() { return current_ids().tid; }

size_t u16_length(const WCHAR* s, size_t max) {
  for (size_t n = 0; n <= max; ++n)
    if (s[n] == 0) return n;
  return max + 1;
}

bool u16_iequal(const std::u16string& a, const std::u16string& b) { return iequals_ascii(a, b); }

std::string u16_to_utf8(const std::u16string& s) {
  std::string out;
  utf16_to_utf8(s, out, Unpaired::Replace);
  return out;
}

}  // namespace pfc::etw

extern "C" {
DWORD GetLastError(void) { return pfc::etw::tls_last_error; }
void SetLastError(DWORD error) { pfc::etw::tls_last_error = error; }
}

namespace pfc::etw {

std::u16string utf8_to_u16_lossy(std::string_view utf8) {
  std::u16string out;
  if (utf8_to_utf16(utf8, out)) return out;
  out.clear();
  const auto* p = reinterpret_cast<const uint8_t*>(utf8.data());
  const uint8_t* end = p + utf8.size();
  while (p < end) {
    char32_t c = decode_utf8_step(p, end);
    if (is_surrogate(c)) c = 0xFFFD;  // how decode_utf8_step passes on a byte that is not UTF-8
    if (c > 0xFFFF) {
      out.push_back(static_cast<char16_t>(0xD7C0 + (c >> 10)));  // 0xD800 + (c - 0x10000) >> 10
      out.push_back(static_cast<char16_t>(0xDC00 | (c & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(c));
    }
  }
  return out;
}

}  // namespace pfc::etw
